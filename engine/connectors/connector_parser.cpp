#include "connectors/connector_parser.h"

#include "httpfield/field_line.h"

#include <QRegularExpression>
#include <QSet>
#include <optional>
#include <string_view>
#include <toml++/toml.h>

namespace arizuko::connectors {
namespace {

constexpr qsizetype maxConnectorsPerFile = 16;
constexpr qsizetype maxOperations = 64;
constexpr qsizetype maxParameters = 32;
constexpr qsizetype maxHeaders = 16;
constexpr qsizetype maxDescription = 2000;
constexpr qsizetype maxPath = 512;
constexpr qsizetype maxText = 256;

const QRegularExpression &serviceName()
{
    static const QRegularExpression pattern(QStringLiteral("^[a-z][a-z0-9-]{0,31}$"));
    return pattern;
}

// One grant segment after ext:<service>: words joined by `:`.
const QRegularExpression &operationScope()
{
    static const QRegularExpression pattern(
        QStringLiteral("^[a-z0-9][a-z0-9_-]{0,47}(:[a-z0-9][a-z0-9_-]{0,47}){0,3}$"));
    return pattern;
}

const QRegularExpression &toolName()
{
    static const QRegularExpression pattern(QStringLiteral("^[a-z][a-z0-9_]{0,63}$"));
    return pattern;
}

const QRegularExpression &parameterName()
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]{0,63}$"));
    return pattern;
}

const QRegularExpression &secretKey()
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]{0,127}$"));
    return pattern;
}

// A field name as the gateway and the proxy read one (an RFC 9110 token), of
// at most 64 characters.
bool isHeaderName(const QString &name)
{
    return name.size() <= 64 && httpfield::isToken(name.toUtf8().toStdString());
}

// A literal path segment: unreserved characters only, never `.` or `..`.
const QRegularExpression &literalSegment()
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$"));
    return pattern;
}

// Headers the host sets itself or that would change where or how the
// request goes; a definition may not name them.
bool isReservedHeader(const QString &name)
{
    static const QSet<QString> reserved{
        QStringLiteral("host"),           QStringLiteral("authorization"),
        QStringLiteral("content-length"), QStringLiteral("transfer-encoding"),
        QStringLiteral("connection"),     QStringLiteral("cookie"),
        QStringLiteral("content-type"),   QStringLiteral("te"),
        QStringLiteral("upgrade"),        QStringLiteral("expect"),
        QStringLiteral("keep-alive"),     QStringLiteral("trailer")};
    const QString lower = name.toLower();
    return reserved.contains(lower) || lower.startsWith(QLatin1String("proxy-"));
}

bool isPrintableLine(const QString &text)
{
    for (const QChar c : text) {
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format)
            return false;
    }
    return true;
}

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// Reads one file, stopping at the first problem, which names file and line.
class Reader
{
public:
    explicit Reader(QString source)
        : m_source(std::move(source))
    {}

    std::optional<Error> error;

    void fail(const toml::node &at, const QString &message)
    {
        failAt(int(at.source().begin.line), message);
    }
    void failAt(int line, const QString &message)
    {
        if (!error)
            error = makeError(QStringLiteral("connectors.bad-definition"),
                              QStringLiteral("%1:%2: %3").arg(m_source).arg(line).arg(message));
    }

    // Refuses a key the table may not have: a typo or an attempt at a
    // switch that does not exist is an error, never ignored.
    bool onlyKeys(const toml::table &table, const QStringList &allowed, const QString &what)
    {
        for (auto &&[key, value] : table) {
            if (!allowed.contains(qs(key.str()))) {
                fail(value, QStringLiteral("%1 has no field '%2' (fields: %3)")
                                .arg(what, qs(key.str()), allowed.join(QStringLiteral(", "))));
                return false;
            }
        }
        return true;
    }

