/* Tasks below a BOTS-style cut-off, through ompp-cc: libompp counts a task
 * its if or final clause makes run at once without a clock, and the
 * instrumented code then leaves out the end calls that would have nothing to
 * do (POMP2_UNTIMED_DONE).  What must still hold afterwards: the outermost
 * final task's end is made (tasks created after it are deferred and timed
 * again), and a taskwait that may wait, after deferred tasks or a `nogroup`
 * taskloop, is timed.  Prints the counts the test compares with the profile.
 * Built with -DPOMP2_NO_INLINE_COUNTS too, its profile the same counts. */
#include <stdio.h>
#include <unistd.h>

enum { kCutoff = 3 };
static long tasks, undeferred, taskwaits;

static long fib(int n, int depth, int final_cutoff) {
  if (n < 2) return n;
  long x = 0, y = 0;
#pragma omp atomic
  tasks += 2;
  /* Undeferred by `if`, or included: created inside a final task. */
  if (final_cutoff ? depth > kCutoff : depth >= kCutoff) {
#pragma omp atomic
    undeferred += 2;
  }
#pragma omp task shared(x) if (final_cutoff || depth < kCutoff) final(final_cutoff && depth >= kCutoff)
  x = fib(n - 1, depth + 1, final_cutoff);
#pragma omp task shared(y) if (final_cutoff || depth < kCutoff) final(final_cutoff && depth >= kCutoff)
  y = fib(n - 2, depth + 1, final_cutoff);
#pragma omp atomic
  taskwaits += 1;
#pragma omp taskwait
  return x + y;
}

/* The same recursion with nothing else measured in it: below the cut-off
   the instrumented code counts its tasks and taskwaits itself, with no call
   into libompp (POMP2_Task_create_begin_fast). */
static long bare_fib(int n, int depth, int final_cutoff) {
  if (n < 2) return n;
  long x = 0, y = 0;
#pragma omp task shared(x) if (final_cutoff || depth < kCutoff) final(final_cutoff && depth >= kCutoff)
  x = bare_fib(n - 1, depth + 1, final_cutoff);
#pragma omp task shared(y) if (final_cutoff || depth < kCutoff) final(final_cutoff && depth >= kCutoff)
  y = bare_fib(n - 2, depth + 1, final_cutoff);
#pragma omp taskwait
  return x + y;
}

int main(void) {
  long if_result = 0, final_result = 0, bare_if = 0, bare_final = 0;
#pragma omp parallel
#pragma omp single
  {
    if_result = fib(16, 0, 0);
    final_result = fib(16, 0, 1);
    bare_if = bare_fib(16, 0, 0);
    bare_final = bare_fib(16, 0, 1);
    /* An undeferred final task, the outermost: the task inside it is
       included; the tasks after it are deferred again (timed), and the
       taskwait after them may wait: it waits about 2 ms. */
#pragma omp task if (0) final(1)
    {
#pragma omp task
      usleep(10);
    }
    for (int i = 0; i < 4; ++i) {
#pragma omp task
      usleep(2000);
    }
#pragma omp taskwait
    /* In a task of its own: after an undeferred task, a taskloop's tasks,
       which have no creation events; the taskwait after them may wait. */
#pragma omp task
    {
#pragma omp task if (0)
      usleep(10);
#pragma omp taskloop nogroup num_tasks(2)
      for (int i = 0; i < 2; ++i) usleep(2000);
#pragma omp taskwait
    }
  }
  printf("fib %ld %ld tasks %ld undeferred %ld taskwaits %ld bare %ld %ld\n", if_result, final_result, tasks,
         undeferred, taskwaits, bare_if, bare_final);
  return 0;
}
