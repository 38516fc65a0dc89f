// libporta_logreg_mpi.so: the few MPI calls porta-logreg makes (mpi_ranks.hpp).
#include "mpi_ranks.hpp"

#include <mpi.h>

#include <vector>

namespace {

MPI_Comm g_local = MPI_COMM_NULL;

int init(int* rank, int* size, int* local_rank) {
  int status = MPI_Init(nullptr, nullptr);
  if (status != MPI_SUCCESS) return status;
  // Errors come back as codes, not an abort, so that porta-logreg can name them.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if ((status = MPI_Comm_rank(MPI_COMM_WORLD, rank)) != MPI_SUCCESS) return status;
  if ((status = MPI_Comm_size(MPI_COMM_WORLD, size)) != MPI_SUCCESS) return status;
  if ((status = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, *rank, MPI_INFO_NULL, &g_local)) !=
      MPI_SUCCESS)
    return status;
  return MPI_Comm_rank(g_local, local_rank);
}

int allgather_sum(double* values, int count) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<double> all(static_cast<size_t>(size) * count);
  const int status = MPI_Allgather(values, count, MPI_DOUBLE, all.data(), count, MPI_DOUBLE, MPI_COMM_WORLD);
  if (status != MPI_SUCCESS) return status;
  for (int j = 0; j < count; ++j) {
    double s = 0;
    for (int r = 0; r < size; ++r) s += all[static_cast<size_t>(r) * count + j];
    values[j] = s;
  }
  return MPI_SUCCESS;
}

int allgather_u64(const uint64_t* mine, int count, uint64_t* all) {
  return MPI_Allgather(mine, count, MPI_UINT64_T, all, count, MPI_UINT64_T, MPI_COMM_WORLD);
}

void abort_all(int code) { MPI_Abort(MPI_COMM_WORLD, code); }

void finalize() {
  if (g_local != MPI_COMM_NULL) MPI_Comm_free(&g_local);
  MPI_Finalize();
}

const char* error_text(int code) {
  static thread_local char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return "unknown MPI error";
  return text;
}

const logreg_tool::MpiApi kApi = {init, allgather_sum, allgather_u64, abort_all, finalize, error_text};

}  // namespace

extern "C" __attribute__((visibility("default"))) const logreg_tool::MpiApi* porta_logreg_mpi() {
  return &kApi;
}
