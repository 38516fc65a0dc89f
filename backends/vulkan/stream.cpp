#include "stream.hpp"

#include <algorithm>
#include <cstring>

#include "../common/spin_wait.hpp"

namespace porta::vk {

using plugin::fail;
using plugin::format;

namespace {

// What a dispatch and a transfer do to memory, for the barriers between them.
constexpr VkPipelineStageFlags kDeviceStages =
    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
constexpr VkAccessFlags kDeviceWrites = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
constexpr VkAccessFlags kShaderAccess =
    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_UNIFORM_READ_BIT;
constexpr VkAccessFlags kTransferAccess = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;

// Makes the GPU's writes visible to the host once the submission has finished.
void host_barrier(Device& d, VkCommandBuffer cb) {
  VkMemoryBarrier b = make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  d.fn.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                            VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &b, 0, nullptr, 0, nullptr);
}

VkCommandPool create_command_pool(Device& d, VkCommandPoolCreateFlags flags) {
  VkCommandPoolCreateInfo info = make<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  info.flags = flags;
  info.queueFamilyIndex = d.physical.queue_family;
  VkCommandPool pool = VK_NULL_HANDLE;
  d.check(d.fn.vkCreateCommandPool(d.handle, &info, nullptr, &pool), "vkCreateCommandPool");
  return pool;
}

VkCommandBuffer allocate_command_buffer(Device& d, VkCommandPool pool) {
  VkCommandBufferAllocateInfo info =
      make<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  info.commandPool = pool;
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 1;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  d.check(d.fn.vkAllocateCommandBuffers(d.handle, &info, &cb), "vkAllocateCommandBuffers");
  return cb;
}

void begin_command_buffer(Device& d, VkCommandBuffer cb, VkCommandBufferUsageFlags flags) {
  VkCommandBufferBeginInfo info = make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  info.flags = flags;
  d.check(d.fn.vkBeginCommandBuffer(cb, &info), "vkBeginCommandBuffer");
}

}  // namespace

// ---- descriptor sets ----

VkDescriptorSet DescriptorArena::allocate(VkDescriptorSetLayout layout, uint32_t storage, uint32_t uniform) {
  Device& d = *device_;
  for (;;) {
    bool fresh = false;
    if (current_ == pools_.size()) {
      const uint32_t sets = 128;
      const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::max(sets * 8, storage)},
                                            {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, std::max(sets * 2, uniform)}};
      VkDescriptorPoolCreateInfo info =
          make<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
      info.maxSets = sets;
      info.poolSizeCount = 2;
      info.pPoolSizes = sizes;
      VkDescriptorPool pool = VK_NULL_HANDLE;
      d.check(d.fn.vkCreateDescriptorPool(d.handle, &info, nullptr, &pool), "vkCreateDescriptorPool");
      pools_.push_back(pool);
      fresh = true;
    }
    VkDescriptorSetAllocateInfo info =
        make<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    info.descriptorPool = pools_[current_];
    info.descriptorSetCount = 1;
    info.pSetLayouts = &layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    VkResult r = d.fn.vkAllocateDescriptorSets(d.handle, &info, &set);
    if (r == VK_SUCCESS) return set;
    if (fresh || (r != VK_ERROR_OUT_OF_POOL_MEMORY && r != VK_ERROR_FRAGMENTED_POOL))
      d.check(r, "vkAllocateDescriptorSets");
    ++current_;  // this pool is full: go on with the next
  }
}

void DescriptorArena::reset() {
  for (size_t i = 0; i < pools_.size() && i <= current_; ++i)
    device_->fn.vkResetDescriptorPool(device_->handle, pools_[i], 0);
  current_ = 0;
}

void DescriptorArena::destroy() {
  for (VkDescriptorPool p : pools_) device_->fn.vkDestroyDescriptorPool(device_->handle, p, nullptr);
  pools_.clear();
  current_ = 0;
}

// ---- sequences and events ----

Timeline::~Timeline() {
  if (handle) device->fn.vkDestroySemaphore(device->handle, handle, nullptr);
}

