// The CUDA plugin's objects and its Backend, whose entries each file defines;
// plugin.cpp exports the porta_plugin_api table made from it.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "../common/plugin_adapter.hpp"
#include "../common/small_transfers.hpp"
#include "driver.hpp"

namespace porta::cuda {

// A host → buffer or buffer → host copy that runs on the driver's callback
// thread, in stream order, so that transfers can go through pinned memory.
struct HostCopy {
  void* dst = nullptr;
  const void* src = nullptr;
  size_t size = 0;
};

struct Device;

// Pinned host memory for transfers, reused across calls: each chunk carries the
// event after which its last copy has finished.
class StagingPool {
 public:
  static constexpr size_t kChunkBytes = size_t{4} << 20;
  static constexpr size_t kMaxChunks = 8;

  struct Chunk {
    void* host = nullptr;
    CUevent done = nullptr;  // recorded after the chunk's last use
    bool in_use = false;
    HostCopy copy;  // a read's copy-out; stable until `done` completes
  };

  explicit StagingPool(Device& device) : device_(device) {}
  ~StagingPool();
  // A chunk no pending copy uses; allocates up to kMaxChunks, then waits.
  Chunk* acquire();
  // Marks the chunk free once the work queued on `stream` so far has finished.
  void release(Chunk* chunk, CUstream stream);
  // Returns a chunk without queueing anything (the call that took it failed).
  void abandon(Chunk* chunk);

 private:
  Device& device_;
  std::mutex mutex_;
  std::condition_variable available_;
  std::vector<std::unique_ptr<Chunk>> chunks_;
};

struct Device {
  uint32_t index = 0;
  CUdevice cu = 0;
  CUcontext context = nullptr;
  int arch = 0;  // compute capability, 10 * major + minor
  porta_device_info info{};
  uint32_t max_dynamic_shared = 0;  // opt-in shared memory per block
  std::unique_ptr<StagingPool> staging;
  uint64_t timeout_ms = 0;  // per dispatch (porta/robust.h); 0: none

  // Kernels for small transfers (stream.cpp), loaded at the first one; null
  // functions where they are not used (PORTA_CUDA_SMALL_COPIES=dma, or the
  // driver refused them), and transfers go through the copy engine.
  struct CopyKernels {
    static constexpr uint32_t kWriteSizes[3] = {496, 1008, 4080};  // bytes a write carries as its parameter
    std::once_flag loaded;
    CUmodule module = nullptr;
    CUfunction write[3] = {};  // one per kWriteSizes
    CUfunction read = nullptr;
  } copies;

  // "cuda: device 0 (NVIDIA H100 80GB HBM3)" — the start of every message.
  std::string label() const;

  // Throws DEVICE_LOST when an earlier call hit an error that broke the context.
  void ensure_alive();
  // Throws a Failure naming the call (a printf format) and the driver's error;
  // errors that break the context are remembered for every later call.
  [[gnu::format(printf, 3, 4)]] void check(CUresult result, const char* call, ...);
  [[noreturn, gnu::format(printf, 3, 4)]] void fail(porta_status status, const char* fmt, ...) const;
  // Marks the context unusable with `reason` and throws DEVICE_LOST (a kernel past its limit).
  [[noreturn]] void lose(const std::string& reason);

 private:
  std::mutex lost_mutex_;
  std::string lost_;  // why the context is unusable; empty while it works
};

// Makes the device's primary context current for the scope of a plugin call,
// on whatever thread makes it, and restores the caller's context afterwards.
class ContextScope {
 public:
  explicit ContextScope(Device& device);
  // For destroy calls: works on a lost device too and never throws, since
  // releasing objects must still be possible after a failure.
  struct Releasing {};
  ContextScope(Device& device, Releasing) noexcept;
  ~ContextScope();
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

