// Streams execute each operation when it is queued, on the calling thread
// (a dispatch spreads its work-groups over the device's thread pool), which
// keeps submission order trivially. Between begin_record and end_record the
// operations become a task list that replay runs again.
//
// Translated kernels check their buffer accesses (porta/robust.h; unless
// PORTA_CPU_BOUNDS=off), so an index out of bounds reads 0 and writes
// nothing; a stack overflow into a guard page still takes the process down.
// A dispatch past the device's time limit is cancelled: the watchdog sets
// its flag, each work-item ends at its next loop header, the groups not yet
// started are skipped, and the dispatch fails with PORTA_ERROR_TIMEOUT.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include "../common/plugin_adapter.hpp"
#include "kernel.hpp"
#include "memory.hpp"
#include "thread_pool.hpp"

struct porta_plugin_sequence_t {
  std::vector<std::function<void()>> tasks;
};

struct porta_plugin_stream_t {
  std::shared_ptr<porta::cpu::ThreadPool> pool;
  uint64_t timeout_ms = 0;                             // the device's per-dispatch limit
  std::unique_ptr<porta_plugin_sequence_t> recording;  // non-null while recording
};

struct porta_plugin_event_t {
  struct Mark {
    std::chrono::steady_clock::time_point time;
    bool reached = false;
  };
  // Shared with the sequence that may stamp it, which can outlive the handle.
  std::shared_ptr<Mark> mark = std::make_shared<Mark>();
};

namespace porta::cpu {

porta_plugin_stream stream_create(porta_plugin_device device);

void stream_write(porta_plugin_stream s, porta_plugin_buffer dst, uint64_t offset, const void* src,
                  uint64_t size);
void stream_read(porta_plugin_stream s, porta_plugin_buffer src, uint64_t offset, void* dst, uint64_t size);
void stream_copy(porta_plugin_stream s, porta_plugin_buffer src, uint64_t src_offset, porta_plugin_buffer dst,
                 uint64_t dst_offset, uint64_t size);
void stream_fill(porta_plugin_stream s, porta_plugin_buffer dst, uint64_t offset, uint64_t size,
                 uint32_t pattern);
void stream_dispatch(porta_plugin_stream_t& s, const porta_plugin_kernel_t& kernel, const uint32_t groups[3],
                     plugin::BufferList<porta_plugin_buffer_t> buffers, const void* push, uint32_t push_size);

porta_plugin_event event_record(porta_plugin_stream s);
double event_elapsed_ms(porta_plugin_event start, porta_plugin_event end);
// A stream's later work after `event`: nothing to wait for, since work runs
// when it is queued; fails for an event not reached (in a sequence not replayed).
void stream_wait_event(porta_plugin_event event);

void stream_begin_record(porta_plugin_stream s);
porta_plugin_sequence stream_end_record(porta_plugin_stream s);
void stream_replay(porta_plugin_stream s, porta_plugin_sequence sequence);

}  // namespace porta::cpu
