// porta-logreg beyond one device: several devices in one process (--devices,
// porta/parallel.h), a device-memory cap (--device-memory: data that do not
// fit stream through in chunks) and MPI ranks (mpirun -np N porta-logreg:
// the rows split over the ranks, the sums gathered in rank order).
#pragma once

#include <cstdint>

#include "data.hpp"
#include "options.hpp"
#include "train.hpp"

namespace logreg_tool {

// MPI, when a launcher (mpirun, srun) started this process: the first call
// of ranks() initialises it (before anything is printed; ranks other than 0
// then print nothing on stdout) and finalises it at exit. One rank otherwise.
struct Ranks {
  int rank = 0, size = 1, local_rank = 0;
  const struct MpiApi* api = nullptr;  // null: no launcher
};
const Ranks& ranks();

// Whether training goes through porta/parallel.h: --devices, --device-memory or several ranks.
bool parallel_wanted(const Options& o);
// Whether the training rows stay in their file and are read as training
// needs them: --data naming a regular file with --device-memory (a pipe is
// read whole), training on one or more devices (not --backend all).
bool streams_from_file(const Options& o);

// Trains on --devices (else --backend's device; under MPI the device of this
// rank's local rank unless PORTA_DEVICE names one) with porta/parallel.h,
// this rank's rows only, and prints each device's share and throughput (and
// the ranks). Returns a Result as train() does.
Result train_parallel(const Options& o, const Data& data, uint64_t iterations, float lr,
                      uint64_t report_every, bool verbose, const Hooks& hooks);

}  // namespace logreg_tool
