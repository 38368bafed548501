// ghsift completions bash|zsh, and the hidden ghsift man: the build writes the installed man
// page and completion scripts with them (tools/ghsift/CMakeLists.txt).
#include <iostream>
#include <memory>
#include <string>

#include "command_docs.hpp"
#include "commands/commands.hpp"

namespace ghsift::cli {

namespace {

const CLI::App& RootOf(const CLI::App& command) {
  const CLI::App* at = &command;
  while (at->get_parent() != nullptr) at = at->get_parent();
  return *at;
}

}  // namespace

void AddCompletionsCommand(CLI::App& command, int& exit_code) {
  auto shell = std::make_shared<std::string>();
  command.add_option("shell", *shell, "bash or zsh")->required()->check(CLI::IsMember({"bash", "zsh"}));
  command.callback([&command, shell, &exit_code] {
    const CLI::App& root = RootOf(command);
    std::cout << (*shell == "bash" ? BashCompletion(root) : ZshCompletion(root));
    exit_code = kExitOk;
  });
}

void AddManCommand(CLI::App& command, int& exit_code) {
  command.callback([&command, &exit_code] {
    std::cout << ManPage(RootOf(command));
    exit_code = kExitOk;
  });
}

}  // namespace ghsift::cli
