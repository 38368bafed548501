#include "gen/hour_cast.hpp"

#include <cmath>
#include <string>

namespace ghsift::gen {

namespace {

// A login no World user or organisation can have (they never hold a '_'), unique per index.
std::string CastLogin(Rng& rng, uint64_t index) {
  std::string login = rng.Chance(0.5) ? PickFirstName(rng) : PickSyllable(rng);
  login += '_';
  do {
    login += "0123456789abcdefghijklmnopqrstuvwxyz"[index % 36];
    index /= 36;
  } while (index > 0);
  if (rng.Chance(0.2)) login[0] = static_cast<char>(login[0] - 'a' + 'A');
  return login;
}

// Whether event `n` (from 0) brings a party never seen this hour: the slope of
// K(n) = ratio * 2048 * (n / 2048)^growth at n + 1, at most 1.
bool DrawsNew(Rng& rng, double ratio, double growth, size_t n) {
  if (n == 0) return true;
  return rng.Chance(growth * ratio * std::pow((static_cast<double>(n) + 1.0) / 2048.0, growth - 1.0));
}

}  // namespace

HourCast::HourCast(const World& world, const Profile& profile, uint64_t seed)
    : world_(world), profile_(profile), seed_(seed) {}

const Repo& HourCast::NewRepo(uint64_t index) {
  Rng rng(MixSeed(seed_, 0x63617374726570, index));  // "castrep"
  Repo& repo = repos_.emplace_back();
  repo.id = kCastRepoIdBase + index;
  std::string owner;
  // About a quarter of repositories belong to an organisation (never a tracked one).
  const size_t untracked_orgs = world_.orgs.size() - world_.tracked_count;
  if (untracked_orgs > 0 && rng.Chance(0.25)) {
    repo.org = static_cast<int>(world_.tracked_count + rng.Below(untracked_orgs));
    owner = world_.orgs[static_cast<size_t>(repo.org)].login;
    repo.owner_id = world_.orgs[static_cast<size_t>(repo.org)].id;
  } else {
    const uint64_t owner_index = rng.Below(kCastActorUniverse);
    Rng owner_rng(MixSeed(seed_, 0x636173746163, owner_index));  // "castac": the actor's own stream
    owner = CastLogin(owner_rng, owner_index);
    repo.owner_id = kCastActorIdBase + owner_index;
  }
  std::string name = MakeRepoName(rng);
  std::string full = owner + "/" + name;
  repo.names[0] = {std::move(owner), std::move(name), std::move(full)};
  repo.description = rng.Chance(0.3) ? std::string() : std::string(PickDescription(rng));
  repo.language = PickLanguage(rng);
  repo.default_branch = rng.Chance(0.6) ? "master" : "main";
  repo.created_at = world_.corpus_start - 86400 * (1 + static_cast<int64_t>(rng.Below(3000)));
  repo.stars = static_cast<uint32_t>(rng.Skewed(2000));
  repo.forks = static_cast<uint32_t>(rng.Below(repo.stars / 3 + 1));
  repo.size_kb = static_cast<uint32_t>(rng.Below(100000));
  repo.open_issues = static_cast<uint32_t>(rng.Below(40));
  repo.first_number = 1;
  return repo;
}

const User& HourCast::NewActor(uint64_t index) {
  Rng rng(MixSeed(seed_, 0x636173746163, index));  // "castac"
  User& user = users_.emplace_back();
  user.id = kCastActorIdBase + index;
  user.login = CastLogin(rng, index);
  return user;
}

BackgroundParties HourCast::Draw(Rng& rng, const Repo* forced_repo) {
  const size_t n = repo_of_event_.size();
  // One earlier event for both repeats, so a repeated actor tends to come back to its repo.
  const size_t earlier = n > 0 ? rng.Below(n) : 0;
  const Repo* repo = nullptr;
  if (DrawsNew(rng, profile_.repos_per_event_at_2048, profile_.repo_growth, n)) {
    repo = &NewRepo(rng.Below(kCastRepoUniverse));
  } else {
    repo = repo_of_event_[earlier];
  }
  if (forced_repo != nullptr) repo = forced_repo;
  const User* actor = nullptr;
  if (DrawsNew(rng, profile_.actors_per_event_at_2048, profile_.actor_growth, n)) {
    actor = &NewActor(rng.Below(kCastActorUniverse));
  } else {
    actor = actor_of_event_[earlier];
  }
  repo_of_event_.push_back(repo);
  actor_of_event_.push_back(actor);
  return {*repo, *actor};
}

}  // namespace ghsift::gen