Sequence::~Sequence() {
  Device& d = *device;
  if (pending && !d.lost()) {
    if (timeline) {
      VkSemaphoreWaitInfo info = make<VkSemaphoreWaitInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
      info.semaphoreCount = 1;
      info.pSemaphores = &timeline->handle;
      info.pValues = &value;
      d.fn.vkWaitSemaphores(d.handle, &info, d.timeout_ns);
    } else {
      d.fn.vkWaitForFences(d.handle, 1, &fence, VK_TRUE, d.timeout_ns);
    }
  }
  arena.destroy();
  if (fence) d.fn.vkDestroyFence(d.handle, fence, nullptr);
  if (pool) d.fn.vkDestroyCommandPool(d.handle, pool, nullptr);  // frees cb
}

EventPoint::~EventPoint() {
  if (fence) device->fn.vkDestroyFence(device->handle, fence, nullptr);
  if (pool) device->fn.vkDestroyQueryPool(device->handle, pool, nullptr);
}

double event_elapsed_ms(const Event& start, const Event& end) {
  Device& d = *start.device;
  if (!start.pool || !end.pool)
    fail(PORTA_ERROR_UNSUPPORTED, "vulkan: %s: event_elapsed_ms: %s", d.label().c_str(),
         (start.pool ? end : start).unsupported.c_str());
  d.ensure_alive("event_elapsed_ms");
  uint64_t t[2];
  const Event* events[2] = {&start, &end};
  for (int i = 0; i < 2; ++i) {
    VkResult r = d.fn.vkGetQueryPoolResults(d.handle, events[i]->pool, 0, 1, sizeof(uint64_t), &t[i],
                                            sizeof(uint64_t), VK_QUERY_RESULT_64_BIT);
    if (r == VK_NOT_READY)
      fail(PORTA_ERROR_INVALID_ARGUMENT,
           "vulkan: %s: event_elapsed_ms: the %s event has not completed; sync its stream first",
           d.label().c_str(), i == 0 ? "start" : "end");
    d.check(r, "vkGetQueryPoolResults");
  }
  const uint32_t bits = d.physical.timestamp_valid_bits;
  const uint64_t mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
  const uint64_t ticks = (t[1] - t[0]) & mask;  // counters may wrap at `bits`
  return static_cast<double>(ticks) * d.limits().timestampPeriod / 1e6;
}

bool event_query(const Event& event) {
  Device& d = *event.device;
  d.ensure_alive("event_query");
  const EventPoint& point = *event.point;
  if (point.timeline) {
    uint64_t reached = 0;
    d.check(d.fn.vkGetSemaphoreCounterValue(d.handle, point.timeline->handle, &reached),
            "vkGetSemaphoreCounterValue");
    return reached >= point.value;
  }
  if (point.fence) {
    const VkResult r = d.fn.vkGetFenceStatus(d.handle, point.fence);
    if (r == VK_NOT_READY) return false;
    d.check(r, "vkGetFenceStatus");
    return true;
  }
  fail(PORTA_ERROR_INVALID_ARGUMENT, "vulkan: %s: event_query: the event was recorded into a sequence",
       d.label().c_str());
}

// ---- streams ----

Stream::Stream(Device& device) : device_(device) {
  pool_ = create_command_pool(device_, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT);
  if (device_.timeline) {
    VkSemaphoreTypeCreateInfo type =
        make<VkSemaphoreTypeCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    type.initialValue = 0;
    VkSemaphoreCreateInfo info = make<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
    info.pNext = &type;
    timeline_ = std::make_shared<Timeline>();
    timeline_->device = &device_;
    VkResult r = device_.fn.vkCreateSemaphore(device_.handle, &info, nullptr, &timeline_->handle);
    if (r != VK_SUCCESS) {
      device_.fn.vkDestroyCommandPool(device_.handle, pool_, nullptr);
      device_.check(r, "vkCreateSemaphore");
    }
  }
}

