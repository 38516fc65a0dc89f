// Streams: operations are recorded into a command buffer (with a barrier on
// the stages used since the last one before each) and submitted when the stream syncs or
// a read needs the data; a timeline semaphore (or, without one, a fence per
// submission) tells when a submission is done. Recorded sequences are command
// buffers submitted again at each replay, their host transfers staged anew.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "../common/plugin_adapter.hpp"
#include "kernel.hpp"

namespace porta::vk {

// A copy from staging memory to the caller's memory, done once the GPU has finished.
struct Readback {
  const uint8_t* from;
  uint8_t* to;
  uint64_t size;
};

// A copy from the caller's memory into staging memory, done before each replay.
struct HostWrite {
  uint8_t* to;
  const uint8_t* from;
  uint64_t size;
};

// Descriptor sets for dispatches that do not push them (no push descriptors,
// or a kernel with buffers in several sets): pools that grow on demand and are reset when their command
// buffer is recycled.
class DescriptorArena {
 public:
  void init(Device* device) { device_ = device; }
  // A set of `layout`, which holds `storage` storage and `uniform` uniform buffer descriptors.
  VkDescriptorSet allocate(VkDescriptorSetLayout layout, uint32_t storage, uint32_t uniform);
  void reset();
  void destroy();

 private:
  Device* device_ = nullptr;
  std::vector<VkDescriptorPool> pools_;
  size_t current_ = 0;
};

// Staging buffers a sequence owns; shared with submissions still reading them.
struct StagingSet {
  std::vector<Buffer*> buffers;
  StagingSet() = default;
  StagingSet(const StagingSet&) = delete;
  StagingSet& operator=(const StagingSet&) = delete;
  ~StagingSet() {
    for (Buffer* b : buffers) destroy_buffer(b);
  }
};

// What the command buffer being recorded has done since its last barrier and
// what it has bound, so that an operation waits only on the stages before it
// and a dispatch binds only what changed (a replayed sequence of dispatches
// of one kernel on the same buffers binds once).
struct CommandState {
  struct BoundSet {
    VkPipelineLayout layout = VK_NULL_HANDLE;  // null: nothing known to be bound
    std::vector<VkDescriptorBufferInfo> buffers;
  };
  VkPipelineStageFlags stages = 0;  // of the operations since the last barrier; 0: none yet
  VkAccessFlags writes = 0;         // their writes
  VkPipeline pipeline = VK_NULL_HANDLE;
  std::vector<BoundSet> sets;  // by set number
  void reset() { *this = CommandState{}; }
};

// A stream's timeline semaphore. The sequences the stream replayed share it,
// so that the next replay (or the sequence's destruction) can wait for the last
// one even after the stream is gone.
struct Timeline {
  Device* device = nullptr;
  VkSemaphore handle = VK_NULL_HANDLE;
  Timeline() = default;
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;
  ~Timeline();
};

struct Sequence {
  Device* device = nullptr;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  DescriptorArena arena;
  std::shared_ptr<StagingSet> staging = std::make_shared<StagingSet>();
  std::vector<HostWrite> writes;
  std::vector<Readback> reads;
  // The last replay has finished once `timeline` reaches `value` (with
  // timeline semaphores), else once `fence` is signalled.
  std::shared_ptr<Timeline> timeline;
  uint64_t value = 0;
  VkFence fence = VK_NULL_HANDLE;
  bool pending = false;
  const void* last_stream = nullptr;
  ~Sequence();
};

// What an event owns on the device, and when the work before it has
// finished, for the host: its stream's timeline reaching `value`, or
// (without timeline semaphores) `fence`; neither for an event recorded into a
// sequence. The batch that carries it keeps it too, so that destroying the
// event before its work has run is safe.
struct EventPoint {
  Device* device = nullptr;
  VkQueryPool pool = VK_NULL_HANDLE;  // owned
  std::shared_ptr<Timeline> timeline;
  uint64_t value = 0;
  VkFence fence = VK_NULL_HANDLE;  // owned
  EventPoint() = default;
  EventPoint(const EventPoint&) = delete;
  EventPoint& operator=(const EventPoint&) = delete;
  ~EventPoint();
};

// An event is submitted when it is recorded (its batch is flushed), so that
// another stream's later submissions follow it on the device's one queue.
struct Event {
  Device* device = nullptr;
  VkQueryPool pool = VK_NULL_HANDLE;  // point's; null: the queue has no timestamps (see unsupported)
  std::string unsupported;
  std::shared_ptr<EventPoint> point;
};

// One submission: its command buffer (null for a replayed sequence) and what to
// do once it has finished.
struct Batch {
  VkCommandBuffer cb = VK_NULL_HANDLE;
  DescriptorArena arena;
  std::vector<Buffer*> chunks;  // borrowed from the device's staging pool
  std::vector<Readback> readbacks;
  std::shared_ptr<StagingSet> keep_alive;
  std::vector<std::shared_ptr<EventPoint>> events;  // recorded in it
  uint64_t value = 0;                               // timeline value signalled on completion
  VkFence fence = VK_NULL_HANDLE;                   // without timeline semaphores
};

class Stream {
 public:
  explicit Stream(Device& device);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  Device& device() { return device_; }
  void write(Buffer* dst, uint64_t offset, const void* src, uint64_t size);
  void read(Buffer* src, uint64_t offset, void* dst, uint64_t size);
  void copy(Buffer* src, uint64_t src_offset, Buffer* dst, uint64_t dst_offset, uint64_t size);
  void fill(Buffer* dst, uint64_t offset, uint64_t size, uint32_t pattern);
  void dispatch(Kernel* kernel, const uint32_t groups[3], plugin::BufferList<Buffer> buffers,
                const void* push, uint32_t push_size);
  void sync();
  Event* record_event();
  // Later work waits for the work before `event` (of any stream of this device).
  void wait_event(const Event& event);
  void begin_record();
  Sequence* end_record();
  void replay(Sequence* sequence);
  // A framework's porta_vk_semaphore (porta/interop.h; interop.cpp): later work
  // waits for it / it is signalled after the work queued so far.
  void wait_semaphore(const void* native_event);
  void signal_semaphore(const void* native_event);
  // The device is closing while this (destroyed) stream's work waits for
  // those semaphores: signals each timeline one from the host; fails naming
  // the binary ones, which only a queue can signal.
  void release_native_waits();

