// Data-parallel logistic regression over several devices (porta/parallel.h).
//
// Each iteration every device computes the sums of its shard of rows
// (porta_ops_logreg_gradient) in a thread of its own; the host adds the
// devices' sums in device order in float64, optionally combines them with
// other processes (the combine hook: MPI), takes the step and sends the
// weights to every device the next iteration. Shards are contiguous row
// ranges in device order, sized so that the devices' predicted times are
// equal (shares.hpp: each device's time as a fixed cost plus a cost per row,
// fitted from its iterations, and before the first where no shares are given
// from the step timed on the same first rows: calibrate).
//
// A shard that does not fit the device_memory cap streams through two chunk
// buffers: a reader thread reads (or converts, data->read) chunk k + 1 into
// host staging, an uploader thread uploads chunk k on the upload stream, the
// compute stream works on chunk k - 1. The hand-over is on the device
// (porta_stream_wait_event): the compute stream waits for the event recorded
// after chunk k's upload, and the upload stream waits for the event recorded
// after the compute stream's last use of the buffer before refilling it. The
// host waits only where host memory is reused: staged rows, once their upload
// has finished. To a device with memory of its own the rows are staged in
// page-locked host memory the device imports (porta_buffer_import_host: CUDA
// registers it), which the reader fills and the upload stream copies from as
// a DMA; from pageable memory the backend would copy them into its own
// page-locked memory first, on the uploader's thread.
#include "logreg_train.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <numeric>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "porta/interop.hpp"
#include "porta/porta.hpp"
#include "shares.hpp"

namespace porta::parallel {

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void fail(porta_status status, const std::string& message) {
  throw porta::Error(status, "porta_parallel_logreg_train: " + message);
}

// PORTA_PARALLEL_FAIL=DEVICE:ITERATION (a testing knob): device DEVICE (its
// index in the list) fails at that iteration, as a device that is lost would.
bool injected_failure(uint32_t device, uint64_t iteration) {
  const char* env = std::getenv("PORTA_PARALLEL_FAIL");
  if (!env) return false;
  unsigned long long dev = 0, it = 0;
  if (std::sscanf(env, "%llu:%llu", &dev, &it) != 2) return false;
  return dev == device && it == iteration;
}

// PORTA_PARALLEL_SIMULATED_MS=FIXED:PER_ROW[,FIXED:PER_ROW...] (a testing
// knob): device i's measured time is replaced by FIXED + PER_ROW * rows
// milliseconds, so that tests see the re-balancing of devices they choose.
// Returns a negative time where the knob says nothing of the device.
double simulated_ms(uint32_t device, uint64_t rows) {
  const char* env = std::getenv("PORTA_PARALLEL_SIMULATED_MS");
  if (!env) return -1;
  const char* at = env;
  for (uint32_t i = 0;; ++i) {
    double fixed = 0, per_row = 0;
    if (std::sscanf(at, "%lf:%lf", &fixed, &per_row) != 2) return -1;
    if (i == device) return fixed + per_row * static_cast<double>(rows);
    at = std::strchr(at, ',');
    if (!at) return -1;
    ++at;
  }
}

// PORTA_PARALLEL_TRACE=1 (a diagnostic knob): each device's iteration on
// standard error: its rows, the device's time (events on its compute
// stream), the host's time from the first command queued to the sums read
// back, and the time spent loading its shard.
bool tracing() {
  static const bool on = [] {
    const char* env = std::getenv("PORTA_PARALLEL_TRACE");
    return env && *env && std::strcmp(env, "0") != 0;
  }();
  return on;
}

// PORTA_PARALLEL_PINNED_STAGING (a testing knob): 0 streams from pageable
// host memory, 1 stages in imported host memory on every device (also where
// buffers are host memory: the cpu backend, lavapipe, PoCL); unset: on
// devices with memory of their own (not PORTA_DEVICE_FLAG_UNIFIED_MEMORY).
bool pinned_staging_for(const porta::Device& device) {
  const char* env = std::getenv("PORTA_PARALLEL_PINNED_STAGING");
  if (env && *env) return std::strcmp(env, "0") != 0;
  return (device.info().flags & PORTA_DEVICE_FLAG_UNIFIED_MEMORY) == 0;
}

// A device's part of the job.
struct Worker {
  uint32_t index = 0;
  porta::Device device;
  porta::Stream compute, upload;
  std::string name;  // "vulkan:0 (llvmpipe ...)"
  bool alive = true;
  porta_status status = PORTA_SUCCESS;
  std::string error;

  uint64_t first = 0, rows = 0;  // the shard
  bool loaded = false;           // the shard (or the chunk buffers) are in place
  uint64_t chunk_rows = 0;       // rows per chunk; == rows: in memory
  uint64_t chunks = 1;
  // Streaming: two chunk buffers each. In memory: held_x, held_y hold the
  // shard, in pieces of held_rows rows where X exceeds the device's largest
  // buffer (NVIDIA's Vulkan driver: 4 GiB), else in one.
  porta::Buffer x[2], y[2], weights, sums, workspace;
  std::vector<porta::Buffer> held_x, held_y;
  uint64_t held_rows = 0;
  // The rows held in device memory (held_x): [held_first, held_first +
  // held_count); a new shard in memory copies what it shares with them on the
  // device and uploads only the rest.
  uint64_t held_first = 0, held_count = 0;
  uint64_t uploaded_rows = 0;  // by the last load, from the host
  std::vector<float> staging_x[2], staging_y[2];  // data->read's chunks
  // Streaming to a device with memory of its own: two chunks of host memory
  // (x, then y) the device imports, page-locked, which the reader fills and
  // the upload stream copies from; empty where the device cannot import it
  // (the rows are then written from pageable memory).
  porta::Buffer pinned[2];
  float* pinned_host[2] = {};

