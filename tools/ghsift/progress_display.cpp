#include "progress_display.hpp"

#include <cstdio>

#include "output.hpp"

namespace ghsift::cli {

ProgressDisplay::ProgressDisplay(const IngestProgress& progress, bool enabled)
    : progress_(progress), enabled_(enabled), start_(std::chrono::steady_clock::now()) {
  if (enabled_) thread_ = std::thread([this] { Loop(); });
}

ProgressDisplay::~ProgressDisplay() {
  if (!enabled_) return;
  stop_ = true;
  thread_.join();
  std::fprintf(stderr, "\r\033[K");
}

void ProgressDisplay::Loop() {
  while (!stop_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double decoded = static_cast<double>(progress_.decoded_bytes.load());
    const double compressed = static_cast<double>(progress_.compressed_bytes.load());
    const double total = static_cast<double>(progress_.compressed_total.load());
    const double events = static_cast<double>(progress_.events.load());
    // By bytes when the inputs' sizes are known (files); by files done when they are not (hours
    // downloaded: their sizes are known only as each transfer starts).
    const double files_done = static_cast<double>(progress_.files_done.load());
    const double files_total = static_cast<double>(progress_.files_total.load());
    const std::string eta = [&]() -> std::string {
      if (compressed > 0 && total > compressed) {
        return std::to_string(static_cast<int>(seconds * (total - compressed) / compressed)) + "s";
      }
      if (total > 0 && compressed >= total) return "0s";
      if (total == 0 && files_done > 0 && files_total > files_done) {
        return "~" + std::to_string(static_cast<int>(seconds * (files_total - files_done) / files_done)) + "s";
      }
      return "?";
    }();
    const double per_second = seconds > 0 ? events / seconds : 0;
    char rate[32];
    std::snprintf(rate, sizeof rate, per_second >= 10000 ? "%.0fk" : "%.1fk", per_second / 1000);
    std::fprintf(stderr, "\r\033[Kfiles %llu/%llu  read %s  %s/s uncompressed  %s events/s  ETA %s",
                 static_cast<unsigned long long>(progress_.files_done.load()),
                 static_cast<unsigned long long>(progress_.files_total.load()), HumanBytes(compressed).c_str(),
                 HumanBytes(seconds > 0 ? decoded / seconds : 0).c_str(), rate, eta.c_str());
    std::fflush(stderr);
  }
}

}  // namespace ghsift::cli