 private:
  static constexpr size_t kMaxChunksPerBatch = 4;  // staging one batch may hold before it is flushed
  // The largest write recorded with its bytes (vkCmdUpdateBuffer takes up to 65536).
  static constexpr uint64_t kLargestUpdate = uint64_t{16} << 10;

  Batch& open_batch();
  // The command buffer being recorded, after the barrier an operation of
  // `stage` with `access` needs against the operations before it.
  VkCommandBuffer begin_op(VkPipelineStageFlags stage, VkAccessFlags access);
  VkCommandBuffer begin_transfer();
  // Binds `buffers` as set `set` of `kernel` unless this command buffer has them bound already.
  void bind_set(VkCommandBuffer cb, Kernel* kernel, uint32_t set, const VkDescriptorBufferInfo* infos,
                const std::vector<uint32_t>& params);
  // Staging space for at most `want` bytes in the open batch; flushes when the batch holds too much.
  Buffer* stage(uint64_t want, uint64_t* offset, uint64_t* got);
  // Submits the open batch; `extra_fence` (if any) is signalled once it has finished.
  void flush(VkFence extra_fence = VK_NULL_HANDLE);
  void finish(const char* what);
  void submit(std::unique_ptr<Batch> batch, VkCommandBuffer cb, VkFence extra_fence);
  void retire(std::unique_ptr<Batch> batch, bool copy_back);
  VkFence take_fence();
  // Puts the framework's semaphores waited for into the next submission.
  void attach_waits(VkSubmitInfo& info, VkTimelineSemaphoreSubmitInfo& values) const;
  void clear_waits();

  Device& device_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  std::shared_ptr<Timeline> timeline_;  // null without timeline semaphores
  uint64_t last_value_ = 0;
  std::unique_ptr<Batch> open_;
  Buffer* chunk_ = nullptr;
  uint64_t chunk_used_ = 0;
  std::deque<std::unique_ptr<Batch>> in_flight_;
  std::vector<std::string> pending_kernels_;  // dispatched since the last finish, for the watchdog's message
  std::vector<std::unique_ptr<Batch>> spare_;
  std::vector<VkFence> spare_fences_;
  std::unique_ptr<Sequence> recording_;
  CommandState state_;  // of the command buffer being recorded (the open batch's or the sequence's)
  // A framework's semaphores (and timeline values) that the next submission waits for.
  std::vector<VkSemaphore> waits_;
  std::vector<uint64_t> wait_values_;
  std::vector<VkPipelineStageFlags> wait_stages_;
  // Every framework semaphore waited for since the last finish (submitted or not).
  std::vector<std::pair<VkSemaphore, uint64_t>> waited_;
  // A dispatch's descriptors, kept between dispatches so that one allocates nothing.
  std::vector<VkDescriptorBufferInfo> infos_;
  std::vector<uint32_t> params_;
  std::vector<VkWriteDescriptorSet> writes_;
  // Events this stream waits for (wait_event): the host waits for them too
  // where it waits for the stream (finish).
  std::vector<std::shared_ptr<EventPoint>> event_waits_;
};

// Milliseconds between two events once both have completed.
double event_elapsed_ms(const Event& start, const Event& end);
// Whether the work before the event has finished, without waiting.
bool event_query(const Event& event);

}  // namespace porta::vk
