// A build that has closed the read end of our stderr pipe: writing the
// warning fails, but the build goes on and the private temporary directory
// is still removed (LLVM's SIGPIPE handler used to exit at once, status 74).
// DRIVER_ARGS: --version
// DRIVER_THEN: mkdir tmp; /usr/bin/python3 -c "import os, subprocess, sys; r, w = os.pipe(); os.close(r); subprocess.run(sys.argv[1:], stderr=w, env=dict(os.environ, TMPDIR='tmp'))" {tool} -- {cc} -c {src}; test -z "$(ls -A tmp)"
int f(int n) {
#pragma omp parallel
  n++;
  return n;
}
