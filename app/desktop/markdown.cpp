#include "markdown.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <memory>

namespace arizuko::desktop {
namespace {

struct ParserDeleter
{
    void operator()(cmark_parser *parser) const { cmark_parser_free(parser); }
};
struct NodeDeleter
{
    void operator()(cmark_node *node) const { cmark_node_free(node); }
};

void attach(cmark_parser *parser, const char *name)
{
    if (cmark_syntax_extension *extension = cmark_find_syntax_extension(name))
        cmark_parser_attach_syntax_extension(parser, extension);
}

} // namespace

QString markdownToHtml(const QString &markdown)
{
    static const bool registered = [] {
        cmark_gfm_core_extensions_ensure_registered();
        return true;
    }();
    (void)registered;
    // CMARK_OPT_DEFAULT is safe mode: raw HTML becomes a comment and
    // dangerous URLs become empty. CMARK_OPT_UNSAFE must never be added.
    const int options = CMARK_OPT_DEFAULT;
    std::unique_ptr<cmark_parser, ParserDeleter> parser(cmark_parser_new(options));
    for (const char *name : {"table", "strikethrough", "autolink", "tasklist"})
        attach(parser.get(), name);
    const QByteArray utf8 = markdown.toUtf8();
    cmark_parser_feed(parser.get(), utf8.constData(), std::size_t(utf8.size()));
    std::unique_ptr<cmark_node, NodeDeleter> document(cmark_parser_finish(parser.get()));
    char *html = cmark_render_html(document.get(), options,
                                   cmark_parser_get_syntax_extensions(parser.get()));
    const QString result = QString::fromUtf8(html);
    free(html);
    return result;
}

} // namespace arizuko::desktop