    std::optional<QString> string(const toml::table &table, const char *key, bool required,
                                  qsizetype maxLength, const toml::node &owner)
    {
        const toml::node *node = table.get(key);
        if (!node) {
            if (required)
                fail(owner, QStringLiteral("'%1' is missing").arg(QLatin1String(key)));
            return required ? std::nullopt : std::optional<QString>(QString());
        }
        if (!node->is_string()) {
            fail(*node, QStringLiteral("'%1' must be a string").arg(QLatin1String(key)));
            return std::nullopt;
        }
        const QString text = qs(node->as_string()->get());
        if (text.size() > maxLength) {
            fail(*node, QStringLiteral("'%1' is longer than %2 characters")
                            .arg(QLatin1String(key))
                            .arg(maxLength));
            return std::nullopt;
        }
        if (!isPrintableLine(text)) {
            fail(
                *node,
                QStringLiteral("'%1' holds a control or format character").arg(QLatin1String(key)));
            return std::nullopt;
        }
        return text;
    }

    std::optional<Connector> connector(const toml::table &table)
    {
        if (!onlyKeys(table,
                      {QStringLiteral("service"), QStringLiteral("base_url"),
                       QStringLiteral("auth"), QStringLiteral("auth_name"),
                       QStringLiteral("secrets"), QStringLiteral("headers"),
                       QStringLiteral("tool")},
                      QStringLiteral("[[ext]]")))
            return std::nullopt;
        Connector connector;
        connector.source = m_source;
        const auto service = string(table, "service", true, maxText, table);
        if (!service)
            return std::nullopt;
        if (!serviceName().match(*service).hasMatch()) {
            fail(*table.get("service"),
                 QStringLiteral("service '%1' must be lower-case letters, digits and '-' (at "
                                "most 32)")
                     .arg(*service));
            return std::nullopt;
        }
        connector.service = *service;
        if (!baseUrl(table, connector) || !auth(table, connector) || !headers(table, connector))
            return std::nullopt;
        const toml::node *tools = table.get("tool");
        if (!tools || !tools->is_array_of_tables()) {
            fail(tools ? *tools : static_cast<const toml::node &>(table),
                 QStringLiteral("service %1 needs [[ext.tool]] entries").arg(*service));
            return std::nullopt;
        }
        const toml::array &array = *tools->as_array();
        if (array.size() > std::size_t(maxOperations)) {
            fail(*tools, QStringLiteral("more than %1 tools in one service").arg(maxOperations));
            return std::nullopt;
        }
        for (const toml::node &node : array) {
            auto parsed = operation(*node.as_table(), connector);
            if (!parsed)
                return std::nullopt;
            connector.operations << *parsed;
        }
        return connector;
    }

private:
    bool baseUrl(const toml::table &table, Connector &connector)
    {
        const auto text = string(table, "base_url", true, maxPath, table);
        if (!text)
            return false;
        const QUrl url(*text, QUrl::StrictMode);
        const toml::node &at = *table.get("base_url");
        QString problem;
        if (!url.isValid())
            problem = QStringLiteral("is not a URL");
        else if (url.scheme() != QLatin1String("https"))
            problem = QStringLiteral("must be https");
        else if (url.host().isEmpty())
            problem = QStringLiteral("has no host");
        else if (!url.userInfo().isEmpty())
            problem = QStringLiteral("may not carry a user or password");
        else if (url.hasQuery() || url.hasFragment())
            problem = QStringLiteral("may not carry a query or fragment");
        else if (url.path().contains(QLatin1String("..")) || url.path().contains(QLatin1Char('%')))
            problem = QStringLiteral("has a path with '..' or an escape");
        if (!problem.isEmpty()) {
            fail(at, QStringLiteral("base_url '%1' %2").arg(*text, problem));
            return false;
        }
        QUrl cleaned = url;
        // The operation's path follows the prefix: no trailing slash.
        QString prefix = url.path();
        while (prefix.endsWith(QLatin1Char('/')))
            prefix.chop(1);
        cleaned.setPath(prefix);
        connector.baseUrl = cleaned;
        return true;
    }

