#include "host/guest_image.h"

#include "host/helper_programs.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QStandardPaths>
#include <algorithm>
#include <sys/stat.h>

namespace arizuko::host {
namespace {

// The manifest format installer/build-guest-image writes.
constexpr int manifestFormat = 1;

const QStringList bootFiles = {QStringLiteral("vmlinux"), QStringLiteral("initramfs.img"),
                               QStringLiteral("root.img")};

QString sha256Of(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return QString::fromLatin1(hash.result().toHex());
}

// The guest program is checked before every turn, on the runner's thread,
// and hashing its 7 MB takes 20-70 ms here: the hash is remembered for as
// long as the file is the same one (device, inode, size, change time).
QString guestProgramSha256(const QString &path)
{
    struct stat status = {};
    if (::stat(QFile::encodeName(path).constData(), &status) != 0)
        return {};
    const QString identity = QStringLiteral("%1:%2:%3:%4.%5")
                                 .arg(status.st_dev)
                                 .arg(status.st_ino)
                                 .arg(status.st_size)
                                 .arg(status.st_ctim.tv_sec)
                                 .arg(status.st_ctim.tv_nsec);
    static QMutex mutex;
    static QHash<QString, std::pair<QString, QString>> known; // path -> (identity, hash)
    const QMutexLocker lock(&mutex);
    const auto found = known.constFind(path);
    if (found != known.constEnd() && found->first == identity)
        return found->second;
    const QString hash = sha256Of(path);
    known.insert(path, {identity, hash});
    return hash;
}

// The agents of a manifest: its "agents" list. An image built before that
// list carries an arizuko-guest older than any engine that reads it, so it
// never fits (mismatch()) and lists none.
QList<GuestAgent> agentsOf(const QJsonObject &manifest)
{
    QList<GuestAgent> agents;
    for (const QJsonValue &value : manifest.value(QStringLiteral("agents")).toArray()) {
        const QJsonObject agent = value.toObject();
        const GuestAgent listed{agent.value(QStringLiteral("name")).toString(),
                                agent.value(QStringLiteral("version")).toString(),
                                agent.value(QStringLiteral("entry")).toString()};
        if (!listed.name.isEmpty() && listed.entry.startsWith(QLatin1Char('/')))
            agents.append(listed);
    }
    return agents;
}

// Empty when the image fits; otherwise what is wrong with it.
QString mismatch(const QJsonObject &manifest, const QDir &dir, const QString &guestProgram)
{
    const int format = manifest.value(QStringLiteral("format")).toInt(-1);
    if (format != manifestFormat)
        return QStringLiteral("manifest.json is of format %1; this engine reads format %2")
            .arg(format)
            .arg(manifestFormat);

    // Sizes are cheap to compare and catch a partial build or files mixed
    // from two builds; hashing the 400 MiB root on every turn is not.
    const QJsonObject files = manifest.value(QStringLiteral("files")).toObject();
    for (const QString &name : bootFiles) {
        const qint64 listed =
            files.value(name).toObject().value(QStringLiteral("size")).toInteger(-1);
        const qint64 actual = QFileInfo(dir.filePath(name)).size();
        if (listed != actual)
            return QStringLiteral("%1 is %2 bytes but the manifest lists %3: the image is "
                                  "damaged or mixed from two builds")
                .arg(name)
                .arg(actual)
                .arg(listed);
    }

    if (guestProgram.isEmpty())
        return {};
    const QString carried = manifest.value(QStringLiteral("guest"))
                                .toObject()
                                .value(QStringLiteral("sha256"))
                                .toString();
    if (carried != guestProgramSha256(guestProgram))
        return QStringLiteral("it carries another arizuko-guest than %1 (a stale image from an "
                              "earlier build)")
            .arg(guestProgram);
    return {};
}

} // namespace

QString guestImageDirectory()
{
    const QString overridden = qEnvironmentVariable("ARIZUKO_GUEST_IMAGE_DIR");
    if (!overridden.isEmpty())
        return overridden;
    return QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation)
           + QStringLiteral("/arizuko-desktop/guest");
}

QString siblingGuestProgram()
{
    return helperProgram(QStringLiteral("arizuko-guest"));
}

GuestImageStatus inspectGuestImage(const QString &directory, const QString &guestProgram)
{
    GuestImageStatus status;
    status.directory = directory;
    const QDir dir(directory);
    for (const QString &name : QStringList{QStringLiteral("manifest.json")} + bootFiles) {
        const QFileInfo file(dir.filePath(name));
        if (!file.isFile())
            status.missing << name;
        else if (bootFiles.contains(name))
            status.bytes += file.size();
    }
    if (status.missing.isEmpty()) {
        QFile file(dir.filePath(QStringLiteral("manifest.json")));
        if (file.open(QIODevice::ReadOnly)) {
            const QJsonObject manifest = QJsonDocument::fromJson(file.readAll()).object();
            status.problem = mismatch(manifest, dir, guestProgram);
            status.agents = agentsOf(manifest);
            status.builtAt = QDateTime::fromString(
                manifest.value(QStringLiteral("built_at")).toString(), Qt::ISODate);
        } else {
            status.problem = QStringLiteral("manifest.json cannot be read");
        }
    }
    status.present = status.missing.isEmpty() && status.problem.isEmpty();
    return status;
}

bool GuestImageStatus::hasAgent(QStringView name) const
{
    return std::any_of(agents.begin(), agents.end(),
                       [name](const GuestAgent &agent) { return agent.name == name; });
}

QString guestImageFault(const GuestImageStatus &status)
{
    if (!status.missing.isEmpty())
        return QStringLiteral("missing %1").arg(status.missing.join(QStringLiteral(", ")));
    return status.problem;
}

QString guestImageBuildHint()
{
    return QStringLiteral("build it with `arizukoctl image build` (or the Build guest image "
                          "button of Arizuko Desktop's first-run guide and settings)");
}

QString guestImageUnusable(const GuestImageStatus &status)
{
    return QStringLiteral("the guest image in %1 cannot be used (%2); %3")
        .arg(status.directory, guestImageFault(status), guestImageBuildHint());
}

} // namespace arizuko::host
