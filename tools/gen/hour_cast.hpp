#pragma once
// The background cast of one profile hour: repositories and actors drawn along the profile's
// growth curves (gen/profile.hpp) from a large universe that World does not hold. A universe
// member is a pure function of (seed, index), so the same repository keeps its id and name
// in every hour and thread; ids sit above every World id, so no repository seems renamed.
#include <cstdint>
#include <deque>
#include <vector>

#include "gen/event_writer.hpp"
#include "gen/profile.hpp"
#include "gen/rng.hpp"
#include "gen/world.hpp"

namespace ghsift::gen {

//! Universe sizes and id bases of profile repositories and actors.
inline constexpr uint64_t kCastRepoUniverse = 50000000;
inline constexpr uint64_t kCastRepoIdBase = 1000000000;
inline constexpr uint64_t kCastActorUniverse = 20000000;
inline constexpr uint64_t kCastActorIdBase = 200000000;

class HourCast {
 public:
  HourCast(const World& world, const Profile& profile, uint64_t seed);

  //! The repository and actor of the next background event. `forced_repo`, when set,
  //! replaces the repository (and is what later events may repeat).
  BackgroundParties Draw(Rng& rng, const Repo* forced_repo);

 private:
  const Repo& NewRepo(uint64_t index);
  const User& NewActor(uint64_t index);

  const World& world_;
  const Profile& profile_;
  uint64_t seed_;
  std::deque<Repo> repos_;  //!< stable addresses
  std::deque<User> users_;
  std::vector<const Repo*> repo_of_event_;
  std::vector<const User*> actor_of_event_;
};

}  // namespace ghsift::gen
