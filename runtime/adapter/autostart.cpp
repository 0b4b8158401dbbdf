// Only in libompp.so: measurement starts when the library is loaded (so the
// profile's duration is the program's) and ends with it at the latest.
#include "adapter/lifecycle.hpp"

namespace {

__attribute__((constructor)) void ompp_start_at_load() { ompp::adapter::start(); }
__attribute__((destructor)) void ompp_finalise_at_unload() { ompp::adapter::finalise(); }

}  // namespace
