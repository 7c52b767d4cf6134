// arizukoctl secret set|list|rm|bind|unbind|rotate-key. A value is read from
// stdin or a prompt that does not echo, never from the command line (where
// `ps` and shell history would see it), and is never printed. A binding
// (secrets/secret_bindings.h) holds no value and is listed with its secret.

#include "commands.h"
#include "core/actors.h"
#include "secrets/secret_bindings.h"
#include "secrets/secret_store.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <iostream>
#include <optional>
#include <string>
#include <termios.h>
#include <type_traits>
#include <unistd.h>

namespace arizuko::cli {
namespace {

QCommandLineOption folderOption()
{
    return {QStringLiteral("folder"),
            QStringLiteral("The folder it applies to (default: every folder)."),
            QStringLiteral("folder")};
}

QString scopeText(const QString &folder)
{
    return folder.isEmpty() ? QStringLiteral("every folder") : QStringLiteral("folder ") + folder;
}

QJsonObject bindingJson(const secrets::SecretBinding &binding)
{
    QJsonObject object{{QStringLiteral("hosts"), QJsonArray::fromStringList(binding.hosts)}};
    if (binding.placement.basic)
        object.insert(QStringLiteral("basic"), true);
    else {
        object.insert(QStringLiteral("header"), binding.placement.header);
        object.insert(QStringLiteral("template"), binding.placement.value);
    }
    return object;
}

QString bindingText(const secrets::SecretBinding &binding)
{
    return QStringLiteral("%1 (%2)").arg(binding.hosts.join(QStringLiteral(", ")),
                                         secrets::placementText(binding.placement));
}

// Echo off on the terminal for as long as it lives.
class EchoOff
{
public:
    EchoOff()
        : m_active(::tcgetattr(STDIN_FILENO, &m_saved) == 0)
    {
        if (!m_active)
            return;
        termios quiet = m_saved;
        quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
        ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
    }
    ~EchoOff()
    {
        if (m_active)
            ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &m_saved);
    }
    EchoOff(const EchoOff &) = delete;
    EchoOff &operator=(const EchoOff &) = delete;

private:
    termios m_saved{};
    bool m_active;
};

QByteArray readValue(Context &context, const QString &key)
{
    if (::isatty(STDIN_FILENO)) {
        context.err() << "Value for " << key << " (input is hidden): ";
        context.err().flush();
        std::string line;
        {
            const EchoOff echoOff;
            std::getline(std::cin, line);
        }
        context.err() << "\n";
        context.err().flush();
        return QByteArray::fromStdString(line);
    }
    QFile input;
    if (!input.open(stdin, QIODevice::ReadOnly))
        return {};
    QByteArray value = input.readAll();
    // `echo value |` and here-strings add one newline that is not the value's.
    if (value.endsWith('\n'))
        value.chop(1);
    if (value.endsWith('\r'))
        value.chop(1);
    return value;
}

// withStore's prologue, with the secrets over the store.
template<typename Use>
Exit withSecrets(Context &context, Use &&use)
{
    return withStore(context, [&](store::Store &store) {
        const Result<std::unique_ptr<secrets::SecretStore>> secrets =
            secrets::SecretStore::open(store, actors::cli);
        if (!secrets)
            return context.failure(secrets.error());
        if constexpr (std::is_invocable_v<Use, secrets::SecretStore &, store::Store &>)
            return use(**secrets, store);
        else
            return use(**secrets);
    });
}

QString keyStoreKind(const secrets::SecretStore &secrets)
{
    return secrets.keyStoreKind() == secrets::KeyStoreKind::OsKeyring ? QStringLiteral("keyring")
                                                                      : QStringLiteral("file");
}

Exit set(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption folder = folderOption();
    parser.addOption(folder);
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("secret set"),
             QStringLiteral(
                 "Set a secret. The value is read from stdin (one trailing newline dropped) or,\n"
                 "on a terminal, from a prompt that does not echo. Never pass it as an argument."),
             {{QStringLiteral("name"),
               QStringLiteral("The secret's name, like an environment variable.")}},
             // Not repeated: the extra argument is most likely the value.
             QStringLiteral("unexpected argument after <name>; a secret value is never taken "
                            "from the command line, pipe it on stdin")},
            arguments))
        return *stop;
    const QStringList positionals = parser.positionalArguments();
    const QString key = positionals.first();
    if (const Result<void> valid = secrets::SecretStore::validateKey(key); !valid)
        return context.failure(valid.error());

    return withSecrets(context, [&](secrets::SecretStore &secrets) {
        const QByteArray value = readValue(context, key);
        if (const Result<void> stored = secrets.set({parser.value(folder)}, key, value); !stored)
            return context.failure(stored.error());
        if (context.json())
            context.printJson(QJsonObject{{QStringLiteral("name"), key},
                                          {QStringLiteral("folder"), parser.value(folder)},
                                          {QStringLiteral("key_store"), keyStoreKind(secrets)}});
        else
            context.out() << "secret " << key << " set for " << scopeText(parser.value(folder))
                          << " (master key: " << secrets.keyStoreDescription() << ")\n";
        return Exit::Ok;
    });
}

