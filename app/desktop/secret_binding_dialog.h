#pragma once

// Where a secret may go: the hosts it is bound to and where in a request to
// them the turn's proxy puts it (a header template such as
// `Authorization: Bearer {}`, or HTTP Basic's password, as git sends it).
// The fields are checked as they are typed by the engine's own parsers; the
// engine checks again when the binding is written.

#include "core/result.h"
#include "secrets/secret_bindings.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QRadioButton;

namespace arizuko::desktop {

class SecretBindingDialog final : public QDialog
{
    Q_OBJECT

public:
    // Filled with `current` when the secret is bound already.
    SecretBindingDialog(const QString &name, const QString &folderLabel,
                        const std::optional<secrets::SecretBinding> &current,
                        QWidget *parent = nullptr);

    // The typed hosts, split at commas and blanks (the engine normalises them).
    QStringList hosts() const;
    // The typed placement, or why it cannot be one.
    Result<secrets::SecretPlacement> placement() const;

private:
    void validate();

    QLineEdit *m_hosts;
    QRadioButton *m_header;
    QLineEdit *m_template;
    QRadioButton *m_basic;
    QLabel *m_validation;
    QDialogButtonBox *m_buttons;
};

} // namespace arizuko::desktop
