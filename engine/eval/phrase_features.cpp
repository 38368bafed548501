#include "eval/phrase_features.hpp"

#include <algorithm>
#include <map>

#include "eval/phrase_miner.hpp"

namespace ghsift {

std::vector<std::string> FieldTexts(const LabeledReport& report, FieldMask fields) {
  std::vector<std::string> texts;
  for (int f = 0; f < kFieldCount; ++f) {
    const Field field = static_cast<Field>(f);
    if (!(fields & MaskOf(field)) || !IsProse(Spec(field))) continue;
    const std::vector<std::string>& given = report.text[field];
    // A one-text field with no text still gives its (empty) text, as it always did.
    if (given.empty() && Spec(field).source == TextSource::kSnapshot) texts.emplace_back();
    for (const std::string& text : given) texts.push_back(Prose(field, text));
  }
  return texts;
}

FieldMask FieldsBothClassesHave(const std::vector<const LabeledReport*>& positives,
                                const std::vector<const LabeledReport*>& negatives, FieldMask fields) {
  FieldMask shared = 0;
  for (int f = 0; f < kFieldCount; ++f) {
    const FieldMask mask = MaskOf(static_cast<Field>(f));
    if (!(fields & mask)) continue;
    const auto most_have = [&](const std::vector<const LabeledReport*>& reports) {
      size_t with = 0;
      for (const LabeledReport* r : reports) {
        for (const std::string& text : FieldTexts(*r, mask)) {
          if (text.find_first_not_of(" \t\r\n") != std::string::npos) {
            ++with;
            break;
          }
        }
      }
      return 2 * with >= reports.size();
    };
    if (most_have(positives) && most_have(negatives)) shared |= mask;
  }
  return shared;
}

std::vector<std::string> TextPhrases(const std::vector<std::string>& texts, int max_words) {
  std::vector<std::string> out;
  for (const std::string& text : texts) {
    for (const auto& run : WordRuns(text)) {
      for (size_t start = 0; start < run.size(); ++start) {
        std::string phrase;
        bool informative = false;
        for (size_t n = 0; n < static_cast<size_t>(max_words) && start + n < run.size(); ++n) {
          phrase += (n ? " " : "") + run[start + n];
          informative |= !UninformativeWord(run[start + n]);
          if (informative) out.push_back(phrase);
        }
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

PhraseIndex IndexPhrases(const std::vector<std::vector<std::string>>& report_phrases,
                         const std::vector<std::vector<std::string>>* learnable) {
  PhraseIndex index;
  for (const auto& phrases : report_phrases) index.phrases.insert(index.phrases.end(), phrases.begin(), phrases.end());
  std::sort(index.phrases.begin(), index.phrases.end());
  index.phrases.erase(std::unique(index.phrases.begin(), index.phrases.end()), index.phrases.end());
  const auto ids_of = [&](const std::vector<std::string>& phrases) {
    std::vector<uint32_t> ids;
    ids.reserve(phrases.size());
    for (const std::string& p : phrases) {
      const auto it = std::lower_bound(index.phrases.begin(), index.phrases.end(), p);
      if (it != index.phrases.end() && *it == p) ids.push_back(static_cast<uint32_t>(it - index.phrases.begin()));
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
  };
  for (const auto& phrases : report_phrases) index.of_report.push_back(ids_of(phrases));
  if (learnable == nullptr) {
    index.learn_from = index.of_report;
  } else {
    for (const auto& phrases : *learnable) index.learn_from.push_back(ids_of(phrases));
  }
  return index;
}

std::vector<uint32_t> Vocabulary(const PhraseIndex& index, const std::vector<int>& group,
                                 const std::vector<char>& use, const VocabularyOptions& options) {
  std::vector<int64_t> reports(index.phrases.size(), 0), groups(index.phrases.size(), 0);
  std::vector<int> last_group(index.phrases.size(), -1);
  // Reports in group order, so that "a new group" is "a group other than the last one seen".
  std::vector<size_t> order;
  for (size_t i = 0; i < index.of_report.size(); ++i) {
    if (use[i]) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return group[a] < group[b]; });
  for (size_t i : order) {
    for (uint32_t p : index.learn_from[i]) {
      ++reports[p];
      if (last_group[p] != group[i]) ++groups[p], last_group[p] = group[i];
    }
  }
  std::vector<uint32_t> out;
  for (size_t p = 0; p < index.phrases.size(); ++p) {
    if (reports[p] >= options.min_reports && groups[p] >= options.min_groups) out.push_back(static_cast<uint32_t>(p));
  }
  return out;
}

}  // namespace ghsift
