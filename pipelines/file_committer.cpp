#include "pipelines/file_committer.hpp"

namespace ghsift {

FileCommitter::FileCommitter(size_t capacity) : capacity_(capacity), thread_([this] { Loop(); }) {}

FileCommitter::~FileCommitter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closing_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void FileCommitter::Submit(std::function<void()> commit) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return queue_.size() < capacity_; });
  queue_.push_back(std::move(commit));
  changed_.notify_all();
}

void FileCommitter::Finish() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return queue_.empty() && !running_commit_; });
}

void FileCommitter::SetIdleTask(std::function<void()> task, double seconds) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    idle_task_ = std::move(task);
    idle_period_ = std::chrono::duration<double>(seconds);
  }
  changed_.notify_all();
}

void FileCommitter::Loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    const auto ready = [&] { return closing_ || !queue_.empty(); };
    if (!idle_task_) {
      changed_.wait(lock, ready);
    } else if (!changed_.wait_for(lock, idle_period_, ready)) {
      std::function<void()> task = idle_task_;
      running_commit_ = true;  // Finish waits for it as for a commit
      lock.unlock();
      task();
      lock.lock();
      running_commit_ = false;
      changed_.notify_all();
      continue;
    }
    if (queue_.empty()) return;  // closing, nothing left
    std::function<void()> commit = std::move(queue_.front());
    queue_.pop_front();
    running_commit_ = true;
    lock.unlock();
    changed_.notify_all();  // a slot is free
    commit();
    lock.lock();
    running_commit_ = false;
    changed_.notify_all();
  }
}

}  // namespace ghsift
