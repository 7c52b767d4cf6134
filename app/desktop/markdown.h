#pragma once

// Agent text (GitHub-flavoured markdown) to HTML with cmark-gfm. Raw HTML in
// the text is never passed through and unsafe link schemes (javascript:,
// data:, vbscript:, file:) are dropped: cmark's safe mode, which the
// transcript page's own allowlist backs up.

#include <QString>

namespace arizuko::desktop {

QString markdownToHtml(const QString &markdown);

} // namespace arizuko::desktop
