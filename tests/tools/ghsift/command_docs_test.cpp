// The man page, the shell completions and the README name every command of the command table
// and every option of every command, and no option that does not exist; the man page fits 80
// columns, as source and as `man` renders it (issues 25 and 26). The commands and their options
// come from the App the table builds here; the documents from the built binary.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "command_support.hpp"
#include "commands/command_table.hpp"
#include "commands/commands.hpp"

namespace ghsift::cli {
// The commands' host functions (main.cpp's in the binary).
double CpuSecondsBeforeMain() { return 0; }
int Fail(const std::string& message) {
  std::fprintf(stderr, "ghsift: %s\n", message.c_str());
  return kExitError;
}
}  // namespace ghsift::cli

namespace ghsift {
namespace {

namespace fs = std::filesystem;

using testing::CommandResult;
using testing::Ghsift;
using testing::RunCommandStdout;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

//! Columns of a line of UTF-8 (code points; a backspace overstrike counts once).
size_t Columns(const std::string& line) {
  size_t n = 0;
  for (const char c : line) {
    if (c == '\b') --n;
    else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

//! The commands a user sees, by path, with their option names (--long and -short; not --help,
//! which every command has), built from the table as the binary builds them.
class Cli {
 public:
  Cli() { cli::AddCommands(app_, exit_code_); }

  std::map<std::string, std::set<std::string>> Commands() {
    std::map<std::string, std::set<std::string>> out;
    Visit(app_, out);
    return out;
  }

 private:
  void Visit(CLI::App& at, std::map<std::string, std::set<std::string>>& out) {
    for (CLI::App* sub : at.get_subcommands([](CLI::App* s) { return !s->get_group().empty(); })) {
      std::set<std::string>& names = out[cli::CommandPath(*sub)];
      for (const CLI::Option* o : sub->get_options()) {
        if (o == sub->get_help_ptr() || o->get_positional() || o->get_group().empty()) continue;
        for (const std::string& l : o->get_lnames()) names.insert("--" + l);
        for (const std::string& s : o->get_snames()) names.insert("-" + s);
      }
      Visit(*sub, out);
    }
  }

  CLI::App app_{"ghsift"};
  int exit_code_ = 0;
};

//! Option names in roff (`\-\-store` -> --store).
std::vector<std::string> RoffOptions(const std::string& text) {
  // A hyphen inside a word (silent\-bug) is no option: one starts a word or follows a font change.
  static const std::regex option(R"((^|\\f[BIR]|[^A-Za-z0-9])(\\-\\-|\\-)([a-z](?:[a-z0-9]|\\-)*)(?!/))");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), option); it != std::sregex_iterator(); ++it) {
    std::string name = (*it)[2].str() + (*it)[3].str();
    for (size_t at; (at = name.find("\\-")) != std::string::npos;) name.replace(at, 2, "-");
    out.push_back(name);
  }
  return out;
}

std::string ManPage() {
  const CommandResult man = RunCommandStdout(Ghsift() + " man");
  EXPECT_EQ(man.exit_code, 0);
  return man.output;
}

TEST(CommandDocsTest, ManPageDocumentsEveryCommandAndOptionAndNoOther) {
  auto commands = Cli().Commands();
  const std::string page = ManPage();
  // Sections by command: the text from `.SS ghsift PATH` to the next section.
  std::map<std::string, std::string> sections;
  std::string* section = nullptr;
  std::set<std::string> every_option = {"--help", "-h", "--version"};
  for (const auto& [path, names] : commands) every_option.insert(names.begin(), names.end());
  for (const std::string& line : Lines(page)) {
    if (line.rfind(".SS ghsift ", 0) == 0) {
      std::string path = line.substr(11);
      for (size_t at; (at = path.find("\\-")) != std::string::npos;) path.replace(at, 2, "-");
      EXPECT_TRUE(sections.emplace(path, "").second) << "two sections for " << path;
      section = &sections[path];
      continue;
    }
    if (line.rfind(".SH ", 0) == 0) section = nullptr;
    if (section != nullptr) *section += line + "\n";
    // No option named anywhere on the page that no command has.
    for (const std::string& name : RoffOptions(line)) EXPECT_TRUE(every_option.count(name)) << name << " in: " << line;
  }
  EXPECT_EQ(sections.size(), commands.size());
  for (const auto& [path, names] : commands) {
    ASSERT_TRUE(sections.count(path)) << "no section for ghsift " << path;
    const std::vector<std::string> lines = Lines(sections[path]);
    // The options the section lists: the tag line after each .TP.
    std::set<std::string> listed;
    for (size_t i = 0; i + 1 < lines.size(); ++i) {
      if (lines[i] != ".TP") continue;
      for (const std::string& name : RoffOptions(lines[i + 1])) listed.insert(name);
    }
    EXPECT_EQ(listed, names) << "ghsift " << path;
    if (!cli::FindCommand(path)->example.empty()) {
      EXPECT_NE(sections[path].find("Example:\n"), std::string::npos) << path;
    }
  }
  // The commands the issue found missing or wrong.
  EXPECT_TRUE(sections.count("rules suggest"));
  EXPECT_TRUE(commands["issues"].count("--exit-zero"));
  EXPECT_FALSE(commands["sample"].count("--exit-zero"));
  EXPECT_EQ(sections["sample"].find("exit\\-zero"), std::string::npos);
  // The hidden build tool is not documented.
  EXPECT_FALSE(sections.count("man"));
}

TEST(CommandDocsTest, ManPageFitsEightyColumnsAsSourceAndRendered) {
  const std::string page = ManPage();
  ASSERT_NE(page.find(".SH NAME\n"), std::string::npos);
  for (const std::string& line : Lines(page)) EXPECT_LE(Columns(line), 80u) << line;
  // As a reader sees it: rendered by man (man-db) or groff, when one is installed.
  const fs::path file = fs::path(::testing::TempDir()) / "ghsift-docs-test.1";
  std::ofstream(file) << page;
  std::string render;
  if (RunCommandStdout("command -v man >/dev/null 2>&1").exit_code == 0) {
    render = "MANWIDTH=80 MAN_KEEP_FORMATTING= man -l '" + file.string() + "' 2>&1";
  } else if (RunCommandStdout("command -v groff >/dev/null 2>&1").exit_code == 0) {
    render = "groff -man -Tutf8 -rLL=80n -P-c '" + file.string() + "' 2>&1";
  } else {
    GTEST_SKIP() << "neither man nor groff is installed: the rendered width is not checked";
  }
  const CommandResult rendered = RunCommandStdout(render);
  ASSERT_EQ(rendered.exit_code, 0) << rendered.output;
  EXPECT_NE(rendered.output.find("ghsift rules suggest"), std::string::npos);
  EXPECT_EQ(rendered.output.find("warning"), std::string::npos) << rendered.output;
  size_t lines = 0;
  for (const std::string& line : Lines(rendered.output)) {
    ++lines;
    EXPECT_LE(Columns(line), 80u) << line;
  }
  EXPECT_GT(lines, 300u);
}

TEST(CommandDocsTest, BashCompletionOffersEveryCommandAndOption) {
  auto commands = Cli().Commands();
  const fs::path script = fs::path(::testing::TempDir()) / "ghsift-docs-test.bash";
  const CommandResult bash = RunCommandStdout(Ghsift() + " completions bash");
  ASSERT_EQ(bash.exit_code, 0);
  std::ofstream(script) << bash.output;
  // What bash offers after `ghsift PATH -` for every command, and after `ghsift ` and
  // `ghsift rules `.
  std::string probe = "source '" + script.string() + "'\n";
  probe += "offer() { COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); _ghsift; echo \"${COMPREPLY[*]}\"; }\n";
  for (const auto& [path, names] : commands) probe += "offer ghsift " + path + " -\n";
  probe += "offer ghsift ''\noffer ghsift rules ''\noffer ghsift --store rules x ''\noffer ghsift rules ex\n";
  const fs::path probe_file = fs::path(::testing::TempDir()) / "ghsift-docs-probe.bash";
  std::ofstream(probe_file) << probe;
  const CommandResult offered = RunCommandStdout("bash '" + probe_file.string() + "' 2>&1");
  ASSERT_EQ(offered.exit_code, 0) << offered.output;
  const std::vector<std::string> lines = Lines(offered.output);
  ASSERT_EQ(lines.size(), commands.size() + 4) << offered.output;
  size_t i = 0;
  for (const auto& [path, names] : commands) {
    std::set<std::string> words;
    std::istringstream in(lines[i++]);
    for (std::string w; in >> w;) words.insert(w);
    std::set<std::string> expected = names;
    expected.insert({"--help", "-h"});
    EXPECT_EQ(words, expected) << "ghsift " << path;
  }
  std::set<std::string> top;
  for (const auto& [path, names] : commands) {
    if (path.find(' ') == std::string::npos) top.insert(path);
  }
  std::set<std::string> words;
  std::istringstream in(lines[i++]);
  for (std::string w; in >> w;) words.insert(w);
  EXPECT_EQ(words, top);
  EXPECT_EQ(lines[i++], "check eval tune explain bench suggest learn");
  EXPECT_EQ(lines[i++], "check eval tune explain bench suggest learn");  // an option's value is skipped
  EXPECT_EQ(lines[i++], "explain");
}

TEST(CommandDocsTest, ZshCompletionOffersEveryCommandAndOption) {
  auto commands = Cli().Commands();
  const CommandResult zsh = RunCommandStdout(Ghsift() + " completions zsh");
  ASSERT_EQ(zsh.exit_code, 0);
  EXPECT_EQ(zsh.output.rfind("#compdef ghsift\n", 0), 0u);
  // Each command's block: from its `('PATH')` case label to the next.
  for (const auto& [path, names] : commands) {
    const size_t start = zsh.output.find("    ('" + path + "')\n");
    ASSERT_NE(start, std::string::npos) << path;
    const size_t end = zsh.output.find(";;", start);
    const std::string block = zsh.output.substr(start, end - start);
    std::set<std::string> offered;
    static const std::regex item(R"('(-{1,2}[a-z0-9-]+):)");
    for (auto it = std::sregex_iterator(block.begin(), block.end(), item); it != std::sregex_iterator(); ++it) {
      offered.insert((*it)[1].str());
    }
    std::set<std::string> expected = names;
    expected.insert({"--help", "-h"});
    EXPECT_EQ(offered, expected) << path;
  }
  if (RunCommandStdout("command -v zsh >/dev/null 2>&1").exit_code == 0) {
    const fs::path script = fs::path(::testing::TempDir()) / "_ghsift";
    std::ofstream(script) << zsh.output;
    const CommandResult syntax = RunCommandStdout("zsh -n '" + script.string() + "' 2>&1");
    EXPECT_EQ(syntax.exit_code, 0) << syntax.output;
  }
}

TEST(CommandDocsTest, ReadmeListsEveryCommandWithOptionsItHas) {
  auto commands = Cli().Commands();
  std::ifstream in(fs::path(GHSIFT_SOURCE_DIR) / "README.md");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string readme = buffer.str();
  const size_t table = readme.find("## Command line\n");
  ASSERT_NE(table, std::string::npos);
  std::set<std::string> rows;
  for (const std::string& line : Lines(readme.substr(table))) {
    if (line.rfind("| `", 0) != 0) {
      if (!rows.empty() && line.empty()) break;  // the end of the table
      continue;
    }
    // The first cell: each `ghsift PATH ...` in it, and the options after it up to the next.
    const std::string cell = line.substr(0, line.find(" | "));
    for (size_t at = cell.find("ghsift "); at != std::string::npos;) {
      const size_t next = cell.find("ghsift ", at + 7);
      const std::string usage = cell.substr(at + 7, next == std::string::npos ? std::string::npos : next - at - 7);
      std::string path;
      for (const auto& [candidate, names] : commands) {
        if ((usage == candidate || usage.rfind(candidate + " ", 0) == 0 || usage.rfind(candidate + "`", 0) == 0) &&
            candidate.size() > path.size()) {
          path = candidate;
        }
      }
      if (path.empty() && usage.rfind("gen ", 0) == 0) break;  // a build without the generator
      EXPECT_FALSE(path.empty()) << "no command in: " << usage;
      rows.insert(path);
      static const std::regex option(R"((^|[^a-z-])(--?[a-z][a-z0-9-]*))");
      for (auto it = std::sregex_iterator(usage.begin(), usage.end(), option); it != std::sregex_iterator(); ++it) {
        const std::string name = (*it)[2].str();
        if (name == "-np") continue;  // mpirun's
        EXPECT_TRUE(commands[path].count(name)) << name << " is no option of ghsift " << path;
      }
      at = next;
    }
  }
  for (const auto& [path, names] : commands) {
    if (path == "rules") continue;  // a group: its subcommands have the rows
    EXPECT_TRUE(rows.count(path)) << "the README's command table has no row for ghsift " << path;
  }
}

}  // namespace
}  // namespace ghsift