  std::vector<float> result;        // the shard's d + 2 sums this iteration
  double ms = 0;                    // this iteration
  double host_ms = 0, load_ms = 0;  // this iteration, for PORTA_PARALLEL_TRACE
  double load_ms_per_row = 0;       // the last load of a shard, per row uploaded
  double busy_ms = 0;
  double rate = 0;  // rows per second, smoothed (the report's)
  CostModel cost;   // what the shares follow
  // This iteration also times the first half of the shard, a second shard
  // size for the cost model (kept in probe_ms); the result is not used.
  bool probe = false;
  double probe_ms = 0;
};

struct Job {
  const porta_parallel_data* data = nullptr;
  uint64_t d = 0;
  uint64_t cap = 0;  // device_memory
};

uint64_t row_bytes(const Job& job) { return (job.d + 1) * sizeof(float); }

// Rows [first, first + count) of the data in host memory: in place (a
// memory-mapped file included), or converted by data->read into `sx`, `sy`.
struct HostRows {
  const float* x;
  const float* y;
};
// Rows [first, first + count) converted by data->read into x, y.
void read_rows(const Job& job, uint64_t first, uint64_t count, float* x, float* y) {
  const porta_status status = job.data->read(job.data->user, first, count, x, y);
  if (status != PORTA_SUCCESS)
    fail(status, "the data's read callback failed for rows " + std::to_string(first) + ".." +
                     std::to_string(first + count) +
                     (porta_last_error()[0] ? std::string(": ") + porta_last_error() : ""));
}

HostRows stage_rows(const Job& job, uint64_t first, uint64_t count, std::vector<float>& sx,
                    std::vector<float>& sy) {
  if (job.data->x) return {job.data->x + first * job.d, job.data->y + first};
  sx.resize(count * job.d);
  sy.resize(count);
  read_rows(job, first, count, sx.data(), sy.data());
  return {sx.data(), sy.data()};
}

// Runs fn(at, n) over rows [0, count) in slices on several threads at once
// (the calling thread takes the last), where the rows are many: one core
// copies some 5-10 GB/s, and a device's link to the host takes several times
// that. Throws the first slice's error. PORTA_PARALLEL_STAGING_SLICES=N (a
// testing knob) cuts every chunk into N slices.
template <class Fn>
void in_slices(uint64_t count, uint64_t row_bytes, Fn fn) {
  constexpr uint64_t kSliceBytes = uint64_t{8} << 20;  // less is copied by one thread
  const uint64_t cores = std::max(1u, std::thread::hardware_concurrency());
  uint64_t ways = std::clamp<uint64_t>(count * row_bytes / kSliceBytes, 1,
                                       std::max<uint64_t>(1, std::min<uint64_t>(cores / 2, 8)));
  if (const char* env = std::getenv("PORTA_PARALLEL_STAGING_SLICES"))
    ways = std::clamp<uint64_t>(std::strtoull(env, nullptr, 10), 1, std::max<uint64_t>(count, 1));
  std::vector<std::thread> threads;
  std::exception_ptr error;
  std::mutex mutex;
  auto slice = [&](uint64_t i) {
    const uint64_t at = count * i / ways;
    try {
      fn(at, count * (i + 1) / ways - at);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!error) error = std::current_exception();
    }
  };
  for (uint64_t i = 0; i + 1 < ways; ++i) threads.emplace_back(slice, i);
  slice(ways - 1);
  for (std::thread& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

// Rows [first, first + count) staged in the worker's page-locked chunk `k`
// (x, then y after chunk_rows rows of x): copied from host memory, or
// converted by data->read (thread-safe, parallel.h) straight into it.
HostRows stage_pinned(const Job& job, Worker& wk, int k, uint64_t first, uint64_t count) {
  float* x = wk.pinned_host[k];
  float* y = x + wk.chunk_rows * job.d;
  in_slices(count, row_bytes(job), [&](uint64_t at, uint64_t n) {
    if (job.data->x) {
      std::memcpy(x + at * job.d, job.data->x + (first + at) * job.d, n * job.d * sizeof(float));
      std::memcpy(y + at, job.data->y + first + at, n * sizeof(float));
    } else {
      read_rows(job, first + at, n, x + at * job.d, y + at);
    }
  });
  return {x, y};
}

// Page-locked chunks for streaming, where the worker's device wants them and
// can import host memory; the memory is freed when the device no longer uses it.
void make_pinned(const Job& job, Worker& wk) {
  const auto drop = [&wk] {
    for (int k = 0; k < 2; ++k) {
      wk.pinned[k] = {};
      wk.pinned_host[k] = nullptr;
    }
  };
  drop();
  if (wk.chunks == 1 || !pinned_staging_for(wk.device)) return;
  constexpr size_t kPage = 4096;
  const size_t bytes = (wk.chunk_rows * (job.d + 1) * sizeof(float) + kPage - 1) / kPage * kPage;
  for (int k = 0; k < 2; ++k) {
    void* host = std::aligned_alloc(kPage, bytes);
    if (!host) break;
    porta_native_memory memory{};
    memory.kind = PORTA_NATIVE_MEMORY_HOST;
    memory.bytes = bytes;
    memory.host_pointer = host;
    memory.release = [](void* p) { std::free(p); };
    memory.release_user_data = host;
    try {
      wk.pinned[k] = porta::import_native(wk.device, memory);
    } catch (const porta::Error& e) {
      std::free(host);  // not imported: not the device's to release
      if (tracing())
        std::fprintf(stderr, "porta parallel: device %u %s streams from pageable memory: %s\n", wk.index,
                     wk.name.c_str(), e.what());
      break;
    }
    wk.pinned_host[k] = static_cast<float*>(host);
  }
  if (!wk.pinned_host[1]) drop();  // both or neither
}

// Queues staged rows into device buffers x, y on `stream`, from row `at` of
// the buffers on; the rows must stay until the stream has done them.
void queue_upload(const Job& job, porta::Stream& stream, const porta::Buffer& x, const porta::Buffer& y,
                  HostRows rows, uint64_t count, uint64_t at = 0) {
  stream.write(x, Span<const float>(rows.x, count * job.d), at * job.d * sizeof(float));
  stream.write(y, Span<const float>(rows.y, count), at * sizeof(float));
}

// Whether a shard taking `bytes` of device memory can be loaded beside the
// rows the device holds now (both within the cap), so that the rows they
// share are copied on the device rather than uploaded again.
bool keeps_held_rows(const Job& job, const Worker& wk, uint64_t bytes) {
  return wk.held_count > 0 && (!job.cap || bytes + wk.held_count * row_bytes(job) <= job.cap);
}

// Sets the worker up for its shard: in device memory where it fits the cap,
// else chunks of two buffers. Called when the shard changes.
void prepare(const Job& job, Worker& wk) {
  const uint64_t d = job.d, bytes_per_row = row_bytes(job);
  const uint64_t fixed = (d + 1 + d + 2) * sizeof(float);  // weights and sums
  auto workspace_for = [&](uint64_t rows) { return porta::ops::logreg_workspace_bytes(wk.device, rows, d); };
  const uint64_t whole = wk.rows * bytes_per_row + workspace_for(wk.rows) + fixed;
  if (!job.cap || whole <= job.cap) {
    wk.chunk_rows = wk.rows;
    wk.chunks = 1;
  } else {
    // Two chunks and the workspace of one within the cap.
    uint64_t rows = job.cap > fixed ? (job.cap - fixed) / (2 * bytes_per_row) : 0;
    while (rows > 0 && 2 * rows * bytes_per_row + workspace_for(rows) + fixed > job.cap)
      rows = rows * 7 / 8;  // the workspace grows with the rows: shrink until both fit
    if (rows == 0)
      fail(PORTA_ERROR_OUT_OF_MEMORY, "device " + wk.name + ": device_memory = " + std::to_string(job.cap) +
                                          " bytes cannot hold two chunks of one row (" +
                                          std::to_string(bytes_per_row) +
                                          " bytes each) with the weights, sums and workspace");
    wk.chunk_rows = std::min(rows, wk.rows);
    wk.chunks = (wk.rows + wk.chunk_rows - 1) / wk.chunk_rows;
  }
  for (uint64_t i = 0; i < 2; ++i) {
    wk.x[i] = {};
    wk.y[i] = {};
  }
  // The rows held now, kept while the new shard loads where it is held in
  // memory too and shares rows with them; else given back first.
  std::vector<porta::Buffer> old_x, old_y;
  const uint64_t old_first = wk.held_first, old_rows = wk.held_rows;
  uint64_t old_count = 0;
  if (wk.chunks == 1 && keeps_held_rows(job, wk, whole) && wk.first < old_first + wk.held_count &&
      old_first < wk.first + wk.rows) {
    old_x = std::move(wk.held_x);
    old_y = std::move(wk.held_y);
    old_count = wk.held_count;
  }
  wk.held_x.clear();
  wk.held_y.clear();
  wk.held_count = 0;
  wk.workspace = {};
  uint64_t workspace_rows = wk.chunk_rows;
  if (wk.chunks == 1) {
    const uint64_t largest = wk.device.info().limits.max_buffer_bytes;
    wk.held_rows = std::max<uint64_t>(1, std::min(wk.rows, largest / (d * sizeof(float))));
    auto allocate = [&] {
      for (uint64_t first = 0; first < wk.rows; first += wk.held_rows) {
        const uint64_t count = std::min(wk.held_rows, wk.rows - first);
        wk.held_x.push_back(wk.device.buffer(count * d * sizeof(float)));
        wk.held_y.push_back(wk.device.buffer(count * sizeof(float)));
      }
    };
    try {
      allocate();
    } catch (const porta::Error& e) {
      if (e.status() != PORTA_ERROR_OUT_OF_MEMORY || old_x.empty()) throw;
      // No room for both: the new shard is uploaded whole.
      wk.held_x.clear();
      wk.held_y.clear();
      old_x.clear();
      old_y.clear();
      old_count = 0;
      allocate();
    }
    workspace_rows = wk.held_rows;
  } else {
    for (uint64_t i = 0; i < 2; ++i) {
      wk.x[i] = wk.device.buffer(wk.chunk_rows * d * sizeof(float));
      wk.y[i] = wk.device.buffer(wk.chunk_rows * sizeof(float));
    }
  }
  make_pinned(job, wk);
  wk.workspace = wk.device.buffer(std::max<uint64_t>(workspace_for(workspace_rows), 4));
  if (!wk.weights) {
    wk.weights = wk.device.buffer((d + 1) * sizeof(float));
    wk.sums = wk.device.buffer((d + 2) * sizeof(float));
  }
  // Each piece's rows: those the device held copied on the device, the others uploaded.
  wk.uploaded_rows = 0;
  const uint64_t old_end = old_first + old_count;
  for (size_t i = 0; i < wk.held_x.size(); ++i) {
    const uint64_t piece = wk.first + i * wk.held_rows, end = piece + std::min(wk.held_rows, wk.rows - i * wk.held_rows);
    for (uint64_t at = piece; at < end;) {
      uint64_t n = end - at;
      if (at >= old_first && at < old_end) {
        const uint64_t j = (at - old_first) / old_rows, from = (at - old_first) % old_rows;
        n = std::min({n, old_rows - from, old_end - at});
        wk.compute.copy(old_x[j], wk.held_x[i], n * d * sizeof(float), from * d * sizeof(float),
                        (at - piece) * d * sizeof(float));
        wk.compute.copy(old_y[j], wk.held_y[i], n * sizeof(float), from * sizeof(float), (at - piece) * sizeof(float));
      } else {
        if (at < old_first && old_count) n = std::min(n, old_first - at);
        queue_upload(job, wk.compute, wk.held_x[i], wk.held_y[i],
                     stage_rows(job, at, n, wk.staging_x[0], wk.staging_y[0]), n, at - piece);
        wk.compute.sync();  // the staging is refilled for the next rows
        wk.uploaded_rows += n;
      }
      at += n;
    }
  }
  if (old_count) wk.compute.sync();  // the copies are done before the old rows go
  if (wk.chunks == 1) {
    wk.held_first = wk.first;
    wk.held_count = wk.rows;
  }
  wk.loaded = true;
}

// Queues the gradient of `count` rows in buffers x, y onto the worker's sums.
void queue_gradient(const Job& job, Worker& wk, const porta::Buffer& x, const porta::Buffer& y,
                    uint64_t count) {
  const uint64_t d = job.d;
  porta::Tensor tx(x, {count, d}), ty(y, {count}), tw(wk.weights, {d}), tb(wk.weights, {1}, d),
      ts(wk.sums, {d + 2}), tws(wk.workspace, {wk.workspace.size() / sizeof(float)});
  porta::ops::logreg_gradient(wk.compute, tx, nullptr, ty, tw, tb, ts, &tws);
}

// The sums of the shard's first `count` rows at the weights `wb` (w then b)
// into `out`; returns the device's time for them in milliseconds, from events
// on its compute stream (without loading a shard that moved): its own work
// and its waits for chunks. Where two handles share hardware whose queue is
// shared too (lavapipe's one thread pool), it includes waiting for the
// other's work: such handles are not independent devices.
double shard_sums(const Job& job, Worker& wk, const std::vector<float>& wb, uint64_t count,
                  std::vector<float>& out) {
  porta::Event start = wk.compute.record_event();
  wk.compute.write(wk.weights, wb);
  wk.compute.fill(wk.sums, 0.0f);
  const uint64_t chunks = (count + wk.chunk_rows - 1) / wk.chunk_rows;
  if (wk.chunks == 1) {
    for (size_t i = 0; i < wk.held_x.size() && i * wk.held_rows < count; ++i)
      queue_gradient(job, wk, wk.held_x[i], wk.held_y[i], std::min(wk.held_rows, count - i * wk.held_rows));
  } else {
    // Three threads hand chunk k along: the reader reads (converts) it into
    // staging k % 2 once chunk k - 2's upload from there has finished; the
    // uploader queues its upload into buffer k % 2 behind the compute
    // stream's event after chunk k - 2; the compute thread queues its kernels
    // behind the upload's event. Reading chunk k + 1 overlaps uploading chunk
    // k, which overlaps computing k - 1; only staged rows (converted, or in
    // page-locked staging) make the host wait for an upload.
    const bool pinned = wk.pinned_host[0] != nullptr;
    const bool staged_copies = job.data->x == nullptr || pinned;
    std::mutex mutex;
    std::condition_variable changed;
    // Chunks read; uploads queued (uploaded[k] recorded); uploads whose host
    // rows are free again; chunks whose kernels are queued (used[k] recorded).
    uint64_t staged = 0, loaded = 0, unstaged = 0, released = 0;
    std::vector<porta::Event> uploaded(chunks), used(chunks);
    HostRows staged_rows[2] = {};
    std::exception_ptr error;
    bool stop = false;
    // Waits until `ready`; false when the hand-over ended (a failure, or the compute thread stopped).
    auto wait_until = [&](auto ready) {
      std::unique_lock<std::mutex> lock(mutex);
      changed.wait(lock, [&] { return stop || error || ready(); });
      return !stop && !error;
    };
    auto advance = [&](uint64_t& counter, uint64_t value) {
      std::lock_guard<std::mutex> lock(mutex);
      counter = value;
      changed.notify_all();
    };
    auto rows_of = [&](uint64_t k) { return std::min(wk.chunk_rows, count - k * wk.chunk_rows); };
    auto hand_over = [&](auto body) {
      return std::thread([&, body] {
        try {
          body();
        } catch (...) {
          std::lock_guard<std::mutex> lock(mutex);
          if (!error) error = std::current_exception();
          changed.notify_all();
        }
      });
    };
    std::thread reader = hand_over([&] {
      for (uint64_t k = 0; k < chunks; ++k) {
        if (!wait_until([&] { return unstaged + 2 > k; })) return;
        const uint64_t first = wk.first + k * wk.chunk_rows;
        staged_rows[k % 2] =
            pinned ? stage_pinned(job, wk, static_cast<int>(k % 2), first, rows_of(k))
                   : stage_rows(job, first, rows_of(k), wk.staging_x[k % 2], wk.staging_y[k % 2]);
        advance(staged, k + 1);
      }
    });
    std::thread uploader = hand_over([&] {
      for (uint64_t k = 0; k < chunks; ++k) {
        if (!wait_until([&] { return staged > k && released + 2 > k; })) return;
        if (k >= 2) wk.upload.wait(used[k - 2]);  // the compute stream is done with buffer k % 2
        if (pinned) {
          // A DMA from the page-locked chunk: x, then y after chunk_rows rows of x.
          const uint64_t n = rows_of(k) * sizeof(float);
          wk.upload.copy(wk.pinned[k % 2], wk.x[k % 2], n * job.d);
          wk.upload.copy(wk.pinned[k % 2], wk.y[k % 2], n, wk.chunk_rows * job.d * sizeof(float));
        } else {
          queue_upload(job, wk.upload, wk.x[k % 2], wk.y[k % 2], staged_rows[k % 2], rows_of(k));
        }
        porta::Event done = wk.upload.record_event();
        {
          std::lock_guard<std::mutex> lock(mutex);
          uploaded[k] = std::move(done);
          loaded = k + 1;
          changed.notify_all();
        }
        // Staged rows' memory is refilled two chunks on: the upload must be done by then.
        if (staged_copies) wk.upload.sync();
        advance(unstaged, k + 1);
      }
    });
    auto finish = [&] {
      {
        std::lock_guard<std::mutex> lock(mutex);
        stop = true;
        changed.notify_all();
      }
      reader.join();
      uploader.join();
    };
    try {
      for (uint64_t k = 0; k < chunks; ++k) {
        if (!wait_until([&] { return loaded > k; })) std::rethrow_exception(error);
        wk.compute.wait(uploaded[k]);
        queue_gradient(job, wk, wk.x[k % 2], wk.y[k % 2], rows_of(k));
        porta::Event done = wk.compute.record_event();
        std::lock_guard<std::mutex> lock(mutex);
        used[k] = std::move(done);
        released = k + 1;
        changed.notify_all();
      }
    } catch (...) {
      finish();
      throw;
    }
    finish();
  }
  out.assign(job.d + 2, 0.0f);
  wk.compute.read(wk.sums, out);
  porta::Event end = wk.compute.record_event();
  wk.compute.sync();
  // The uploads came before compute work that has finished now: this sync
  // waits for nothing and lets the upload stream's finished work go.
  if (wk.chunks > 1) wk.upload.sync();
  const double simulated = simulated_ms(wk.index, count);
  return simulated >= 0 ? simulated : start.elapsed_ms(end);
}

// One iteration on one device: its shard's d + 2 sums into wk.result (zeros
// for a device left without rows), and, when asked, the probe.
void device_iteration(const Job& job, Worker& wk, const std::vector<float>& wb, uint64_t iteration) {
  if (injected_failure(wk.index, iteration))
    fail(PORTA_ERROR_DEVICE_LOST, "failed on purpose (PORTA_PARALLEL_FAIL, a testing knob)");
  if (wk.rows == 0) {
    wk.result.assign(job.d + 2, 0.0f);
    wk.ms = 0;
    return;
  }
  const auto loading = Clock::now();
  const bool loads = !wk.loaded;
  if (loads) prepare(job, wk);
  const auto queued = Clock::now();
  wk.ms = shard_sums(job, wk, wb, wk.rows, wk.result);
  wk.load_ms = loads ? std::chrono::duration<double, std::milli>(queued - loading).count() : 0;
  // The price of the next reload: this load's, per row uploaded. Simulated
  // timings (a testing knob) stand for the device's loads too.
  if (loads && simulated_ms(wk.index, 0) >= 0)
    wk.load_ms_per_row = 0;
  else if (loads && wk.uploaded_rows)
    wk.load_ms_per_row = wk.load_ms / static_cast<double>(wk.uploaded_rows);
  wk.host_ms = std::chrono::duration<double, std::milli>(Clock::now() - queued).count();
  if (wk.probe) {
    std::vector<float> unused;
    wk.probe_ms = shard_sums(job, wk, wb, wk.rows / 2, unused);
  }
}

// The live workers' shards: rows[k] for the k-th live worker, contiguous in
// device order. A shard that changes is loaded again.
void set_rows(std::vector<Worker>& workers, const std::vector<uint64_t>& rows) {
  uint64_t first = 0;
  size_t k = 0;
  for (Worker& wk : workers) {
    const uint64_t count = wk.alive ? rows[k++] : 0;
    if (count != wk.rows || (count && wk.first != first)) wk.loaded = false;
    if (count == 0) {  // left out or dropped
      wk.x[0] = wk.x[1] = wk.y[0] = wk.y[1] = wk.workspace = wk.pinned[0] = wk.pinned[1] = {};
      wk.pinned_host[0] = wk.pinned_host[1] = nullptr;
      wk.held_x.clear();
      wk.held_y.clear();
      wk.held_count = 0;
    }
    wk.rows = count;
    wk.first = first;
    first += count;
  }
}

// Shards proportional to `weight` over the live workers, at least one row
// each.
void assign_rows(std::vector<Worker>& workers, const std::vector<double>& weight, uint64_t m) {
  std::vector<uint64_t> rows;
  double total = 0;
  for (const Worker& wk : workers)
    if (wk.alive) total += weight[wk.index];
  size_t live = 0;
  for (const Worker& wk : workers) live += wk.alive;
  if (live > m) fail(PORTA_ERROR_INVALID_ARGUMENT, "more devices than rows");
  uint64_t given = 0;
  for (const Worker& wk : workers) {
    if (!wk.alive) continue;
    const uint64_t others = live - rows.size() - 1;
    uint64_t count =
        others == 0 ? m - given
                    : static_cast<uint64_t>(std::llround(static_cast<double>(m) * weight[wk.index] / total));
    count = std::clamp<uint64_t>(count, 1, m - given - others);
    rows.push_back(count);
    given += count;
  }
  set_rows(workers, rows);
}

// The fewest rows a device keeps unless it is useless (shares.hpp): enough
// to keep measuring it.
uint64_t floor_rows(const std::vector<Worker>& workers, uint64_t m) {
  uint64_t live = 0;
  for (const Worker& wk : workers) live += wk.alive;
  return std::max<uint64_t>(1, m / (100 * std::max<uint64_t>(live, 1)));
}

// The live workers' cost models and shards, in device order.
std::vector<CostModel> live_models(const std::vector<Worker>& workers) {
  std::vector<CostModel> models;
  for (const Worker& wk : workers)
    if (wk.alive) models.push_back(wk.cost);
  return models;
}

// Moves rows toward equal predicted times (shares.hpp: next_rows), at most
// `most` rows per device, where the time saved over the `iterations_left`
// pays for loading the shards again (each device's last load, per row);
// returns whether anything moved.
bool rebalance(const Job& job, std::vector<Worker>& workers, uint64_t m, uint64_t most,
               uint64_t iterations_left) {
  std::vector<uint64_t> current;
  MoveCost cost;
  cost.iterations_left = iterations_left;
  uint64_t live = 0;
  for (const Worker& wk : workers) live += wk.alive;
  for (const Worker& wk : workers)
    if (wk.alive) {
      current.push_back(wk.rows);
      // A shard in memory that can load beside the rows it holds uploads only
      // the rows it gains: at each end of it, the moves of the devices before
      // it and its own, at most `most` each. Else it loads whole.
      const uint64_t grown = wk.rows + most;
      const uint64_t uploads =
          wk.chunks == 1 && keeps_held_rows(job, wk, grown * row_bytes(job)) ? std::min(grown, live * most) : grown;
      cost.reload_ms = std::max(cost.reload_ms, wk.load_ms_per_row * static_cast<double>(uploads));
    }
  const std::vector<uint64_t> next =
      next_rows(live_models(workers), current, most, floor_rows(workers, m), cost);
  if (next == current) return false;
  set_rows(workers, next);
  return true;
}

// One thread per device for the whole job, each running its device's part
// of every iteration: a thread keeps its backend's per-thread state (a CPU
// device's fiber stacks, a driver's thread context) from one iteration to
// the next, and starting it costs nothing per step. The last device's part
// runs on the calling thread. A thread that waits for the next iteration, and
// the caller waiting for the others, spin a while before they sleep: waking
// a sleeping thread can take a few hundred microseconds (an idle core, a
// virtual machine's halted CPU), which a step of a millisecond would feel,
// and in a balanced job the others finish about when the caller does.
class Crew {
 public:
  explicit Crew(size_t count) : count_(count), todo_(count, false) {
    threads_.reserve(count - 1);
    for (size_t i = 0; i + 1 < count; ++i) threads_.emplace_back([this, i] { serve(i); });
  }
  Crew(const Crew&) = delete;
  Crew& operator=(const Crew&) = delete;
  ~Crew() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      quit_ = true;
    }
    start_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  // Runs task(i) for every i that `take(i)` names, each device's part in its
  // thread, and returns when all have finished; the last one named runs on
  // the caller (so a job whose other devices have no rows hands nothing to
  // another thread). The task must not throw.
  template <typename Take, typename Task>
  void run(Take take, Task task) {
    size_t others = 0, last = count_;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (size_t i = 0; i < count_; ++i) {
        todo_[i] = take(i);
        if (todo_[i]) last = i;
      }
      if (last < count_) todo_[last] = false;
      for (size_t i = 0; i + 1 < count_; ++i) others += todo_[i];
      task_ = task;
      pending_ = others;
      ++round_;
    }
    if (others) start_.notify_all();
    if (last < count_) task(last);
    wait_until(done_, [&] { return pending_.load() == 0; });
  }

