/* A blocked sparse LU factorisation in the shape of the BOTS sparselu
 * benchmark: every `omp for` body is an unbraced `if (...)` (or loop) whose
 * statement is `#pragma omp task` with a braced block.  The end code of the
 * `for` must follow the whole task, not the task's pragma line; the result is
 * compared with a serial factorisation of the same matrix. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NB = 6, BS = 4 };
typedef double block_t[BS][BS];

static block_t *new_block(void) { return (block_t *)calloc(1, sizeof(block_t)); }

static void fill(block_t *m[NB][NB]) {
  for (int i = 0; i < NB; i++)
    for (int j = 0; j < NB; j++) {
      m[i][j] = 0;
      if (i == j || (i + j) % 3 != 0) {
        m[i][j] = new_block();
        for (int a = 0; a < BS; a++)
          for (int b = 0; b < BS; b++)
            (*m[i][j])[a][b] = (a == b && i == j) ? 4.0 * BS : 1.0 / (1 + a + b + i + j);
      }
    }
}

static void lu_diag(block_t *d) {
  for (int k = 0; k < BS; k++)
    for (int i = k + 1; i < BS; i++) {
      (*d)[i][k] /= (*d)[k][k];
      for (int j = k + 1; j < BS; j++)
        (*d)[i][j] -= (*d)[i][k] * (*d)[k][j];
    }
}

static void forward(block_t *d, block_t *col) {
  for (int k = 0; k < BS; k++)
    for (int i = k + 1; i < BS; i++)
      for (int j = 0; j < BS; j++)
        (*col)[i][j] -= (*d)[i][k] * (*col)[k][j];
}

static void divide(block_t *d, block_t *row) {
  for (int i = 0; i < BS; i++)
    for (int k = 0; k < BS; k++) {
      (*row)[i][k] /= (*d)[k][k];
      for (int j = k + 1; j < BS; j++)
        (*row)[i][j] -= (*row)[i][k] * (*d)[k][j];
    }
}

static void update(block_t *row, block_t *col, block_t *inner) {
  for (int i = 0; i < BS; i++)
    for (int j = 0; j < BS; j++)
      for (int k = 0; k < BS; k++)
        (*inner)[i][j] -= (*row)[i][k] * (*col)[k][j];
}

static void factor_serial(block_t *m[NB][NB]) {
  for (int kk = 0; kk < NB; kk++) {
    lu_diag(m[kk][kk]);
    for (int jj = kk + 1; jj < NB; jj++)
      if (m[kk][jj])
        forward(m[kk][kk], m[kk][jj]);
    for (int ii = kk + 1; ii < NB; ii++)
      if (m[ii][kk])
        divide(m[kk][kk], m[ii][kk]);
    for (int ii = kk + 1; ii < NB; ii++)
      if (m[ii][kk])
        for (int jj = kk + 1; jj < NB; jj++)
          if (m[kk][jj]) {
            if (!m[ii][jj])
              m[ii][jj] = new_block();
            update(m[ii][kk], m[kk][jj], m[ii][jj]);
          }
  }
}

static void factor_tasks(block_t *m[NB][NB]) {
  int kk, ii, jj;
#pragma omp parallel private(kk)
  {
    for (kk = 0; kk < NB; kk++) {
#pragma omp single
      lu_diag(m[kk][kk]);
#pragma omp for nowait
      for (jj = kk + 1; jj < NB; jj++)
        if (m[kk][jj] != NULL)
#pragma omp task firstprivate(kk, jj) shared(m)
        {
          forward(m[kk][kk], m[kk][jj]);
        }
#pragma omp for
      for (ii = kk + 1; ii < NB; ii++)
        if (m[ii][kk] != NULL)
#pragma omp task firstprivate(kk, ii) shared(m)
        {
          divide(m[kk][kk], m[ii][kk]);
        }
#pragma omp barrier
#pragma omp for private(jj)
      for (ii = kk + 1; ii < NB; ii++)
        if (m[ii][kk] != NULL)
          for (jj = kk + 1; jj < NB; jj++)
            if (m[kk][jj] != NULL)
#pragma omp task firstprivate(kk, jj, ii) shared(m)
            {
              if (m[ii][jj] == NULL)
                m[ii][jj] = new_block();
              update(m[ii][kk], m[kk][jj], m[ii][jj]);
            }
#pragma omp barrier
    }
  }
}

int main(void) {
  static block_t *serial[NB][NB], *tasks[NB][NB];
  fill(serial);
  fill(tasks);
  factor_serial(serial);
  factor_tasks(tasks);
  int same = 1, blocks = 0;
  for (int i = 0; i < NB; i++)
    for (int j = 0; j < NB; j++) {
      if (!serial[i][j] != !tasks[i][j]) {
        same = 0;
        continue;
      }
      if (serial[i][j]) {
        blocks++;
        same &= memcmp(serial[i][j], tasks[i][j], sizeof(block_t)) == 0;
      }
      free(serial[i][j]);
      free(tasks[i][j]);
    }
  printf("%s %d\n", same ? "same" : "different", blocks);
  return 0;
}
// STDOUT: same 34
// Tasks of one `for` may run at its barrier or the next: counts only.
// T1.COUNT: Task_create_begin task@90 = 14
// T1.COUNT: Task_end task@90 = 14
// T1.COUNT: Task_end task@97 = 14
// T1.COUNT: Task_end task@107 = 46
// T1.COUNT: For_exit for@94 = 6
// T2.COUNT: Task_begin task@90 = 14
// T2.COUNT: Task_begin task@97 = 14
// T2.COUNT: Task_create_end task@107 = 46
// T2.COUNT: For_enter for@102 = 12
// T2.COUNT: Single_begin single@85 = 6
