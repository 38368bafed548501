#pragma once
// The pull requests that background review events name, and what those events showed of
// them. Since review texts are report text (json/text_field.hpp), every review event that
// carries a text is a report event of its pull request, so truth.json must count these pull
// requests as the engine does: the writers note each one here as they write it.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "gen/world.hpp"

namespace ghsift::gen {

//! The one background pull request of a repository that all its background review events
//! name. A pure function of (seed, repository), so every hour, thread and layout writes the
//! same number and creation time; it was opened before the corpus starts.
struct BackgroundPrIdentity {
  uint32_t number = 0;  //!< in [500000, 600000): far above anything planned
  uint64_t pr_id = 0;
  std::string_view title;
  bool body_null = true;
  const User* user = nullptr;
  int64_t created_at = 0;
};

BackgroundPrIdentity BackgroundPrOf(const World& world, uint64_t seed, const Repo& repo);

//! What the background review events written so far showed of one pull request.
struct ReviewedPr {
  std::string repo_name;  //!< as the events showed it (World repositories are named by truth.cpp)
  uint64_t events_with_text = 0, events_without_text = 0;
  int64_t first_text_time = 0;  //!< the earliest event that carries a text; 0 = none does
  int64_t created_at = 0;       //!< the earliest created_at a text-carrying event shows; 0 = none
};

//! The background pull requests that review events named, by (repository id, number).
class ReviewedPrs {
 public:
  //! One review event of `number` in `repo` (shown as `repo_name`) at `time`. `created_at` is
  //! the pull request's creation time as the event shows it (0 = it shows none); `has_text`
  //! whether the event carries a review text or comment.
  void Note(const Repo& repo, std::string_view repo_name, uint32_t number, int64_t time, int64_t created_at,
            bool has_text);
  //! Adds the sightings of a later hour.
  void Merge(const ReviewedPrs& other);

  using Key = std::pair<uint64_t, uint32_t>;
  const std::map<Key, ReviewedPr>& all() const { return prs_; }

 private:
  std::map<Key, ReviewedPr> prs_;
};

}  // namespace ghsift::gen