 private:
  static constexpr std::chrono::microseconds kSpin{1000};

  // Returns when ready() holds: spinning first, then asleep on `wake`, which
  // is notified under the mutex after what ready() reads has changed.
  template <typename Ready>
  void wait_until(std::condition_variable& wake, Ready ready) {
    const auto until = Clock::now() + kSpin;
    while (!ready()) {
      if (Clock::now() > until) {
        std::unique_lock<std::mutex> lock(mutex_);
        wake.wait(lock, ready);
        return;
      }
      std::this_thread::yield();
    }
  }

  void serve(size_t i) {
    uint64_t seen = 0;
    for (;;) {
      wait_until(start_, [&] { return quit_.load() || round_.load() != seen; });
      if (quit_) return;
      std::function<void(size_t)> task;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        seen = round_;
        if (!todo_[i]) continue;
        task = task_;
      }
      task(i);
      if (pending_.fetch_sub(1) == 1) {
        std::lock_guard<std::mutex> lock(mutex_);  // a sleeping caller sees the count before it is woken
        done_.notify_one();
      }
    }
  }

  const size_t count_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  std::vector<std::thread> threads_;
  std::vector<bool> todo_;  // under the mutex
  std::function<void(size_t)> task_;
  std::atomic<size_t> pending_{0};
  std::atomic<uint64_t> round_{0};
  std::atomic<bool> quit_{false};
};

