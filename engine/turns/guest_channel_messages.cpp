#include "turns/guest_channel_messages.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QStringList>

namespace arizuko::turns {
namespace {

constexpr qsizetype maxKernelChars = 256;
constexpr qsizetype maxImageChars = 256;
constexpr qsizetype maxExitMessageChars = 16 * 1024;

Error refused(const QString &why)
{
    return makeError(QStringLiteral("turns.guest-protocol"), why);
}

// Reads the members of one message; the first problem wins.
class Members
{
public:
    Members(const QJsonObject &message, const QString &type)
        : m_message(message)
        , m_type(type)
    {
        m_out.insert(QStringLiteral("type"), type);
    }

    void integer(const QString &name, bool required, qint64 minimum)
    {
        const QJsonValue value = take(name, required);
        if (value.isUndefined())
            return;
        const qint64 number = value.toInteger(minimum - 1);
        if (!value.isDouble() || number < minimum) {
            fail(QStringLiteral("`%1` of a `%2` is not an integer of at least %3")
                     .arg(name, m_type)
                     .arg(minimum));
            return;
        }
        m_out.insert(name, number);
    }

    void string(const QString &name, bool required, qsizetype maxChars)
    {
        const QJsonValue value = take(name, required);
        if (value.isUndefined())
            return;
        if (!value.isString()) {
            fail(QStringLiteral("`%1` of a `%2` is not a string").arg(name, m_type));
            return;
        }
        const QString text = value.toString();
        if (text.size() > maxChars) {
            fail(QStringLiteral("`%1` of a `%2` is longer than %3 characters")
                     .arg(name, m_type)
                     .arg(maxChars));
            return;
        }
        m_out.insert(name, text);
    }

    void oneOf(const QString &name, const QStringList &allowed)
    {
        const QJsonValue value = take(name, true);
        if (value.isUndefined())
            return;
        if (!allowed.contains(value.toString())) {
            fail(QStringLiteral("`%1` of a `%2` is not one of %3")
                     .arg(name, m_type, allowed.join(QStringLiteral(", "))));
            return;
        }
        m_out.insert(name, value.toString());
    }

    void flag(const QString &name)
    {
        const QJsonValue value = take(name, false);
        if (value.isUndefined())
            return;
        if (!value.isBool()) {
            fail(QStringLiteral("`%1` of a `%2` is not a boolean").arg(name, m_type));
            return;
        }
        m_out.insert(name, value.toBool());
    }

    // The rebuilt message, or the first problem, including a member the
    // guest never sends.
    Result<QJsonObject> finish()
    {
        for (auto it = m_message.begin(); it != m_message.end() && m_error.isEmpty(); ++it) {
            if (!m_seen.contains(it.key()))
                fail(QStringLiteral("a `%1` has no member `%2`").arg(m_type, it.key().left(64)));
        }
        if (!m_error.isEmpty())
            return refused(m_error);
        return m_out;
    }

    QString value(const QString &name) const { return m_out.value(name).toString(); }

private:
    QJsonValue take(const QString &name, bool required)
    {
        m_seen.insert(name);
        const QJsonValue value = m_message.value(name);
        if (value.isUndefined() && required)
            fail(QStringLiteral("a `%1` without `%2`").arg(m_type, name));
        return m_error.isEmpty() ? value : QJsonValue(QJsonValue::Undefined);
    }

    void fail(const QString &why)
    {
        if (m_error.isEmpty())
            m_error = why;
    }

