// demo.cpp - the example that scripts/demo.sh profiles.
//
// It has one of each thing a profile should make visible: an imbalanced
// parallel loop (threads wait at its implicit barrier), a contended critical
// section, recursive tasks with a taskwait, and a user region.
#include <pomp2/pomp2_user.h>

#include <cmath>
#include <cstdio>
#include <omp.h>

namespace {

// Work whose cost grows with i, so a static schedule leaves the threads that
// got the small indices waiting.
double triangle_work(int i) {
    double sum = 0.0;
    for (int k = 0; k < i * 2000; ++k) sum += std::sin(k * 1e-3);
    return sum;
}

long fib(int n) {
    if (n < 2) return n;
    if (n < 20) return fib(n - 1) + fib(n - 2);  // cut-off: small calls stay serial
    long a = 0, b = 0;
#pragma omp task shared(a)
    a = fib(n - 1);
#pragma omp task shared(b)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

}  // namespace

int main() {
    double total = 0.0;
    long shared_counter = 0;

    POMP_USER_REGION_BEGIN("setup and loops");
#pragma omp parallel
    {
#pragma omp for schedule(static) reduction(+ : total)
        for (int i = 0; i < 400; ++i) total += triangle_work(i);

        for (int i = 0; i < 2000; ++i) {
#pragma omp critical(counter)
            shared_counter += i;
        }
    }
    POMP_USER_REGION_END("setup and loops");

    long result = 0;
#pragma omp parallel
#pragma omp single
    result = fib(30);

    std::printf("total=%.3f counter=%ld fib(30)=%ld\n", total, shared_counter, result);
    return 0;
}