Exit list(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("secret list"),
             QStringLiteral("List secret names (never values) and where the master key is.")},
            arguments))
        return *stop;
    return withSecrets(context, [&](secrets::SecretStore &secrets, store::Store &store) {
        const Result<QList<secrets::SecretInfo>> listed = secrets.list();
        if (!listed)
            return context.failure(listed.error());
        const Result<QList<secrets::SecretBinding>> bound =
            secrets::SecretBindings(store, actors::cli).list();
        if (!bound)
            return context.failure(bound.error());
        const auto bindingOf = [&](const secrets::SecretInfo &info) {
            for (const secrets::SecretBinding &binding : *bound) {
                if (binding.folder == info.folder && binding.key == info.key)
                    return std::optional<secrets::SecretBinding>(binding);
            }
            return std::optional<secrets::SecretBinding>();
        };
        if (context.json()) {
            QJsonArray array;
            for (const secrets::SecretInfo &info : *listed) {
                QJsonObject object{{QStringLiteral("name"), info.key},
                                   {QStringLiteral("folder"), info.folder},
                                   {QStringLiteral("key_id"), info.keyId},
                                   {QStringLiteral("updated_at"), info.updatedAt}};
                if (const auto binding = bindingOf(info))
                    object.insert(QStringLiteral("binding"), bindingJson(*binding));
                array.append(object);
            }
            context.printJson(QJsonObject{
                {QStringLiteral("key_store"),
                 QJsonObject{{QStringLiteral("kind"), keyStoreKind(secrets)},
                             {QStringLiteral("description"), secrets.keyStoreDescription()}}},
                {QStringLiteral("secrets"), array}});
            return Exit::Ok;
        }
        QList<QStringList> rows;
        for (const secrets::SecretInfo &info : *listed) {
            const auto binding = bindingOf(info);
            rows.append({info.key,
                         info.folder.isEmpty() ? QStringLiteral("(every folder)") : info.folder,
                         info.keyId, info.updatedAt,
                         binding ? bindingText(*binding) : QStringLiteral("-")});
        }
        context.printTable({QStringLiteral("NAME"), QStringLiteral("FOLDER"),
                            QStringLiteral("KEY ID"), QStringLiteral("UPDATED"),
                            QStringLiteral("BOUND TO")},
                           rows);
        context.out() << "master key: " << secrets.keyStoreDescription() << "\n";
        return Exit::Ok;
    });
}

Exit remove(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption folder = folderOption();
    parser.addOption(folder);
    if (const auto stop =
            context.parse(parser,
                          {QStringLiteral("secret rm"),
                           QStringLiteral("Remove a secret."),
                           {{QStringLiteral("name"), QStringLiteral("The secret's name.")}}},
                          arguments))
        return *stop;
    return withSecrets(context, [&](secrets::SecretStore &secrets) {
        const QString key = parser.positionalArguments().first();
        if (const Result<void> removed = secrets.remove({parser.value(folder)}, key); !removed)
            return context.failure(removed.error());
        if (context.json())
            context.printJson(QJsonObject{{QStringLiteral("removed"), key},
                                          {QStringLiteral("folder"), parser.value(folder)}});
        else
            context.out() << "removed secret " << key << " for " << scopeText(parser.value(folder))
                          << "\n";
        return Exit::Ok;
    });
}

