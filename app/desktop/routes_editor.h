#pragma once

// Which folder an incoming message goes to: the routes in the order they are
// tried (drag a row to reorder; a change by arizukoctl shows at once), a form to add one (checked
// by the engine as you type), and "test a message" naming the route that wins and why each earlier
// one did not.

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace arizuko::engine {
class Workspace;
}
namespace arizuko::models {
class RouteModel;
}

namespace arizuko::desktop {

class RoutesEditor final : public QDialog
{
    Q_OBJECT

public:
    explicit RoutesEditor(engine::Workspace &workspace, QWidget *parent = nullptr);

    models::RouteModel *model() const { return m_model; }

private:
    void validate();
    void addRoute();
    void removeRoute();
    void testMessage();
    models::RouteModel *m_model;
    QTableView *m_table;
    QSpinBox *m_seq;
    QLineEdit *m_match;
    QLineEdit *m_target;
    QLabel *m_validation;
    QPushButton *m_add;
    QPushButton *m_remove;
    QLineEdit *m_message;
    QLabel *m_verdict;
    QLabel *m_status;
    bool m_adding = false;
};

} // namespace arizuko::desktop