    const QJsonObject &m_message;
    QString m_type;
    QJsonObject m_out;
    QSet<QString> m_seen{QStringLiteral("type"), QStringLiteral("seq")};
    QString m_error;
};

} // namespace

Result<QJsonObject> GuestMessageCheck::check(const QByteArray &line)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(line, &parseError);
    if (!document.isObject())
        return refused(QStringLiteral("a line that is not a JSON object (%1)")
                           .arg(parseError.error == QJsonParseError::NoError
                                    ? QStringLiteral("another JSON value")
                                    : parseError.errorString()));
    const QJsonObject message = document.object();
    if (m_exited)
        return refused(QStringLiteral("a message after `exit`"));
    const QJsonValue typeValue = message.value(QStringLiteral("type"));
    const QString type = typeValue.toString();
    static const QStringList guestTypes{QStringLiteral("status"), QStringLiteral("event"),
                                        QStringLiteral("log"), QStringLiteral("exit")};
    if (!guestTypes.contains(type))
        return refused(typeValue.isString()
                           ? QStringLiteral("type `%1` is not one a guest sends").arg(type.left(64))
                           : QStringLiteral("a message without a string `type`"));
    const qint64 seq = message.value(QStringLiteral("seq")).toInteger(0);
    if (!message.value(QStringLiteral("seq")).isDouble() || seq <= m_lastSeq)
        return refused(
            QStringLiteral("`seq` of a `%1` is not an integer above %2").arg(type).arg(m_lastSeq));

    Result<QJsonObject> checked = QJsonObject();
    if (type == QLatin1String("status")) {
        checked = checkStatus(message);
    } else if (type == QLatin1String("exit")) {
        checked = checkExit(message);
    } else {
        Members members(message, type);
        if (type == QLatin1String("log"))
            members.oneOf(QStringLiteral("source"),
                          {QStringLiteral("agent"), QStringLiteral("guest")});
        members.string(QStringLiteral("line"), true, maxGuestPieceChars);
        members.flag(QStringLiteral("continued"));
        checked = members.finish();
    }
    if (!checked)
        return checked;
    m_lastSeq = seq;
    checked->insert(QStringLiteral("seq"), seq);
    return checked;
}

Result<QJsonObject> GuestMessageCheck::checkStatus(const QJsonObject &message)
{
    Members members(message, QStringLiteral("status"));
    members.oneOf(QStringLiteral("state"),
                  {QStringLiteral("booted"), QStringLiteral("agent-started"),
                   QStringLiteral("agent-idle"), QStringLiteral("running")});
    members.integer(QStringLiteral("uptime_ms"), true, 0);
    members.string(QStringLiteral("kernel"), false, maxKernelChars);
    members.string(QStringLiteral("image"), false, maxImageChars);
    Result<QJsonObject> checked = members.finish();
    if (!checked)
        return checked;
    // Each state once: `running` is what moves the turn on.
    const QString state = members.value(QStringLiteral("state"));
    if (m_states.contains(state))
        return refused(QStringLiteral("a second `status` `%1`").arg(state));
    m_states.insert(state);
    return checked;
}

Result<QJsonObject> GuestMessageCheck::checkExit(const QJsonObject &message)
{
    Members members(message, QStringLiteral("exit"));
    members.oneOf(QStringLiteral("reason"),
                  {QStringLiteral("exited"), QStringLiteral("signal"), QStringLiteral("timeout"),
                   QStringLiteral("cancelled"), QStringLiteral("error")});
    members.integer(QStringLiteral("code"), true, 0);
    members.integer(QStringLiteral("signal"), false, 1);
    members.string(QStringLiteral("message"), false, maxExitMessageChars);
    members.integer(QStringLiteral("duration_ms"), true, 0);
    Result<QJsonObject> checked = members.finish();
    if (checked)
        m_exited = true;
    return checked;
}

GuestOutputBudget::Outcome GuestOutputBudget::take(qsizetype chars)
{
    if (m_exhausted)
        return Outcome::Drop;
    if (m_rows + 1 > maxGuestOutputRows || m_chars + chars > maxGuestOutputChars) {
        m_exhausted = true;
        return Outcome::LimitReached;
    }
    ++m_rows;
    m_chars += chars;
    return Outcome::Store;
}

} // namespace arizuko::turns