// The first shards where no shares are given: every device takes the step on
// the same first rows (kCalibrationBytes of them at most, and no more than
// its equal share), once to build its kernels and load the rows, then twice
// timed at that size and at half of it, which tells its fixed cost from its
// cost per row (shares.hpp); the shards are then those whose predicted times
// are equal. From equal shares a GPU beside the host's CPU would wait for the
// CPU until the moves got there, and a move pays for the reloads it causes,
// so a short job would never get there. The models keep these observations.
constexpr uint64_t kCalibrationBytes = uint64_t{256} << 20;
constexpr uint64_t kCalibrationRounds = 3;
constexpr uint64_t kNoIteration = UINT64_MAX;  // not an iteration of the job (PORTA_PARALLEL_FAIL)

// Every live device's part of one iteration, each in its thread; a device
// that fails keeps its status and message for the caller. A device left
// without rows adds zeros and runs nothing.
void run_iteration(Crew& crew, const Job& job, std::vector<Worker>& workers, const std::vector<float>& wb,
                   uint64_t iteration) {
  for (Worker& wk : workers)
    if (wk.alive && wk.rows == 0) {
      wk.result.assign(job.d + 2, 0.0f);
      wk.ms = 0;
      if (injected_failure(wk.index, iteration)) {  // the knob names devices, whatever their rows
        wk.status = PORTA_ERROR_DEVICE_LOST;
        wk.error = "failed on purpose (PORTA_PARALLEL_FAIL, a testing knob)";
      }
    }
  crew.run([&](size_t i) { return workers[i].alive && workers[i].rows > 0; },
           [&](size_t i) {
             Worker& wk = workers[i];
             try {
               device_iteration(job, wk, wb, iteration);
             } catch (const porta::Error& e) {
               wk.status = e.status();
               wk.error = e.what();
             } catch (const std::exception& e) {
               wk.status = PORTA_ERROR_INTERNAL;
               wk.error = e.what();
             }
           });
}

