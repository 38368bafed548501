#include "commands/eval_provenance.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "common/short_digest.hpp"
#include "eval/bootstrap.hpp"
#include "io/byte_source.hpp"
#include "output.hpp"
#include "rules/decision.hpp"
#include "version.hpp"

namespace ghsift::cli {
namespace {

namespace fs = std::filesystem;

//! The same digest `ghsift stats` shows for a store ingested with these rules.
std::string RulesDigest(const RuleSet& rules) { return ShortDigest(DecisionModel::FromRuleSet(rules).Serialize()); }

Result<SourceDigest> DigestOf(const std::string& path) {
  std::error_code ec;
  std::vector<fs::path> files;
  const bool directory = fs::is_directory(path, ec);
  if (directory) {
    for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->is_regular_file(ec)) files.push_back(it->path());
    }
    if (ec) return Status::IoError(path + ": cannot list: " + ec.message());
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(path);
  }
  SourceDigest out{path, files.size(), 0, ""};
  uint64_t crc = 0;
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return Status::IoError(file.string() + ": cannot open");
    const std::string content{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad()) return Status::IoError(file.string() + ": read failed");
    if (directory) {
      const std::string name = file.filename().string() + '\0';
      crc = ExtendContentHash(crc, name);
    }
    crc = ExtendContentHash(crc, content);
    out.bytes += content.size();
  }
  out.digest = HexDigest(crc);
  return out;
}

}  // namespace

Result<EvalProvenance> ProvenanceOf(const LabeledInput& input, const RuleSet* baseline,
                                    const std::vector<ReferenceWords>& word_lists) {
  const RuleSet& rules = input.database->rules();
  EvalProvenance p;
  p.version = std::string(GhsiftVersion());
  p.rules_digest = RulesDigest(rules);
  p.default_rules = DecidesLikeDefaultRules(DecisionModel::FromRuleSet(rules));
  if (baseline != nullptr) p.baseline_digest = RulesDigest(*baseline);
  std::string digests;
  for (const std::string& source : input.sources) {
    GHSIFT_ASSIGN_OR_RETURN(SourceDigest d, DigestOf(source));
    digests += d.digest;
    p.sources.push_back(std::move(d));
  }
  for (const ReferenceWords& list : word_lists) {
    GHSIFT_ASSIGN_OR_RETURN(SourceDigest d, DigestOf(list.path));
    p.word_lists.push_back(std::move(d));
  }
  p.data_digest = ShortDigest(digests);
  const BootstrapOptions bootstrap;
  p.bootstrap_replicates = bootstrap.replicates;
  p.bootstrap_level = bootstrap.level;
  p.bootstrap_seed = bootstrap.seed;
  return p;
}

std::string ProvenanceLine(const EvalProvenance& p) {
  uint64_t files = 0, bytes = 0;
  for (const SourceDigest& s : p.sources) files += s.files, bytes += s.bytes;
  std::string line = "provenance: ghsift " + p.version + "; rule set " + p.rules_digest +
                     (p.default_rules ? " (the default rule set)" : " (custom)");
  if (!p.baseline_digest.empty()) line += ", baseline " + p.baseline_digest;
  line += "; data " + Counted(files, "file") + ", " + HumanBytes(static_cast<double>(bytes)) + ", digest " +
          p.data_digest + " (--format json lists each" + (p.word_lists.empty() ? "" : ", and the word lists") + ")";
  line += "; bootstrap " + Counted(static_cast<uint64_t>(p.bootstrap_replicates), "resample") + ", seed " +
          std::to_string(p.bootstrap_seed);
  return line;
}

void PrintProvenanceJson(std::ostream& out, const EvalProvenance& p) {
  out << "{\"ghsift\": " << JsonString(p.version) << ", \"rules_digest\": " << JsonString(p.rules_digest)
      << ", \"default_rules\": " << (p.default_rules ? "true" : "false");
  if (!p.baseline_digest.empty()) out << ", \"baseline_digest\": " << JsonString(p.baseline_digest);
  out << ", \"data_digest\": " << JsonString(p.data_digest) << ", \"sources\": [";
  for (size_t i = 0; i < p.sources.size(); ++i) {
    const SourceDigest& s = p.sources[i];
    out << (i ? ", " : "") << "{\"path\": " << JsonString(s.path) << ", \"files\": " << s.files
        << ", \"bytes\": " << s.bytes << ", \"crc64\": " << JsonString(s.digest) << "}";
  }
  out << "], \"word_lists\": [";
  for (size_t i = 0; i < p.word_lists.size(); ++i) {
    const SourceDigest& s = p.word_lists[i];
    out << (i ? ", " : "") << "{\"path\": " << JsonString(s.path) << ", \"bytes\": " << s.bytes
        << ", \"crc64\": " << JsonString(s.digest) << "}";
  }
  out << "], \"bootstrap\": {\"resamples\": " << p.bootstrap_replicates << ", \"level\": " << p.bootstrap_level
      << ", \"seed\": " << p.bootstrap_seed << "}}";
}

void StampFitted(FittedLayer& fitted, const EvalProvenance& provenance) {
  fitted.data_digest = provenance.data_digest;
  fitted.rules_digest = provenance.rules_digest;
  fitted.ghsift = provenance.version;
}

}  // namespace ghsift::cli
