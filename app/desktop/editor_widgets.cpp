#include "editor_widgets.h"

#include "engine/workspace.h"
#include "folders/folders.h"
#include "safe_text.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>

namespace arizuko::desktop {

QTableView *makeReadOnlyTable(QWidget *parent, const QString &objectName,
                              const QString &accessibleName)
{
    auto *table = new QTableView(parent);
    table->setObjectName(objectName);
    table->setAccessibleName(accessibleName);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    // Rows change through the editor's own form, never in place.
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // A row is chosen with the arrow keys; Tab goes on to the next control
    // instead of walking the row's cells (and on into the next row).
    table->setTabKeyNavigation(false);
    table->verticalHeader()->hide();
    table->setWordWrap(false);
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

namespace {

void showFolders(QComboBox *chooser, const QList<folders::Folder> &folders,
                 const QString &firstLabel, const QString &select)
{
    const QSignalBlocker blocker(chooser);
    chooser->clear();
    chooser->addItem(firstLabel, QString());
    for (const folders::Folder &folder : folders)
        chooser->addItem(printable(folder.path), folder.path);
    const int index = select.isEmpty() ? 0 : chooser->findData(select);
    chooser->setCurrentIndex(index < 0 ? 0 : index);
}

} // namespace

void fillFolderChooser(QComboBox *chooser, engine::Workspace &workspace, const QString &firstLabel,
                       const QString &select, std::function<void(Result<void>)> filled)
{
    workspace.listFolders(chooser, [chooser, firstLabel, select, filled = std::move(filled)](
                                       const Result<QList<folders::Folder>> &folders) {
        if (folders)
            showFolders(chooser, *folders, firstLabel, select);
        filled(folders ? Result<void>() : Result<void>(folders.error()));
    });
}

QHBoxLayout *labelledRow(QWidget *parent, const QList<std::pair<QString, QWidget *>> &fields)
{
    auto *row = new QHBoxLayout;
    for (const auto &[text, buddy] : fields) {
        auto *label = new QLabel(text, parent);
        label->setBuddy(buddy);
        row->addWidget(label);
        row->addWidget(buddy, 1);
    }
    return row;
}

void addSinceChoices(QComboBox *since)
{
    static const std::pair<const char *, int> choices[] = {
        {QT_TRANSLATE_NOOP("arizuko::desktop::SinceChoices", "any time"), 0},
        {QT_TRANSLATE_NOOP("arizuko::desktop::SinceChoices", "the last hour"), 3600},
        {QT_TRANSLATE_NOOP("arizuko::desktop::SinceChoices", "the last 24 hours"), 24 * 3600},
        {QT_TRANSLATE_NOOP("arizuko::desktop::SinceChoices", "the last 7 days"), 7 * 24 * 3600}};
    for (const auto &[text, seconds] : choices)
        since->addItem(QCoreApplication::translate("arizuko::desktop::SinceChoices", text),
                       seconds);
}

} // namespace arizuko::desktop
