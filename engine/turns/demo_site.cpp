#include "turns/demo_site.h"

namespace arizuko::turns {

const QString DemoSite::address = QStringLiteral("127.213.0.1");

namespace {

gateway::HttpServerOptions siteOptions()
{
    gateway::HttpServerOptions options;
    options.address = QHostAddress(DemoSite::address);
    return options;
}

} // namespace

DemoSite::DemoSite(QObject *parent)
    : QObject(parent)
    , m_server(siteOptions())
{
    connect(&m_server, &gateway::HttpServer::requestReceived, this, &DemoSite::answer);
}

Result<QString> DemoSite::url()
{
    if (!m_server.isListening()) {
        if (const Result<void> listening = m_server.listen(); !listening)
            return listening.error();
    }
    return QStringLiteral("http://%1:%2/").arg(address).arg(m_server.port());
}

void DemoSite::answer(gateway::HttpExchange *exchange)
{
    exchange->respond(200, {{"Content-Type", "text/plain; charset=utf-8"}},
                      "Hello from the Arizuko demo page.\n"
                      "The engine serves it on this machine, at " +
                          address.toUtf8() +
                          "; this demo turn's proxy allows that address, so the fetch went "
                          "through the proxy and back.\n");
}

} // namespace arizuko::turns
