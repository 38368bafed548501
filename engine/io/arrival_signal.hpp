#pragma once
// Tells a reader choosing among several HTTP inputs that one of them has bytes to read, so that
// it can wait for "any input" instead of blocking on one (see HttpSource::Ready).
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace ghsift {

class ArrivalSignal {
 public:
  //! An input became ready (a block buffered, or its transfer ended).
  void Notify() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++generation_;
    }
    changed_.notify_all();
  }
  //! Read before looking at the inputs; pass to WaitPast.
  uint64_t generation() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return generation_;
  }
  //! Returns once an input became ready after `seen` was read, or after `timeout`.
  void WaitPast(uint64_t seen, std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait_for(lock, timeout, [&] { return generation_ != seen; });
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  uint64_t generation_ = 0;
};

}  // namespace ghsift
