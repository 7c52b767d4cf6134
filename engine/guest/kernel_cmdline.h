#pragma once

// The kernel command line carries the guest's boot-time settings
// (`arizuko.ip=10.213.0.2/30 arizuko.gw=10.213.0.1`).

#include <map>
#include <string>
#include <string_view>

namespace arizuko::guest {

// Parameters by name, split the way the kernel splits them: on whitespace
// outside double quotes, with the quotes around a value removed. A bare word
// maps to an empty value; a later repetition wins.
std::map<std::string, std::string, std::less<>> parseKernelCmdline(std::string_view cmdline);

} // namespace arizuko::guest
