#include "eval/labeled_report.hpp"
#include "common/csv.hpp"
#include "common/utf8.hpp"

#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace ghsift {
namespace {

std::string ReadAll(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  *ok = static_cast<bool>(in) || in.eof();
  return text.str();
}

uint32_t HexValue(std::string_view s) {
  uint32_t v = 0;
  for (char c : s) {
    v <<= 4;
    if (c >= '0' && c <= '9') v |= static_cast<uint32_t>(c - '0');
    else if (c >= 'a' && c <= 'f') v |= static_cast<uint32_t>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= static_cast<uint32_t>(c - 'A' + 10);
  }
  return v;
}

std::vector<std::string> StringArray(simdjson::simdjson_result<simdjson::dom::element> e, bool object_names) {
  std::vector<std::string> out;
  simdjson::dom::array array;
  if (e.get_array().get(array) != simdjson::SUCCESS) return out;
  for (simdjson::dom::element item : array) {
    std::string_view s;
    if (item.get_string().get(s) == simdjson::SUCCESS) {
      out.emplace_back(s);
    } else if (object_names && item["name"].get_string().get(s) == simdjson::SUCCESS) {
      out.emplace_back(s);
    }
  }
  return out;
}

//! Each text field's key of `e` (TextFieldSpec::jsonl_key): a string, or a list of them.
ReportText TextsOf(simdjson::dom::element e) {
  ReportText text;
  for (const TextFieldSpec& spec : kTextFields) {
    simdjson::dom::element value;
    if (e[spec.jsonl_key].get(value) != simdjson::SUCCESS) continue;
    std::string_view s;
    if (value.get_string().get(s) == simdjson::SUCCESS) {
      text.Add(spec.field, s);
    } else {
      text[spec.field] = StringArray(simdjson::simdjson_result<simdjson::dom::element>(std::move(value)),
                                     spec.source == TextSource::kLabels);
    }
  }
  return text;
}

std::string StringOf(simdjson::dom::element e, std::string_view key) {
  std::string_view s;
  if (e[key].get_string().get(s) == simdjson::SUCCESS) return std::string(s);
  return {};
}

//! A label as written by hand: 0 or 1 (also "0"/"1", 0.0/1.0, true/false). Empty: not labeled.
//! Anything else is an error: a typo such as 2 or "yes" would otherwise change the figures.
Result<std::optional<int>> BinaryLabel(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  if (text.empty()) return std::optional<int>();
  for (const auto& [written, value] : {std::pair<std::string_view, int>{"0", 0}, {"1", 1}, {"0.0", 0}, {"1.0", 1},
                                       {"false", 0}, {"true", 1}}) {
    if (text == written) return std::optional<int>(value);
  }
  return Status::InvalidArgument("'" + std::string(text) + "'");
}

Result<std::optional<int>> JsonLabel(simdjson::dom::element e, std::string_view key) {
  simdjson::dom::element value;
  if (e[key].get(value) != simdjson::SUCCESS || value.is_null()) return std::optional<int>();
  std::string_view s;
  if (value.get_string().get(s) == simdjson::SUCCESS) return BinaryLabel(s);
  bool b;
  if (value.get_bool().get(b) == simdjson::SUCCESS) return std::optional<int>(b ? 1 : 0);
  double d;
  if (value.get_double().get(d) == simdjson::SUCCESS && (d == 0 || d == 1)) return std::optional<int>(d == 1 ? 1 : 0);
  return Status::InvalidArgument(simdjson::to_string(value));
}

//! "PATH:LINE: 'class' is '2'; use 0 or 1 (or leave it empty: not labeled yet)".
Status BadLabel(const std::string& path, size_t line, const std::string& key, const Status& what) {
  return Status::InvalidArgument(path + ":" + std::to_string(line) + ": '" + key + "' is " + what.message() +
                                 "; use 0 or 1 (or leave it empty: not labeled yet)");
}

Result<std::vector<LabeledReport>> ReadJsonl(const std::string& path, const std::string& text,
                                             const LabelOptions& options) {
  std::vector<LabeledReport> out;
  simdjson::dom::parser parser;
  std::istringstream lines(text);
  std::string line;
  int number = 0;
  bool key_seen = false;   // some record names the label key (null: "not labeled yet")
  bool any_label = false;  // some record has a usable label
  while (std::getline(lines, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    simdjson::dom::element e;
    if (parser.parse(line).get(e) != simdjson::SUCCESS || !e.is_object()) {
      return Status::InvalidArgument(path + ":" + std::to_string(number) + ": not a JSON object");
    }
    LabeledReport r;
    r.text = TextsOf(e);
    r.group = StringOf(e, kJsonlRepoKey);
    if (r.group.empty()) r.group = StringOf(e, "group");
    std::string id = StringOf(e, "id");
    int64_t issue_number = 0;
    if (e[kJsonlNumberKey].get_int64().get(issue_number) != simdjson::SUCCESS) issue_number = 0;
    r.id = !id.empty() ? id : r.group + "#" + std::to_string(issue_number);
    r.line = static_cast<size_t>(number);
    auto label = JsonLabel(e, options.label_key);
    // Only where labels are read: `rules bench` reads the text of any file.
    if (!label.ok() && options.require_label) return BadLabel(path, r.line, options.label_key, label.status());
    r.binary = label.ok() ? *label : std::nullopt;
    simdjson::dom::element expected;
    if (e[options.label_key].error() != simdjson::NO_SUCH_FIELD) key_seen = true;
    if (r.binary) any_label = true;
    if (e[kExportedCategoriesKey].error() != simdjson::NO_SUCH_FIELD) {
      const auto list = StringArray(e[kExportedCategoriesKey], false);
      r.exported_as = std::set<std::string>(list.begin(), list.end());
    }
    if (e["expected"].get(expected) == simdjson::SUCCESS) {
      any_label = true;
      const auto list = StringArray(e["expected"], false);
      r.expected = std::set<std::string>(list.begin(), list.end());
    }
    if (r.text[Field::kBody].empty() && !options.issue_dir.empty() && issue_number > 0) {
      const std::string file = options.issue_dir + "/" + std::to_string(issue_number) + ".json";
      if (std::filesystem::exists(file)) {
        simdjson::dom::parser issue_parser;
        simdjson::dom::element issue;
        if (issue_parser.load(file).get(issue) != simdjson::SUCCESS) {
          return Status::InvalidArgument(file + ": not valid JSON");
        }
        r.text.Add(Field::kBody, StringOf(issue, "body"));
      }
    }
    out.push_back(std::move(r));
  }
  if (options.require_label && !any_label && !out.empty()) {
    if (key_seen) {
      return Status::InvalidArgument(path + ": no usable label: the key '" + options.label_key + "' is null or empty "
                                     "in all " + std::to_string(out.size()) +
                                     " records; fill it with 0 or 1 (or name another key with --label-key)");
    }
    return Status::InvalidArgument(path + ": no record has the label key '" + options.label_key +
                                   "' (nor an 'expected' list); name the key with --label-key");
  }
  return out;
}

Result<std::vector<LabeledReport>> ReadMhnurfCsv(const std::string& path, const std::string& text,
                                                 const LabelOptions& options) {
  // A spreadsheet's "CSV UTF-8" starts with a byte order mark, glued to the first column's name.
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  std::string_view body = text;
  if (body.substr(0, kBom.size()) == kBom) body.remove_prefix(kBom.size());
  std::vector<size_t> lines;
  size_t open_quote = 0;
  const auto records = ParseCsv(body, &lines, &open_quote);
  if (records.empty()) return Status::InvalidArgument(path + ": empty CSV");
  if (open_quote != 0) {
    return Status::InvalidArgument(path + ":" + std::to_string(open_quote) +
                                   ": a quoted field starts here and never ends (a file cut short?)");
  }
  std::map<std::string, size_t> column;
  for (size_t i = 0; i < records[0].size(); ++i) column[records[0][i]] = i;
  // The snapshot's columns (Title, Body) are required; the others may be left out.
  for (const TextFieldSpec& spec : kTextFields) {
    if (spec.source == TextSource::kSnapshot && !column.count(std::string(spec.csv_column))) {
      return Status::InvalidArgument(path + ": no '" + std::string(spec.csv_column) + "' column");
    }
  }
  if (options.require_label && !column.count(options.label_key)) {
    std::string header;
    for (const auto& name : records[0]) header += (header.empty() ? "" : ", ") + name;
    return Status::InvalidArgument(path + ": no column for the label key '" + options.label_key +
                                   "'; name the key with --label-key (the columns: " + header + ")");
  }
  auto get = [&](const std::vector<std::string>& rec, const std::string& name) -> std::string {
    auto it = column.find(name);
    return it != column.end() && it->second < rec.size() ? rec[it->second] : std::string();
  };
  std::vector<LabeledReport> out;
  bool any_label = false;
  for (size_t i = 1; i < records.size(); ++i) {
    const auto& rec = records[i];
    if (rec.size() == 1 && rec[0].empty()) continue;
    LabeledReport r;
    r.line = lines[i];
    r.group = get(rec, std::string(kCsvRepositoryColumn));
    r.id = r.group + "#" + get(rec, std::string(kCsvNumberColumn));
    for (const TextFieldSpec& spec : kTextFields) {
      const std::string cell = get(rec, std::string(spec.csv_column));
      if (spec.source == TextSource::kSnapshot) {
        r.text.Add(spec.field, cell);
      } else if (spec.source == TextSource::kLabels) {
        // MHNurf joins labels by spaces, and a label may contain spaces itself: kept as one label
        // value. A list literal (as `sample` writes them) gives each label on its own.
        if (cell.size() >= 2 && cell.front() == '[' && cell.back() == ']') {
          r.text[spec.field] = ParsePythonStringList(cell);
        } else if (!cell.empty()) {
          r.text[spec.field].push_back(cell);
        }
      } else {
        r.text[spec.field] = ParsePythonStringList(cell);  // a list literal
      }
    }
    if (column.count(std::string(kExportedCategoriesKey))) {
      r.exported_as.emplace();
      const std::string cell = get(rec, std::string(kExportedCategoriesKey));  // outlives the view below
      for (std::string_view rest = cell; !rest.empty();) {
        const size_t end = std::min(rest.find(kCsvListSeparator), rest.size());
        if (end > 0) r.exported_as->emplace(rest.substr(0, end));
        rest.remove_prefix(std::min(end + kCsvListSeparator.size(), rest.size()));
      }
    }
    auto label = BinaryLabel(get(rec, options.label_key));
    if (!label.ok() && options.require_label) return BadLabel(path, r.line, options.label_key, label.status());
    r.binary = label.ok() ? *label : std::nullopt;
    any_label = any_label || r.binary.has_value();
    out.push_back(std::move(r));
  }
  if (options.require_label && !any_label && !out.empty()) {
    return Status::InvalidArgument(path + ": no usable label: the column '" + options.label_key + "' is empty in all " +
                                   std::to_string(out.size()) +
                                   " records; fill it with 0 or 1 (or name another column with --label-key)");
  }
  return out;
}

}  // namespace

std::vector<std::vector<std::string>> ParseCsv(std::string_view text, std::vector<size_t>* record_lines,
                                               size_t* open_quote_line) {
  std::vector<std::vector<std::string>> records(1);
  std::vector<size_t> lines = {1};
  size_t line = 1, quote_line = 0;
  std::string field;
  bool quoted = false, field_started = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
    } else if (c == '"' && !field_started) {
      quoted = field_started = true;
      quote_line = line;
    } else if (c == ',') {
      records.back().push_back(CsvCellText(std::move(field)));
      field.clear();
      field_started = false;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      ++line;
      records.back().push_back(CsvCellText(std::move(field)));
      field.clear();
      field_started = false;
      records.emplace_back();
      lines.push_back(line);
    } else {
      field += c;
      field_started = true;
    }
  }
  if (field_started || !field.empty() || !records.back().empty()) records.back().push_back(CsvCellText(std::move(field)));
  if (records.back().empty()) {
    records.pop_back();
    lines.pop_back();
  }
  if (record_lines != nullptr) *record_lines = std::move(lines);
  if (open_quote_line != nullptr) *open_quote_line = quoted ? quote_line : 0;
  return records;
}