    bool auth(const toml::table &table, Connector &connector)
    {
        const auto kind = string(table, "auth", true, maxText, table);
        if (!kind)
            return false;
        const toml::node &at = *table.get("auth");
        int keys = 1;
        if (*kind == QLatin1String("bearer"))
            connector.auth = AuthKind::Bearer;
        else if (*kind == QLatin1String("apikey-header"))
            connector.auth = AuthKind::ApiKeyHeader;
        else if (*kind == QLatin1String("apikey-query"))
            connector.auth = AuthKind::ApiKeyQuery;
        else if (*kind == QLatin1String("basic")) {
            connector.auth = AuthKind::Basic;
            keys = 2;
        } else {
            fail(at, QStringLiteral("auth '%1' is not one of bearer, apikey-header, "
                                    "apikey-query, basic")
                         .arg(*kind));
            return false;
        }
        const auto name = string(table, "auth_name", false, 64, table);
        if (!name)
            return false;
        const bool named =
            connector.auth == AuthKind::ApiKeyHeader || connector.auth == AuthKind::ApiKeyQuery;
        if (named != !name->isEmpty()) {
            fail(at, named ? QStringLiteral("auth %1 needs auth_name (the header or query "
                                            "parameter that carries the key)")
                                 .arg(*kind)
                           : QStringLiteral("auth %1 takes no auth_name").arg(*kind));
            return false;
        }
        if (connector.auth == AuthKind::ApiKeyHeader &&
            (!isHeaderName(*name) || isReservedHeader(*name))) {
            fail(*table.get("auth_name"),
                 QStringLiteral("auth_name '%1' is not a header a connector may set").arg(*name));
            return false;
        }
        if (connector.auth == AuthKind::ApiKeyQuery && !parameterName().match(*name).hasMatch()) {
            fail(*table.get("auth_name"),
                 QStringLiteral("auth_name '%1' is not a plain query parameter name").arg(*name));
            return false;
        }
        connector.authName = *name;
        const toml::node *secrets = table.get("secrets");
        if (!secrets || !secrets->is_array()) {
            fail(secrets ? *secrets : static_cast<const toml::node &>(table),
                 QStringLiteral("'secrets' must list the secret key(s) the connector reads"));
            return false;
        }
        for (const toml::node &key : *secrets->as_array()) {
            const QString text = key.is_string() ? qs(key.as_string()->get()) : QString();
            if (!secretKey().match(text).hasMatch()) {
                fail(key, QStringLiteral("a secret key is a name like GITHUB_TOKEN"));
                return false;
            }
            connector.secretKeys << text;
        }
        if (connector.secretKeys.size() != keys) {
            fail(*secrets, keys == 2
                               ? QStringLiteral("auth basic reads two secrets: the user's "
                                                "and the password's")
                               : QStringLiteral("auth %1 reads exactly one secret").arg(*kind));
            return false;
        }
        return true;
    }

    bool headers(const toml::table &table, Connector &connector)
    {
        const toml::node *node = table.get("headers");
        if (!node)
            return true;
        if (!node->is_table()) {
            fail(*node, QStringLiteral("'headers' must be a table of names and values"));
            return false;
        }
        const toml::table &headers = *node->as_table();
        if (headers.size() > std::size_t(maxHeaders)) {
            fail(*node, QStringLiteral("more than %1 headers").arg(maxHeaders));
            return false;
        }
        for (auto &&[key, value] : headers) {
            const QString name = qs(key.str());
            if (!isHeaderName(name) || isReservedHeader(name) ||
                name.compare(connector.authName, Qt::CaseInsensitive) == 0) {
                fail(value, QStringLiteral("header '%1' is not one a connector may set").arg(name));
                return false;
            }
            const QString text = value.is_string() ? qs(value.as_string()->get()) : QString();
            static const QRegularExpression visible(QStringLiteral("^[\\x20-\\x7e]{1,256}$"));
            if (!visible.match(text).hasMatch()) {
                fail(value, QStringLiteral("header %1's value must be printable ASCII text (at "
                                           "most 256)")
                                .arg(name));
                return false;
            }
            connector.headers.append(Header{name.toLatin1(), text.toLatin1()});
        }
        return true;
    }