 private:
  bool pushed_ = false;
};

struct Buffer {
  Device* device = nullptr;
  CUdeviceptr ptr = 0;
  uint64_t size = 0;
  bool foreign = false;     // a framework's memory (interop.cpp): never freed here
  void* host = nullptr;     // imported host memory behind `ptr`
  bool registered = false;  // porta registered `host` (cuMemHostRegister) and unregisters it
};

struct Kernel {
  Device* device = nullptr;
  std::string name;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  // A translated kernel with wide buffer accesses: its instance that tests no
  // alignment, run where every buffer's start is a multiple of its entry here
  // (porta_wide_alignment, translator/README.md); else null.
  CUfunction aligned = nullptr;
  std::vector<uint32_t> wide_alignment;
  uint32_t block[3] = {1, 1, 1};
  uint32_t dynamic_shared = 0;
  uint32_t buffer_count = 0;
  uint32_t push_size = 0;
  uint32_t push_param_size = 0;  // push_size rounded up to the parameter struct's alignment
};

// What a recorded sequence owns besides its graph: pinned memory and the
// host copies its host nodes perform at every replay.
struct RecordedStorage {
  std::vector<void*> pinned;
  std::vector<std::unique_ptr<HostCopy>> copies;
};

struct Stream {
  Device* device = nullptr;
  CUstream cu = nullptr;
  bool wrapped = false;  // a framework's CUstream (stream_wrap_native): never destroyed here
  bool recording = false;
  std::unique_ptr<RecordedStorage> recorded;
  plugin::SmallTransfers small;              // in cuMemHostAlloc memory
  CUdeviceptr small_device = 0;              // the same memory as the device addresses it (mapped)
  std::vector<std::string> pending_kernels;  // dispatched since the last sync, for the watchdog's message
  CUevent idle = nullptr;                    // blocking-sync event a long wait sleeps on (stream_sync)
};

struct Event {
  Device* device = nullptr;
  CUevent cu = nullptr;
};

struct Sequence {
  Device* device = nullptr;
  CUgraph graph = nullptr;
  CUgraphExec exec = nullptr;
  std::unique_ptr<RecordedStorage> storage;
};

void free_recorded_storage(Device& device, RecordedStorage& storage);  // memory.cpp

// What plugin_adapter.hpp makes the plugin from; the file of each concern
// defines its entries.
struct Backend {
  static constexpr const char* name = "cuda";
  static constexpr porta_kernel_language language = PORTA_LANGUAGE_CUDA;

  // device.cpp
  static void init();  // throws UNAVAILABLE with the reason
  static void shutdown();
  static uint32_t device_count();
  static const porta_device_info& device_info(uint32_t index);
  static Device* device_open(uint32_t index, const porta_plugin_device_options& options);
  static void device_close(Device* device);

  // memory.cpp
  static Buffer* buffer_create(Device& device, uint64_t size);
  static void buffer_destroy(Buffer* buffer);

  // kernel.cpp
  static Kernel* kernel_create(Device& device, const porta_kernel_desc& desc);
  static void kernel_destroy(Kernel* kernel);

  // stream.cpp
  static Stream* stream_create(Device& device);
  static void stream_destroy(Stream* stream);
  static void stream_write(Stream& s, Buffer& dst, uint64_t offset, const void* src, uint64_t size);
  static void stream_read(Stream& s, Buffer& src, uint64_t offset, void* dst, uint64_t size);
  static void stream_copy(Stream& s, Buffer& src, uint64_t src_offset, Buffer& dst, uint64_t dst_offset,
                          uint64_t size);
  static void stream_fill(Stream& s, Buffer& dst, uint64_t offset, uint64_t size, uint32_t pattern);
  static void stream_dispatch(Stream& s, Kernel& kernel, const uint32_t groups[3],
                              plugin::BufferList<Buffer> buffers, const void* push, uint32_t push_size);
  static void stream_sync(Stream& s);
  static Event* event_record(Stream& s);
  static double event_elapsed_ms(Event& start, Event& end);
  static void event_destroy(Event* event);
  static void stream_wait_event(Stream& s, Event& event);
  static void stream_begin_record(Stream& s);
  static Sequence* stream_end_record(Stream& s);
  static void stream_replay(Stream& s, Sequence& sequence);
  static void sequence_destroy(Sequence* sequence);

  // interop.cpp
  static Buffer* buffer_import(Device& device, const porta_native_memory& memory);
  static void buffer_native(Buffer& buffer, porta_native_memory& memory);
  static void device_native(Device& device, porta_native_device& native);
  static Stream* stream_wrap_native(Device& device, void* native_stream);
  static void* stream_native(Stream& s) { return s.cu; }
  static void stream_wait_native_event(Stream& s, void* event);
  static void stream_signal_native_event(Stream& s, void* event);
  static bool event_query(Event& event);
};

}  // namespace porta::cuda
