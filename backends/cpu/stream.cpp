#include "stream.hpp"

#include <unistd.h>

#include <cstring>

#include "../common/watchdog.hpp"
#include "device.hpp"
#include "fiber.hpp"
#include "kernel.hpp"
#include "memory.hpp"

namespace porta::cpu {

namespace {

// Runs `task` now, or appends it to the sequence being recorded.
template <class F>
void submit(porta_plugin_stream s, F&& task) {
  if (s->recording) {
    s->recording->tasks.emplace_back(std::forward<F>(task));
  } else {
    task();
  }
}

struct Dispatch {
  const porta_cpu_kernel_entry* entry;
  std::string name;
  uint64_t timeout_ms;
  uint32_t invocations;
  uint64_t stack_bytes;  // the kernel's measure per work-item (0: the default stack fits)
  uint32_t groups[3];
  std::vector<void*> buffers;
  std::vector<uint64_t> buffer_sizes;  // what .length() reads
  std::vector<unsigned char> push;
};

void run_dispatch(ThreadPool& pool, const Dispatch& d) {
  uint64_t total = uint64_t(d.groups[0]) * d.groups[1] * d.groups[2];
  // A few chunks per thread: the atomic counter evens out uneven groups.
  uint64_t chunk = std::max<uint64_t>(1, total / (uint64_t(pool.size()) * 8));
  uint32_t cancel = 0;
  plugin::Watchdog::Armed watchdog(&cancel, d.timeout_ms);
  pool.parallel_for(total, chunk, [&d, &cancel](uint64_t begin, uint64_t end) {
    FiberScheduler& scheduler = FiberScheduler::for_this_thread();
    scheduler.prepare(d.entry->uses_barrier ? d.invocations : 0, d.stack_bytes);
    porta_cpu_group_args args{};
    args.buffers = d.buffers.empty() ? nullptr : d.buffers.data();
    args.buffer_sizes = d.buffer_sizes.empty() ? nullptr : d.buffer_sizes.data();
    args.buffer_count = static_cast<uint32_t>(d.buffers.size());
    args.push = d.push.empty() ? nullptr : d.push.data();
    std::memcpy(args.num_groups, d.groups, sizeof args.num_groups);
    args.scheduler = scheduler.abi();
    args.cancel = &cancel;
    uint64_t gx = d.groups[0], gxy = gx * d.groups[1];
    auto run_groups = [&] {
      for (uint64_t i = begin; i < end && !__atomic_load_n(&cancel, __ATOMIC_RELAXED); ++i) {
        args.group_id[0] = static_cast<uint32_t>(i % gx);
        args.group_id[1] = static_cast<uint32_t>(i % gxy / gx);
        args.group_id[2] = static_cast<uint32_t>(i / gxy);
        d.entry->run_group(&args);
      }
    };
    // Items that need more stack than the default never run on the
    // thread's own, whose size whoever started the thread chose.
    if (!d.entry->uses_barrier && scheduler.own_stacks())
      scheduler.run_on_stack(run_groups);
    else
      run_groups();
  });
  if (watchdog.fired())
    plugin::fail(PORTA_ERROR_TIMEOUT,
                 "%s: kernel '%s' ran past its limit of %.3f s (PORTA_TIMEOUT) and was stopped; what it had "
                 "written stays, the rest of its work is undone; the device is usable",
                 where("stream_dispatch").c_str(), d.name.c_str(),
                 static_cast<double>(d.timeout_ms) / 1000.0);
}

// Every thread of the pool may hold a whole group's stacks at once, and the
// translated code touches all of a work-item's private arrays (it zeroes
// them): refused where that is more than half the machine's memory, rather
// than left to the kernel's out-of-memory killer.
void check_stack(const porta_plugin_stream_t& s, const porta_plugin_kernel_t& kernel) {
  if (kernel.stack_bytes == 0) return;
  const uint64_t items = kernel.entry->uses_barrier ? kernel.invocations : 1;
  const uint64_t per_thread = uint64_t(item_stack_bytes(kernel.stack_bytes)) * items;
  const uint64_t threads = s.pool->size();
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return;
  const uint64_t memory = uint64_t(pages) * uint64_t(page);
  if (per_thread * threads > memory / 2) {
    plugin::fail(PORTA_ERROR_OUT_OF_MEMORY,
                 "%s: kernel '%s': a work-item needs %llu KiB of stack (its private variables), %llu MiB for a "
                 "group of %llu items on each of %llu threads, more than half of the machine's %llu MiB; use "
                 "smaller private arrays or shared memory, or fewer threads (PORTA_CPU_THREADS)",
                 where("stream_dispatch").c_str(), kernel.name.c_str(),
                 static_cast<unsigned long long>(kernel.stack_bytes / 1024),
                 static_cast<unsigned long long>(per_thread >> 20), static_cast<unsigned long long>(items),
                 static_cast<unsigned long long>(threads), static_cast<unsigned long long>(memory >> 20));
  }
}

}  // namespace

porta_plugin_stream stream_create(porta_plugin_device device) {
  return new porta_plugin_stream_t{device->pool, device->timeout_ms, nullptr};
}

void stream_write(porta_plugin_stream s, porta_plugin_buffer dst, uint64_t offset, const void* src,
                  uint64_t size) {
  submit(s, [=] { std::memcpy(static_cast<char*>(dst->data) + offset, src, size); });
}

void stream_read(porta_plugin_stream s, porta_plugin_buffer src, uint64_t offset, void* dst, uint64_t size) {
  submit(s, [=] { std::memcpy(dst, static_cast<const char*>(src->data) + offset, size); });
}

void stream_copy(porta_plugin_stream s, porta_plugin_buffer src, uint64_t src_offset, porta_plugin_buffer dst,
                 uint64_t dst_offset, uint64_t size) {
  // memmove: a copy within one buffer may overlap.
  submit(s, [=] {
    std::memmove(static_cast<char*>(dst->data) + dst_offset, static_cast<const char*>(src->data) + src_offset,
                 size);
  });
}

void stream_fill(porta_plugin_stream s, porta_plugin_buffer dst, uint64_t offset, uint64_t size,
                 uint32_t pattern) {
  submit(s, [=] {
    auto* p = reinterpret_cast<uint32_t*>(static_cast<char*>(dst->data) + offset);
    for (uint64_t i = 0, n = size / 4; i < n; ++i) p[i] = pattern;
  });
}

void stream_dispatch(porta_plugin_stream_t& s, const porta_plugin_kernel_t& kernel, const uint32_t groups[3],
                     plugin::BufferList<porta_plugin_buffer_t> buffers, const void* push,
                     uint32_t push_size) {
  // Group ids are computed in 64 bits; past 2^62 groups that would wrap.
  unsigned __int128 total = (unsigned __int128)groups[0] * groups[1] * groups[2];
  if (total > (unsigned __int128)1 << 62) {
    plugin::fail(PORTA_ERROR_UNSUPPORTED, "%s: kernel '%s': %u x %u x %u work-groups are more than 2^62",
                 where("stream_dispatch").c_str(), kernel.name.c_str(), groups[0], groups[1], groups[2]);
  }
  check_stack(s, kernel);
  Dispatch d{kernel.entry,
             kernel.name,
             s.timeout_ms,
             kernel.invocations,
             kernel.stack_bytes,
             {groups[0], groups[1], groups[2]},
             {},
             {},
             {}};
  d.buffers.reserve(buffers.size());
  d.buffer_sizes.reserve(buffers.size());
  for (uint32_t i = 0; i < buffers.size(); ++i) {
    d.buffers.push_back(static_cast<unsigned char*>(buffers[i].data) + buffers.offset(i));
    d.buffer_sizes.push_back(buffers.bytes(i));
  }
  if (push && push_size)
    d.push.assign(static_cast<const unsigned char*>(push),
                  static_cast<const unsigned char*>(push) + push_size);
  if (s.recording) {
    s.recording->tasks.emplace_back([pool = s.pool, d = std::move(d)] { run_dispatch(*pool, d); });
  } else {
    run_dispatch(*s.pool, d);
  }
}

porta_plugin_event event_record(porta_plugin_stream s) {
  auto event = std::make_unique<porta_plugin_event_t>();
  submit(s, [mark = event->mark] {
    mark->time = std::chrono::steady_clock::now();
    mark->reached = true;
  });
  return event.release();
}

double event_elapsed_ms(porta_plugin_event start, porta_plugin_event end) {
  if (!start->mark->reached || !end->mark->reached) {
    plugin::fail(
        PORTA_ERROR_INVALID_ARGUMENT,
        "%s: an event has not been reached yet (recorded into a sequence that has not been replayed)",
        where("event_elapsed_ms").c_str());
  }
  return std::chrono::duration<double, std::milli>(end->mark->time - start->mark->time).count();
}

void stream_wait_event(porta_plugin_event event) {
  // The work before the event ran on the thread that recorded it before
  // event_record returned; the event reached this thread after that.
  if (!event->mark->reached)
    plugin::fail(PORTA_ERROR_INVALID_ARGUMENT,
                 "%s: the event has not been reached (recorded into a sequence that has not been replayed)",
                 where("stream_wait_event").c_str());
}

void stream_begin_record(porta_plugin_stream s) {
  s->recording = std::make_unique<porta_plugin_sequence_t>();
}

porta_plugin_sequence stream_end_record(porta_plugin_stream s) { return s->recording.release(); }

void stream_replay(porta_plugin_stream, porta_plugin_sequence sequence) {
  for (const auto& task : sequence->tasks) task();
}

}  // namespace porta::cpu