    std::optional<Operation> operation(const toml::table &table, const Connector &connector)
    {
        const QString &service = connector.service;
        if (!onlyKeys(table,
                      {QStringLiteral("name"), QStringLiteral("scope"), QStringLiteral("method"),
                       QStringLiteral("path"), QStringLiteral("description"),
                       QStringLiteral("params")},
                      QStringLiteral("[[ext.tool]]")))
            return std::nullopt;
        Operation operation;
        operation.line = int(table.source().begin.line);
        const auto name = string(table, "name", true, 64, table);
        const auto scope = name ? string(table, "scope", true, maxText, table) : std::nullopt;
        const auto method = scope ? string(table, "method", true, 8, table) : std::nullopt;
        const auto path = method ? string(table, "path", true, maxPath, table) : std::nullopt;
        const auto description =
            path ? string(table, "description", true, maxDescription, table) : std::nullopt;
        if (!description)
            return std::nullopt;
        if (!toolName().match(*name).hasMatch()) {
            fail(*table.get("name"), QStringLiteral("tool name '%1' must be lower-case letters, "
                                                    "digits and '_' (at most 64)")
                                         .arg(*name));
            return std::nullopt;
        }
        const QString prefix = QStringLiteral("ext:%1:").arg(service);
        if (!scope->startsWith(prefix) ||
            !operationScope().match(scope->mid(prefix.size())).hasMatch()) {
            fail(*table.get("scope"), QStringLiteral("scope '%1' must be %2<operation> (lower-case "
                                                     "words joined by ':', no wildcard)")
                                          .arg(*scope, prefix));
            return std::nullopt;
        }
        static const QStringList methods{QStringLiteral("GET"), QStringLiteral("POST"),
                                         QStringLiteral("PUT"), QStringLiteral("PATCH"),
                                         QStringLiteral("DELETE")};
        if (!methods.contains(*method)) {
            fail(*table.get("method"), QStringLiteral("method '%1' is not one of %2")
                                           .arg(*method, methods.join(QStringLiteral(", "))));
            return std::nullopt;
        }
        operation.tool = *name;
        operation.scope = *scope;
        operation.method = method->toLatin1();
        operation.path = *path;
        operation.description = *description;
        if (!parameters(table, connector, operation) ||
            !pathTemplate(*table.get("path"), operation))
            return std::nullopt;
        return operation;
    }

