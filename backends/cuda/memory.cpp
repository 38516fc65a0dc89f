// Device buffers and the pinned staging memory transfers go through.
#include "cuda_plugin.hpp"

namespace porta::cuda {

Buffer* Backend::buffer_create(Device& device, uint64_t size) {
  ContextScope scope(device);
  auto buffer = std::make_unique<Buffer>();
  buffer->device = &device;
  buffer->size = size;
  device.check(driver().cuMemAlloc(&buffer->ptr, size), "cuMemAlloc(%llu bytes)",
               static_cast<unsigned long long>(size));
  return buffer.release();
}

void Backend::buffer_destroy(Buffer* buffer) {
  if (!buffer) return;
  {
    ContextScope scope(*buffer->device, ContextScope::Releasing{});
    if (buffer->registered)
      driver().cuMemHostUnregister(buffer->host);
    else if (!buffer->foreign)
      driver().cuMemFree(buffer->ptr);
  }
  delete buffer;
}

void free_recorded_storage(Device& device, RecordedStorage& storage) {
  ContextScope scope(device, ContextScope::Releasing{});
  for (void* p : storage.pinned) driver().cuMemFreeHost(p);
  storage.pinned.clear();
  storage.copies.clear();
}

StagingPool::~StagingPool() {
  // The caller made the context current; waiting for each chunk's last copy
  // keeps a callback from writing into freed memory.
  for (auto& chunk : chunks_) {
    if (chunk->done) {
      driver().cuEventSynchronize(chunk->done);
      driver().cuEventDestroy(chunk->done);
    }
    if (chunk->host) driver().cuMemFreeHost(chunk->host);
  }
}

StagingPool::Chunk* StagingPool::acquire() {
  const Driver& cu = driver();
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    // A chunk whose last copy has finished.
    Chunk* pending = nullptr;
    for (auto& chunk : chunks_) {
      if (chunk->in_use) continue;
      CUresult r = cu.cuEventQuery(chunk->done);
      if (r == CUDA_SUCCESS) {
        chunk->in_use = true;
        return chunk.get();
      }
      if (r != CUDA_ERROR_NOT_READY) device_.check(r, "cuEventQuery (staging memory)");
      if (!pending) pending = chunk.get();
    }
    if (chunks_.size() < kMaxChunks) {
      auto chunk = std::make_unique<Chunk>();
      device_.check(cu.cuMemHostAlloc(&chunk->host, kChunkBytes, CU_MEMHOSTALLOC_PORTABLE),
                    "cuMemHostAlloc(%zu bytes of staging memory)", kChunkBytes);
      CUresult r = cu.cuEventCreate(&chunk->done, CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING);
      if (r != CUDA_SUCCESS) {
        cu.cuMemFreeHost(chunk->host);
        device_.check(r, "cuEventCreate (staging memory)");
      }
      chunk->in_use = true;
      chunks_.push_back(std::move(chunk));
      return chunks_.back().get();
    }
    if (pending) {
      // Wait outside the lock: other threads may release or take other chunks.
      pending->in_use = true;
      lock.unlock();
      CUresult r = cu.cuEventSynchronize(pending->done);
      if (r != CUDA_SUCCESS) {
        abandon(pending);
        device_.check(r, "cuEventSynchronize (staging memory)");
      }
      return pending;
    }
    // Every chunk is held by a call in progress on another thread.
    available_.wait(lock);
  }
}

void StagingPool::release(Chunk* chunk, CUstream stream) {
  CUresult r = driver().cuEventRecord(chunk->done, stream);
  if (r != CUDA_SUCCESS) {
    // Without the event the chunk's copy cannot be tracked: wait for the stream.
    driver().cuStreamSynchronize(stream);
  }
  abandon(chunk);
  device_.check(r, "cuEventRecord (staging memory)");
}

void StagingPool::abandon(Chunk* chunk) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    chunk->in_use = false;
  }
  available_.notify_one();
}

}  // namespace porta::cuda
