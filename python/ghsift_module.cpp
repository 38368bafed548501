// ghsift._native: runs `query`, `issues` or `sample` in this process, as the ghsift binary runs
// them, with --format csv and std::cout captured, and returns the table as typed columns and
// the notes the command wrote on stderr (which Python gives as warnings). The module holds no
// query logic of its own: every option and every column of the CLI's CSV reaches
// Python unchanged, so a column added to a command's CSV needs no change here. A call holds the
// GIL throughout: calls run one at a time, as they redirect the process's std::cout and stderr.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli_suggestions.hpp"
#include "commands/command_table.hpp"
#include "commands/estimate_output.hpp"
#include "eval/labeled_report.hpp"
#include "output.hpp"
#include "query/dimensions.hpp"
#include "commands/commands.hpp"

namespace py = pybind11;

namespace ghsift::cli {
namespace {
//! What the command failed with (Fail's messages, joined by lines); empty when it did not.
std::string g_failure;
}  // namespace

double CpuSecondsBeforeMain() { return 0; }

// The binary prints a failure; in Python it becomes the exception's text instead.
int Fail(const std::string& message) {
  g_failure += (g_failure.empty() ? "ghsift: " : "\nghsift: ") + message;
  return kExitError;
}

}  // namespace ghsift::cli

namespace ghsift::python {
namespace {

//! std::cout goes to `into` while this lives (the commands write their tables there).
class CoutCapture {
 public:
  explicit CoutCapture(std::ostringstream& into) : saved_(std::cout.rdbuf(into.rdbuf())) {}
  ~CoutCapture() { std::cout.rdbuf(saved_); }
  CoutCapture(const CoutCapture&) = delete;
  CoutCapture& operator=(const CoutCapture&) = delete;

 private:
  std::streambuf* saved_;
};

//! What the command writes on stderr (fd 2: its notes, e.g. "showing 50 of 72") while this
//! lives, kept for Finish(): in a notebook the process's stderr is seen by no one. Nothing is
//! kept, and stderr stays, when no temporary file can be made.
class StderrCapture {
 public:
  StderrCapture() {
    file_ = std::tmpfile();
    if (file_ == nullptr) return;
    std::fflush(stderr);
    saved_ = ::dup(2);
    if (saved_ < 0 || ::dup2(::fileno(file_), 2) < 0) Restore();
  }
  ~StderrCapture() { Restore(); }
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;

  //! Puts stderr back and returns what was written, one item a line.
  std::vector<std::string> Finish() {
    std::vector<std::string> lines;
    if (file_ == nullptr) return lines;
    std::fflush(stderr);
    std::string text;
    if (std::fseek(file_, 0, SEEK_SET) == 0) {
      char buffer[4096];
      for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, file_)) > 0;) text.append(buffer, n);
    }
    Restore();
    for (size_t at = 0; at < text.size();) {
      const size_t end = std::min(text.find('\n', at), text.size());
      if (end > at) lines.push_back(text.substr(at, end - at));
      at = end + 1;
    }
    return lines;
  }

 private:
  void Restore() {
    if (saved_ >= 0) {
      std::fflush(stderr);
      ::dup2(saved_, 2);
      ::close(saved_);
      saved_ = -1;
    }
    if (file_ != nullptr) std::fclose(file_);
    file_ = nullptr;
  }

  std::FILE* file_ = nullptr;
  int saved_ = -1;
};

//! The commands the module runs, in table order.
std::vector<std::string> PythonCommands() {
  std::vector<std::string> names;
  for (const cli::CommandRow& row : cli::Commands()) {
    if (row.in_python) names.emplace_back(row.path);
  }
  return names;
}

//! A command's output: its stdout, and its stderr's lines.
struct CommandOutput {
  std::string out;
  std::vector<std::string> notes;
};

bool IsDigits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

