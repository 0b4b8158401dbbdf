// --version names the tool and its version.
// DRIVER_ARGS: --version
// DRIVER_STDOUT: ^ompp-instrument \(ompp\) \d+\.\d+\.\d+$
int unused;
