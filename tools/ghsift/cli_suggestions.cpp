#include "cli_suggestions.hpp"

#include <vector>

#include "common/closest_name.hpp"

namespace ghsift::cli {
namespace {

std::string DidYouMean(const std::string& wanted, const std::vector<std::string>& valid) {
  const std::string closest = ClosestName(wanted, valid);
  return closest.empty() ? "" : " (did you mean " + closest + "?)";
}

std::vector<std::string> SubcommandNames(CLI::App& app) {
  std::vector<std::string> names;
  // Hidden commands (an empty group: the build's `man`) are not offered.
  for (const CLI::App* sub : app.get_subcommands([](CLI::App* s) { return !s->get_group().empty(); })) {
    names.push_back(sub->get_name());
  }
  return names;
}

std::vector<std::string> LongOptions(CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
  }
  return names;
}

}  // namespace

std::string ExplainParseError(CLI::App& app, int argc, char** argv) {
  // Walk the words as CLI11 does for subcommands: each known name descends one level.
  CLI::App* at = &app;
  std::string path = "ghsift";
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") break;
    if (word.starts_with("-")) {
      if (!word.starts_with("--")) continue;  // short flags: CLI11's message is clear enough
      const std::string name = word.substr(0, word.find('='));
      if (at->get_option_no_throw(name) == nullptr && name != "--help") {
        return "unknown option " + name + " for `" + path + "`" + DidYouMean(name, LongOptions(*at)) +
               "; see `" + path + " --help`";
      }
      continue;
    }
    const std::vector<std::string> subcommands = SubcommandNames(*at);
    if (subcommands.empty()) continue;  // a value or a positional argument
    CLI::App* sub = nullptr;
    for (CLI::App* candidate : at->get_subcommands([](CLI::App*) { return true; })) {
      if (candidate->check_name(word)) sub = candidate;
    }
    if (sub != nullptr) {
      at = sub;
      path += " " + word;
      continue;
    }
    // A word where a subcommand is expected, unless it is the value of the option before it.
    const bool option_value = i > 1 && std::string(argv[i - 1]).starts_with("--") &&
                              std::string(argv[i - 1]).find('=') == std::string::npos;
    if (!option_value && at->get_require_subcommand_min() > 0) {
      return "unknown command '" + word + "' for `" + path + "`" + DidYouMean(word, subcommands) +
             "; commands: " + JoinNames(subcommands);
    }
  }
  return "";
}

}  // namespace ghsift::cli
