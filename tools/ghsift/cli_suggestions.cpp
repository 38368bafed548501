#include "cli_suggestions.hpp"

#include <vector>

#include "common/closest_name.hpp"

namespace ghsift::cli {
namespace {

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

namespace {

//! CLI11's message in ghsift's form: the command it concerns and where its help is, or the
//! commands to choose from when one is missing.
std::string DescribeParseError(const CLI::App& app, const CLI::ParseError& e) {
  const CLI::App* command = &app;
  std::string path = "ghsift";
  for (bool deeper = true; deeper;) {
    deeper = false;
    for (const CLI::App* sub : command->get_subcommands()) {
      command = sub;
      path += " " + sub->get_name();
      deeper = true;
      break;
    }
  }
  if (command->get_require_subcommand_min() > 0 && command->get_subcommands().empty()) {
    std::string names;
    for (const CLI::App* sub : command->get_subcommands({})) {
      if (!sub->get_group().empty()) names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    return "`" + path + "` needs a command: " + names + " (see `" + path + " --help`)";
  }
  // CLI11 says an option given twice that takes one value as "--x: At Most 1 required but
  // received 2": said in the words of the other messages.
  std::string what = e.what();
  static constexpr std::string_view kAtMostOne = ": At Most 1 required but received ";
  if (const size_t at = what.find(kAtMostOne); at != std::string::npos) {
    what = what.substr(0, at) + ": given " + what.substr(at + kAtMostOne.size()) + " times; it takes one value";
  }
  return what + " (see `" + path + " --help`)";
}

}  // namespace

std::string ParseErrorMessage(CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
  const std::string explained = ExplainParseError(app, argc, argv);
  return explained.empty() ? DescribeParseError(app, e) : explained;
}

}  // namespace ghsift::cli
