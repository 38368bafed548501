#include "pipelines/rule_layers_meta.hpp"

#include <algorithm>
#include <filesystem>

#include "rules/rule_set.hpp"

namespace ghsift {
namespace {

//! Meta key: one line per list of layers, its paths separated by tabs.
constexpr const char* kRuleLayersMeta = "rule_layers";

std::string Absolute(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::weakly_canonical(path, ec);
  return ec ? path : absolute.string();
}

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find(separator, at);
    if (end == std::string::npos) end = text.size();
    if (end > at) out.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

}  // namespace

Status RecordRuleLayers(Store& store, const std::vector<std::string>& layers) {
  std::string line;
  for (const std::string& layer : layers.empty() ? std::vector<std::string>{DefaultRulesPath()} : layers) {
    if (!line.empty()) line += '\t';
    line += Absolute(layer);
  }
  GHSIFT_ASSIGN_OR_RETURN(const std::optional<std::string> recorded, store.GetMeta(kRuleLayersMeta));
  std::vector<std::string> lines = recorded ? Split(*recorded, '\n') : std::vector<std::string>{};
  if (!lines.empty() && lines.back() == line) return Status::Ok();
  // A list used again moves to the end: the last list is the one the store's rules came from.
  std::erase(lines, line);
  lines.push_back(line);
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  return store.PutMeta(kRuleLayersMeta, text);
}

Result<std::vector<std::vector<std::string>>> ReadRuleLayers(const Store& store) {
  GHSIFT_ASSIGN_OR_RETURN(const std::optional<std::string> recorded, store.GetMeta(kRuleLayersMeta));
  std::vector<std::vector<std::string>> out;
  if (!recorded) return out;
  for (const std::string& line : Split(*recorded, '\n')) out.push_back(Split(line, '\t'));
  return out;
}

std::string DescribeRuleLayer(const std::string& path) {
  return path == Absolute(BundledRulesPath()) ? path + " (the bundled set)" : path;
}

}  // namespace ghsift