std::vector<std::string> ParsePythonStringList(std::string_view text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    const char quote = text[i];
    if (quote != '\'' && quote != '"') {
      ++i;
      continue;
    }
    std::string item;
    ++i;
    while (i < text.size() && text[i] != quote) {
      if (text[i] == '\\' && i + 1 < text.size()) {
        const char e = text[++i];
        switch (e) {
          case 'n': item += '\n'; break;
          case 't': item += '\t'; break;
          case 'r': item += '\r'; break;
          case 'x':
            if (i + 2 < text.size()) AppendUtf8(item, HexValue(text.substr(i + 1, 2)));
            i += 2;
            break;
          case 'u':
            if (i + 4 < text.size()) AppendUtf8(item, HexValue(text.substr(i + 1, 4)));
            i += 4;
            break;
          default: item += e;
        }
        ++i;
      } else {
        item += text[i++];
      }
    }
    ++i;  // closing quote
    out.push_back(std::move(item));
  }
  return out;
}

ReportText ReportTextOfJson(std::string_view json_object, bool* is_object) {
  simdjson::dom::parser parser;
  simdjson::dom::element e;
  *is_object = parser.parse(json_object.data(), json_object.size()).get(e) == simdjson::SUCCESS && e.is_object();
  return *is_object ? TextsOf(e) : ReportText();
}

Result<std::vector<LabeledReport>> ReadLabeledReports(const std::string& path, const LabelOptions& options) {
  bool ok = false;
  const std::string text = ReadAll(path, &ok);
  if (!ok) return Status::IoErrorFromErrno(path + ": cannot read");
  if (!std::filesystem::is_regular_file(path)) return Status::IoError(path + ": cannot read (not a regular file)");
  const bool csv = path.size() >= 4 && path.compare(path.size() - 4, 4, ".csv") == 0;
  return csv ? ReadMhnurfCsv(path, text, options) : ReadJsonl(path, text, options);
}

}  // namespace ghsift
