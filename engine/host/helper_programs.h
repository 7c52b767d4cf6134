#pragma once

// Where the engine finds the programs it runs but a person does not: the
// egress proxy, the guest's PID 1 and the guest image builder. A build tree
// keeps them beside arizukoctl and arizuko-desktop (build/bin); an installed
// package keeps them in its libexec directory (/usr/libexec/arizuko-desktop).

#include <QString>

namespace arizuko::host {

// The helper called `name`: beside the running program, else in the
// installed libexec directory relative to it (so a package installed under
// any prefix works). Empty when neither exists.
QString helperProgram(const QString &name);

// The places helperProgram() looks, in order, for error messages.
QString helperSearchPath(const QString &name);

} // namespace arizuko::host
