#include "json_object.hpp"

#include <set>
#include <string>

namespace arizuko::egress {

Expected<nlohmann::json> parseJsonObject(std::string_view line)
{
    std::set<std::string> keys;
    bool repeated = false;
    const auto noteKeys = [&](int depth, nlohmann::json::parse_event_t event,
                              nlohmann::json &parsed) {
        if (event == nlohmann::json::parse_event_t::key && depth == 1 &&
            !keys.insert(parsed.get<std::string>()).second)
            repeated = true;
        return true;
    };
    nlohmann::json object = nlohmann::json::parse(line, noteKeys, false);
    if (object.is_discarded())
        return Failure{"not JSON"};
    if (!object.is_object())
        return Failure{"not a JSON object"};
    if (repeated)
        return Failure{"a member given twice"};
    return object;
}

} // namespace arizuko::egress