    bool parameters(const toml::table &table, const Connector &connector, Operation &operation)
    {
        const toml::node *node = table.get("params");
        if (!node)
            return true;
        if (!node->is_array()) {
            fail(*node, QStringLiteral("'params' must be an array of tables"));
            return false;
        }
        const toml::array &array = *node->as_array();
        if (array.size() > std::size_t(maxParameters)) {
            fail(*node, QStringLiteral("more than %1 params").arg(maxParameters));
            return false;
        }
        QSet<QString> seen;
        for (const toml::node &entry : array) {
            if (!entry.is_table()) {
                fail(entry, QStringLiteral("a param is a table such as { name = \"owner\", in = "
                                           "\"path\" }"));
                return false;
            }
            const toml::table &fields = *entry.as_table();
            if (!onlyKeys(fields,
                          {QStringLiteral("name"), QStringLiteral("in"), QStringLiteral("type"),
                           QStringLiteral("required"), QStringLiteral("segments"),
                           QStringLiteral("case_insensitive"), QStringLiteral("description")},
                          QStringLiteral("a param")))
                return false;
            Parameter parameter;
            const auto name = string(fields, "name", true, 64, entry);
            const auto place = name ? string(fields, "in", true, 8, entry) : std::nullopt;
            const auto type = place ? string(fields, "type", false, 8, entry) : std::nullopt;
            const auto description =
                type ? string(fields, "description", false, maxDescription, entry) : std::nullopt;
            if (!description)
                return false;
            if (!parameterName().match(*name).hasMatch() || seen.contains(*name)) {
                fail(entry, QStringLiteral("param name '%1' is not a plain name or is declared "
                                           "twice")
                                .arg(*name));
                return false;
            }
            seen.insert(*name);
            parameter.name = *name;
            parameter.description = *description;
            if (*place == QLatin1String("path"))
                parameter.place = ParamPlace::Path;
            else if (*place == QLatin1String("query"))
                parameter.place = ParamPlace::Query;
            else if (*place == QLatin1String("body"))
                parameter.place = ParamPlace::Body;
            else {
                fail(entry,
                     QStringLiteral("param %1: 'in' must be path, query or body").arg(*name));
                return false;
            }
            // The agent's value would travel beside the key under the key's own
            // name, and a server reading the first of the two would use the agent's.
            if (parameter.place == ParamPlace::Query && connector.auth == AuthKind::ApiKeyQuery &&
                name->compare(connector.authName, Qt::CaseInsensitive) == 0) {
                fail(entry, QStringLiteral("param %1 has the name of the key's query parameter")
                                .arg(*name));
                return false;
            }
            if (type->isEmpty() || *type == QLatin1String("string"))
                parameter.type = ParamType::String;
            else if (*type == QLatin1String("integer"))
                parameter.type = ParamType::Integer;
            else if (*type == QLatin1String("boolean"))
                parameter.type = ParamType::Boolean;
            else {
                fail(
                    entry,
                    QStringLiteral("param %1: type must be string, integer or boolean").arg(*name));
                return false;
            }
            parameter.required = parameter.place == ParamPlace::Path;
            if (const toml::node *required = fields.get("required")) {
                if (!required->is_boolean()) {
                    fail(*required, QStringLiteral("'required' must be true or false"));
                    return false;
                }
                if (parameter.place == ParamPlace::Path && !required->as_boolean()->get()) {
                    fail(*required, QStringLiteral("a path param is always required"));
                    return false;
                }
                parameter.required = required->as_boolean()->get();
            }
            if (const toml::node *segments = fields.get("segments")) {
                if (!segments->is_boolean()) {
                    fail(*segments, QStringLiteral("'segments' must be true or false"));
                    return false;
                }
                parameter.segments = segments->as_boolean()->get();
                if (parameter.segments &&
                    (parameter.place != ParamPlace::Path || parameter.type != ParamType::String)) {
                    fail(*segments, QStringLiteral("param %1: only a string path param may "
                                                   "span segments")
                                        .arg(*name));
                    return false;
                }
            }
            if (const toml::node *folded = fields.get("case_insensitive")) {
                if (!folded->is_boolean()) {
                    fail(*folded, QStringLiteral("'case_insensitive' must be true or false"));
                    return false;
                }
                parameter.caseInsensitive = folded->as_boolean()->get();
                if (parameter.caseInsensitive && parameter.type != ParamType::String) {
                    fail(*folded,
                         QStringLiteral("param %1: only a string param has a case").arg(*name));
                    return false;
                }
            }
            if (parameter.place == ParamPlace::Body && operation.method == "GET") {
                fail(entry, QStringLiteral("param %1: a GET has no body").arg(*name));
                return false;
            }
            operation.parameters << parameter;
        }
        return true;
    }

