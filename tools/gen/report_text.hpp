#pragma once
// Titles, bodies and comments of issue reports in the voice of deep-learning framework
// bug trackers, with the probe markers planted only where the spec allows them.
#include <string>
#include <string_view>

#include "gen/rng.hpp"

namespace ghsift::gen {

//! What an issue is about; decides the wording of its title and body.
enum class Theme : uint8_t { kNone = 0, kPerformance, kAccuracy, kSilent };
const char* ThemeName(Theme theme);

struct ReportTextSpec {
  std::string_view repo_full_name;  //!< picks the framework vocabulary
  Theme theme = Theme::kNone;
  bool is_pr = false;
  bool probe_title = false;  //!< plant `ghsiftprobetitle` in the title
  bool probe_body = false;   //!< plant `ghsiftprobebody` in body prose (outside fences)
  bool probe_code = false;   //!< plant `ghsiftprobecode` inside a fenced block of the body
  std::string_view reference;  //!< a PR body paragraph naming an issue ("Fixes #12"); empty = none
};

std::string MakeTitle(Rng& rng, const ReportTextSpec& spec);
std::string MakeBody(Rng& rng, const ReportTextSpec& spec);

struct CommentTextSpec {
  std::string_view repo_full_name;
  Theme theme = Theme::kNone;
  bool probe_prose = false;  //!< `ghsiftprobecomment` in comment prose
  bool probe_code = false;   //!< `ghsiftprobecode` inside a fenced block of the comment
};

//! Replaces `out` with a comment body (reuses its capacity).
void MakeComment(Rng& rng, const CommentTextSpec& spec, std::string* out);

//! Short texts for background events; never carry probe markers.
void AppendCommitMessage(Rng& rng, std::string& out);
void AppendReviewText(Rng& rng, std::string& out);
void AppendReleaseNotes(Rng& rng, std::string_view tag, std::string& out);
std::string_view MakeBackgroundPrTitle(Rng& rng);

//! A line that is not JSON (HTML error page, noise, NUL run); never empty, never starts with '{' or '['.
std::string MakeGarbageLine(Rng& rng);

}  // namespace ghsift::gen
