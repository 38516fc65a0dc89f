#include "fiber.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../common/plugin_support.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define PORTA_CPU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PORTA_CPU_ASAN 1
#endif
#endif
#ifdef PORTA_CPU_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
// ThreadSanitizer keeps a call stack per fiber when told of each switch;
// without that, frames left on a fiber that finished pile up on the thread's
// one stack, group after group, until TSan's stack depot overflows.
#if defined(__SANITIZE_THREAD__)
#define PORTA_CPU_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PORTA_CPU_TSAN 1
#endif
#endif
#ifdef PORTA_CPU_TSAN
#include <sanitizer/tsan_interface.h>
// The functions at the bottom of a fiber (fiber_main, finish, switch_to) are
// built without TSan's function entry and exit calls: a finished item
// switches away from inside them and never returns, so instrumented they
// would leave their frames on the TSan fiber's call stack, and a TSan fiber
// could not be kept for the next group. Creating one per item and group
// instead (a TSan thread each: a state mapped and cleared, then unmapped) was
// most of the time of a kernel with barriers under TSan. They touch only the
// thread's own scheduler.
#if defined(__clang__) && defined(__has_attribute)
#if __has_attribute(disable_sanitizer_instrumentation)
#define PORTA_CPU_FIBER_BOTTOM __attribute__((disable_sanitizer_instrumentation))
#endif
#endif
#ifndef PORTA_CPU_FIBER_BOTTOM
#define PORTA_CPU_FIBER_BOTTOM __attribute__((no_sanitize("thread")))  // GCC: no entry/exit calls either
#endif
#else
#define PORTA_CPU_FIBER_BOTTOM
#endif
// Under valgrind, memcheck must know the fiber stacks as stacks, or every
// switch onto one looks like a wild access (the macros do nothing elsewhere).
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define VALGRIND_STACK_REGISTER(start, end) 0u
#define VALGRIND_STACK_DEREGISTER(id) ((void)(id))
#endif

