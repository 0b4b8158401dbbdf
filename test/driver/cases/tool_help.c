// --help documents usage, every option, the wrappers, environment and exit status.
// DRIVER_ARGS: --help
// DRIVER_STDOUT: USAGE: ompp-instrument \[options\] -- <compiler>
// DRIVER_STDOUT: --emit-source
// DRIVER_STDOUT: --opari2-compatible
// DRIVER_STDOUT: --keep-temps
// DRIVER_STDOUT: --disable=
// DRIVER_STDOUT: ^ENVIRONMENT
// DRIVER_STDOUT: OMPP_CXX
// DRIVER_STDOUT: ^EXIT STATUS
int unused;
