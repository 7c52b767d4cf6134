#include "object_writer.h"

#include "json_string.h"

namespace arizuko::jsontext {

void ObjectWriter::addKey(std::string_view key)
{
    if (m_text.size() > 1)
        m_text.push_back(',');
    appendString(m_text, key);
    m_text.push_back(':');
}

ObjectWriter &ObjectWriter::add(std::string_view key, std::string_view text)
{
    addKey(key);
    appendString(m_text, text);
    return *this;
}

ObjectWriter &ObjectWriter::add(std::string_view key, std::int64_t number)
{
    addKey(key);
    m_text += std::to_string(number);
    return *this;
}

ObjectWriter &ObjectWriter::add(std::string_view key, bool flag)
{
    addKey(key);
    m_text += flag ? "true" : "false";
    return *this;
}

std::string ObjectWriter::finish() &&
{
    m_text.push_back('}');
    return std::move(m_text);
}

} // namespace arizuko::jsontext
