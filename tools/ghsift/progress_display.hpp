#pragma once
// A live progress line on stderr while ingest runs (only on a terminal).
#include <atomic>
#include <chrono>
#include <thread>

#include "pipelines/ingest_pipeline.hpp"

namespace ghsift::cli {

class ProgressDisplay {
 public:
  //! Starts refreshing twice a second when `enabled`.
  ProgressDisplay(const IngestProgress& progress, bool enabled);
  //! Stops and clears the line.
  ~ProgressDisplay();

 private:
  void Loop();
  const IngestProgress& progress_;
  bool enabled_;
  std::atomic<bool> stop_{false};
  std::chrono::steady_clock::time_point start_;
  std::thread thread_;
};

}  // namespace ghsift::cli
