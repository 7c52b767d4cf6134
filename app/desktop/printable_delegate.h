#pragma once

// Shows a cell's text through printable(): rows from the store (audit
// details, subjects) may carry whatever someone once typed.

#include <QStyledItemDelegate>

namespace arizuko::desktop {

class PrintableDelegate final : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QString displayText(const QVariant &value, const QLocale &locale) const override;
};

} // namespace arizuko::desktop
