/* Instrumented by OPARI2 itself in the end-to-end test: code that OPARI2
 * rewrote links and runs against libompp (eager registration through
 * POMP2_Init_regions from the link-step file). */
#include <omp.h>
#include <stdio.h>

int main(void) {
    int sum = 0;
#pragma omp parallel
    {
#pragma omp for reduction(+ : sum)
        for (int i = 0; i < 100; ++i) sum += i;
#pragma omp critical
        sum += 1;
#pragma omp single
        {
#pragma omp task
            sum += 0;
#pragma omp taskwait
        }
    }
    printf("%d\n", sum > 0);
    return 0;
}
