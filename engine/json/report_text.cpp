#include "json/report_text.hpp"

namespace ghsift {

ReportTextView ViewOf(const ReportFields& report) {
  ReportTextView view;
  for (const TextFieldSpec& spec : kTextFields) {
    if (spec.source == TextSource::kLabels) {
      view[spec.field] = report.labels;
    } else if (!report.text[spec.field].empty()) {
      view[spec.field] = std::span<const std::string_view>(&report.text[spec.field], 1);
    }
  }
  return view;
}

ReportText TextOf(const ReportFields& report) {
  ReportText text;
  for (const TextFieldSpec& spec : kTextFields) {
    if (spec.source == TextSource::kLabels) {
      text[spec.field].assign(report.labels.begin(), report.labels.end());
    } else {
      text.Add(spec.field, report.text[spec.field]);
    }
  }
  return text;
}

ReportTextViews::ReportTextViews(const ReportText& text) {
  for (const TextFieldSpec& spec : kTextFields) {
    views_[spec.field].assign(text[spec.field].begin(), text[spec.field].end());
    view_[spec.field] = views_[spec.field];
  }
}

std::string Prose(Field f, std::string_view text) {
  if (!Spec(f).markdown) return std::string(text);
  std::string prose, code;
  SplitMarkdown(text, prose, code);
  return prose;
}

}  // namespace ghsift
