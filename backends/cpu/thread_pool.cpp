#include "thread_pool.hpp"

#include <sched.h>

#include <algorithm>
#include <cstdlib>

#include "../common/spin_wait.hpp"

namespace porta::cpu {

unsigned ThreadPool::default_threads() {
  if (const char* env = std::getenv("PORTA_CPU_THREADS")) {
    char* end = nullptr;
    unsigned long n = std::strtoul(env, &end, 10);
    if (end != env && *end == '\0' && n >= 1 && n <= 4096) return static_cast<unsigned>(n);
  }
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return static_cast<unsigned>(n);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

ThreadPool::ThreadPool(unsigned threads) {
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::work(Job& job) {
  while (!job.failed.load(std::memory_order_relaxed)) {
    uint64_t begin = job.next.fetch_add(job.chunk, std::memory_order_relaxed);
    if (begin >= job.count) return;
    uint64_t end = std::min(job.count, begin + job.chunk);
    try {
      job.fn(job.ctx, begin, end);
    } catch (...) {
      std::lock_guard lock(job.error_mutex);
      if (!job.error) job.error = std::current_exception();
      job.failed = true;
    }
  }
}

void ThreadPool::run(uint64_t count, uint64_t chunk, void (*fn)(void*, uint64_t, uint64_t), void* ctx) {
  if (count == 0) return;
  chunk = std::max<uint64_t>(chunk, 1);
  if (workers_.empty() || count <= chunk) {
    fn(ctx, 0, count);
    return;
  }
  std::lock_guard submit(submit_mutex_);
  Job job;
  job.fn = fn;
  job.ctx = ctx;
  job.count = count;
  job.chunk = chunk;
  {
    std::lock_guard lock(mutex_);
    job_ = &job;
    ++generation_;
  }
  wake_.notify_all();
  work(job);
  {
    // Workers join a job only while job_ points at it, so once it is cleared
    // and busy_ drops to zero nobody touches `job` again.
    std::lock_guard lock(mutex_);
    job_ = nullptr;
  }
  plugin::spin_then_block([this] { return busy_.load() == 0; },
                          [this] {
                            std::unique_lock lock(mutex_);
                            done_.wait(lock, [this] { return busy_ == 0; });
                          });
  if (job.error) std::rethrow_exception(job.error);
}

void ThreadPool::worker_loop() {
  uint64_t seen = 0;
  std::unique_lock lock(mutex_);
  for (;;) {
    lock.unlock();
    plugin::spin_then_block([&] { return stop_.load() || generation_.load() != seen; }, [] {});
    lock.lock();
    wake_.wait(lock, [&] { return stop_ || (job_ && generation_ != seen); });
    if (stop_) return;
    seen = generation_;
    Job* job = job_;
    ++busy_;
    lock.unlock();
    work(*job);
    lock.lock();
    if (--busy_ == 0) done_.notify_all();
  }
}

}  // namespace porta::cpu
