// A small persistent thread pool for the batched games: the workers start once (with the batch) and
// wait between calls. `run(n, task)` calls task(i) for every i in [0, n) on the workers and the calling
// thread, and returns when all are done. The pool decides nothing about the results: each task writes
// only its own game's memory, so the outcome is the same whatever the thread count or the schedule.
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
    {
      std::lock_guard<std::mutex> lock(mutex_);
      call_ = [](void* t, int i) { (*static_cast<Task*>(t))(i); };
      context_ = &task;
      count_ = n;
      // small chunks balance games of different lengths; a few per thread keep the counter cold
      chunk_ = std::max(1, n / (threads() * 8));
      next_.store(0, std::memory_order_relaxed);
      busy_ = static_cast<int>(workers_.size());
      ++generation_;
    }
    wake_.notify_all();
    drain();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return busy_ == 0; });
  }

 private:
  void drain() {
    for (;;) {
      int first = next_.fetch_add(chunk_, std::memory_order_relaxed);
      if (first >= count_) return;
      int last = std::min(count_, first + chunk_);
      for (int i = first; i < last; ++i) call_(context_, i);
    }
  }

  void serve() {
    std::uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_) return;
        seen = generation_;
      }
      drain();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (--busy_ == 0) done_.notify_one();
      }
    }
  }

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  bool stopping_ = false;
  std::uint64_t generation_ = 0;
  int busy_ = 0;
  // the call under way (written under the mutex before the workers wake)
  void (*call_)(void*, int) = nullptr;
  void* context_ = nullptr;
  int count_ = 0, chunk_ = 1;
  std::atomic<int> next_{0};
};

}  // namespace ktenv::vector