Stream::~Stream() {
  // Reads nobody synced for are not copied out: the core syncs a stream
  // before destroying it, except one whose work waited for a framework's
  // event, whose owner is gone (plugin.h's stream_destroy).
  for (auto& b : in_flight_) b->readbacks.clear();
  if (open_) open_->readbacks.clear();
  try {
    if (!device_.lost()) {
      flush();
      finish("stream destruction");
    }
  } catch (const plugin::Failure& f) {
    plugin::log(PORTA_LOG_ERROR, f.what());
  }
  // What is left belongs to a lost device: release it without waiting.
  while (!in_flight_.empty()) {
    retire(std::move(in_flight_.front()), false);
    in_flight_.pop_front();
  }
  if (open_) retire(std::move(open_), false);
  recording_.reset();
  Device& d = device_;
  for (auto& b : spare_) b->arena.destroy();
  for (VkFence f : spare_fences_) d.fn.vkDestroyFence(d.handle, f, nullptr);
  timeline_.reset();
  d.fn.vkDestroyCommandPool(d.handle, pool_, nullptr);
}

Batch& Stream::open_batch() {
  if (open_) return *open_;
  std::unique_ptr<Batch> b;
  if (!spare_.empty()) {
    b = std::move(spare_.back());
    spare_.pop_back();
  } else {
    b = std::make_unique<Batch>();
    b->arena.init(&device_);
    b->cb = allocate_command_buffer(device_, pool_);
  }
  begin_command_buffer(device_, b->cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  state_.reset();
  open_ = std::move(b);
  return *open_;
}

VkCommandBuffer Stream::begin_op(VkPipelineStageFlags stage, VkAccessFlags access) {
  VkCommandBuffer cb = recording_ ? recording_->cb : open_batch().cb;
  VkMemoryBarrier b = make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  VkPipelineStageFlags after = state_.stages;
  b.srcAccessMask = state_.writes;
  if (after == 0) {
    // The first operation of a command buffer waits for all work submitted
    // before it: a barrier's first scope holds everything earlier in the queue.
    after = kDeviceStages;
    b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  }
  // Only the stages used since the last barrier, which itself waited for all
  // before it: a dispatch after a dispatch waits on compute alone.
  b.dstAccessMask = access;
  device_.fn.vkCmdPipelineBarrier(cb, after, stage, 0, 1, &b, 0, nullptr, 0, nullptr);
  state_.stages = stage;
  state_.writes = access & kDeviceWrites;
  return cb;
}

VkCommandBuffer Stream::begin_transfer() { return begin_op(VK_PIPELINE_STAGE_TRANSFER_BIT, kTransferAccess); }

Buffer* Stream::stage(uint64_t want, uint64_t* offset, uint64_t* got) {
  open_batch();
  if (!chunk_ || chunk_used_ >= StagingPool::kChunkSize) {
    if (open_->chunks.size() >= kMaxChunksPerBatch) {
      // The batch holds all the staging it may: run it, then reuse its chunks.
      flush();
      finish("a staged transfer");
      open_batch();
    }
    chunk_ = device_.staging->acquire();
    open_->chunks.push_back(chunk_);
    chunk_used_ = 0;
  }
  *offset = chunk_used_;
  *got = std::min(want, StagingPool::kChunkSize - chunk_used_);
  chunk_used_ = std::min<uint64_t>((chunk_used_ + *got + 15) & ~15ull, StagingPool::kChunkSize);
  return chunk_;
}

void Stream::flush(VkFence extra_fence) {
  // A framework's semaphore waited for goes out even without work after it,
  // so that what the host does after a flush (host-visible copies, sync) follows it.
  if (!open_ && waits_.empty() && !extra_fence) return;
  open_batch();
  std::unique_ptr<Batch> b = std::move(open_);
  chunk_ = nullptr;
  chunk_used_ = 0;
  host_barrier(device_, b->cb);
  VkResult r = device_.fn.vkEndCommandBuffer(b->cb);
  if (r != VK_SUCCESS) {
    retire(std::move(b), false);
    device_.check(r, "vkEndCommandBuffer");
  }
  VkCommandBuffer cb = b->cb;
  submit(std::move(b), cb, extra_fence);
}

VkFence Stream::take_fence() {
  if (!spare_fences_.empty()) {
    VkFence f = spare_fences_.back();
    spare_fences_.pop_back();
    return f;
  }
  VkFenceCreateInfo info = make<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  VkFence f = VK_NULL_HANDLE;
  device_.check(device_.fn.vkCreateFence(device_.handle, &info, nullptr, &f), "vkCreateFence");
  return f;
}

void Stream::submit(std::unique_ptr<Batch> b, VkCommandBuffer cb, VkFence extra_fence) {
  VkSubmitInfo info = make<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  info.commandBufferCount = 1;
  info.pCommandBuffers = &cb;
  VkTimelineSemaphoreSubmitInfo values =
      make<VkTimelineSemaphoreSubmitInfo>(VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
  attach_waits(info, values);  // binary only without timeline semaphores (interop.cpp checks)
  try {
    if (timeline_) {
      b->value = last_value_ + 1;
      values.signalSemaphoreValueCount = 1;
      values.pSignalSemaphoreValues = &b->value;
      info.pNext = &values;
      info.signalSemaphoreCount = 1;
      info.pSignalSemaphores = &timeline_->handle;
      device_.submit(&info, 1, extra_fence, "vkQueueSubmit");
      last_value_ = b->value;
    } else {
      b->fence = take_fence();
      if (extra_fence) {
        device_.submit(&info, 1, extra_fence, "vkQueueSubmit");
        // A submission of no batches signals its fence once all earlier work is done.
        device_.submit(nullptr, 0, b->fence, "vkQueueSubmit");
      } else {
        device_.submit(&info, 1, b->fence, "vkQueueSubmit");
      }
    }
  } catch (...) {
    retire(std::move(b), false);
    throw;
  }
  clear_waits();
  in_flight_.push_back(std::move(b));
}

void Stream::finish(const char* call) {
  // The events waited for: their work comes before this stream's on the
  // device, but a stream with nothing queued after the wait has no work of
  // its own to wait for.
  for (const auto& point : event_waits_) {
    if (point->timeline)
      device_.wait_timeline(point->timeline->handle, point->value, call);
    else
      device_.wait_fence(point->fence, call);
  }
  event_waits_.clear();
  if (in_flight_.empty()) return;
  // A wait past the limit names the kernels it waited for.
  if (timeline_) {
    device_.wait_timeline(timeline_->handle, in_flight_.back()->value, call, &pending_kernels_);
  } else {
    for (auto& b : in_flight_) device_.wait_fence(b->fence, call, &pending_kernels_);
  }
  pending_kernels_.clear();
  waited_.clear();  // what the work waited for has come
  while (!in_flight_.empty()) {
    retire(std::move(in_flight_.front()), true);
    in_flight_.pop_front();
  }
}

void Stream::retire(std::unique_ptr<Batch> b, bool copy_back) {
  if (copy_back)
    for (const Readback& r : b->readbacks) std::memcpy(r.to, r.from, r.size);
  b->readbacks.clear();
  for (Buffer* chunk : b->chunks) device_.staging->release(chunk);
  b->chunks.clear();
  b->keep_alive.reset();
  b->events.clear();
  if (b->fence) {
    if (copy_back && device_.fn.vkResetFences(device_.handle, 1, &b->fence) == VK_SUCCESS)
      spare_fences_.push_back(b->fence);
    else
      device_.fn.vkDestroyFence(device_.handle, b->fence, nullptr);
    b->fence = VK_NULL_HANDLE;
  }
  if (!b->cb) return;  // a replayed sequence: nothing of the stream's to recycle
  if (!copy_back) {
    // Not known to have finished: its command buffer and descriptor pools cannot be reused.
    b->arena.destroy();
    device_.fn.vkFreeCommandBuffers(device_.handle, pool_, 1, &b->cb);
    return;
  }
  b->arena.reset();
  // No vkResetCommandBuffer: vkBeginCommandBuffer resets it when it is reused
  // (the pool has VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT).
  spare_.push_back(std::move(b));
}

void Stream::write(Buffer* dst, uint64_t offset, const void* src, uint64_t size) {
  device_.ensure_alive("stream_write");
  if (size == 0) return;  // nothing to order: a 0-byte VkBuffer or VkBufferCopy is invalid Vulkan
  const uint8_t* from = static_cast<const uint8_t*>(src);
  if (recording_) {
    Buffer* staging = create_buffer(device_, size, MemoryKind::kStaging);
    recording_->staging->buffers.push_back(staging);
    recording_->writes.push_back({staging->host, from, size});
    VkBufferCopy region{0, offset, size};
    device_.fn.vkCmdCopyBuffer(begin_transfer(), staging->handle, dst->handle, 1, &region);
    return;
  }
  const bool idle = !open_ && in_flight_.empty();
  if (size <= kLargestUpdate && offset % 4 == 0 && size % 4 == 0 && !(dst->host && idle)) {
    // Small enough to travel inside the command buffer (vkCmdUpdateBuffer
    // copies the bytes at record time): no staging, no wait for earlier work.
    device_.fn.vkCmdUpdateBuffer(begin_transfer(), dst->handle, offset, size, from);
    return;
  }
  if (dst->host) {
    // Memory the host sees directly: wait for the work queued before, then copy.
    flush();
    finish("stream_write");
    std::memcpy(dst->host + offset, from, size);
    return;
  }
  while (size > 0) {
    uint64_t at = 0, n = 0;
    Buffer* chunk = stage(size, &at, &n);
    std::memcpy(chunk->host + at, from, n);
    VkBufferCopy region{at, offset, n};
    device_.fn.vkCmdCopyBuffer(begin_transfer(), chunk->handle, dst->handle, 1, &region);
    from += n;
    offset += n;
    size -= n;
  }
}

void Stream::read(Buffer* src, uint64_t offset, void* dst, uint64_t size) {
  device_.ensure_alive("stream_read");
  if (size == 0) return;  // as in write()
  uint8_t* to = static_cast<uint8_t*>(dst);
  if (recording_) {
    Buffer* staging = create_buffer(device_, size, MemoryKind::kStaging);
    recording_->staging->buffers.push_back(staging);
    recording_->reads.push_back({staging->host, to, size});
    VkBufferCopy region{offset, 0, size};
    device_.fn.vkCmdCopyBuffer(begin_transfer(), src->handle, staging->handle, 1, &region);
    return;
  }
  if (src->host && device_.device_memory_host_cached) {
    flush();
    finish("stream_read");
    std::memcpy(to, src->host + offset, size);
    return;
  }
  while (size > 0) {
    uint64_t at = 0, n = 0;
    Buffer* chunk = stage(size, &at, &n);
    VkBufferCopy region{offset, at, n};
    device_.fn.vkCmdCopyBuffer(begin_transfer(), src->handle, chunk->handle, 1, &region);
    open_->readbacks.push_back({chunk->host + at, to, n});
    to += n;
    offset += n;
    size -= n;
  }
}

void Stream::copy(Buffer* src, uint64_t src_offset, Buffer* dst, uint64_t dst_offset, uint64_t size) {
  device_.ensure_alive("stream_copy");
  if (size == 0) return;  // VkBufferCopy::size must be > 0
  VkBufferCopy region{src_offset, dst_offset, size};
  device_.fn.vkCmdCopyBuffer(begin_transfer(), src->handle, dst->handle, 1, &region);
}

void Stream::fill(Buffer* dst, uint64_t offset, uint64_t size, uint32_t pattern) {
  device_.ensure_alive("stream_fill");
  if (size == 0) return;  // vkCmdFillBuffer's size must be > 0 (0 is not VK_WHOLE_SIZE)
  device_.fn.vkCmdFillBuffer(begin_transfer(), dst->handle, offset, size, pattern);
}

void Stream::dispatch(Kernel* k, const uint32_t groups[3], plugin::BufferList<Buffer> buffers,
                      const void* push, uint32_t push_size) {
  device_.ensure_alive("stream_dispatch");
  plugin::note_kernel(pending_kernels_, k->name);
  const uint32_t count = buffers.size();
  const char* dev = device_.label().c_str();
  const VkPhysicalDeviceLimits& lim = device_.limits();
  std::vector<VkDescriptorBufferInfo>& infos = infos_;
  infos.resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    const Buffer* b = &buffers[i];
    const KernelBuffer& to = k->buffers[i];
    const bool uniform = to.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    // The core keeps storage ranges within maxStorageBufferRange and their
    // offsets on minStorageBufferOffsetAlignment (the device info's binding
    // limits); uniform blocks have their own, smaller limits.
    if (uniform && (buffers.bytes(i) > lim.maxUniformBufferRange ||
                    buffers.offset(i) % lim.minUniformBufferOffsetAlignment != 0))
      fail(PORTA_ERROR_UNSUPPORTED,
           "vulkan: %s: dispatch of '%s': buffer %u (set %u, binding %u) binds %llu bytes at offset %llu, "
           "more than a kernel may bind as a uniform buffer (maxUniformBufferRange = %u) or not on "
           "minUniformBufferOffsetAlignment = %llu",
           dev, k->name.c_str(), i, to.set, to.binding, static_cast<unsigned long long>(buffers.bytes(i)),
           static_cast<unsigned long long>(buffers.offset(i)), lim.maxUniformBufferRange,
           static_cast<unsigned long long>(lim.minUniformBufferOffsetAlignment));
    infos[i] = {b->handle, buffers.offset(i), buffers.bytes(i)};
  }

  VkCommandBuffer cb = begin_op(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, kShaderAccess);
  if (state_.pipeline != k->pipeline) {
    device_.fn.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipeline);
    state_.pipeline = k->pipeline;
  }
  std::vector<uint32_t>& params = params_;
  for (uint32_t s = 0; s < k->sets.size(); ++s) {
    const KernelSet& set = k->sets[s];
    if (set.storage + set.uniform == 0) continue;  // an empty set between used ones: nothing reads it
    params.clear();
    for (uint32_t i = 0; i < count; ++i)
      if (k->buffers[i].set == s) params.push_back(i);
    bind_set(cb, k, s, infos.data(), params);
  }
  if (push_size > 0)
    device_.fn.vkCmdPushConstants(cb, k->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size, push);
  device_.fn.vkCmdDispatch(cb, groups[0], groups[1], groups[2]);
}

