#include "json/report_probe.hpp"

#include <cstring>

namespace ghsift {
namespace {

constexpr size_t kMaxDigits = 18;  //!< always within int64_t

//! A cursor over the probed bytes; every step fails (false) on anything it does not expect.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  bool Take(char c) {
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }

  //! A string after its opening quote, up to the closing one; false when it holds an escape.
  bool PlainString(std::string_view* out) {
    const size_t start = pos_;
    const char* quote = static_cast<const char*>(std::memchr(text_.data() + start, '"', text_.size() - start));
    if (quote == nullptr) return false;
    const size_t end = static_cast<size_t>(quote - text_.data());
    *out = text_.substr(start, end - start);
    if (out->find('\\') != std::string_view::npos) return false;
    pos_ = end + 1;
    return true;
  }

  //! A string after its opening quote, escapes and all, up to the unescaped closing quote.
  bool SkipString() {
    while (true) {
      const char* quote =
          static_cast<const char*>(std::memchr(text_.data() + pos_, '"', text_.size() - pos_));
      if (quote == nullptr) return false;
      size_t at = static_cast<size_t>(quote - text_.data());
      size_t backslashes = 0;
      while (at - backslashes > pos_ && text_[at - backslashes - 1] == '\\') ++backslashes;
      pos_ = at + 1;
      if (backslashes % 2 == 0) return true;
    }
  }

  //! A value that holds no other value: a string, a number, true, false or null.
  bool SkipScalar() {
    if (Take('"')) return SkipString();
    const size_t start = pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      const bool number_byte = (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
      if (!number_byte && !(c >= 'a' && c <= 'z')) break;
      ++pos_;
    }
    const std::string_view word = text_.substr(start, pos_ - start);
    if (word.empty()) return false;
    const char first = word.front();
    return (first >= '0' && first <= '9') || first == '-' || word == "true" || word == "false" || word == "null";
  }

  //! A positive integer as JSON writes one (no sign, no leading zero, no fraction or exponent).
  bool PositiveInteger(int64_t* out) {
    const size_t start = pos_;
    int64_t value = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      if (pos_ - start == kMaxDigits) return false;
      value = value * 10 + (text_[pos_] - '0');
      ++pos_;
    }
    if (pos_ == start || text_[start] == '0') return false;
    if (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '}') return false;
    *out = value;
    return true;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

//! The report object's members after its '{', until both `number` and `title` are read.
std::optional<ReportProbe> ProbeReportObject(Cursor& at) {
  ReportProbe probe;
  while (true) {
    std::string_view key;
    if (!at.Take('"') || !at.PlainString(&key) || !at.Take(':')) return std::nullopt;
    if (key == "number") {
      if (!at.PositiveInteger(&probe.number)) return std::nullopt;
    } else if (key == "title") {
      if (!at.Take('"') || !at.PlainString(&probe.title) || probe.title.empty()) return std::nullopt;
    } else if (!at.SkipScalar()) {
      return std::nullopt;
    }
    if (probe.number > 0 && !probe.title.empty()) return probe;
    if (!at.Take(',')) return std::nullopt;
  }
}

}  // namespace

std::optional<ReportProbe> ProbeReport(std::string_view payload) {
  Cursor at(payload);
  if (!at.Take('{')) return std::nullopt;
  while (true) {
    std::string_view key;
    if (!at.Take('"') || !at.PlainString(&key) || !at.Take(':')) return std::nullopt;
    if (key == "issue" || key == "pull_request") {
      if (!at.Take('{')) return std::nullopt;
      return ProbeReportObject(at);
    }
    // `action`, and the payload's own `number` of a pull request event (the object's decides).
    if (!at.SkipScalar() || !at.Take(',')) return std::nullopt;
  }
}

}  // namespace ghsift
