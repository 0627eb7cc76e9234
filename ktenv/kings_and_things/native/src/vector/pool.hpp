// A small persistent thread pool for the batched games: the workers start once (with the batch) and
// sleep between calls. `run(n, task)` calls task(i) for every i in [0, n) on the calling thread and
// whichever workers wake in time, and returns when all are done. The pool decides nothing about the
// results: each task writes only its own game's memory, so the outcome is the same whatever the thread
// count or the schedule.
//
// The caller never waits for a worker that has not started: tasks are claimed in chunks from one
// atomic word holding (call number, next index), so a worker that wakes late (a loaded machine) finds
// the call finished or another one under way and claims nothing. The caller waits only for chunks
// already claimed.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace ktenv::vector {

class Pool {
 public:
  // `threads` in all, the caller's included (1: no worker, everything on the calling thread).
  explicit Pool(int threads) {
    for (int w = 1; w < threads; ++w) workers_.emplace_back([this] { serve(); });
  }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (auto& w : workers_) w.join();
  }

  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  // task(i) for i in [0, n); `task` must not throw (catch inside and record the failure).
  template <class Task>
  void run(int n, Task& task) {
    if (workers_.empty() || n <= 1) {
      for (int i = 0; i < n; ++i) task(i);
      return;
    }
    Call call{[](void* t, int i) { (*static_cast<Task*>(t))(i); }, &task, n,
              std::max(1, n / (threads() * 8))};  // small chunks balance games of different lengths
    std::uint32_t number;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      number = ++number_;
      call_ = call;
      done_.store(0, std::memory_order_relaxed);
      next_.store(static_cast<std::uint64_t>(number) << 32, std::memory_order_release);
      posted_.store(number, std::memory_order_release);
    }
    wake_.notify_all();
    drain(call, number);
    while (done_.load(std::memory_order_acquire) < n) std::this_thread::yield();  // chunks claimed by workers
  }

 private:
  struct Call {
    void (*body)(void*, int) = nullptr;
    void* context = nullptr;
    int count = 0, chunk = 1;
  };

  // Claim and run chunks of call `number` until none is left (or another call began).
  void drain(const Call& call, std::uint32_t number) {
    for (;;) {
      std::uint64_t word = next_.load(std::memory_order_acquire);
      int first;
      do {
        first = static_cast<int>(word & 0xffffffffu);
        if ((word >> 32) != number || first >= call.count) return;
      } while (!next_.compare_exchange_weak(word, word + static_cast<std::uint64_t>(call.chunk),
                                            std::memory_order_acq_rel, std::memory_order_acquire));
      int last = std::min(call.count, first + call.chunk);
      for (int i = first; i < last; ++i) call.body(call.context, i);
      done_.fetch_add(last - first, std::memory_order_release);
    }
  }

  void serve() {
    std::uint32_t seen = 0;
    for (;;) {
      Call call;
      // Spin a little before sleeping: the next call usually comes within a fraction of a millisecond
      // (the caller only chooses actions in between), and waking a sleeping thread costs tens of
      // microseconds, several games' worth (measured: 4% of a vector env's decisions/s at 2 threads).
      for (int spin = 0; spin < kSpins && posted_.load(std::memory_order_acquire) == seen; ++spin) relax();
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || number_ != seen; });
        if (stopping_) return;
        seen = number_;
        call = call_;
      }
      drain(call, seen);
    }
  }

  static constexpr int kSpins = 1 << 12;  // about 0.1-0.5 ms of pause instructions

  static void relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    std::this_thread::yield();
#endif
  }

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::uint32_t number_ = 0;  // the call under way (written under the mutex)
  Call call_;
  std::atomic<std::uint64_t> next_{0};  // (call number << 32) | next index to claim
  std::atomic<int> done_{0};            // tasks finished in the call under way
  std::atomic<std::uint32_t> posted_{0};  // number_, readable without the mutex (the spin before sleeping)
};

}  // namespace ktenv::vector