void calibrate(Crew& crew, const Job& job, std::vector<Worker>& workers, const std::vector<float>& wb,
               uint64_t m, bool keep_going) {
  uint64_t live = 0;
  for (const Worker& wk : workers) live += wk.alive;
  const uint64_t rows =
      std::clamp<uint64_t>(kCalibrationBytes / row_bytes(job), 1, std::max<uint64_t>(1, m / std::max<uint64_t>(live, 1)));
  for (Worker& wk : workers) {
    if (!wk.alive) continue;
    if (wk.rows != rows || wk.first != 0) wk.loaded = false;
    wk.first = 0;
    wk.rows = rows;
  }
  for (uint64_t round = 0; round < kCalibrationRounds; ++round) {
    for (Worker& wk : workers) wk.probe = round > 0 && wk.alive && wk.rows >= 2;
    run_iteration(crew, job, workers, wb, kNoIteration);
    bool any = false;
    for (Worker& wk : workers) {
      if (!wk.alive) continue;
      if (wk.status != PORTA_SUCCESS) {
        const std::string what = "device " + std::to_string(wk.index) + " " + wk.name +
                                 " failed while its speed was measured (before the first iteration): " + wk.error;
        if (!keep_going)
          fail(wk.status, what + " (PORTA_PARALLEL_CONTINUE_ON_FAILURE continues on the others)");
        wk.alive = false;
        continue;
      }
      any = true;
      if (round == 0) continue;  // kernels built and rows loaded: not counted
      wk.cost.observe(static_cast<double>(wk.rows), wk.ms);
      if (wk.probe) wk.cost.observe(static_cast<double>(wk.rows / 2), wk.probe_ms);
    }
    if (!any) {
      std::string all;
      for (const Worker& wk : workers) all += (all.empty() ? "" : "; ") + wk.name + ": " + wk.error;
      fail(PORTA_ERROR_DEVICE_LOST, "every device failed: " + all);
    }
  }
  for (Worker& wk : workers) wk.probe = false;
  set_rows(workers, balanced_rows(live_models(workers), m, floor_rows(workers, m)));
}

