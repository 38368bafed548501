#include "command_docs.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string_view>
#include <utility>

#include "commands/command_table.hpp"
#include "version.hpp"

namespace ghsift::cli {

namespace {

constexpr size_t kWidth = 80;

bool Hidden(const CLI::App& command) { return command.get_group().empty(); }

void Visit(const CLI::App& at, std::vector<const CLI::App*>& out) {
  for (const CLI::App* sub : at.get_subcommands([](const CLI::App*) { return true; })) {
    if (Hidden(*sub)) continue;
    out.push_back(sub);
    Visit(*sub, out);
  }
}

//! "ingest", "rules eval": the words after `ghsift`.
std::string PathOf(const CLI::App& command) { return CommandPath(command); }

//! Placeholders for the values of options whose own name would not say what to give.
constexpr std::pair<std::string_view, std::string_view> kValueNames[] = {
    {"store", "DIR"},      {"partial", "DIR"},        {"save-dumps", "DIR"}, {"data", "DIR"},
    {"issue-dir", "DIR"},  {"rules", "PATH"},         {"baseline", "PATH"},  {"repos", "FILE"},
    {"suite", "FILE"},     {"labels", "FILE"},        {"out", "PATH"},       {"write", "PATH"},
    {"from", "TIME"},      {"to", "TIME"},            {"since", "TIME"},     {"until", "TIME"},
    {"start", "TIME"},     {"source", "URL"},         {"repo", "OWNER/NAME"}, {"issue", "OWNER/NAME#N"},
    {"author", "LOGIN"},   {"by", "DIMENSION,..."},   {"metric", "METRIC,..."}, {"positive", "CATEGORY,..."},
    {"label-key", "KEY"},  {"stratify", "DIMENSION,..."}, {"fields", "FIELD,..."}, {"show", "fp|fn"},
};

//! The placeholder of an option's value, in the words a reader expects: a number is N (or X),
//! a known option says what it takes (kValueNames), any other is named after itself (--state STATE).
std::string ValueName(const CLI::Option& option) {
  if (option.get_positional()) return option.get_name(true, false);
  // CLI11's type name, without the validators' descriptions it appends after ':'.
  const std::string full = option.get_type_name();
  const std::string type = full.substr(0, full.find(':'));
  if (type == "INT" || type == "UINT") return "N";
  if (type == "FLOAT") return "X";
  const std::string name = option.get_lnames().empty() ? std::string() : option.get_lnames().front();
  for (const auto& [option_name, value_name] : kValueNames) {
    if (option_name == name) return std::string(value_name);
  }
  std::string upper;
  for (char c : name) upper += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return upper.empty() ? "VALUE" : upper;
}

bool TakesValue(const CLI::Option& option) { return option.get_type_size_max() > 0 && option.get_expected_max() > 0; }
bool Repeatable(const CLI::Option& option) { return option.get_expected_max() > 1; }

//! Text as roff prose: a backslash printed as one, a hyphen as a minus (copyable in options),
//! and characters beyond ASCII as \[uXXXX] (groff then needs no preprocessor).
std::string Roff(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else if (c < 0x80) {
      out += static_cast<char>(c);
    } else {
      // One UTF-8 sequence, decoded (ghsift's texts are valid UTF-8).
      const int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
      uint32_t code = c & (0x3F >> extra);
      for (int k = 0; k < extra && i + 1 < text.size(); ++k) code = (code << 6) | (text[++i] & 0x3F);
      char buffer[16];
      std::snprintf(buffer, sizeof buffer, "\\[u%04X]", code);
      out += buffer;
    }
  }
  return out;
}

//! Roff text (already escaped) as source lines of at most kWidth columns, broken at spaces; a
//! line that would start with a control character is guarded with \&.
std::string Wrapped(std::string_view roff) {
  std::string out, line;
  auto flush = [&] {
    if (line.empty()) return;
    if (line[0] == '.' || line[0] == '\'') line = "\\&" + line;
    out += line + "\n";
    line.clear();
  };
  size_t at = 0;
  while (at < roff.size()) {
    const size_t end = std::min(roff.find(' ', at), roff.size());
    const std::string_view word = roff.substr(at, end - at);
    at = end + 1;
    if (word.empty()) continue;
    if (!line.empty() && line.size() + 1 + word.size() + 2 > kWidth) flush();
    line += (line.empty() ? "" : " ") + std::string(word);
  }
  flush();
  return out;
}

std::string Bold(std::string_view text) { return "\\fB" + Roff(text) + "\\fR"; }
std::string Italic(std::string_view text) { return "\\fI" + Roff(text) + "\\fR"; }

//! "ghsift query [OPTIONS]", with its subcommands or positionals.
std::string Synopsis(const CLI::App& command) {
  std::string out = Bold("ghsift " + PathOf(command));
  std::vector<std::string> subs;
  for (const CLI::App* sub : command.get_subcommands([](const CLI::App* s) { return !Hidden(*s); })) {
    subs.push_back(sub->get_name());
  }
  if (!subs.empty()) {
    std::string list;
    for (const std::string& s : subs) list += (list.empty() ? "" : "|") + s;
    return out + " " + Italic(list) + " [" + Italic("OPTIONS") + "]";
  }
  out += " [" + Italic("OPTIONS") + "]";
  for (const CLI::Option* o : command.get_options([](const CLI::Option* o) { return o->get_positional(); })) {
    std::string word = Italic(o->get_name(true, false)) + (Repeatable(*o) ? "..." : "");
    out += " " + (o->get_required() ? word : "[" + word + "]");
  }
  return out;
}

//! An option's description with what --help shows beside it: the default and whether it is
//! required.
std::string Describe(const CLI::Option& option) {
  std::string text = option.get_description();
  if (!text.empty() && text.back() != '.' && text.back() != ')') text += ".";
  else if (!text.empty() && text.back() == ')') text += ".";
  const std::string fallback = option.get_default_str();
  if (!fallback.empty() && text.find("default") == std::string::npos) text += " Default: " + fallback + ".";
  if (option.get_required()) text += " Required.";
  if (Repeatable(option) && !option.get_positional() && text.find("repeat") == std::string::npos) {
    text += " May be repeated.";
  }
  return text;
}

void AppendOption(std::string& page, const CLI::Option& option) {
  std::string tag;
  for (const std::string& s : option.get_snames()) tag += (tag.empty() ? "" : ", ") + Bold("-" + s);
  for (const std::string& l : option.get_lnames()) tag += (tag.empty() ? "" : ", ") + Bold("--" + l);
  if (option.get_positional()) tag = Italic(option.get_name(true, false));
  else if (TakesValue(option)) tag += " " + Italic(ValueName(option));
  page += ".TP\n" + tag + "\n" + Wrapped(Roff(Describe(option)));
}

const CommandRow& RowOf(const CLI::App& command) {
  const CommandRow* row = FindCommand(PathOf(command));
  if (row == nullptr) throw std::logic_error("command '" + PathOf(command) + "' has no row in the command table");
  return *row;
}

//! Single-quoted for a shell word.
std::string ShellQuoted(std::string_view text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

//! The first clause of a summary, for a completion menu.
std::string Short(std::string_view text) {
  const size_t cut = std::min({text.find(" ("), text.find("; "), text.find(". "), text.size()});
  std::string out(text.substr(0, cut));
  if (out.size() > 60) out = out.substr(0, out.rfind(' ', 57)) + "...";
  return out;
}

//! The words a command takes in completion: its subcommands' names and its options' names.
struct Words {
  std::vector<std::pair<std::string, std::string>> commands;  //!< name, description
  std::vector<std::pair<std::string, std::string>> options;   //!< --name, description
};

Words WordsOf(const CLI::App& command) {
  Words words;
  for (const CLI::App* sub : command.get_subcommands([](const CLI::App* s) { return !Hidden(*s); })) {
    words.commands.emplace_back(sub->get_name(), Short(sub->get_description()));
  }
  for (const CLI::Option* o : VisibleOptions(command)) {
    for (const std::string& l : o->get_lnames()) words.options.emplace_back("--" + l, Short(o->get_description()));
    for (const std::string& s : o->get_snames()) words.options.emplace_back("-" + s, Short(o->get_description()));
  }
  return words;
}

//! The case pattern of each command a completion descends into: "PARENT/NAME" (PARENT the words
//! before it, empty at the top).
std::string DescentPatterns(const std::vector<const CLI::App*>& commands) {
  std::string out;
  for (const CLI::App* c : commands) {
    const std::string path = PathOf(*c);
    const size_t space = path.rfind(' ');
    const std::string parent = space == std::string::npos ? "" : path.substr(0, space);
    out += (out.empty() ? "" : "|") + ShellQuoted(parent + "/" + c->get_name());
  }
  return out;
}

}  // namespace

std::vector<const CLI::App*> VisibleCommands(const CLI::App& root) {
  std::vector<const CLI::App*> out;
  Visit(root, out);
  return out;
}

std::vector<const CLI::Option*> VisibleOptions(const CLI::App& command) {
  return command.get_options([](const CLI::Option* o) { return !o->get_positional() && !o->get_group().empty(); });
}

std::string ManPage(const CLI::App& root) {
  const std::vector<const CLI::App*> commands = VisibleCommands(root);
  std::string page;
  page += ".TH GHSIFT 1 \"\" \"ghsift " + std::string(GhsiftVersion()) + "\" \"User Commands\"\n";
  page += ".\\\" Written by `ghsift man` from the command table and the options.\n";
  page += ".nh\n";  // no hyphenation: option names and paths stay whole
  page += ".SH NAME\nghsift \\- find performance, accuracy and silent\\-bug reports in GH Archive dumps\n";
  page += ".SH SYNOPSIS\n";
  page += Bold("ghsift") + " " + Italic("COMMAND") + " [" + Italic("OPTIONS") + "] [" + Italic("ARGUMENTS") + "]\n";
  page += ".br\n" + Bold("ghsift") + " " + Italic("COMMAND") + " " + Bold("--help") + "\n";
  page += ".br\n" + Bold("ghsift --version") + "\n";
  page += ".SH DESCRIPTION\n";
  page += Wrapped(Roff(
      "ghsift reads the GitHub Archive (GH Archive: one compressed file of public GitHub events per hour) and "
      "finds the issue reports that speak of performance problems, accuracy problems and silent bugs, with "
      "rule sets compiled for Hyperscan. It keeps what it finds in a store (a RocksDB directory) that the "
      "other commands query: counts by repository, month and category, lists of reports, samples to label by "
      "hand, and an offline report."));
  page += ".PP\n" + Wrapped(Roff(
      "Times are YYYY-MM, YYYY-MM-DD or YYYY-MM-DDTHH (UTC); where a range is asked, also a span back from "
      "now such as 12h, 7d or 4w. Comma lists take spaces after the commas. An unknown command, option, "
      "dimension or category is an error that names the closest valid one."));
  page += ".PP\nThe commands:\n";
  for (const CLI::App* c : commands) {
    page += ".TP\n" + Bold(PathOf(*c)) + "\n" + Wrapped(Roff(c->get_description()));
  }
  page += ".SH COMMANDS\n";
  page += Wrapped(Roff("Each command takes -h or --help, which prints its options."));
  for (const CLI::App* c : commands) {
    const CommandRow& row = RowOf(*c);
    page += ".SS ghsift " + Roff(PathOf(*c)) + "\n";
    page += Wrapped(Synopsis(*c));
    page += ".PP\n" + Wrapped(Roff(std::string(row.summary) + "."));
    for (const CLI::Option* o : c->get_options([](const CLI::Option* o) { return o->get_positional(); })) {
      AppendOption(page, *o);
    }
    for (const CLI::Option* o : VisibleOptions(*c)) {
      if (o != c->get_help_ptr()) AppendOption(page, *o);  // said once, above
    }
    if (!row.exit_status.empty()) {
      page += ".PP\n" + Wrapped(Roff("Exit status: " + std::string(row.exit_status) + "."));
    }
    if (!row.example.empty()) {
      page += ".PP\nExample:\n.PP\n.RS 4\n.nf\n" + Roff(row.example) + "\n.fi\n.RE\n";
    }
  }
  page += ".SH EXIT STATUS\n";
  page += Wrapped(Roff(
      "0 on success; 2 on an error (a message on standard error starting with \"ghsift:\"); 1 where a "
      "command finds nothing, as its section says. A closed pipe (ghsift issues | head) is a normal end."));
  for (const CLI::App* c : commands) {
    const CommandRow& row = RowOf(*c);
    if (row.exit_status.empty()) continue;
    page += ".TP\n" + Bold("ghsift " + PathOf(*c)) + "\n" + Wrapped(Roff(std::string(row.exit_status) + "."));
  }
  page += ".SH ENVIRONMENT\n";
  page += ".TP\n.B GHSIFT_RULES\n" +
          Wrapped(Roff("The default rule file or directory for --rules (otherwise PREFIX/share/ghsift/rules "
                       "beside the binary)."));
  page += ".TP\n.B GHSIFT_CACHE_DIR\n" +
          Wrapped(Roff("Where compiled rule databases are cached (default ~/.cache/ghsift)."));
  page += ".TP\n.B GHSIFT_NO_RULE_CACHE\n" + Wrapped(Roff("Set to 1 to compile the rules on every run."));
  page += ".TP\n.B COLUMNS\n" + Wrapped(Roff("The width the issues table fits when standard output is no "
                                              "terminal of known width."));
  page += ".SH SEE ALSO\n" + Wrapped(Roff("The README of the ghsift sources, which explains the rules, the "
                                          "store and running on GH Archive at length."));
  return page;
}

std::string BashCompletion(const CLI::App& root) {
  const std::vector<const CLI::App*> commands = VisibleCommands(root);
  std::string out;
  out += "# bash completion for ghsift, written by `ghsift completions bash` from its command table.\n";
  out += "_ghsift() {\n";
  out += "  local cur=${COMP_WORDS[COMP_CWORD]} at='' word i commands='' options=''\n";
  out += "  for ((i = 1; i < COMP_CWORD; ++i)); do\n";
  out += "    word=${COMP_WORDS[i]}\n";
  out += "    case \"$at/$word\" in\n";
  out += "      " + DescentPatterns(commands) + ") at=${at:+$at }$word ;;\n";
  out += "    esac\n";
  out += "  done\n";
  out += "  case $at in\n";
  std::vector<const CLI::App*> all = {&root};
  all.insert(all.end(), commands.begin(), commands.end());
  for (const CLI::App* c : all) {
    const Words words = WordsOf(*c);
    std::string names, flags;
    for (const auto& [name, help] : words.commands) names += (names.empty() ? "" : " ") + name;
    for (const auto& [name, help] : words.options) flags += (flags.empty() ? "" : " ") + name;
    out += "    " + ShellQuoted(c == &root ? "" : PathOf(*c)) + ") commands=" + ShellQuoted(names) +
           " options=" + ShellQuoted(flags) + " ;;\n";
  }
  out += "  esac\n";
  out += "  if [[ $cur == -* ]]; then\n";
  out += "    COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))\n";
  out += "  elif [[ -n $commands ]]; then\n";
  out += "    COMPREPLY=($(compgen -W \"$commands\" -- \"$cur\"))\n";
  out += "  else\n";
  out += "    COMPREPLY=($(compgen -f -- \"$cur\"))\n";
  out += "  fi\n";
  out += "}\n";
  out += "complete -o filenames -F _ghsift ghsift\n";
  return out;
}

std::string ZshCompletion(const CLI::App& root) {
  const std::vector<const CLI::App*> commands = VisibleCommands(root);
  auto item = [](const std::string& name, const std::string& help) {
    std::string escaped;
    for (const char c : name) escaped += c == ':' ? std::string("\\:") : std::string(1, c);
    return ShellQuoted(escaped + ":" + help);
  };
  std::string out;
  out += "#compdef ghsift\n";
  out += "# zsh completion for ghsift, written by `ghsift completions zsh` from its command table.\n";
  out += "_ghsift() {\n";
  out += "  local at='' word i\n";
  out += "  local -a commands options\n";
  out += "  for ((i = 2; i < CURRENT; ++i)); do\n";
  out += "    word=${words[i]}\n";
  out += "    case \"$at/$word\" in\n";
  out += "      (" + DescentPatterns(commands) + ") at=${at:+$at }$word ;;\n";
  out += "    esac\n";
  out += "  done\n";
  out += "  case $at in\n";
  std::vector<const CLI::App*> all = {&root};
  all.insert(all.end(), commands.begin(), commands.end());
  for (const CLI::App* c : all) {
    const Words words = WordsOf(*c);
    out += "    (" + ShellQuoted(c == &root ? "" : PathOf(*c)) + ")\n";
    out += "      commands=(";
    for (const auto& [name, help] : words.commands) out += "\n        " + item(name, help);
    out += ")\n      options=(";
    for (const auto& [name, help] : words.options) out += "\n        " + item(name, help);
    out += ") ;;\n";
  }
  out += "  esac\n";
  out += "  if [[ $PREFIX == -* ]]; then\n";
  out += "    _describe -t options option options\n";
  out += "  elif (( ${#commands} )); then\n";
  out += "    _describe -t commands command commands\n";
  out += "  else\n";
  out += "    _files\n";
  out += "  fi\n";
  out += "}\n";
  out += "_ghsift \"$@\"\n";
  return out;
}

}  // namespace ghsift::cli
