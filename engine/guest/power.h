#pragma once

// Ending the VM: PID 1 never exits (the kernel would panic); it syncs and
// powers the machine off, and a watchdog does so if anything hangs.

namespace arizuko::guest::power {

[[noreturn]] void powerOff();

// Powers off after `seconds` unless re-armed first: the backstop for a hang
// anywhere, including a write the host never reads.
void armWatchdog(unsigned seconds);

} // namespace arizuko::guest::power
