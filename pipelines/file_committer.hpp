#pragma once
// Runs the store commits of finished files on a thread of their own, so that the pipeline's
// serial stage hands a file over and goes back to folding chunks instead of waiting for RocksDB.
// At most `capacity` commits wait at once (each holds a file's aggregate).
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace ghsift {

class FileCommitter {
 public:
  explicit FileCommitter(size_t capacity = 2);
  ~FileCommitter();  //!< runs what is queued, then stops

  //! Queues `commit`; waits while `capacity` commits are queued already.
  void Submit(std::function<void()> commit);
  //! Returns when every submitted commit has run.
  void Finish();
  //! Runs `task` on the committer's thread whenever no commit has come for `seconds`: a time
  //! limit that must hold while no file finishes (a slow download keeps finished files waiting).
  //! Set before the first Submit.
  void SetIdleTask(std::function<void()> task, double seconds);

 private:
  void Loop();

  size_t capacity_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> queue_;
  bool running_commit_ = false;
  bool closing_ = false;
  std::function<void()> idle_task_;
  std::chrono::duration<double> idle_period_{0};
  std::thread thread_;
};

}  // namespace ghsift
