// Work-group barriers on the CPU: the work-items of one group run as fibers on
// the worker thread, and barrier() switches to the next fiber, so every item
// reaches a barrier before any passes it (barriers inside loops included).
//
// GLSL requires barrier() in uniform control flow. A work-item that returns
// while others still wait simply finishes: the barrier then waits for the
// items still running, so it never deadlocks, but such a kernel's result is
// what GLSL calls undefined.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "context.hpp"
#include "porta_cpu.h"

namespace porta::cpu {

// Fiber stacks of one thread, mapped once and reused by every work-group the
// thread runs, each with a guard page below it so an overflow faults.
class StackPool {
 public:
  explicit StackPool(size_t stack_bytes);

  // Makes at least `count` stacks available; throws porta::plugin::Failure
  // (out of memory) if the system refuses.
  void reserve(size_t count);
  size_t count() const { return stacks_.size(); }
  void* base(size_t i) const { return stacks_[i].base; }
  size_t stack_bytes() const { return stack_bytes_; }

 private:
  // Unmaps a stack's mapping (its guard page and the stack) with its owner.
  struct Unmap {
    size_t bytes;
    unsigned valgrind_stack = 0;  // its registration with valgrind (0 outside valgrind)
    void operator()(void* mapping) const;
  };
  struct Stack {
    std::unique_ptr<void, Unmap> mapping;
    void* base;
  };
  size_t stack_bytes_;
  size_t mapping_bytes_;
  std::vector<Stack> stacks_;
};

// Bytes per fiber stack: PORTA_CPU_STACK_KB, else 64 KiB; more for a kernel
// whose work-items need more (FiberScheduler::prepare).
size_t fiber_stack_bytes();

// The stack a work-item of a kernel measured at `item_bytes` runs on: its
// measure, a margin for what it calls outside its object (libm) and for the
// switch, rounded up to pages; at least fiber_stack_bytes().
size_t item_stack_bytes(uint64_t item_bytes);

class FiberScheduler {
 public:
  // One per thread: fibers never move between threads.
  static FiberScheduler& for_this_thread();

  explicit FiberScheduler(size_t stack_bytes);
  ~FiberScheduler();
  FiberScheduler(const FiberScheduler&) = delete;
  FiberScheduler& operator=(const FiberScheduler&) = delete;

  // The table handed to generated code.
  const porta_cpu_scheduler* abi() const { return &abi_; }
  // Readies stacks for `items` work-items of a kernel measured at
  // `item_bytes` each (0: not measured, the default fits), ahead of a
  // dispatch, where a failure can still be reported. A kernel that needs
  // more than the default runs every item on a mapped stack of its size,
  // never on the thread's own (whose size the caller chose).
  void prepare(uint32_t items, uint64_t item_bytes);
  // Whether the last prepare() asked for stacks larger than the default:
  // then even a kernel without barriers runs its groups on one (run_on_stack).
  bool own_stacks() const { return own_stacks_; }
  // Runs fn() on a prepared stack (as the one item of a group).
  template <class F>
  void run_on_stack(F& fn) {
    run_items(1, [](void* f, uint32_t) { (*static_cast<F*>(f))(); }, &fn);
  }

  void run_items(uint32_t count, void (*item)(void*, uint32_t), void* ctx);
  void barrier();

 private:
  struct Fiber {
    Context context;
    FiberScheduler* owner;
    uint32_t index;
    uint32_t next;  // ring of fibers still running
    uint32_t prev;
  };
  static void fiber_main(void* fiber);
  void finish(Fiber& fiber);
  void switch_to(Context* from, Context* to, uint32_t to_fiber, bool from_finished);
  // Starts loading the top of a suspended fiber's stack into the cache.
  void prefetch_stack(uint32_t fiber) const;

  porta_cpu_scheduler abi_;
  StackPool stacks_;
  std::vector<Fiber> fibers_;
  Context main_;
  uint32_t current_ = 0;
  uint32_t live_ = 0;
  bool single_ = false;      // one item: it runs on the thread's own stack
  bool own_stacks_ = false;  // the kernel needs more than the default stack
  bool running_ = false;
  void (*item_)(void*, uint32_t) = nullptr;
  void* item_ctx_ = nullptr;
  // AddressSanitizer must be told about every stack switch.
  const void* main_stack_bottom_ = nullptr;
  size_t main_stack_size_ = 0;
  void* tsan_main_ = nullptr;  // ThreadSanitizer's fiber of the thread itself
  // ThreadSanitizer's fibers, one per item slot, kept from group to group (TSan builds only).
  std::vector<void*> tsan_fibers_;
};

}  // namespace porta::cpu
