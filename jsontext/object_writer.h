#pragma once

// One JSON object built member by member, in the order added: the proxy's
// log lines and the guest's protocol lines. Keys and text go through
// appendString, so the object is valid JSON and valid UTF-8 for any bytes.

#include <cstdint>
#include <string>
#include <string_view>

namespace arizuko::jsontext {

class ObjectWriter
{
public:
    ObjectWriter &add(std::string_view key, std::string_view text);
    ObjectWriter &add(std::string_view key, const char *text)
    {
        return add(key, std::string_view(text));
    }
    ObjectWriter &add(std::string_view key, std::int64_t number);
    ObjectWriter &add(std::string_view key, bool flag);
    // The object, closing brace included.
    std::string finish() &&;

private:
    void addKey(std::string_view key);
    std::string m_text = "{";
};

} // namespace arizuko::jsontext
