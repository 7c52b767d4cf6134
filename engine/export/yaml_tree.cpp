#include "export/yaml_tree.h"

#include <sstream>
#include <stdexcept>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

namespace arizuko::manifest {
namespace {

struct Refused : std::runtime_error
{
    Refused(const QString &why, const YAML::Mark &mark)
        : std::runtime_error(why.toStdString())
        , line(mark.line + 1)
    {}
    int line;
};

class TreeBuilder final : public YAML::EventHandler
{
public:
    explicit TreeBuilder(int maxDepth)
        : m_maxDepth(maxDepth)
    {}

    YamlNode take() { return std::move(m_root); }
    bool empty() const { return !m_hasRoot; }

    void OnDocumentStart(const YAML::Mark &) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark &mark, YAML::anchor_t anchor) override
    {
        refuseAnchor(anchor, mark);
        add(YamlNode{YamlNode::Kind::Null, {}, true, mark.line + 1, {}});
    }
    void OnAlias(const YAML::Mark &mark, YAML::anchor_t) override
    {
        throw Refused(QStringLiteral("YAML aliases (*name) are not accepted"), mark);
    }
    void OnAnchor(const YAML::Mark &mark, const std::string &) override
    {
        throw Refused(QStringLiteral("YAML anchors (&name) are not accepted"), mark);
    }
    void OnScalar(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                  const std::string &value) override
    {
        refuseAnchor(anchor, mark);
        if (tag != "?" && tag != "!")
            throw Refused(
                QStringLiteral("YAML tags (%1) are not accepted").arg(QString::fromStdString(tag)),
                mark);
        add(YamlNode{
            YamlNode::Kind::Scalar, QString::fromStdString(value), tag == "?", mark.line + 1, {}});
    }
    void OnSequenceStart(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override
    {
        open(YamlNode::Kind::Sequence, mark, tag, anchor);
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override
    {
        open(YamlNode::Kind::Mapping, mark, tag, anchor);
    }
    void OnMapEnd() override { close(); }

private:
    static void refuseAnchor(YAML::anchor_t anchor, const YAML::Mark &mark)
    {
        if (anchor != YAML::NullAnchor)
            throw Refused(QStringLiteral("YAML anchors (&name) are not accepted"), mark);
    }

    void open(YamlNode::Kind kind, const YAML::Mark &mark, const std::string &tag,
              YAML::anchor_t anchor)
    {
        refuseAnchor(anchor, mark);
        if (tag != "?" && tag != "!" && !tag.empty())
            throw Refused(
                QStringLiteral("YAML tags (%1) are not accepted").arg(QString::fromStdString(tag)),
                mark);
        // Checked before the parser descends further, so deep nesting is
        // refused long before it could exhaust the stack.
        if (int(m_stack.size()) >= m_maxDepth)
            throw Refused(QStringLiteral("nesting deeper than %1 levels").arg(m_maxDepth), mark);
        m_stack.push_back(YamlNode{kind, {}, true, mark.line + 1, {}});
    }

    void close()
    {
        YamlNode done = std::move(m_stack.back());
        m_stack.pop_back();
        add(std::move(done));
    }

    void add(YamlNode node)
    {
        if (m_stack.empty()) {
            m_root = std::move(node);
            m_hasRoot = true;
        } else {
            m_stack.back().children.push_back(std::move(node));
        }
    }

    const int m_maxDepth;
    std::vector<YamlNode> m_stack;
    YamlNode m_root;
    bool m_hasRoot = false;
};

} // namespace

Result<QList<YamlNode>> parseYaml(const QByteArray &text, const YamlLimits &limits)
{
    if (text.size() > limits.maxBytes)
        return makeError(QStringLiteral("import.too-large"),
                         QStringLiteral("the file is %1 bytes; the limit is %2")
                             .arg(QString::number(text.size()), QString::number(limits.maxBytes)));
    std::istringstream stream(text.toStdString());
    QList<YamlNode> documents;
    try {
        YAML::Parser parser(stream);
        for (;;) {
            TreeBuilder builder(limits.maxDepth);
            if (!parser.HandleNextDocument(builder))
                break;
            if (builder.empty())
                continue;
            YamlNode root = builder.take();
            if (root.kind != YamlNode::Kind::Null)
                documents.append(std::move(root));
        }
    } catch (const Refused &refused) {
        return makeError(
            QStringLiteral("import.refused"),
            QStringLiteral("line %1: %2")
                .arg(QString::number(refused.line), QString::fromStdString(refused.what())));
    } catch (const YAML::Exception &error) {
        return makeError(
            QStringLiteral("import.not-yaml"),
            QStringLiteral("line %1: not valid YAML: %2")
                .arg(QString::number(error.mark.line + 1), QString::fromStdString(error.msg)));
    }
    return documents;
}

} // namespace arizuko::manifest