Exit bind(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption folder = folderOption();
    const QCommandLineOption host(
        QStringLiteral("host"),
        QStringLiteral("A host the value goes to, as an allow entry names it (repeatable)."),
        QStringLiteral("host"));
    const QCommandLineOption header(
        QStringLiteral("header"),
        QStringLiteral("Where it goes: a header and its value with {} once, as in "
                       "'Authorization: Bearer {}'."),
        QStringLiteral("template"));
    const QCommandLineOption basic(QStringLiteral("basic"),
                                   QStringLiteral("Where it goes: HTTP Basic's password."));
    parser.addOptions({folder, host, header, basic});
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("secret bind"),
             QStringLiteral(
                 "Bind a secret to hosts: a turn's guest then sees only a placeholder made\n"
                 "for the turn, and the turn's proxy puts the value in, in requests to these\n"
                 "hosts alone, where --header or --basic says."),
             {{QStringLiteral("name"), QStringLiteral("The secret's name.")}}},
            arguments))
        return *stop;
    if (parser.isSet(header) == parser.isSet(basic))
        return context.usageError(
            QStringLiteral("say where the secret goes: --header 'Authorization: Bearer {}' or "
                           "--basic"));
    secrets::SecretPlacement placement{true, {}, {}};
    if (parser.isSet(header)) {
        const Result<secrets::SecretPlacement> parsed =
            secrets::parseHeaderTemplate(parser.value(header));
        if (!parsed)
            return context.failure(parsed.error());
        placement = *parsed;
    }
    return withStore(context, [&](store::Store &store) {
        const QString key = parser.positionalArguments().first();
        const Result<secrets::SecretBinding> bound =
            secrets::SecretBindings(store, actors::cli)
                .bind({parser.value(folder)}, key, parser.values(host), placement);
        if (!bound)
            return context.failure(bound.error());
        if (context.json()) {
            QJsonObject object = bindingJson(*bound);
            object.insert(QStringLiteral("name"), key);
            object.insert(QStringLiteral("folder"), bound->folder);
            context.printJson(object);
        } else {
            context.out() << "bound secret " << key << " of " << scopeText(bound->folder) << " to "
                          << bindingText(*bound) << "\n";
        }
        return Exit::Ok;
    });
}

Exit unbind(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption folder = folderOption();
    parser.addOption(folder);
    if (const auto stop = context.parse(
            parser,
            {QStringLiteral("secret unbind"),
             QStringLiteral("Unbind a secret: turns no longer get a placeholder for it."),
             {{QStringLiteral("name"), QStringLiteral("The secret's name.")}}},
            arguments))
        return *stop;
    return withStore(context, [&](store::Store &store) {
        const QString key = parser.positionalArguments().first();
        if (const Result<void> unbound =
                secrets::SecretBindings(store, actors::cli).unbind({parser.value(folder)}, key);
            !unbound)
            return context.failure(unbound.error());
        if (context.json())
            context.printJson(QJsonObject{{QStringLiteral("unbound"), key},
                                          {QStringLiteral("folder"), parser.value(folder)}});
        else
            context.out() << "unbound secret " << key << " of " << scopeText(parser.value(folder))
                          << "\n";
        return Exit::Ok;
    });
}

Exit rotateKey(Context &context, const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto stop = context.parse(parser,
                                        {QStringLiteral("secret rotate-key"),
                                         QStringLiteral("Add a new master key that seals from now "
                                                        "on; older keys still open older values.")},
                                        arguments))
        return *stop;
    return withSecrets(context, [&](secrets::SecretStore &secrets) {
        const Result<QString> keyId = secrets.rotateKey();
        if (!keyId)
            return context.failure(keyId.error());
        if (context.json())
            context.printJson(QJsonObject{{QStringLiteral("key_id"), *keyId},
                                          {QStringLiteral("key_store"), keyStoreKind(secrets)}});
        else
            context.out() << "new master key " << *keyId << " in " << secrets.keyStoreDescription()
                          << "\n";
        return Exit::Ok;
    });
}

} // namespace

Exit runSecret(Context &context, const QStringList &arguments)
{
    static const QList<Subcommand> subcommands = {
        {QStringLiteral("set"),
         QStringLiteral("set <name> [--folder F]   (value on stdin or at the prompt)"), set},
        {QStringLiteral("list"), QStringLiteral("list"), list},
        {QStringLiteral("rm"), QStringLiteral("rm <name> [--folder F]"), remove},
        {QStringLiteral("bind"),
         QStringLiteral("bind <name> [--folder F] --host H [--host H2…] (--header T | --basic)"),
         bind},
        {QStringLiteral("unbind"), QStringLiteral("unbind <name> [--folder F]"), unbind},
        {QStringLiteral("rotate-key"), QStringLiteral("rotate-key"), rotateKey},
    };
    return runSubcommand(context, QStringLiteral("secret"), arguments, subcommands);
}

} // namespace arizuko::cli
