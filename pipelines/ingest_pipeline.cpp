#include "pipelines/ingest_pipeline.hpp"

#include <filesystem>

#include "pipelines/ingest_run.hpp"

namespace ghsift {

std::string FileKey(const std::string& path) {
  return IsHttpUrl(path) ? UrlFileName(path) : std::filesystem::path(path).filename().string();
}

IngestPipeline::IngestPipeline(Store& store, std::shared_ptr<const RuleDatabase> rules, RepoFilter repos,
                               IngestOptions options)
    : store_(store), rules_(std::move(rules)), repos_(std::move(repos)), options_(options) {}

std::vector<FileOutcome> IngestPipeline::Run(const std::vector<std::string>& files, IngestProgress* progress) {
  IngestProgress local_progress;
  IngestRun run(store_, rules_, repos_, options_, files, progress != nullptr ? *progress : local_progress);
  return run.Execute();
}

}  // namespace ghsift
