// OMPP_INSTRUMENT_OPTIONS adds ompp-instrument options to every run.
// DRIVER_ENV: OMPP_INSTRUMENT_OPTIONS=--verbose
// DRIVER_ARGS: -- {cc} -fopenmp -c {src}
// DRIVER_STDERR: ^ompp-instrument: running:
// DRIVER_EXISTS: environment_options.o
int f(int n) { return n; }
