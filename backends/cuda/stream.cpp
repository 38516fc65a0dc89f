// Streams: transfers, fills, copies, dispatches, events and recorded
// sequences (CUDA graphs captured from the stream).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../common/spin_wait.hpp"
#include "copy_kernels.hpp"
#include "cuda_plugin.hpp"

namespace porta::cuda {

namespace {

using ull = unsigned long long;

// Kernel creation keeps buffer pointers and push constants within CUDA's
// 4 KiB of kernel parameters, so this many buffers is the most a dispatch has.
constexpr uint32_t kMaxBuffers = 4096 / sizeof(CUdeviceptr);

// Runs on the driver's callback thread, in stream order; must not call CUDA.
void CUDA_CB run_host_copy(void* data) {
  auto* copy = static_cast<HostCopy*>(data);
  std::memcpy(copy->dst, copy->src, copy->size);
}

// Pinned memory owned by the sequence being recorded: a graph's memcpy nodes
// need pinned host memory, and its host nodes copy between that memory and
// the caller's pointer at every replay.
void* recorded_pinned(Stream& s, uint64_t size) {
  void* p = nullptr;
  s.device->check(driver().cuMemHostAlloc(&p, size, CU_MEMHOSTALLOC_PORTABLE),
                  "cuMemHostAlloc(%llu bytes) for a transfer in a recorded sequence", static_cast<ull>(size));
  s.recorded->pinned.push_back(p);
  return p;
}

HostCopy* recorded_copy(Stream& s, void* dst, const void* src, uint64_t size) {
  s.recorded->copies.push_back(std::make_unique<HostCopy>(HostCopy{dst, src, size}));
  return s.recorded->copies.back().get();
}

// A write in a recorded sequence: at every replay a host node copies the
// caller's bytes into the pinned memory, then a memcpy node copies that to
// the buffer.
void record_write(Stream& s, Buffer& dst, uint64_t offset, const void* src, uint64_t size) {
  void* pinned = recorded_pinned(s, size);
  s.device->check(driver().cuLaunchHostFunc(s.cu, run_host_copy, recorded_copy(s, pinned, src, size)),
                  "cuLaunchHostFunc (recorded write of %llu bytes)", static_cast<ull>(size));
  s.device->check(driver().cuMemcpyHtoDAsync(dst.ptr + offset, pinned, size, s.cu),
                  "cuMemcpyHtoDAsync (recorded write of %llu bytes at offset %llu)", static_cast<ull>(size),
                  static_cast<ull>(offset));
}

// A read in a recorded sequence: the memcpy node first, then the host node
// that copies the pinned memory out to the caller's pointer.
void record_read(Stream& s, Buffer& src, uint64_t offset, void* dst, uint64_t size) {
  void* pinned = recorded_pinned(s, size);
  HostCopy* copy = recorded_copy(s, dst, pinned, size);
  s.device->check(driver().cuMemcpyDtoHAsync(pinned, src.ptr + offset, size, s.cu),
                  "cuMemcpyDtoHAsync (recorded read of %llu bytes at offset %llu)", static_cast<ull>(size),
                  static_cast<ull>(offset));
  s.device->check(driver().cuLaunchHostFunc(s.cu, run_host_copy, copy),
                  "cuLaunchHostFunc (recorded read of %llu bytes)", static_cast<ull>(size));
}

// A transfer outside a recording, in parts of one pinned staging chunk each,
// so that every part is a true DMA and overlaps with the host's work on the
// next: `dma(chunk, done, n)` queues the DMA of bytes [done, done + n), then
// `then(chunk, done, n)` queues what must finish before the chunk is reused.
// Both throw through Device::check; a chunk whose DMA was not queued goes back
// unused, any other is released behind what was queued.
template <class Dma, class Then>
void through_staging(Stream& s, uint64_t size, Dma dma, Then then) {
  StagingPool& staging = *s.device->staging;
  for (uint64_t done = 0; done < size;) {
    const uint64_t n = std::min<uint64_t>(size - done, StagingPool::kChunkBytes);
    StagingPool::Chunk* chunk = staging.acquire();
    try {
      dma(*chunk, done, n);
    } catch (...) {
      staging.abandon(chunk);
      throw;
    }
    try {
      then(*chunk, done, n);
    } catch (...) {
      staging.release(chunk, s.cu);
      throw;
    }
    staging.release(chunk, s.cu);
    done += n;
  }
}

// Room for `size` bytes in the stream's pinned memory for small transfers, or null.
char* small_space(Stream& s, uint64_t size) {
  return s.small.take(size, [&] {
    void* p = nullptr;
    s.device->check(driver().cuMemHostAlloc(&p, plugin::SmallTransfers::kBytes,
                                            CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP),
                    "cuMemHostAlloc(%llu bytes) for small transfers",
                    static_cast<ull>(plugin::SmallTransfers::kBytes));
    // Where the device sees it, for the read kernel; 0 (reads then take the
    // copy engine) should the driver not map it.
    if (driver().cuMemHostGetDevicePointer(&s.small_device, p, 0) != CUDA_SUCCESS) s.small_device = 0;
    return p;
  });
}

// Small transfers as kernels (copy_kernels.hpp), with PORTA_CUDA_SMALL_COPIES=kernel:
// a write carries its bytes as the kernel's parameter, a read stores into the
// stream's mapped pinned memory, so a round trip stays on the compute engine.
// Not the default: on an H100 the round trip (256 B up, dispatch, 256 B back)
// took 16.0-18.5 us so against 12.8-13.3 us through the copy engine.
constexpr uint32_t kCopyGroup = 256;  // threads per block of a copy kernel

// The device's copy kernels, loaded at the first call (inside a ContextScope);
// null functions when they are not to be used.
const Device::CopyKernels& copy_kernels(Device& dev) {
  Device::CopyKernels& k = dev.copies;
  std::call_once(k.loaded, [&] {
    const char* choice = std::getenv("PORTA_CUDA_SMALL_COPIES");
    if (!choice || std::strcmp(choice, "kernel") != 0) return;
    const std::string ptx = copy_kernels_ptx(Device::CopyKernels::kWriteSizes);
    CUmodule module = nullptr;
    CUresult r = driver().cuModuleLoadData(&module, ptx.c_str());
    CUfunction write[3] = {}, read = nullptr;
    for (int i = 0; i < 3 && r == CUDA_SUCCESS; ++i)
      r = driver().cuModuleGetFunction(
          &write[i], module, plugin::format("porta_write_%u", Device::CopyKernels::kWriteSizes[i]).c_str());
    if (r == CUDA_SUCCESS) r = driver().cuModuleGetFunction(&read, module, "porta_read");
    if (r != CUDA_SUCCESS) {
      if (module) driver().cuModuleUnload(module);
      plugin::log(PORTA_LOG_WARN, dev.label() +
                                      ": small transfers go through the copy engine: loading their "
                                      "kernels failed: " +
                                      error_text(r));
      return;
    }
    k.module = module;
    std::copy(write, write + 3, k.write);
    k.read = read;
  });
  return k;
}

uint32_t copy_blocks(uint64_t size) { return static_cast<uint32_t>((size + kCopyGroup - 1) / kCopyGroup); }

// A write of at most the largest kWriteSizes bytes as a kernel; false when
// there is no kernel for it.
bool write_by_kernel(Stream& s, CUdeviceptr to, const void* src, uint64_t size) {
  const Device::CopyKernels& k = copy_kernels(*s.device);
  for (int i = 0; i < 3; ++i) {
    const uint32_t capacity = Device::CopyKernels::kWriteSizes[i];
    if (!k.write[i] || size > capacity) continue;
    alignas(16) unsigned char data[Device::CopyKernels::kWriteSizes[2]];
    std::memcpy(data, src, size);
    std::memset(data + size, 0, capacity - size);  // the driver reads the whole parameter
    uint32_t n = static_cast<uint32_t>(size);
    void* args[] = {&to, &n, data};
    s.device->check(driver().cuLaunchKernel(k.write[i], copy_blocks(size), 1, 1, kCopyGroup, 1, 1, 0, s.cu,
                                            args, nullptr),
                    "cuLaunchKernel (write of %llu bytes)", static_cast<ull>(size));
    return true;
  }
  return false;
}

// A read into the stream's mapped pinned memory at `pinned` as a kernel;
// false when there is no kernel for it.
bool read_by_kernel(Stream& s, char* pinned, CUdeviceptr from, uint64_t size) {
  const Device::CopyKernels& k = copy_kernels(*s.device);
  if (!k.read || !s.small_device) return false;
  CUdeviceptr to = s.small_device + static_cast<CUdeviceptr>(pinned - s.small.host());
  uint32_t n = static_cast<uint32_t>(size);
  void* args[] = {&to, &from, &n};
  s.device->check(
      driver().cuLaunchKernel(k.read, copy_blocks(size), 1, 1, kCopyGroup, 1, 1, 0, s.cu, args, nullptr),
      "cuLaunchKernel (read of %llu bytes)", static_cast<ull>(size));
  return true;
}

}  // namespace

Stream* Backend::stream_create(Device& device) {
  ContextScope scope(device);
  auto stream = std::make_unique<Stream>();
  stream->device = &device;
  // Non-blocking: porta's streams never wait for work of the legacy default
  // stream that other libraries in the process may use.
  device.check(driver().cuStreamCreate(&stream->cu, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  return stream.release();
}

void Backend::stream_destroy(Stream* stream) {
  if (!stream) return;
  {
    ContextScope scope(*stream->device, ContextScope::Releasing{});
    if (stream->recording) {
      CUgraph graph = nullptr;
      driver().cuStreamEndCapture(stream->cu, &graph);
      if (graph) driver().cuGraphDestroy(graph);
    }
    if (stream->wrapped)
      driver().cuStreamSynchronize(stream->cu);  // the framework's stream: only porta's work ends here
    else
      driver().cuStreamDestroy(stream->cu);
    if (stream->small.host()) driver().cuMemFreeHost(stream->small.host());
    if (stream->idle) driver().cuEventDestroy(stream->idle);
  }
  if (stream->recorded) free_recorded_storage(*stream->device, *stream->recorded);
  delete stream;
}

void Backend::stream_write(Stream& s, Buffer& dst, uint64_t offset, const void* src, uint64_t size) {
  ContextScope scope(*s.device);
  if (s.recording) return record_write(s, dst, offset, src, size);
  if (write_by_kernel(s, dst.ptr + offset, src, size)) return;
  if (char* pinned = small_space(s, size)) {
    std::memcpy(pinned, src, size);
    s.device->check(driver().cuMemcpyHtoDAsync(dst.ptr + offset, pinned, size, s.cu),
                    "cuMemcpyHtoDAsync (write of %llu bytes at offset %llu)", static_cast<ull>(size),
                    static_cast<ull>(offset));
    return;
  }
  // The caller's bytes are copied into pinned chunks now, so the transfer is
  // a true DMA and overlaps with filling the next chunk.
  const char* from = static_cast<const char*>(src);
  through_staging(
      s, size,
      [&](StagingPool::Chunk& chunk, uint64_t done, uint64_t n) {
        std::memcpy(chunk.host, from + done, n);
        s.device->check(driver().cuMemcpyHtoDAsync(dst.ptr + offset + done, chunk.host, n, s.cu),
                        "cuMemcpyHtoDAsync (write of %llu bytes at offset %llu)", static_cast<ull>(size),
                        static_cast<ull>(offset));
      },
      [](StagingPool::Chunk&, uint64_t, uint64_t) {});
}

void Backend::stream_read(Stream& s, Buffer& src, uint64_t offset, void* dst, uint64_t size) {
  ContextScope scope(*s.device);
  if (s.recording) return record_read(s, src, offset, dst, size);
  if (char* pinned = small_space(s, size)) {
    if (!read_by_kernel(s, pinned, src.ptr + offset, size))
      s.device->check(driver().cuMemcpyDtoHAsync(pinned, src.ptr + offset, size, s.cu),
                      "cuMemcpyDtoHAsync (read of %llu bytes at offset %llu)", static_cast<ull>(size),
                      static_cast<ull>(offset));
    s.small.copy_out_later(dst, pinned, size);
    return;
  }
  if (s.small.read_pending_into(dst, size)) stream_sync(s);  // that read must land first
  char* to = static_cast<char*>(dst);
  through_staging(
      s, size,
      [&](StagingPool::Chunk& chunk, uint64_t done, uint64_t n) {
        s.device->check(driver().cuMemcpyDtoHAsync(chunk.host, src.ptr + offset + done, n, s.cu),
                        "cuMemcpyDtoHAsync (read of %llu bytes at offset %llu)", static_cast<ull>(size),
                        static_cast<ull>(offset));
      },
      // The copy out of the chunk runs in stream order once the DMA is done;
      // the chunk's event follows it, so the chunk is not reused before.
      [&](StagingPool::Chunk& chunk, uint64_t done, uint64_t n) {
        chunk.copy = HostCopy{to + done, chunk.host, n};
        s.device->check(driver().cuLaunchHostFunc(s.cu, run_host_copy, &chunk.copy),
                        "cuLaunchHostFunc (read of %llu bytes)", static_cast<ull>(size));
      });
}

void Backend::stream_copy(Stream& s, Buffer& src, uint64_t src_offset, Buffer& dst, uint64_t dst_offset,
                          uint64_t size) {
  Device& dev = *s.device;
  ContextScope scope(dev);
  dev.check(driver().cuMemcpyDtoDAsync(dst.ptr + dst_offset, src.ptr + src_offset, size, s.cu),
            "cuMemcpyDtoDAsync (%llu bytes)", static_cast<ull>(size));
}

void Backend::stream_fill(Stream& s, Buffer& dst, uint64_t offset, uint64_t size, uint32_t pattern) {
  Device& dev = *s.device;
  ContextScope scope(dev);
  dev.check(driver().cuMemsetD32Async(dst.ptr + offset, pattern, size / 4, s.cu),
            "cuMemsetD32Async (%llu bytes at offset %llu)", static_cast<ull>(size), static_cast<ull>(offset));
}

void Backend::stream_dispatch(Stream& s, Kernel& k, const uint32_t groups[3],
                              plugin::BufferList<Buffer> buffers, const void* push, uint32_t push_size) {
  const uint32_t buffer_count = buffers.size();
  Device& dev = *s.device;
  ContextScope scope(dev);
  plugin::note_kernel(s.pending_kernels, k.name);
  // kernelParams: a pointer to each argument's value — each buffer's device
  // address, then the push-constant struct, then the buffers' sizes (one
  // porta_buffer_sizes<N> struct, when there are buffers). The driver copies
  // them at launch (and at capture), so locals suffice. The push bytes are
  // padded with zeros to the struct's C++ size, which the driver reads in full.
  CUdeviceptr ptrs[kMaxBuffers];
  uint64_t sizes[kMaxBuffers];
  void* args[kMaxBuffers + 2];
  uint32_t arg = 0;
  for (uint32_t i = 0; i < buffer_count; ++i) {
    ptrs[i] = buffers[i].ptr + buffers.offset(i);
    sizes[i] = buffers.bytes(i);
    args[arg++] = &ptrs[i];
  }
  alignas(16) unsigned char push_bytes[4096];
  if (k.push_param_size > 0) {
    std::memcpy(push_bytes, push, push_size);
    std::memset(push_bytes + push_size, 0, k.push_param_size - push_size);
    args[arg++] = push_bytes;
  }
  if (buffer_count > 0) args[arg++] = sizes;
  // The instance without alignment tests where every buffer's start allows it.
  CUfunction function = k.function;
  if (k.aligned) {
    bool aligned = true;
    for (uint32_t i = 0; i < buffer_count && i < k.wide_alignment.size(); ++i)
      if (k.wide_alignment[i] > 1) aligned = aligned && ptrs[i] % k.wide_alignment[i] == 0;
    if (aligned) function = k.aligned;
  }
  dev.check(driver().cuLaunchKernel(function, groups[0], groups[1], groups[2], k.block[0], k.block[1],
                                    k.block[2], k.dynamic_shared, s.cu, args, nullptr),
            "cuLaunchKernel of kernel '%s' (%ux%ux%u groups of %ux%ux%u)", k.name.c_str(), groups[0],
            groups[1], groups[2], k.block[0], k.block[1], k.block[2]);
}

namespace {

// Waits for the stream asleep, once stream_sync's poll has run out. The
// primary context's default scheduling spins in cuStreamSynchronize without
// yielding while the process has fewer contexts than cores, which kept a core
// from porta's CPU backend beside the GPU (porta/parallel.h: its step took
// 2.3 ms where 1.5 was due); porta shares that context with the process and
// leaves its flags alone, and waits on an event made with
// CU_EVENT_BLOCKING_SYNC instead.
CUresult sleep_until_idle(Stream& s) {
  const Driver& cu = driver();
  if (!s.idle && cu.cuEventCreate(&s.idle, CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS) {
    s.idle = nullptr;
    return cu.cuStreamSynchronize(s.cu);
  }
  CUresult r = cu.cuEventRecord(s.idle, s.cu);
  if (r != CUDA_SUCCESS) return r;
  return cu.cuEventSynchronize(s.idle);
}

}  // namespace

void Backend::stream_sync(Stream& s) {
  Device& dev = *s.device;
  ContextScope scope(dev);
  CUresult r = CUDA_ERROR_NOT_READY;
  auto done = [&] {
    r = driver().cuStreamQuery(s.cu);
    return r != CUDA_ERROR_NOT_READY;
  };
  if (dev.timeout_ms) {
    // The watchdog (porta/robust.h): a running CUDA kernel cannot be stopped
    // short of destroying its context, which porta shares with the process
    // (the primary context): the device is lost for porta from now on.
    if (!plugin::wait_with_limit(done, dev.timeout_ms))
      dev.lose(plugin::format(
          "%s did not finish within %.3f s (PORTA_TIMEOUT); a running CUDA kernel cannot "
          "be stopped without resetting the context (cuDevicePrimaryCtxReset)",
          plugin::kernels_phrase(s.pending_kernels).c_str(), static_cast<double>(dev.timeout_ms) / 1000.0));
  } else {
    plugin::spin_then_block(done, [&] { r = sleep_until_idle(s); }, plugin::kGpuSpinBudget);
  }
  s.pending_kernels.clear();
  // The stream is idle (or failed, which r reports): the small transfers are
  // done and their memory is free again.
  s.small.finish(r == CUDA_SUCCESS);
  dev.check(r, "cuStreamSynchronize");
}

Event* Backend::event_record(Stream& s) {
  Device& dev = *s.device;
  ContextScope scope(dev);
  auto event = std::make_unique<Event>();
  event->device = &dev;
  dev.check(driver().cuEventCreate(&event->cu, CU_EVENT_DEFAULT), "cuEventCreate");
  CUresult r = driver().cuEventRecord(event->cu, s.cu);
  if (r != CUDA_SUCCESS) {
    driver().cuEventDestroy(event->cu);
    dev.check(r, "cuEventRecord");
  }
  return event.release();
}

double Backend::event_elapsed_ms(Event& start, Event& end) {
  Device& dev = *start.device;
  ContextScope scope(dev);
  float ms = 0;
  CUresult r = driver().cuEventElapsedTime(&ms, start.cu, end.cu);
  if (r == CUDA_ERROR_NOT_READY) {
    dev.fail(PORTA_ERROR_INVALID_ARGUMENT,
             "cuEventElapsedTime: an event has not completed yet; sync its stream first");
  }
  dev.check(r, "cuEventElapsedTime");
  return ms;
}

void Backend::event_destroy(Event* event) {
  if (!event) return;
  {
    ContextScope scope(*event->device, ContextScope::Releasing{});
    driver().cuEventDestroy(event->cu);
  }
  delete event;
}

void Backend::stream_wait_event(Stream& s, Event& event) {
  // The wait is taken at the call: destroying the event afterwards keeps it.
  ContextScope scope(*s.device);
  s.device->check(driver().cuStreamWaitEvent(s.cu, event.cu, 0), "cuStreamWaitEvent");
}

void Backend::stream_begin_record(Stream& s) {
  Device& dev = *s.device;
  ContextScope scope(dev);
  // Relaxed: other threads using the device while this one records must not
  // see their calls refused; the plugin itself makes no unsafe call on the
  // capturing stream.
  dev.check(driver().cuStreamBeginCapture(s.cu, CU_STREAM_CAPTURE_MODE_RELAXED), "cuStreamBeginCapture");
  s.recording = true;
  s.recorded = std::make_unique<RecordedStorage>();
}

Sequence* Backend::stream_end_record(Stream& s) {
  Device& dev = *s.device;
  ContextScope scope(dev);
  auto sequence = std::make_unique<Sequence>();
  sequence->device = &dev;
  sequence->storage = std::move(s.recorded);
  s.recording = false;
  try {
    dev.check(driver().cuStreamEndCapture(s.cu, &sequence->graph), "cuStreamEndCapture");
    dev.check(driver().cuGraphInstantiate(&sequence->exec, sequence->graph, 0), "cuGraphInstantiate");
  } catch (...) {
    if (sequence->graph) driver().cuGraphDestroy(sequence->graph);
    free_recorded_storage(dev, *sequence->storage);
    throw;
  }
  return sequence.release();
}

void Backend::stream_replay(Stream& s, Sequence& sequence) {
  Device& dev = *s.device;
  ContextScope scope(dev);
  dev.check(driver().cuGraphLaunch(sequence.exec, s.cu), "cuGraphLaunch");
}

void Backend::sequence_destroy(Sequence* sequence) {
  if (!sequence) return;
  {
    ContextScope scope(*sequence->device, ContextScope::Releasing{});
    if (sequence->exec) driver().cuGraphExecDestroy(sequence->exec);
    if (sequence->graph) driver().cuGraphDestroy(sequence->graph);
  }
  if (sequence->storage) free_recorded_storage(*sequence->device, *sequence->storage);
  delete sequence;
}

}  // namespace porta::cuda