void Stream::bind_set(VkCommandBuffer cb, Kernel* k, uint32_t s, const VkDescriptorBufferInfo* infos,
                      const std::vector<uint32_t>& params) {
  if (state_.sets.size() <= s) state_.sets.resize(s + 1);
  CommandState::BoundSet& bound = state_.sets[s];
  auto same = [](const VkDescriptorBufferInfo& a, const VkDescriptorBufferInfo& b) {
    return a.buffer == b.buffer && a.offset == b.offset && a.range == b.range;
  };
  if (bound.layout == k->layout && bound.buffers.size() == params.size() &&
      std::equal(params.begin(), params.end(), bound.buffers.begin(),
                 [&](uint32_t i, const VkDescriptorBufferInfo& b) { return same(infos[i], b); }))
    return;  // bound by an earlier dispatch of this command buffer, with a layout compatible for it

  // The elements of an array of blocks are consecutive parameters: one
  // write covers them (descriptorCount = N from dstArrayElement 0).
  // (Lavapipe's push descriptors drop dstArrayElement when each element is
  // written on its own.)
  std::vector<VkWriteDescriptorSet>& writes = writes_;
  writes.clear();
  for (uint32_t i : params) {
    const KernelBuffer& to = k->buffers[i];
    VkWriteDescriptorSet* last = writes.empty() ? nullptr : &writes.back();
    if (last && last->dstBinding == to.binding &&
        last->dstArrayElement + last->descriptorCount == to.array_index &&
        last->pBufferInfo + last->descriptorCount == &infos[i]) {
      last->descriptorCount++;
      continue;
    }
    VkWriteDescriptorSet w = make<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    w.dstBinding = to.binding;
    w.dstArrayElement = to.array_index;
    w.descriptorCount = 1;
    w.descriptorType = to.type;
    w.pBufferInfo = &infos[i];
    writes.push_back(w);
  }
  const KernelSet& set = k->sets[s];
  const uint32_t n = static_cast<uint32_t>(writes.size());
  if (set.push) {
    device_.fn.vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout, s, n, writes.data());
  } else {
    DescriptorArena& arena = recording_ ? recording_->arena : open_->arena;
    VkDescriptorSet handle = arena.allocate(set.layout, set.storage, set.uniform);
    for (auto& w : writes) w.dstSet = handle;
    device_.fn.vkUpdateDescriptorSets(device_.handle, n, writes.data(), 0, nullptr);
    device_.fn.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout, s, 1, &handle, 0,
                                       nullptr);
  }
  // Binding with another layout may disturb the sets bound at other numbers
  // (Vulkan's pipeline layout compatibility): forget those.
  for (CommandState::BoundSet& other : state_.sets)
    if (other.layout != k->layout) other = {};
  bound.layout = k->layout;
  bound.buffers.clear();
  for (uint32_t i : params) bound.buffers.push_back(infos[i]);
}

