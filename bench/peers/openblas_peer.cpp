// porta-bench's host BLAS peer: OpenBLAS SGEMM with the thread count of
// porta's CPU backend (the open() hint), timed with the host clock.
#include <cblas.h>

#include <string>
#include <vector>

#include "peer.h"
#include "peer_support.hpp"

extern "C" void openblas_set_num_threads(int threads);
extern "C" char* openblas_get_config(void);

namespace {

using porta::bench::copy_text;

int g_threads = 1;

int peer_open(const char* hint, char* name, size_t name_capacity, char* error, size_t error_capacity) {
  g_threads = porta::bench::thread_count(hint, error, error_capacity);
  if (!g_threads) return 2;
  openblas_set_num_threads(g_threads);
  copy_text(name, name_capacity,
            std::string(openblas_get_config()) + ", " + std::to_string(g_threads) + " threads");
  return 0;
}

int peer_time(const char* op, const uint64_t dims[3], uint32_t warmup, uint32_t runs, double* samples,
              char* library, size_t library_capacity, char*, size_t) {
  if (std::string(op) != "matmul") return PORTA_BENCH_PEER_UNSUPPORTED;
  const size_t m = dims[0], n = dims[1], k = dims[2];
  std::vector<float> a(m * k), b(k * n), c(m * n);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float((i * 2654435761u) % 1024u) / 1024.0f - 0.5f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = float((i * 40503u) % 1024u) / 1024.0f - 0.5f;
  copy_text(library, library_capacity, "OpenBLAS SGEMM");
  auto run = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(n), int(k), 1.0f, a.data(), int(k),
                b.data(), int(n), 0.0f, c.data(), int(n));
  };
  porta::bench::time_host_clock(warmup, runs, samples, run);
  return 0;
}

void peer_close() {}

const porta_bench_peer kPeer = {PORTA_BENCH_PEER_VERSION, "openblas", peer_open, peer_time, peer_close};

}  // namespace

PORTA_BENCH_PEER_EXPORT(kPeer)
