// code_location.hpp - "file:line" of a code address in the program, for the
// lock calls of a deadlock report (the POMP2 lock API carries no source
// location; the wrapper's return address is the application's call).
#pragma once

#include <string>

namespace ompp::deadlock {

// file:line from the object's debug information (addr2line, run once per
// report), or object+offset when it has none.  Slow: reports only.
std::string code_location(const void* address);

}  // namespace ompp::deadlock