//! A decimal number as the CSV writes one: [-]digits[.digits][e[+-]digits]; no "nan" or "inf",
//! which are text.
bool IsDecimal(std::string_view s, bool* integral) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  const size_t exponent = s.find_first_of("eE");
  std::string_view mantissa = s.substr(0, exponent);
  const size_t dot = mantissa.find('.');
  *integral = dot == std::string_view::npos && exponent == std::string_view::npos;
  if (dot == std::string_view::npos) {
    if (!IsDigits(mantissa)) return false;
  } else {
    const std::string_view whole = mantissa.substr(0, dot), fraction = mantissa.substr(dot + 1);
    if (whole.empty() && fraction.empty()) return false;
    if ((!whole.empty() && !IsDigits(whole)) || (!fraction.empty() && !IsDigits(fraction))) return false;
  }
  if (exponent == std::string_view::npos) return true;
  std::string_view power = s.substr(exponent + 1);
  if (!power.empty() && (power[0] == '-' || power[0] == '+')) power.remove_prefix(1);
  return IsDigits(power);
}

//! Text from the store as str; bytes that are not UTF-8 (none should pass ingest) become U+FFFD
//! instead of failing the whole table.
py::object Text(const std::string& cell) {
  PyObject* text = PyUnicode_DecodeUTF8(cell.data(), static_cast<Py_ssize_t>(cell.size()), "replace");
  if (text == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(text);
}

std::string_view Cell(const std::vector<std::vector<std::string>>& rows, size_t row, size_t column) {
  return column < rows[row].size() ? std::string_view(rows[row][column]) : std::string_view();
}

py::object FloatColumn(const std::vector<std::vector<std::string>>& rows, size_t column) {
  const size_t n = rows.size() - 1;
  py::array_t<double> out(static_cast<py::ssize_t>(n));
  auto cells = out.mutable_unchecked<1>();
  for (size_t r = 0; r < n; ++r) {
    const std::string cell(Cell(rows, r + 1, column));
    cells(static_cast<py::ssize_t>(r)) = cell.empty() ? std::numeric_limits<double>::quiet_NaN() : std::stod(cell);
  }
  return out;
}

//! One column as Python: an int64 array when every cell is a whole number, a float64 array when
//! every non-empty cell is a number (empty: NaN), else a list of str. The inference pandas.read_csv
//! makes (with keep_default_na=False), so the CLI's CSV read by pandas and this column agree, but
//! for a column of numbers by its name whose every cell is empty: float64 of NaN, not text, so
//! that days to close of open reports still take .mean(). A column is of numbers by its name when
//! its dimension says so (query/dimensions.hpp: numeric), or when `figures` (rules eval: every
//! column but the group's names is a figure, such as word_list where no word list applies).
py::object TypedColumn(const std::vector<std::vector<std::string>>& rows, size_t column, bool figures) {
  const Dimension* dimension = FindDimension(Cell(rows, 0, column));
  const bool numbers_by_name = figures || (dimension != nullptr && dimension->numeric);
  bool numeric = false, all_integral = true, any_empty = false;
  for (size_t r = 1; r < rows.size(); ++r) {
    const std::string_view cell = Cell(rows, r, column);
    if (cell.empty()) {
      any_empty = true;
      continue;
    }
    bool integral = false;
    if (!IsDecimal(cell, &integral)) {
      numeric = false;
      break;
    }
    numeric = true;
    all_integral = all_integral && integral;
  }
  const size_t n = rows.size() - 1;
  if (n > 0 && numbers_by_name && !numeric && any_empty && std::all_of(rows.begin() + 1, rows.end(), [&](const auto& row) {
        return column >= row.size() || row[column].empty();
      })) {
    return FloatColumn(rows, column);
  }
  if (numeric && all_integral && !any_empty) {
    py::array_t<int64_t> out(static_cast<py::ssize_t>(n));
    auto cells = out.mutable_unchecked<1>();
    for (size_t r = 0; r < n; ++r) {
      std::string_view cell = Cell(rows, r + 1, column);
      if (cell[0] == '+') cell.remove_prefix(1);
      int64_t value = 0;
      const auto parsed = std::from_chars(cell.data(), cell.data() + cell.size(), value);
      if (parsed.ec != std::errc()) return FloatColumn(rows, column);  // beyond int64
      cells(static_cast<py::ssize_t>(r)) = value;
    }
    return out;
  }
  if (numeric) return FloatColumn(rows, column);
  py::list out(n);
  for (size_t r = 0; r < n; ++r) out[r] = Text(std::string(Cell(rows, r + 1, column)));
  return out;
}

//! Runs `ghsift <command> <args...>` and returns what it wrote; raises what it failed with.
CommandOutput RunCommand(const std::string& command, const std::vector<std::string>& args) {
  // The commands whose row of the command table says the module runs them (a table on stdout
  // with --format csv).
  const cli::CommandRow* row = cli::FindCommand(command);
  if (row == nullptr || !row->in_python) {
    throw py::value_error("ghsift: the module runs " + cli::Join(PythonCommands(), ", ") + ", not '" + command + "'");
  }
  CLI::App app{"ghsift"};
  app.require_subcommand(1);
  int exit_code = cli::kExitOk;
  cli::AddCommand(app, *row, exit_code);
  const std::vector<std::string> words = cli::CommandWords(command);
  std::vector<const char*> argv = {"ghsift"};
  for (const std::string& w : words) argv.push_back(w.c_str());
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream captured;
  CommandOutput output;
  cli::g_failure.clear();
  try {
    StderrCapture notes;
    CoutCapture capture(captured);
    app.parse(static_cast<int>(argv.size()), argv.data());
    output.notes = notes.Finish();
  } catch (const CLI::ParseError& e) {
    throw py::value_error("ghsift: " + cli::ParseErrorMessage(app, e, static_cast<int>(argv.size()),
                                                              const_cast<char**>(argv.data())));
  }
  if (exit_code == cli::kExitError) {
    std::string message = cli::g_failure.empty() ? "ghsift: " + command + " failed" : cli::g_failure;
    for (const std::string& note : output.notes) message += "\n" + note;
    // A store that is not there (or not a directory) is the file system's error; the rest, bad
    // values of options, is the caller's.
    for (size_t i = 0; i + 1 < args.size(); ++i) {
      std::error_code error;
      if (args[i] == "--store" && !std::filesystem::is_directory(args[i + 1], error)) {
        PyErr_SetString(PyExc_FileNotFoundError, message.c_str());
        throw py::error_already_set();
      }
    }
    throw py::value_error(message);
  }
  output.out = captured.str();
  return output;
}

//! The command's CSV as (columns, [column values...], notes): each column typed by TypedColumn,
//! notes the lines it wrote on stderr.
py::tuple Table(const std::string& command, const std::vector<std::string>& args) {
  const CommandOutput output = RunCommand(command, args);
  const std::vector<std::vector<std::string>> rows = ParseCsv(output.out);
  if (rows.empty()) throw py::value_error("ghsift: " + command + " wrote no table");
  py::list columns, values, notes;
  const auto& names = cli::kEstimateCsvNameColumns;
  for (size_t c = 0; c < rows[0].size(); ++c) {
    columns.append(Text(rows[0][c]));
    const bool figures = command == "rules eval" && std::find(names.begin(), names.end(), rows[0][c]) == names.end();
    values.append(TypedColumn(rows, c, figures));
  }
  for (const std::string& note : output.notes) notes.append(Text(note));
  return py::make_tuple(columns, values, notes);
}

}  // namespace
}  // namespace ghsift::python

PYBIND11_MODULE(_native, m) {
  m.doc() = "ghsift's commands run in this process; use the ghsift package, which wraps this";
  m.def("table", &ghsift::python::Table, py::arg("command"), py::arg("args"),
        "Runs `ghsift COMMAND ARGS... --format csv` in this process (the store opened read-only) and returns "
        "(columns, values, notes): values[i] holds column i as an int64 or float64 array, or a list of str; notes "
        "are the lines the command wrote on stderr");
  m.def("commands", &ghsift::python::PythonCommands,
        "The commands `table` runs (those of ghsift's command table that give a CSV table), in table order");
}
