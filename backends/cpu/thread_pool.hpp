// One pool of worker threads per device. A parallel job hands out chunks of
// an index range through one atomic counter; the submitting thread works too,
// so a job of one chunk never wakes anybody. A worker polls for the next job
// a while before it sleeps, and the submitter for the last chunk before it
// does: dispatches back to back find the workers awake, where waking a
// sleeping thread costs tens of microseconds (a mul of 2^20 floats on two
// cores takes 160).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace porta::cpu {

class ThreadPool {
 public:
  // `threads` executors in all: the submitting thread plus threads - 1 workers.
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }

  // Calls body(begin, end) over [0, count) in chunks of `chunk`, on every
  // thread; returns when all chunks are done. The first exception a chunk
  // throws stops the handing out of further chunks and is rethrown here.
  // Jobs from several threads run one after another.
  template <class F>
  void parallel_for(uint64_t count, uint64_t chunk, F&& body) {
    run(
        count, chunk, [](void* f, uint64_t b, uint64_t e) { (*static_cast<F*>(f))(b, e); }, &body);
  }

  // PORTA_CPU_THREADS, else the CPUs this process may run on.
  static unsigned default_threads();

 private:
  struct Job {
    void (*fn)(void*, uint64_t, uint64_t);
    void* ctx;
    uint64_t count;
    uint64_t chunk;
    std::atomic<uint64_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex error_mutex;
    std::exception_ptr error;
  };
  void run(uint64_t count, uint64_t chunk, void (*fn)(void*, uint64_t, uint64_t), void* ctx);
  static void work(Job& job);
  void worker_loop();

  std::mutex submit_mutex_;  // one job at a time
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  Job* job_ = nullptr;
  // Written under mutex_; atomic so that a thread may poll them without it
  // (a worker between jobs, the submitter waiting for the last chunk).
  std::atomic<uint64_t> generation_{0};
  std::atomic<unsigned> busy_{0};
  std::atomic<bool> stop_{false};
  std::vector<std::thread> workers_;
};

}  // namespace porta::cpu
