#pragma once

// How gopkg.in/yaml.v3 (v3.0.1, the writer of arizuko's canonical form)
// prints one string: plain, single-quoted, double-quoted or literal block.
// A port of its resolver and emitter decisions, so our bytes match its bytes.

#include <QByteArray>

namespace arizuko::manifest {

// True when yaml.v3 would print `text` (UTF-8) as a plain scalar that reads
// back as a string: not a number, bool, null, timestamp or base-60 float.
bool readsAsPlainString(const QByteArray &text);

// The scalar as yaml.v3 writes it after "key: " in block context. `indent`
// is the column of the key, used by literal blocks (`|-`), whose lines are
// indented two further; the result carries no trailing newline except what a
// literal block's own content ends with. `simpleKey`: the scalar is a mapping
// key (no literal block).
// False for text yaml.v3 writes as YAML that does not read back as the same
// text (a literal block starting with a line break fails to parse; a NEL
// outside double quotes folds into a space): arizuko could not carry such a
// row, so we leave it out and say so.
bool yamlWritable(const QByteArray &text);

QByteArray yamlScalar(const QByteArray &text, int indent, bool simpleKey = false);

} // namespace arizuko::manifest
