#pragma once

// The page a demo turn fetches through its proxy. The demonstration names
// a host the turn may reach; on a machine without the internet only this
// machine can answer, so the engine serves the page itself, on a loopback
// address of its own (127.213.0.1, where nothing bound to 127.0.0.1
// listens). Only a turn of the built-in demo gets its proxy to allow that
// address and loopback (docs/security-model.md).

#include "core/result.h"
#include "gateway/http_server.h"

#include <QObject>

namespace arizuko::turns {

class DemoSite final : public QObject
{
    Q_OBJECT

public:
    // The address the page is served on, and the one allowlist entry a
    // demo turn's proxy gets for it (an IP literal matches only itself).
    static const QString address;

    explicit DemoSite(QObject *parent = nullptr);

    // The page's URL, listening from the first call on.
    Result<QString> url();

private:
    void answer(gateway::HttpExchange *exchange);

    gateway::HttpServer m_server;
};

} // namespace arizuko::turns
