#include "gen/background_pr.hpp"

#include "gen/report_text.hpp"
#include "gen/rng.hpp"

namespace ghsift::gen {

namespace {

// The earlier of two times where 0 means "none".
int64_t EarlierKnown(int64_t a, int64_t b) {
  if (a == 0) return b;
  if (b == 0) return a;
  return a < b ? a : b;
}

}  // namespace

BackgroundPrIdentity BackgroundPrOf(const World& world, uint64_t seed, const Repo& repo) {
  Rng rng(MixSeed(seed, 0x62677072, repo.id));  // "bgpr"
  BackgroundPrIdentity pr;
  pr.number = 500000 + static_cast<uint32_t>(rng.Below(100000));
  pr.pr_id = 900000000 + rng.Below(100000000);
  pr.title = MakeBackgroundPrTitle(rng);
  pr.body_null = rng.Chance(0.5);
  pr.user = &world.users[rng.Skewed(world.users.size())];
  pr.created_at = world.corpus_start - 3600 - static_cast<int64_t>(rng.Below(7 * 86400));
  return pr;
}

void ReviewedPrs::Note(const Repo& repo, std::string_view repo_name, uint32_t number, int64_t time,
                       int64_t created_at, bool has_text) {
  ReviewedPr& pr = prs_[{repo.id, number}];
  pr.repo_name.assign(repo_name);
  if (!has_text) {
    ++pr.events_without_text;
    return;
  }
  ++pr.events_with_text;
  pr.first_text_time = EarlierKnown(pr.first_text_time, time);
  pr.created_at = EarlierKnown(pr.created_at, created_at);
}

void ReviewedPrs::Merge(const ReviewedPrs& other) {
  for (const auto& [key, seen] : other.prs_) {
    ReviewedPr& pr = prs_[key];
    pr.repo_name = seen.repo_name;  // `other` is a later hour: its name is the newer one
    pr.events_with_text += seen.events_with_text;
    pr.events_without_text += seen.events_without_text;
    pr.first_text_time = EarlierKnown(pr.first_text_time, seen.first_text_time);
    pr.created_at = EarlierKnown(pr.created_at, seen.created_at);
  }
}

}  // namespace ghsift::gen
