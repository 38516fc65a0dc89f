// porta/parallel.hpp: the C++ face of porta/parallel.h (data-parallel
// training over several devices, of any backends, and over processes).
//
//   std::vector<porta::Device> devices = {porta::open("cpu"), porta::open("vulkan")};
//   porta::parallel::Options options;
//   options.iterations = 100;
//   porta::parallel::Result r = porta::parallel::train_logreg(devices, x.data(), y.data(), m, d, options);
#pragma once

#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "porta/parallel.h"
#include "porta/porta.hpp"

namespace porta::parallel {

struct Options {
  uint32_t iterations = 100;
  float lr = 0.5f;
  bool continue_on_failure = false;  // PORTA_PARALLEL_CONTINUE_ON_FAILURE
  bool fixed_shares = false;         // PORTA_PARALLEL_FIXED_SHARES
  uint64_t device_memory = 0;        // bytes per device; 0: no cap
  double rebalance_rate = 0.05;      // most rows moved per iteration, a fraction of all
  std::vector<double> shares;        // initial shares, one per device; empty: measured (fixed_shares: equal)
  std::vector<float> w0;             // initial weights; empty: zeros
  float b0 = 0;
  // Sums across processes (porta_parallel_combine_fn): d + 2 sums and the rows, in place.
  std::function<void(double* sums, uint32_t count)> combine;
};

struct Result {
  std::vector<float> w;
  float b = 0;
  std::vector<float> losses;         // the loss before each step
  std::vector<double> iteration_ms;  // each iteration's wall time
  std::vector<porta_parallel_device_report> devices;
};

// Reads rows [first, first + count) into x (count x d) and y; thread-safe.
using Reader = std::function<void(uint64_t first, uint64_t count, float* x, float* y)>;

namespace detail {

// What a callback threw (the first of any thread), thrown again by train().
struct Thrown {
  std::mutex mutex;
  std::exception_ptr error;
  porta_status keep(porta_status status) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!error) error = std::current_exception();
    return status;
  }
};

inline Result train(const std::vector<Device>& devices, porta_parallel_data& data, const Options& o,
                    Thrown* read_thrown = nullptr) {
  std::vector<porta_device> handles;
  for (const Device& dev : devices) handles.push_back(dev.handle());
  Result r;
  r.w = o.w0.empty() ? std::vector<float>(data.features, 0.0f) : o.w0;
  if (r.w.size() != data.features)
    throw Error(PORTA_ERROR_INVALID_ARGUMENT, "porta::parallel: w0 has " + std::to_string(r.w.size()) +
                                                  " weights for " + std::to_string(data.features) +
                                                  " features");
  if (!o.shares.empty() && o.shares.size() != devices.size())
    throw Error(PORTA_ERROR_INVALID_ARGUMENT, "porta::parallel: " + std::to_string(o.shares.size()) +
                                                  " shares for " + std::to_string(devices.size()) +
                                                  " devices");
  r.b = o.b0;
  r.losses.assign(o.iterations, 0.0f);
  r.iteration_ms.assign(o.iterations, 0.0);
  r.devices.assign(devices.size(), porta_parallel_device_report{});
  porta_parallel_options c{};
  c.struct_size = sizeof c;
  c.iterations = o.iterations;
  c.lr = o.lr;
  c.flags = (o.continue_on_failure ? uint32_t{PORTA_PARALLEL_CONTINUE_ON_FAILURE} : 0u) |
            (o.fixed_shares ? uint32_t{PORTA_PARALLEL_FIXED_SHARES} : 0u);
  c.device_memory = o.device_memory;
  c.rebalance_rate = o.rebalance_rate;
  c.shares = o.shares.empty() ? nullptr : o.shares.data();
  c.losses = r.losses.data();
  c.iteration_ms = r.iteration_ms.data();
  struct Hook {
    const Options* o;
    std::exception_ptr error;
  } hook{&o, nullptr};
  if (o.combine) {
    c.combine = [](double* sums, uint32_t count, void* user) -> porta_status {
      auto* h = static_cast<Hook*>(user);
      try {
        h->o->combine(sums, count);
        return PORTA_SUCCESS;
      } catch (...) {
        h->error = std::current_exception();
        return PORTA_ERROR_BACKEND;
      }
    };
    c.combine_user = &hook;
  }
  const porta_status status = porta_parallel_logreg_train(
      handles.data(), static_cast<uint32_t>(handles.size()), &data, &c, r.w.data(), &r.b, r.devices.data());
  if (hook.error) std::rethrow_exception(hook.error);
  if (read_thrown && read_thrown->error) std::rethrow_exception(read_thrown->error);
  porta::detail::check(status);
  return r;
}

}  // namespace detail

// X (m x d, row-major) and y in host memory (a memory-mapped file is read in place).
inline Result train_logreg(const std::vector<Device>& devices, const float* x, const float* y, uint64_t m,
                           uint64_t d, const Options& options) {
  porta_parallel_data data{};
  data.struct_size = sizeof data;
  data.rows = m;
  data.features = d;
  data.x = x;
  data.y = y;
  return detail::train(devices, data, options);
}

// Rows produced on demand by `read` (generated, converted or read from disk).
inline Result train_logreg(const std::vector<Device>& devices, const Reader& read, uint64_t m, uint64_t d,
                           const Options& options) {
  porta_parallel_data data{};
  data.struct_size = sizeof data;
  data.rows = m;
  data.features = d;
  // What `read` throws (a data file's error naming file and line) is thrown again as it was.
  struct Hook {
    const Reader* read;
    detail::Thrown thrown;
  } hook{&read, {}};
  data.read = [](void* user, uint64_t first, uint64_t count, float* x, float* y) -> porta_status {
    auto* h = static_cast<Hook*>(user);
    try {
      (*h->read)(first, count, x, y);
      return PORTA_SUCCESS;
    } catch (const Error& e) {
      return h->thrown.keep(e.status());
    } catch (...) {
      return h->thrown.keep(PORTA_ERROR_INVALID_ARGUMENT);
    }
  };
  data.user = &hook;
  return detail::train(devices, data, options, &hook.thrown);
}

}  // namespace porta::parallel