void Stream::sync() {
  device_.ensure_alive("stream_sync");
  flush();
  finish("stream_sync");
}

Event* Stream::record_event() {
  device_.ensure_alive("event_record");
  auto e = std::make_unique<Event>();
  e->device = &device_;
  auto point = std::make_shared<EventPoint>();
  point->device = &device_;
  e->point = point;
  VkCommandBuffer cb = recording_ ? recording_->cb : open_batch().cb;
  if (device_.timestamps) {
    VkQueryPoolCreateInfo info = make<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = 1;
    device_.check(device_.fn.vkCreateQueryPool(device_.handle, &info, nullptr, &point->pool),
                  "vkCreateQueryPool");
    e->pool = point->pool;
    device_.fn.vkCmdResetQueryPool(cb, e->pool, 0, 1);
    device_.fn.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, e->pool, 0);
  } else {
    e->unsupported = format("queue family %u has no timestamp support (timestampValidBits = 0)",
                            device_.physical.queue_family);
  }
  if (recording_) return e.release();
  // Submitted now: another stream may wait for the event (wait_event), and
  // this stream's batch would otherwise wait for its next sync.
  open_->events.push_back(point);
  if (timeline_) {
    flush();
    point->timeline = timeline_;
    point->value = last_value_;
  } else {
    VkFenceCreateInfo info = make<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    device_.check(device_.fn.vkCreateFence(device_.handle, &info, nullptr, &point->fence), "vkCreateFence");
    flush(point->fence);
  }
  return e.release();
}

