// A build stopped by SIGTERM (a time limit, a batch system, Ctrl-C is
// SIGINT) while the compiler runs: the private temporary directory with the
// instrumented sources is removed, and ompp-instrument dies of the signal as
// the plain compiler would have (status 128+15), not of anything else.  The
// compiler here touches `started` and sleeps, so the signal arrives while
// the directory exists.
// DRIVER_ARGS: --version
// DRIVER_WRITE: slowcc: #!/bin/sh\ncase " $* " in *" -c "*) touch started; sleep 3;; esac\nexec {cc} "$@"
// DRIVER_THEN: mkdir tmp && chmod +x {dir}/slowcc && { (TMPDIR=tmp exec {tool} -- {dir}/slowcc -c {src}) & pid=$!; for i in $(seq 200); do [ -e started ] && break; sleep 0.1; done; [ -e started ] && [ -n "$(ls -A tmp)" ] && kill -TERM $pid; wait $pid; echo "status $? left [$(ls -A tmp)]"; }
// DRIVER_THEN_STDOUT: status 143 left \[\]
int f(int n) {
#pragma omp parallel
  n++;
  return n;
}
