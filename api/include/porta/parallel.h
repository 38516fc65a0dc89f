/* porta/parallel.h: data-parallel training over several devices of one
 * process, of any backends mixed (a GPU and the CPU, several GPUs), and over
 * processes (MPI) through a combine hook.
 *
 * porta_parallel_logreg_train trains logistic regression by full-batch
 * gradient descent (the step of porta_ops_logreg_step) with the samples split
 * into one shard per device:
 *   - shards are sized so that the devices' predicted iteration times are
 *     equal: each device's time is modelled as a fixed cost plus a cost per
 *     row, fitted from its measured iterations at their shard sizes (the first
 *     counted iteration also times half the shard); shards move at most
 *     rebalance_rate * rows rows per iteration, and only when the predicted
 *     time improves by more than 3% and more than the iterations' noise; a
 *     device is left without rows when it does not pay for itself (with it,
 *     the step is predicted less than 5% shorter than with the others alone);
 *   - each device computes its shard's sums (porta_ops_logreg_gradient), the
 *     host adds them in device order in float64 (a fixed order: the same
 *     shards give bit-identical weights) and takes the step; the weights go
 *     to every device the next iteration; where one device holds every row
 *     in its memory and `combine` is null, the iterations after the first
 *     run on it alone (porta_ops_logreg_step, no host round trip per step);
 *   - a shard larger than device_memory streams through the device in
 *     chunks: per device a reader thread reads (or converts, via `read`)
 *     the chunk after next, an uploader thread uploads the next one on a
 *     second stream, while the device computes on the current one (two
 *     buffers each);
 *   - a device that fails stops the job with its name and the cause, or with
 *     PORTA_PARALLEL_CONTINUE_ON_FAILURE its rows move to the others and the
 *     iteration is taken again without it.
 * The result equals one device's within the reduction-order tolerance of
 * kernels/logreg_step/bound.hpp.
 *
 * Every function returns a porta_status; porta_last_error() says why. */
#ifndef PORTA_PARALLEL_H
#define PORTA_PARALLEL_H

#include "porta/porta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The samples: float32 X (rows x features, row-major) and y (rows, labels in
 * [0, 1]). Either in host memory (x and y; a memory-mapped file is read in
 * place, without a copy on the host) or produced on demand by `read`, which
 * fills rows [first, first + count) into x_out (count x features) and y_out.
 * `read` is called from porta's reader threads, for several devices at once:
 * it must be thread-safe. */
typedef struct porta_parallel_data {
  uint32_t struct_size; /* sizeof(porta_parallel_data) */
  uint64_t rows;
  uint64_t features;
  const float* x;
  const float* y;
  porta_status (*read)(void* user, uint64_t first, uint64_t count, float* x_out, float* y_out);
  void* user;
} porta_parallel_data;

enum {
  /* A device that fails drops out; its rows go to the others. */
  PORTA_PARALLEL_CONTINUE_ON_FAILURE = 1u << 0,
  /* Shards stay as first given (equal, or `shares`): runs are bit-identical. */
  PORTA_PARALLEL_FIXED_SHARES = 1u << 1
};

/* Combines the host's sums with other processes' (e.g. MPI): `sums` holds
 * `count` float64 values, the d + 2 sums of the iteration (X^T r, r, the
 * loss) then the number of rows they cover; replace them in place by the
 * totals over all processes, the same on every process and in a fixed order
 * (so that every process takes the same step). */
typedef porta_status (*porta_parallel_combine_fn)(double* sums, uint32_t count, void* user);

typedef struct porta_parallel_options {
  uint32_t struct_size; /* sizeof(porta_parallel_options) */
  uint32_t iterations;  /* gradient steps, at least 1 */
  float lr;             /* learning rate, finite */
  uint32_t flags;       /* PORTA_PARALLEL_* */
  /* Bytes porta may use on each device for this job; 0: no cap. A shard that
   * does not fit streams through in chunks. */
  uint64_t device_memory;
  /* Most rows moved between shards per iteration, as a fraction of all rows;
   * 0: 0.05. */
  double rebalance_rate;
  /* Initial shares (device_count values, any positive scale), or NULL: with
   * PORTA_PARALLEL_FIXED_SHARES equal, else measured before the first
   * iteration (each device times the step on the same first rows, up to
   * 256 MiB of them, at two sizes) and balanced by those times. */
  const double* shares;
  porta_parallel_combine_fn combine; /* or NULL: this process alone */
  void* combine_user;
  float* losses; /* `iterations` values: the loss before each step; or NULL */
  /* `iterations` values: each iteration's wall time in milliseconds (the
   * devices' work, the host's sums and step; an iteration taken again after a
   * failure counts once, with its retry); or NULL */
  double* iteration_ms;
} porta_parallel_options;

/* What each device did. */
typedef struct porta_parallel_device_report {
  uint64_t rows;          /* its shard at the end (0 if it dropped out or was useless) */
  uint64_t first_row;     /* where the shard starts */
  double rows_per_second; /* its throughput over the last iterations */
  double busy_ms;         /* time spent on its shards, all iterations */
  uint64_t chunks;        /* chunks per iteration at the end; 1: in device memory */
  porta_status status;    /* PORTA_SUCCESS, or why it dropped out */
} porta_parallel_device_report;

/* Trains from the weights in w (features values) and *b, and leaves the
 * result there. devices: device_count open devices (porta_device_open),
 * distinct or not. reports: device_count entries, or NULL. */
PORTA_API porta_status porta_parallel_logreg_train(const porta_device* devices, uint32_t device_count,
                                                   const porta_parallel_data* data,
                                                   const porta_parallel_options* options, float* w, float* b,
                                                   porta_parallel_device_report* reports);

#ifdef __cplusplus
}
#endif

#endif /* PORTA_PARALLEL_H */
