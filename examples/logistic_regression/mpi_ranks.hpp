// MPI for porta-logreg, in a module of its own (libporta_logreg_mpi.so, built
// where OpenMPI is found, PORTA_MPI): porta-logreg loads it only when a
// launcher (mpirun, srun) started it, so the tool itself needs no libmpi and
// runs on machines without OpenMPI.
#pragma once

#include <cstdint>

namespace logreg_tool {

struct MpiApi {
  // MPI_Init; this process's rank, the number of ranks, and its rank among
  // the ranks of its node (MPI_Comm_split_type SHARED). Returns 0 or an MPI error code.
  int (*init)(int* rank, int* size, int* local_rank);
  // Every rank's `count` values, gathered to every rank (MPI_Allgather) and
  // added in rank order, so that every rank gets the same sums.
  int (*allgather_sum)(double* values, int count);
  // Every rank's `count` values into all (size x count), on every rank.
  int (*allgather_u64)(const uint64_t* mine, int count, uint64_t* all);
  void (*abort)(int code);
  void (*finalize)();
  // The text of an MPI error code.
  const char* (*error_text)(int code);
};

}  // namespace logreg_tool

// The module's one entry point.
extern "C" const logreg_tool::MpiApi* porta_logreg_mpi();
