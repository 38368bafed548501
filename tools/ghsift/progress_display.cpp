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
    std::string eta = "?";
    if (compressed > 0 && total > compressed) {
      const double remaining = seconds * (total - compressed) / compressed;
      eta = std::to_string(static_cast<int>(remaining)) + "s";
    } else if (total > 0 && compressed >= total) {
      eta = "0s";
    }
    std::fprintf(stderr, "\r\033[Kfiles %llu/%llu  %s/s uncompressed  %.0fk events/s  ETA %s",
                 static_cast<unsigned long long>(progress_.files_done.load()),
                 static_cast<unsigned long long>(progress_.files_total.load()),
                 HumanBytes(seconds > 0 ? decoded / seconds : 0).c_str(), seconds > 0 ? events / seconds / 1000 : 0,
                 eta.c_str());
    std::fflush(stderr);
  }
}

}  // namespace ghsift::cli
