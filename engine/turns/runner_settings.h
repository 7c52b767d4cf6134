#pragma once

// How the turn runner is configured: where libvirt, the guest image and the
// proxy binary are, the subnet pool, the accelerator, limits and deadlines.

#include "core/result.h"
#include "libvirt/machine_status.h"
#include "libvirt/turn_domain.h"
#include "tools/tool_context.h"
#include "turns/model_provider.h"
#include "turns/saved_settings.h"

#include <QString>
#include <chrono>

namespace arizuko::turns {

// The machine's settings (libvirt URI, guest image, accelerator) and the
// runner's own; the machine check takes just the former.
struct RunnerSettings : libvirt::MachineSettings
{
    QString egressProgram;
    QString subnetPool = QStringLiteral("10.213.0.0/16");
    // Pretap needs CAP_NET_ADMIN (the engine makes the tap); `auto` picks it
    // when the engine has it, else Classic.
    libvirt::FilterMode filterMode = libvirt::FilterMode::Classic;
    int maxConcurrentTurns = 2;
    std::chrono::seconds defaultDeadline{30 * 60};
    // A guest that has not reported this long after its VM was started
    // fails its turn, with the tail of its console log.
    std::chrono::seconds bootLimit{120};
    std::chrono::milliseconds proxyHealthTimeout{15000};
    int memoryMiB = 1024;
    int vcpus = 1;
    quint16 gatewayPort = 3129;
    // Lets a turn's proxy reach loopback hosts despite --deny-private; only
    // for tests with local servers.
    bool proxyAllowsLoopback = false;
    // The model behind every turn's gateway (see model_provider.h).
    ModelProviderChoice modelProvider = ModelProviderChoice::Auto;
    QString modelUrl;
    QString modelScript;
    // Claude Code's --model; empty leaves its own default.
    QString model;
    // delegate_group / escalate_group refuse a turn deeper than this.
    int maxDelegationDepth = tools::defaultMaxDepth;
    // ...and refuse more turns than these (saved settings turns-per-turn,
    // turns-per-folder-hour).
    int maxTurnsPerTurn = tools::defaultTurnsPerTurn;
    int maxTurnsPerFolderHour = tools::defaultTurnsPerFolderHour;
    // A long-lived runner boots the next turn's guest ahead of its prompt
    // (spare_pool.h); off by default (docs/turns.md says why).
    bool warmStart = false;
    // A spare older than this is dropped: it holds memory nobody asked for,
    // and its guest has idled long enough.
    std::chrono::seconds spareMaxAge{10 * 60};
    // A spare starts Claude Code before its prompt (docs/turns.md, "A warm
    // turn whose agent is already started"); ARIZUKO_PRESTART=off keeps
    // the agent's start after the prompt, as in a cold turn.
    bool prestartAgent = true;
    // Files of a home larger than this go into its history by size and
    // hash only (engine/history).
    qint64 historyFileLimitBytes = qint64(50) * 1024 * 1024;
    // A home's .git directories go into its history too (off: left out).
    bool historyIncludesGit = false;
    // A home's history keeps its newest this many turns, within this size.
    int historyKeepTurns = 200;
    qint64 historySizeLimitBytes = qint64(2048) << 20;

    // What turns run with: the defaults, then the settings saved in the
    // store (saved_settings.h), then the environment. The saved settings and
    // their variables: ARIZUKO_LIBVIRT_URI, ARIZUKO_ACCELERATOR (auto|kvm|tcg),
    // ARIZUKO_SUBNET_POOL, ARIZUKO_MAX_TURNS, ARIZUKO_TURN_DEADLINE (seconds),
    // ARIZUKO_MODEL_PROVIDER (auto|api-key|oauth|demo), ARIZUKO_MODEL_URL,
    // ARIZUKO_MODEL, ARIZUKO_WARM_START (on|off), ARIZUKO_BOOT_LIMIT (seconds),
    // ARIZUKO_TURNS_PER_TURN, ARIZUKO_TURNS_PER_FOLDER_HOUR,
    // ARIZUKO_HISTORY_FILE_LIMIT (MiB), ARIZUKO_HISTORY_INCLUDE_GIT (on|off),
    // ARIZUKO_HISTORY_KEEP_TURNS, ARIZUKO_HISTORY_SIZE_LIMIT (MiB). Only in the
    // environment: ARIZUKO_GUEST_IMAGE_DIR,
    // ARIZUKO_EGRESS_BIN, ARIZUKO_FILTER_MODE (auto|pretap|classic),
    // ARIZUKO_PROXY_HEALTH_TIMEOUT_MS, ARIZUKO_TURN_MEMORY_MIB,
    // ARIZUKO_GATEWAY_PORT, ARIZUKO_PROXY_ALLOW_LOOPBACK=1, ARIZUKO_MODEL_SCRIPT,
    // ARIZUKO_DELEGATION_DEPTH, ARIZUKO_SPARE_MAX_AGE (seconds),
    // ARIZUKO_PRESTART (on|off). A value that fails its check is an
    // error naming where it came from.
    static Result<RunnerSettings> load(store::Store &store);
    // The same with nothing saved: defaults, then the environment.
    static Result<RunnerSettings> fromEnvironment();
    static Result<RunnerSettings> fromLayers(const SettingValues &saved);
};

// ARIZUKO_FILTER_MODE's value; `auto` (or empty) resolves by capability.
Result<libvirt::FilterMode> parseFilterMode(const QString &text);
QString filterModeName(libvirt::FilterMode mode);

// arizuko-egress of this build or package (host/helper_programs.h), else on PATH.
QString defaultEgressProgram();

} // namespace arizuko::turns