// Fails the job where a weight or the bias in `wb` is no longer finite;
// `when` says since which iteration ("at iteration 7").
void fail_unless_finite(const std::vector<float>& wb, uint64_t d, const std::string& when) {
  for (uint64_t j = 0; j < d + 1; ++j)
    if (!std::isfinite(wb[j]))
      fail(PORTA_ERROR_INVALID_ARGUMENT, std::string(j < d ? "a weight" : "the bias") +
                                             " became non-finite " + when +
                                             " (learning rate too large for these data?)");
}

// The device that holds every row, in one buffer in its memory, where the
// others are left out and nothing else needs the host between steps (no
// combine callback, no testing knob): the job then runs the rest of its
// iterations as porta-logreg's one-device loop does, each step on the device
// (porta_ops_logreg_step) without the sums' round trip to the host; else null.
Worker* sole_device(std::vector<Worker>& workers, const porta_parallel_options* options, uint64_t m) {
  if (options->combine || std::getenv("PORTA_PARALLEL_FAIL") || std::getenv("PORTA_PARALLEL_SIMULATED_MS"))
    return nullptr;
  Worker* sole = nullptr;
  for (Worker& wk : workers) {
    if (!wk.alive || wk.rows == 0) continue;
    if (sole) return nullptr;
    sole = &wk;
  }
  if (!sole || sole->rows != m || sole->chunks != 1 || !sole->loaded || sole->held_x.size() != 1) return nullptr;
  return sole;
}