    // Literal segments and whole `{name}` segments, each path param used
    // exactly once: a value can fill one segment and nothing else.
    bool pathTemplate(const toml::node &at, const Operation &operation)
    {
        const QString &path = operation.path;
        if (!path.startsWith(QLatin1Char('/'))) {
            fail(at, QStringLiteral("path '%1' must start with '/'").arg(path));
            return false;
        }
        QSet<QString> used;
        const QStringList segments = path.mid(1).split(QLatin1Char('/'));
        for (qsizetype i = 0; i < segments.size(); ++i) {
            const QString &segment = segments.at(i);
            if (segment.isEmpty() && i == segments.size() - 1 && i > 0)
                continue; // a trailing slash
            if (segment.startsWith(QLatin1Char('{')) && segment.endsWith(QLatin1Char('}'))) {
                const QString name = segment.mid(1, segment.size() - 2);
                const auto declared =
                    std::find_if(operation.parameters.cbegin(), operation.parameters.cend(),
                                 [&name](const Parameter &p) {
                                     return p.name == name && p.place == ParamPlace::Path;
                                 });
                if (declared == operation.parameters.cend() || used.contains(name)) {
                    fail(at, QStringLiteral("path '%1': {%2} is not a declared path param or is "
                                            "used twice")
                                 .arg(path, name));
                    return false;
                }
                used.insert(name);
                continue;
            }
            if (!literalSegment().match(segment).hasMatch()) {
                fail(at, QStringLiteral("path '%1': segment '%2' is neither a plain word nor a "
                                        "whole {param}")
                             .arg(path, segment));
                return false;
            }
        }
        for (const Parameter &parameter : operation.parameters) {
            if (parameter.place == ParamPlace::Path && !used.contains(parameter.name)) {
                fail(at, QStringLiteral("path param %1 does not appear in '%2'")
                             .arg(parameter.name, path));
                return false;
            }
        }
        return true;
    }

    QString m_source;
};

} // namespace

Result<QList<Connector>> parseConnectors(const QByteArray &text, const QString &source)
{
    if (text.size() > maxDefinitionBytes)
        return makeError(QStringLiteral("connectors.too-large"),
                         QStringLiteral("%1:1: %2 bytes, more than a definition may have (%3)")
                             .arg(source)
                             .arg(text.size())
                             .arg(maxDefinitionBytes));
    if (text.contains('\0'))
        return makeError(QStringLiteral("connectors.bad-definition"),
                         QStringLiteral("%1:1: holds a NUL byte").arg(source));
    toml::table document;
    try {
        document = toml::parse(std::string_view(text.constData(), std::size_t(text.size())),
                               source.toStdString());
    } catch (const toml::parse_error &error) {
        return makeError(QStringLiteral("connectors.malformed"), QStringLiteral("%1:%2: %3")
                                                                     .arg(source)
                                                                     .arg(error.source().begin.line)
                                                                     .arg(qs(error.description())));
    }
    Reader reader(source);
    if (!reader.onlyKeys(document, {QStringLiteral("ext")}, QStringLiteral("a definition file")))
        return *reader.error;
    const toml::node *blocks = document.get("ext");
    if (!blocks || !blocks->is_array_of_tables())
        return makeError(QStringLiteral("connectors.bad-definition"),
                         QStringLiteral("%1:1: no [[ext]] block").arg(source));
    if (blocks->as_array()->size() > std::size_t(maxConnectorsPerFile))
        return makeError(QStringLiteral("connectors.bad-definition"),
                         QStringLiteral("%1:%2: more than %3 [[ext]] blocks")
                             .arg(source)
                             .arg(blocks->source().begin.line)
                             .arg(maxConnectorsPerFile));
    QList<Connector> connectors;
    QSet<QString> tools;
    for (const toml::node &block : *blocks->as_array()) {
        auto connector = reader.connector(*block.as_table());
        if (!connector)
            return *reader.error;
        for (const Operation &operation : connector->operations) {
            if (tools.contains(operation.tool)) {
                reader.failAt(operation.line,
                              QStringLiteral("tool %1 is defined twice").arg(operation.tool));
                return *reader.error;
            }
            tools.insert(operation.tool);
        }
        connectors << *connector;
    }
    return connectors;
}

} // namespace arizuko::connectors
