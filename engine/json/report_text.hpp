#pragma once
// A report's texts in one shape, by field (json/text_field.hpp): owned (ReportText: labeled
// input, kept texts, text records) or as views (ReportTextView: what ReportScan reads), and
// how the rules see them (RuleTextSplitter: the markdown split, once for every reader).
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "json/event.hpp"
#include "json/markdown_splitter.hpp"
#include "json/text_field.hpp"

namespace ghsift {

//! Each field's texts: one for a snapshot field (title, body), any number for the others (one
//! per comment, label, block of code given apart). Empty texts are left out.
struct ReportText {
  PerField<std::vector<std::string>> texts;

  std::vector<std::string>& operator[](Field f) { return texts[f]; }
  const std::vector<std::string>& operator[](Field f) const { return texts[f]; }
  //! The field's first text, "" when it has none: the text of a snapshot field.
  std::string_view First(Field f) const { return texts[f].empty() ? std::string_view() : texts[f].front(); }
  //! Adds `text` to `f`'s texts unless it is empty.
  void Add(Field f, std::string_view text) {
    if (!text.empty()) texts[f].emplace_back(text);
  }
  bool operator==(const ReportText&) const = default;
};

//! Each field's texts as views: what ReportScan reads. Views of the event being extracted
//! (ViewOf) or of a ReportText (ReportTextViews).
struct ReportTextView {
  PerField<std::span<const std::string_view>> texts;

  std::span<const std::string_view>& operator[](Field f) { return texts[f]; }
  std::span<const std::string_view> operator[](Field f) const { return texts[f]; }
};

//! The texts of an extracted report event, as views into it (no copy, no allocation).
ReportTextView ViewOf(const ReportFields& report);
//! The same, owned.
ReportText TextOf(const ReportFields& report);

//! Views of a ReportText, kept beside the views' arrays. Movable (the arrays move with it), not
//! copyable.
class ReportTextViews {
 public:
  explicit ReportTextViews(const ReportText& text);
  ReportTextViews(ReportTextViews&&) = default;
  ReportTextViews& operator=(ReportTextViews&&) = default;
  ReportTextViews(const ReportTextViews&) = delete;
  ReportTextViews& operator=(const ReportTextViews&) = delete;
  const ReportTextView& view() const { return view_; }

 private:
  PerField<std::vector<std::string_view>> views_;
  ReportTextView view_;
};

//! `text` of field `f` as the rules see it: its prose, without fenced code, when the field takes
//! the markdown split; as it is otherwise.
std::string Prose(Field f, std::string_view text);

//! A report's texts as the rules see them, in two parts scanned apart: the snapshot (title,
//! body prose, the body's code, each label), which every event of a report repeats, and the
//! event's own texts (each kEventText field's prose, then their code with any code given
//! apart). Markdown fields give their prose to themselves and their fenced code to `code`.
//! Buffers are reused from report to report.
class RuleTextSplitter {
 public:
  //! Calls `fn(field, text)` for each text of the snapshot part (texts may be empty).
  template <typename Fn>
  void Snapshot(const ReportTextView& report, Fn&& fn);
  //! The same for the event part; nothing when the report has no such text.
  template <typename Fn>
  void Events(const ReportTextView& report, Fn&& fn);

  //! The field that gathers the fenced code (code).
  static constexpr Field kFences = [] {
    for (const TextFieldSpec& spec : kTextFields) {
      if (spec.source == TextSource::kFences) return spec.field;
    }
    return kTextFields[0].field;
  }();

 private:
  //! The fields read from `source`: a plain field's texts go to `fn` one by one; a markdown
  //! field's prose is gathered in prose_ (and given to `fn` at once when `prose_now`), its fenced
  //! code appended to code_.
  template <typename Fn>
  void Split(const ReportTextView& report, TextSource source, bool prose_now, Fn&& fn);

  PerField<std::string> prose_;
  std::string code_;
};

template <typename Fn>
void RuleTextSplitter::Split(const ReportTextView& report, TextSource source, bool prose_now, Fn&& fn) {
  for (const TextFieldSpec& spec : kTextFields) {
    if (spec.source != source) continue;
    if (!spec.markdown) {
      for (std::string_view text : report[spec.field]) fn(spec.field, text);
      continue;
    }
    std::string& prose = prose_[spec.field];
    prose.clear();
    for (std::string_view text : report[spec.field]) SplitMarkdown(text, prose, code_);
    if (prose_now) fn(spec.field, std::string_view(prose));
  }
}

template <typename Fn>
void RuleTextSplitter::Snapshot(const ReportTextView& report, Fn&& fn) {
  code_.clear();
  Split(report, TextSource::kSnapshot, true, fn);
  fn(kFences, std::string_view(code_));
  Split(report, TextSource::kLabels, true, fn);
}

template <typename Fn>
void RuleTextSplitter::Events(const ReportTextView& report, Fn&& fn) {
  bool any = !report[kFences].empty();
  for (const TextFieldSpec& spec : kTextFields) {
    any = any || (spec.source == TextSource::kEventText && !report[spec.field].empty());
  }
  if (!any) return;
  code_.clear();
  Split(report, TextSource::kEventText, false, fn);
  for (std::string_view block : report[kFences]) {
    code_.append(block);
    code_.push_back('\n');
  }
  for (const TextFieldSpec& spec : kTextFields) {
    if (spec.source == TextSource::kEventText && spec.markdown) fn(spec.field, std::string_view(prose_[spec.field]));
  }
  fn(kFences, std::string_view(code_));
}

}  // namespace ghsift