// Iterations [it, options->iterations) on the sole device, in blocks of
// steps queued without a sync, the weights `wb` updated at the end; the
// losses and times as the host's loop gives them (each iteration's time the
// block's mean). A loss or weight that became non-finite fails the job.
void run_on_sole_device(Worker& wk, const Job& job, const porta_parallel_options* options, uint64_t m,
                        uint64_t it, std::vector<float>& wb) {
  const uint64_t d = job.d;
  constexpr uint64_t kBlock = 256;  // steps queued between two syncs
  porta::Stream& stream = wk.compute;
  porta::Buffer loss = wk.device.buffer(kBlock * sizeof(float));
  porta::Buffer workspace = wk.device.buffer(std::max<uint64_t>(porta::ops::logreg_workspace_bytes(wk.device, m, d), 4));
  const porta::Tensor x(wk.held_x[0], {m, d}), y(wk.held_y[0], {m}), w(wk.weights, {d}), b(wk.weights, {1}, d),
      ws(workspace, {workspace.size() / sizeof(float)});
  stream.write(wk.weights, wb);
  std::vector<float> losses(kBlock);
  while (it < options->iterations) {
    const uint64_t steps = std::min(kBlock, options->iterations - it);
    const auto started = Clock::now();
    porta::Event start = stream.record_event();
    for (uint64_t k = 0; k < steps; ++k)
      porta::ops::logreg_step(stream, x, y, w, b, options->lr, porta::Tensor(loss, {1}, k), &ws);
    porta::Event end = stream.record_event();
    stream.read(loss, std::span<float>(losses.data(), steps));
    stream.read(wk.weights, std::span<float>(wb.data(), d + 1));
    stream.sync();
    const double ms = start.elapsed_ms(end);
    const double host_ms = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
    for (uint64_t k = 0; k < steps; ++k) {
      if (!std::isfinite(losses[k]))
        fail(PORTA_ERROR_INVALID_ARGUMENT, "the loss became non-finite at iteration " + std::to_string(it + k) +
                                               " (learning rate too large for these data?)");
      if (options->losses) options->losses[it + k] = losses[k];
      if (options->iteration_ms) options->iteration_ms[it + k] = host_ms / static_cast<double>(steps);
    }
    fail_unless_finite(wb, d, "by iteration " + std::to_string(it + steps - 1));
    wk.busy_ms += ms;
    if (ms > 0) wk.rate = static_cast<double>(m) * static_cast<double>(steps) * 1e3 / ms;
    if (tracing())
      std::fprintf(stderr,
                   "porta parallel: iterations %llu-%llu device %u %s alone, on the device: %llu rows, "
                   "device %.3f ms, host %.3f ms per iteration\n",
                   static_cast<unsigned long long>(it), static_cast<unsigned long long>(it + steps - 1), wk.index,
                   wk.name.c_str(), static_cast<unsigned long long>(m), ms / static_cast<double>(steps),
                   host_ms / static_cast<double>(steps));
    it += steps;
  }
}

std::string device_name(const porta::Device& device) {
  const porta::DeviceInfo info = device.info();
  return std::string(info.backend) + ":" + std::to_string(info.index) + " (" + info.name + ")";
}

}  // namespace

