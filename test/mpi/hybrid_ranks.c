/* A hybrid MPI + OpenMP program for ompp's MPI tests (test/mpi): every rank
 * runs a parallel loop and reduces its partial sum with MPI_Allreduce from
 * the master thread inside the parallel region, then once more outside it,
 * meets the others at MPI_Barrier and swaps a block of ints with its ring
 * neighbours (MPI_Sendrecv).  Rank 1 (argv[1], if given) does four times
 * the loop work of the others: the slow rank that the others wait for. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kSteps = 3, kBlock = 1000 };

static double term(long i) { return 1.0 / ((double)i * (double)i + 1.0); }

int main(int argc, char** argv) {
    int provided = 0, rank = 0, size = 1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int slow_rank = argc > 1 ? atoi(argv[1]) : 1;
    const long n = (rank == slow_rank ? 4L : 1L) * 4000000L;
    double total = 0, check = 0;
    for (int step = 0; step < kSteps; ++step) {
        double partial = 0;
#pragma omp parallel
        {
#pragma omp for reduction(+ : partial)
            for (long i = 0; i < n; ++i) partial += term(i + step);
#pragma omp master
            MPI_Allreduce(&partial, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        MPI_Allreduce(&partial, &check, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    int out[kBlock], in[kBlock];
    for (int i = 0; i < kBlock; ++i) out[i] = rank;
    MPI_Sendrecv(out, kBlock, MPI_INT, (rank + 1) % size, 0, in, kBlock, MPI_INT, (rank + size - 1) % size, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0) printf("sum %.6f check %.6f from rank %d\n", total, check, in[0]);
    MPI_Finalize();
    return total == check ? 0 : 1;
}
