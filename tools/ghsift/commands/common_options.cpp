#include "commands/common_options.hpp"

#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <limits>
#include <cstdlib>
#include <cmath>
#include <filesystem>

#include "output.hpp"

namespace ghsift::cli {

CLI::Option* AddRulesOption(CLI::App& cmd, std::vector<std::string>& layers, const std::string& name,
                            const std::string& help) {
  // One path per --rules, so that a command's positional arguments are never taken as layers.
  return cmd
      .add_option(name, layers,
                  help.empty() ? "Rule file or directory (default: the bundled rules/); repeat to layer rule sets: a "
                                 "later one adds rules and overrides rules, weights and thresholds by id"
                               : help)
      ->expected(1)
      ->allow_extra_args(false)
      ->take_all();
}

Result<RuleSet> LoadRuleLayersOrDefault(const std::vector<std::string>& layers) {
  if (layers.empty()) return LoadRuleSet(DefaultRulesPath());
  return LoadRuleLayers(layers);
}

Result<std::shared_ptr<const RuleDatabase>> LoadRules(const std::vector<std::string>& layers, RuleDatabase::Mode mode,
                                                      RuleDatabase::Layout layout) {
  auto rules = LoadRuleLayersOrDefault(layers);
  if (!rules.ok()) return rules.status();
  const auto start = std::chrono::steady_clock::now();
  auto database = RuleDatabase::Compile(*rules, mode, layout);
  // A rule set seen for the first time (an edit, a new layer) is compiled, which takes seconds
  // where a cached one loads in milliseconds: a person waiting at a terminal is told why. Cron
  // jobs (stderr no terminal) hear nothing.
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (database.ok() && seconds >= 1.0 && ::isatty(STDERR_FILENO)) {
    std::fprintf(stderr, "ghsift: compiled the rule set in %.1f s (a new or edited set; kept, later runs load it "
                 "at once)\n", seconds);
  }
  return database;
}

Result<std::shared_ptr<const RuleDatabase>> LoadRules(const std::string& path, RuleDatabase::Mode mode) {
  return LoadRules(path.empty() ? std::vector<std::string>{} : std::vector<std::string>{path}, mode);
}

Result<RepoFilter> LoadRepoFilter(bool all, const std::string& path) {
  if (all) return RepoFilter::All();
  std::string file = path;
  if (file.empty()) file = (std::filesystem::path(DefaultRulesPath()) / "repos.txt").string();
  return RepoFilter::FromFile(file);
}

namespace {

CLI::Validator CountAtLeast(unsigned long long least, unsigned long long most = ~0ull) {
  const std::string wanted = most == ~0ull ? "a whole number of " + std::to_string(least) + " or more"
                                           : "a whole number from " + std::to_string(least) + " to " + std::to_string(most);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        unsigned long long value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size() || value < least || value > most) {
          return "must be " + wanted + ", not '" + text + "'";
        }
        return "";
      },
      most == ~0ull ? "N >= " + std::to_string(least) : std::to_string(least) + " <= N <= " + std::to_string(most));
}

//! "0.5", "720", "1e3": the shortest way to write a bound.
std::string Bound(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

CLI::Validator NumberCheck(double least, double most, bool least_excluded) {
  const std::string wanted =
      most == std::numeric_limits<double>::infinity()
          ? (least_excluded ? "a number above " : "a number of at least ") + Bound(least)
          : (least_excluded ? "a number above " + Bound(least) + " and up to " : "a number from " + Bound(least) + " to ") +
                Bound(most);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = text.empty() ? 0 : std::strtod(text.c_str(), &end);
        const bool number = !text.empty() && end == text.c_str() + text.size() && std::isfinite(value);
        if (!number || value < least || (least_excluded && value == least) || value > most) {
          return "must be " + wanted + ", not '" + text + "'";
        }
        return "";
      },
      wanted);
}

CLI::Validator CountCheck() { return CountAtLeast(0); }
CLI::Validator CountCheck(unsigned long long least, unsigned long long most) { return CountAtLeast(least, most); }
CLI::Validator PositiveCountCheck() { return CountAtLeast(1); }

std::string SettleTimesText(const SettleTimes& settle) {
  char text[256];
  std::snprintf(text, sizeof text,
                "rollup refresh %.3f s (%zu reports); flush %.3f s, compactions %.3f s (%s of compaction left pending)",
                settle.refresh_seconds, settle.recounted, settle.finish.flush_seconds, settle.finish.compact_seconds,
                HumanBytes(static_cast<double>(settle.finish.pending_compaction_bytes)).c_str());
  return text;
}

}  // namespace ghsift::cli
