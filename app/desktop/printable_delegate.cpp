#include "printable_delegate.h"

#include "safe_text.h"

namespace arizuko::desktop {

QString PrintableDelegate::displayText(const QVariant &value, const QLocale &locale) const
{
    return printable(QStyledItemDelegate::displayText(value, locale), 300);
}

} // namespace arizuko::desktop