void Stream::wait_event(const Event& event) {
  device_.ensure_alive("stream_wait_event");
  // Every stream of a device submits to its one queue, and the event's batch
  // was submitted when it was recorded, before anything this stream submits
  // from now on. A barrier's first scope holds all earlier work in the queue:
  // the next operation's barrier becomes a full one.
  state_.stages = 0;
  state_.writes = 0;
  if (event.point->timeline || event.point->fence) event_waits_.push_back(event.point);
}

void Stream::begin_record() {
  device_.ensure_alive("stream_begin_record");
  flush();  // what came before runs first, outside the sequence
  auto seq = std::make_unique<Sequence>();
  seq->device = &device_;
  seq->arena.init(&device_);
  seq->pool = create_command_pool(device_, 0);
  seq->cb = allocate_command_buffer(device_, seq->pool);
  if (!timeline_) {
    VkFenceCreateInfo fence_info = make<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    device_.check(device_.fn.vkCreateFence(device_.handle, &fence_info, nullptr, &seq->fence),
                  "vkCreateFence");
  }
  begin_command_buffer(device_, seq->cb, 0);  // submitted again at every replay
  state_.reset();
  recording_ = std::move(seq);
}

Sequence* Stream::end_record() {
  std::unique_ptr<Sequence> seq = std::move(recording_);
  state_.reset();
  host_barrier(device_, seq->cb);
  device_.check(device_.fn.vkEndCommandBuffer(seq->cb), "vkEndCommandBuffer");
  return seq.release();
}

void Stream::replay(Sequence* seq) {
  device_.ensure_alive("stream_replay");
  flush();
  if (seq->pending) {
    // The previous replay must be done (and its reads copied out) before the command
    // buffer and its staging are used again.
    if (seq->last_stream == this) finish("the previous replay of a sequence");
    if (seq->timeline) {
      device_.wait_timeline(seq->timeline->handle, seq->value, "the previous replay of a sequence");
    } else {
      device_.wait_fence(seq->fence, "the previous replay of a sequence");
      device_.check(device_.fn.vkResetFences(device_.handle, 1, &seq->fence), "vkResetFences");
    }
    seq->pending = false;
  }
  for (const HostWrite& w : seq->writes) std::memcpy(w.to, w.from, w.size);
  auto b = std::make_unique<Batch>();
  b->readbacks = seq->reads;
  b->keep_alive = seq->staging;
  submit(std::move(b), seq->cb, seq->fence);  // no fence with timeline semaphores
  if (timeline_) {
    seq->timeline = timeline_;
    seq->value = last_value_;
  }
  seq->pending = true;
  seq->last_stream = this;
}

}  // namespace porta::vk
