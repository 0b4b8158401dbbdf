#ifndef HISTOGRAM_H
#define HISTOGRAM_H
#ifdef __cplusplus
extern "C" {
#endif
/* Counts values[i] % bins into counts[0..bins-1] in parallel. */
void histogram(const int *values, int n, long *counts, int bins);
#ifdef __cplusplus
}
#endif
#endif