void logreg_train(const porta_device* devices, uint32_t device_count, const porta_parallel_data* data,
                  const porta_parallel_options* options, float* w, float* b,
                  porta_parallel_device_report* reports) {
  if (!devices || device_count == 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "no devices given");
  if (!data || data->struct_size < sizeof(porta_parallel_data))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "data is null or its struct_size is not sizeof(porta_parallel_data)");
  if (!options || options->struct_size < sizeof(porta_parallel_options))
    fail(PORTA_ERROR_INVALID_ARGUMENT,
         "options is null or its struct_size is not sizeof(porta_parallel_options)");
  if (!w || !b) fail(PORTA_ERROR_INVALID_ARGUMENT, "w or b is null");
  const uint64_t m = data->rows, d = data->features;
  if (m == 0 || d == 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "the data are " + std::to_string(m) + " x " + std::to_string(d) +
                                           (m == 0 ? ": there are no samples" : ": there are no features"));
  if (!data->x != !data->y)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "data: give both x and y, or neither (with read)");
  if (!data->x && !data->read)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "data: neither x and y nor a read callback");
  if (options->iterations == 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "iterations = 0");
  if (!std::isfinite(options->lr))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "the learning rate " + std::to_string(options->lr) + " is not finite");
  const double rate = options->rebalance_rate > 0 ? options->rebalance_rate : 0.05;
  const bool fixed = (options->flags & PORTA_PARALLEL_FIXED_SHARES) != 0;
  const bool keep_going = (options->flags & PORTA_PARALLEL_CONTINUE_ON_FAILURE) != 0;

  Job job;
  job.data = data;
  job.d = d;
  job.cap = options->device_memory;

  std::vector<Worker> workers(device_count);
  std::vector<double> weight(device_count, 1.0);
  for (uint32_t i = 0; i < device_count; ++i) {
    if (!devices[i]) fail(PORTA_ERROR_INVALID_HANDLE, "device " + std::to_string(i) + " is null");
    Worker& wk = workers[i];
    wk.index = i;
    // A stream of the caller's device, and the device as a handle of our own.
    porta_stream stream = nullptr;
    porta::detail::check(porta_stream_create(devices[i], &stream));
    wk.compute = porta::Stream(stream);
    wk.device = wk.compute.device();
    wk.upload = wk.device.stream();
    wk.name = device_name(wk.device);
    if (options->shares) {
      if (!(options->shares[i] > 0) || !std::isfinite(options->shares[i]))
        fail(PORTA_ERROR_INVALID_ARGUMENT, "shares[" + std::to_string(i) +
                                               "] = " + std::to_string(options->shares[i]) +
                                               " is not a positive number");
      weight[i] = options->shares[i];
    }
  }
  assign_rows(workers, weight, m);
  const bool rebalancing = !fixed && device_count > 1;

  std::vector<float> wb(w, w + d);
  wb.push_back(*b);
  Crew crew(device_count);
  if (rebalancing && !options->shares) calibrate(crew, job, workers, wb, m, keep_going);
  auto iteration_start = Clock::now();
  for (uint64_t it = 0; it < options->iterations;) {
    if (it > 0)
      if (Worker* sole = sole_device(workers, options, m)) {
        try {
          run_on_sole_device(*sole, job, options, m, it, wb);
        } catch (const porta::Error& e) {
          // As the host's loop reports a device's failure (no other device to continue on).
          if (e.status() == PORTA_ERROR_INVALID_ARGUMENT) throw;
          sole->status = e.status();
          fail(e.status(), "device " + std::to_string(sole->index) + " " + sole->name + " failed at iteration " +
                               std::to_string(it) + " or later (the only device with rows): " + e.what());
        }
        break;
      }
    run_iteration(crew, job, workers, wb, it);
    // Failures: stop naming the device, or drop it and take the iteration again.
    bool dropped = false;
    for (Worker& wk : workers) {
      if (!wk.alive || wk.status == PORTA_SUCCESS) continue;
      const std::string what = "device " + std::to_string(wk.index) + " " + wk.name +
                               " failed at iteration " + std::to_string(it) + ": " + wk.error;
      if (!keep_going)
        fail(wk.status, what + " (PORTA_PARALLEL_CONTINUE_ON_FAILURE continues on the others)");
      wk.alive = false;  // set_rows gives its memory back
      dropped = true;
    }
    if (dropped) {
      std::vector<double> share(device_count, 0.0);
      bool any = false, modelled = !fixed;
      for (const Worker& wk : workers)
        if (wk.alive) {
          share[wk.index] = weight[wk.index];
          modelled = modelled && wk.cost.separated();
          any = true;
        }
      if (!any) {
        std::string all;
        for (const Worker& wk : workers) all += (all.empty() ? "" : "; ") + wk.name + ": " + wk.error;
        fail(PORTA_ERROR_DEVICE_LOST, "every device failed: " + all);
      }
      // The survivors by their cost models where those are known, else by the first shares.
      if (modelled)
        set_rows(workers, balanced_rows(live_models(workers), m, floor_rows(workers, m)));
      else
        assign_rows(workers, share, m);
      continue;
    }

    // The sums in device order, in float64; then the other processes'.
    std::vector<double> sums(d + 3, 0.0);
    for (const Worker& wk : workers) {
      if (!wk.alive) continue;
      for (uint64_t j = 0; j < d + 2; ++j) sums[j] += wk.result[j];
      sums[d + 2] += static_cast<double>(wk.rows);
    }
    if (options->combine) {
      const porta_status status =
          options->combine(sums.data(), static_cast<uint32_t>(d + 3), options->combine_user);
      if (status != PORTA_SUCCESS)
        fail(status, "the combine callback failed at iteration " + std::to_string(it) +
                         (porta_last_error()[0] ? std::string(": ") + porta_last_error() : ""));
    }
    const double rows = sums[d + 2];
    if (!(rows >= 1)) fail(PORTA_ERROR_INVALID_ARGUMENT, "the combined row count is " + std::to_string(rows));
    if (options->losses) options->losses[it] = static_cast<float>(sums[d + 1] / rows);
    // The step as logreg_update.comp takes it: the mean in float32, then w -= lr * mean.
    for (uint64_t j = 0; j < d + 1; ++j) wb[j] -= options->lr * static_cast<float>(sums[j] / rows);
    fail_unless_finite(wb, d, "at iteration " + std::to_string(it));

    // Throughput and the cost models; the first iteration builds kernels and
    // loads data, and is not counted.
    for (Worker& wk : workers) {
      if (!wk.alive || wk.rows == 0) continue;
      wk.busy_ms += wk.ms;
      const double r = wk.ms > 0 ? static_cast<double>(wk.rows) * 1e3 / wk.ms : 0;
      if (it == 0) continue;
      wk.rate = wk.rate > 0 ? 0.5 * wk.rate + 0.5 * r : r;
      wk.cost.observe(static_cast<double>(wk.rows), wk.ms);
      if (wk.probe) wk.cost.observe(static_cast<double>(wk.rows / 2), wk.probe_ms);
    }
    if (rebalancing && it > 0)
      rebalance(job, workers, m, std::max<uint64_t>(1, static_cast<uint64_t>(rate * static_cast<double>(m))),
                options->iterations - it - 1);
    // A device whose model cannot yet tell fixed from per-row cost times half
    // its shard too, next iteration.
    for (Worker& wk : workers) wk.probe = rebalancing && wk.alive && wk.rows >= 2 && !wk.cost.separated();
    const auto now = Clock::now();
    if (tracing())
      for (const Worker& wk : workers)
        if (wk.alive)
          std::fprintf(
              stderr,
              "porta parallel: iteration %llu device %u %s: %llu rows, device %.3f ms, host %.3f ms, "
              "load %.3f ms, iteration %.3f ms\n",
              static_cast<unsigned long long>(it), wk.index, wk.name.c_str(),
              static_cast<unsigned long long>(wk.rows), wk.ms, wk.host_ms, wk.load_ms,
              std::chrono::duration<double, std::milli>(now - iteration_start).count());
    if (options->iteration_ms)
      options->iteration_ms[it] = std::chrono::duration<double, std::milli>(now - iteration_start).count();
    iteration_start = now;
    ++it;
  }
  std::copy(wb.begin(), wb.begin() + static_cast<long>(d), w);
  *b = wb[d];
  if (reports)
    for (const Worker& wk : workers) {
      porta_parallel_device_report& r = reports[wk.index];
      r.rows = wk.alive ? wk.rows : 0;
      r.first_row = wk.first;
      r.rows_per_second = wk.rate;
      r.busy_ms = wk.busy_ms;
      r.chunks = wk.chunks;
      r.status = wk.status;
    }
}

}  // namespace porta::parallel
