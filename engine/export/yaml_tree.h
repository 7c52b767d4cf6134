#pragma once

// Untrusted YAML to a plain tree, refusing what a manifest never needs and an
// attacker would use: anchors and aliases (billion laughs), tags, oversized
// input and deep nesting. Built from yaml-cpp's event parser, so an alias is
// refused when it is met instead of being expanded.

#include "core/result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <vector>

namespace arizuko::manifest {

struct YamlNode
{
    enum class Kind
    {
        Null,
        Scalar,
        Sequence,
        Mapping
    };
    Kind kind = Kind::Null;
    QString value;     // scalars
    bool plain = true; // false for quoted and block scalars
    int line = 0;      // 1-based
    // Sequence items, or mapping keys and values alternating.
    std::vector<YamlNode> children;
};

struct YamlLimits
{
    qsizetype maxBytes = 4 * 1024 * 1024;
    int maxDepth = 6; // document, resource list, row, field value, list in it, one spare
};

// Every non-empty document of the stream, in order.
Result<QList<YamlNode>> parseYaml(const QByteArray &text, const YamlLimits &limits = {});

} // namespace arizuko::manifest
