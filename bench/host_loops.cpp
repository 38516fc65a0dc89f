// The plain C++ loops porta's CPU backend is compared with: each op written
// the obvious way, the range split evenly over the same number of threads as
// the CPU backend uses, timed with the host clock. Compiled into porta-bench
// and offered through the same table as the peer libraries.
#include "host_loops.hpp"

#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "peer_support.hpp"

namespace porta::bench {

namespace {

unsigned g_threads = 1;

// Runs body(begin, end) over [0, n) on g_threads threads (the caller is one).
template <class Body>
void parallel(size_t n, Body body) {
  std::vector<std::thread> workers;
  const size_t chunk = (n + g_threads - 1) / g_threads;
  for (unsigned t = 1; t < g_threads; ++t) {
    const size_t begin = std::min(n, t * chunk), end = std::min(n, begin + chunk);
    workers.emplace_back([=] { body(begin, end); });
  }
  body(0, std::min(n, chunk));
  for (auto& w : workers) w.join();
}

std::vector<float> pattern(size_t n, float scale) {
  std::vector<float> v(n);
  parallel(n, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) v[i] = scale * (float((i * 2654435761u) % 1024u) / 1024.0f - 0.5f);
  });
  return v;
}

int loops_open(const char* hint, char* name, size_t name_capacity, char* error, size_t error_capacity) {
  const int threads = thread_count(hint, error, error_capacity);
  if (!threads) return 2;
  g_threads = static_cast<unsigned>(threads);
  copy_text(name, name_capacity, "host, " + std::to_string(g_threads) + " threads");
  return 0;
}

int loops_time(const char* op, const uint64_t dims[3], uint32_t warmup, uint32_t runs, double* samples,
               char* library, size_t library_capacity, char*, size_t) {
  const std::string name = op;
  std::vector<float> a, b, out;
  std::vector<float> w, bias(1, 0.0f);
  std::function<void()> run;
  if (name == "mul") {
    const size_t n = dims[0];
    a = pattern(n, 1.0f), b = pattern(n, 2.0f), out.resize(n);
    run = [&] {
      parallel(n, [&](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; ++i) out[i] = a[i] * b[i];
      });
    };
  } else if (name == "sigmoid") {
    const size_t n = dims[0];
    a = pattern(n, 16.0f), out.resize(n);
    run = [&] {
      parallel(n, [&](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; ++i) out[i] = 1.0f / (1.0f + std::exp(-a[i]));
      });
    };
  } else if (name == "copy") {
    const size_t n = dims[0] / sizeof(float);
    a = pattern(n, 1.0f), out.resize(n);
    run = [&] {
      parallel(n, [&](size_t lo, size_t hi) { std::memcpy(out.data() + lo, a.data() + lo, (hi - lo) * 4); });
    };
  } else if (name == "logreg_step") {
    // z = X w + b, r = sigmoid(z) - y, g = X^T r / m, one pass over X per
    // thread with a private gradient, then the threads' sums added.
    const size_t m = dims[0], d = dims[1];
    a = pattern(m * d, 1.0f), b = pattern(m, 1.0f), w.assign(d, 0.0f);
    for (auto& v : b) v = v > 0 ? 1.0f : 0.0f;
    run = [&, m, d] {
      std::vector<std::vector<float>> grads(g_threads, std::vector<float>(d + 2, 0.0f));
      std::vector<std::thread> workers;
      const size_t chunk = (m + g_threads - 1) / g_threads;
      auto body = [&](unsigned t) {
        std::vector<float>& g = grads[t];
        const size_t lo = std::min(m, t * chunk), hi = std::min(m, lo + chunk);
        for (size_t i = lo; i < hi; ++i) {
          const float* row = &a[i * d];
          float z = bias[0];
          for (size_t j = 0; j < d; ++j) z += row[j] * w[j];
          const float r = 1.0f / (1.0f + std::exp(-z)) - b[i];
          for (size_t j = 0; j < d; ++j) g[j] += row[j] * r;
          g[d] += r;
          g[d + 1] += std::max(z, 0.0f) + std::log1p(std::exp(-std::fabs(z))) - b[i] * z;
        }
      };
      for (unsigned t = 1; t < g_threads; ++t) workers.emplace_back(body, t);
      body(0);
      for (auto& th : workers) th.join();
      for (size_t j = 0; j <= d; ++j) {
        float s = 0;
        for (unsigned t = 0; t < g_threads; ++t) s += grads[t][j];
        if (j < d)
          w[j] -= 0.1f * s / float(m);
        else
          bias[0] -= 0.1f * s / float(m);
      }
    };
  } else {
    return PORTA_BENCH_PEER_UNSUPPORTED;
  }
  copy_text(library, library_capacity, "C++ loop");
  time_host_clock(warmup, runs, samples, run);
  return 0;
}

void loops_close() {}

const porta_bench_peer kLoops = {PORTA_BENCH_PEER_VERSION, "c++ loops", loops_open, loops_time, loops_close};

}  // namespace

const porta_bench_peer* host_loops_peer() { return &kLoops; }

}  // namespace porta::bench