namespace porta::cpu {

namespace {

size_t page_size() {
  static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

// Unrecoverable inside generated code (no error path crosses it): say why and stop.
[[noreturn]] void die(const std::string& message) {
  std::fprintf(stderr, "porta cpu: %s\n", message.c_str());
  std::abort();
}

}  // namespace

size_t fiber_stack_bytes() {
  static const size_t bytes = [] {
    size_t kib = 64;
    if (const char* env = std::getenv("PORTA_CPU_STACK_KB")) {
      char* end = nullptr;
      unsigned long v = std::strtoul(env, &end, 10);
      if (end != env && *end == '\0' && v >= 16 && v <= 1024 * 1024) kib = v;
    }
    return kib * 1024;
  }();
  return bytes;
}

size_t item_stack_bytes(uint64_t item_bytes) {
  constexpr uint64_t margin = 32 * 1024;
  const uint64_t bytes = round_up(item_bytes + margin, page_size());
  return std::max<size_t>(fiber_stack_bytes(), static_cast<size_t>(bytes));
}

StackPool::StackPool(size_t stack_bytes)
    : stack_bytes_(round_up(stack_bytes, page_size())), mapping_bytes_(stack_bytes_ + page_size()) {}

void StackPool::Unmap::operator()(void* mapping) const {
  if (valgrind_stack) VALGRIND_STACK_DEREGISTER(valgrind_stack);
  munmap(mapping, bytes);
}

void StackPool::reserve(size_t count) {
  static bool warned_guard = false;
  while (stacks_.size() < count) {
    void* m = mmap(nullptr, mapping_bytes_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
      plugin::fail(PORTA_ERROR_OUT_OF_MEMORY, "cannot map %zu fiber stacks of %zu KiB: %s", count,
                   stack_bytes_ / 1024, std::strerror(errno));
    }
    char* base = static_cast<char*>(m) + page_size();
    std::unique_ptr<void, Unmap> mapping(
        m, Unmap{mapping_bytes_, static_cast<unsigned>(VALGRIND_STACK_REGISTER(base, base + stack_bytes_))});
    // Each guard page splits the mapping, and the kernel limits mappings per
    // process (vm.max_map_count); past that limit, run without the guard.
    if (mprotect(m, page_size(), PROT_NONE) != 0 && !warned_guard) {
      warned_guard = true;
      plugin::log(PORTA_LOG_WARN, "cpu: fiber stacks run without guard pages (mprotect: " +
                                      std::string(std::strerror(errno)) + ")");
    }
    stacks_.push_back({std::move(mapping), base});
  }
}

FiberScheduler& FiberScheduler::for_this_thread() {
  thread_local FiberScheduler scheduler(fiber_stack_bytes());
  return scheduler;
}

FiberScheduler::FiberScheduler(size_t stack_bytes) : stacks_(stack_bytes) {
  abi_.self = this;
  abi_.run_items = [](void* self, uint32_t count, void (*item)(void*, uint32_t), void* ctx) {
    static_cast<FiberScheduler*>(self)->run_items(count, item, ctx);
  };
  abi_.barrier = [](void* self) { static_cast<FiberScheduler*>(self)->barrier(); };
}

FiberScheduler::~FiberScheduler() {
#ifdef PORTA_CPU_TSAN
  for (void* fiber : tsan_fibers_) __tsan_destroy_fiber(fiber);
#endif
}

void FiberScheduler::prepare(uint32_t items, uint64_t item_bytes) {
  const size_t bytes = item_stack_bytes(item_bytes);
  own_stacks_ = bytes > fiber_stack_bytes();
  if (bytes > stacks_.stack_bytes()) stacks_ = StackPool(bytes);
  stacks_.reserve(std::max(items, 1u));
}

void FiberScheduler::run_items(uint32_t count, void (*item)(void*, uint32_t), void* ctx) {
  if (count == 0) return;
  if (running_) die("run_items called from inside a work-item");
  if (count == 1 && !own_stacks_) {
    // A group of one needs no fiber: its barriers have nobody to wait for.
    single_ = true;
    item(ctx, 0);
    single_ = false;
    return;
  }
  try {
    stacks_.reserve(count);
  } catch (const std::exception& e) {
    die(e.what());
  }
  running_ = true;
  item_ = item;
  item_ctx_ = ctx;
  fibers_.resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    Fiber& f = fibers_[i];
    f.owner = this;
    f.index = i;
    f.next = i + 1 == count ? 0 : i + 1;
    f.prev = i == 0 ? count - 1 : i - 1;
#ifdef PORTA_CPU_ASAN
    // Frames of fibers that finished by switching away stay poisoned in the
    // shadow memory; a reused stack starts clean.
    __asan_unpoison_memory_region(stacks_.base(i), stacks_.stack_bytes());
#endif
    // Stack tops a page apart would all fall into the same L1 cache sets;
    // shifting each by some cache lines keeps the fibers' frames apart.
    size_t color = (i % 61) * 64;
    context_make(&f.context, stacks_.base(i), stacks_.stack_bytes() - color, &FiberScheduler::fiber_main, &f);
  }
  live_ = count;
  current_ = 0;
#ifdef PORTA_CPU_TSAN
  tsan_main_ = __tsan_get_current_fiber();
  while (tsan_fibers_.size() < count) tsan_fibers_.push_back(__tsan_create_fiber(0));
#endif
  switch_to(&main_, &fibers_[0].context, 0, false);
  running_ = false;
}

void FiberScheduler::barrier() {
  if (single_) return;
  if (!running_) die("barrier() called outside run_items");
  Fiber& f = fibers_[current_];
  if (f.next == current_) return;  // the only item still running
  current_ = f.next;
  prefetch_stack(fibers_[current_].next);
  switch_to(&f.context, &fibers_[current_].context, current_, false);
}

// A group's fibers resume one after another, and a large group's stack tops
// (the registers the item spilled around barrier(), the switch's saved
// registers) do not all stay in L1: each resume began with a miss (matmul,
// 128 items: 13% of the items' time on the first reload after a barrier).
// Switching to fiber n, the top of fiber n + 1's stack is requested, so it
// arrives while fiber n runs.
void FiberScheduler::prefetch_stack(uint32_t fiber) const {
#ifndef PORTA_CPU_CONTEXT_UCONTEXT
  const char* top = static_cast<const char*>(fibers_[fiber].context.sp);
  if (top == nullptr) return;
  for (int line = 0; line < 16; ++line) __builtin_prefetch(top + 64 * line);
#else
  (void)fiber;
#endif
}

PORTA_CPU_FIBER_BOTTOM void FiberScheduler::fiber_main(void* arg) {
  Fiber& f = *static_cast<Fiber*>(arg);
  FiberScheduler& self = *f.owner;
#ifdef PORTA_CPU_ASAN
  const void* from_bottom = nullptr;
  size_t from_size = 0;
  __sanitizer_finish_switch_fiber(nullptr, &from_bottom, &from_size);
  if (f.index == 0) {  // fiber 0 always starts from the thread's own stack
    self.main_stack_bottom_ = from_bottom;
    self.main_stack_size_ = from_size;
  }
#endif
  self.item_(self.item_ctx_, f.index);
  self.finish(f);
}

PORTA_CPU_FIBER_BOTTOM void FiberScheduler::finish(Fiber& f) {
  --live_;
  fibers_[f.prev].next = f.next;
  fibers_[f.next].prev = f.prev;
  if (live_ == 0) {
    switch_to(&f.context, &main_, UINT32_MAX, true);
  } else {
    current_ = f.next;
    prefetch_stack(fibers_[current_].next);
    switch_to(&f.context, &fibers_[current_].context, current_, true);
  }
  die("a finished work-item was resumed");
}

PORTA_CPU_FIBER_BOTTOM void FiberScheduler::switch_to(Context* from, Context* to, uint32_t to_fiber,
                                                      bool from_finished) {
#ifdef PORTA_CPU_TSAN
  // Synchronising: the fibers of a thread run one after another.
  __tsan_switch_to_fiber(to_fiber == UINT32_MAX ? tsan_main_ : tsan_fibers_[to_fiber], 0);
#endif
#ifdef PORTA_CPU_ASAN
  void* fake_stack = nullptr;
  const void* bottom = to_fiber == UINT32_MAX ? main_stack_bottom_ : stacks_.base(to_fiber);
  size_t size = to_fiber == UINT32_MAX ? main_stack_size_ : stacks_.stack_bytes();
  __sanitizer_start_switch_fiber(from_finished ? nullptr : &fake_stack, bottom, size);
  context_switch(from, to);
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#else
  (void)to_fiber;
  (void)from_finished;
  context_switch(from, to);
#endif
}

}  // namespace porta::cpu
