#include "pipelines/distributed_ingest.hpp"

#include <algorithm>
#include <filesystem>

#include "pipelines/ingest_pipeline.hpp"
#include "rollup/rollup.hpp"

namespace ghsift {

namespace fs = std::filesystem;

std::string PartialStorePath(const std::string& store_path, int rank) {
  return store_path + ".partials/rank-" + std::to_string(rank);
}

Result<std::vector<std::string>> PendingFiles(const Store& store, const std::vector<std::string>& files) {
  std::vector<std::pair<uint64_t, std::string>> pending;
  for (const std::string& f : files) {
    auto found = store.FindFile(FileKey(f));
    if (!found.ok()) return found.status();
    if (found->has_value()) continue;
    std::error_code ec;
    pending.emplace_back(fs::file_size(f, ec), f);
  }
  std::sort(pending.begin(), pending.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::vector<std::string> out;
  for (auto& [size, f] : pending) out.push_back(std::move(f));
  return out;
}

Result<PartialMergeSummary> MergeAndRemovePartials(Store& store, const std::string& store_path) {
  PartialMergeSummary summary;
  const fs::path root = store_path + ".partials";
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return summary;
  std::vector<fs::path> partials;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    if (entry.is_directory()) partials.push_back(entry.path());
  }
  std::sort(partials.begin(), partials.end());
  for (const fs::path& dir : partials) {
    // Merged partials are renamed before they are deleted, so that a crash halfway through the
    // deletion never leaves something that looks like a partial still to merge.
    if (dir.extension() == ".merged") {
      fs::remove_all(dir, ec);
      continue;
    }
    // A worker that died before its store held anything: nothing to merge.
    if (!fs::exists(dir / "GHSIFT_STORE", ec) || !fs::exists(dir / "CURRENT", ec)) {
      fs::remove_all(dir, ec);
      continue;
    }
    {
      // As the writer: every worker has ended, and a worker killed while RocksDB was creating
      // its store (nothing committed yet) left a store that only a writer can complete.
      auto partial = Store::Open(dir.string(), StoreMode::kReadWrite);
      if (!partial.ok()) return partial.status();
      const Status s = store.MergeFrom(**partial);
      if (s.code() == StatusCode::kAlreadyExists) {
        ++summary.skipped;
      } else if (!s.ok()) {
        return s;
      } else {
        ++summary.merged;
      }
    }
    const fs::path merged = dir.string() + ".merged";
    fs::rename(dir, merged, ec);
    if (ec) return Status::IoError(dir.string() + ": cannot retire merged partial: " + ec.message());
    fs::remove_all(merged, ec);
  }
  fs::remove(root, ec);
  GHSIFT_TRY(SettleStore(store, true));
  return summary;
}

}  // namespace ghsift
