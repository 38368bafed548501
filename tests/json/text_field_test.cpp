// The table of text fields (json/text_field.hpp) is the one list of them: every name in it is
// documented where users read about fields, and its rows are consistent.
#include "json/text_field.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace ghsift {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

//! The paragraph of `doc` that starts at the first line holding `heading`, up to a blank line.
std::string Paragraph(const std::string& doc, const std::string& heading) {
  const size_t start = doc.find(heading);
  if (start == std::string::npos) return "";
  const size_t end = doc.find("\n\n", start);
  return doc.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

TEST(TextFieldTest, EveryFieldIsDocumentedWhereFieldsAre) {
  const std::string readme = ReadFile(std::string(GHSIFT_SOURCE_DIR) + "/README.md");
  const std::string rules_readme = ReadFile(std::string(GHSIFT_SOURCE_DIR) + "/rules/README.md");
  const std::string fields = Paragraph(readme, "* **Fields** the rules see");
  const std::string decision = Paragraph(rules_readme, "A rule matches a report when");
  ASSERT_FALSE(fields.empty());
  ASSERT_FALSE(decision.empty());
  for (const TextFieldSpec& spec : kTextFields) {
    const std::string quoted = "`" + std::string(spec.name) + "`";
    EXPECT_NE(fields.find(quoted), std::string::npos) << "README.md's Fields paragraph misses " << quoted;
    EXPECT_NE(decision.find(quoted), std::string::npos) << "rules/README.md misses " << quoted;
  }
}

TEST(TextFieldTest, RowsAreConsistent) {
  std::set<std::string_view> names, keys, columns;
  std::set<int> tags;
  for (const TextFieldSpec& spec : kTextFields) {
    EXPECT_TRUE(names.insert(spec.name).second) << spec.name;
    EXPECT_TRUE(keys.insert(spec.jsonl_key).second) << spec.jsonl_key;
    EXPECT_TRUE(columns.insert(spec.csv_column).second) << spec.csv_column;
    if (spec.store_tag != 0) {
      EXPECT_TRUE(tags.insert(spec.store_tag).second) << "store tag reused: " << spec.name;
    }
    EXPECT_EQ(&Spec(spec.field), &spec);
    EXPECT_EQ(FieldFromName(spec.name), spec.field);
    EXPECT_EQ(spec.source == TextSource::kSnapshot || spec.source == TextSource::kLabels, !spec.member.empty())
        << spec.name;
    EXPECT_EQ(spec.source == TextSource::kEventText, !spec.events[0].event_type.empty()) << spec.name;
  }
  EXPECT_EQ(FieldFromName("titel"), std::nullopt);
  EXPECT_EQ(AllFieldNames(), "title, body, label, comment, code, review");
  EXPECT_EQ(Spec(Field::kReview).store_tag, 1);
  // The fields of the first record formats keep their places: title, body, labels, comment.
  for (Field f : {Field::kTitle, Field::kBody, Field::kLabel, Field::kComment}) EXPECT_EQ(Spec(f).store_tag, 0) << FieldName(f);
}

}  // namespace
}  // namespace ghsift
