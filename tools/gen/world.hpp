#pragma once
// The fixed cast of the corpus: users, organisations, repositories and label tables.
// Built once from the seed before any hour is written, then only read.
#include <cstdint>
#include <string>
#include <vector>

#include "gen/rng.hpp"

namespace ghsift::gen {

struct User {
  uint64_t id = 0;
  std::string login;
  bool bot = false;
};

struct Org {
  uint64_t id = 0;
  std::string login;
};

struct RepoName {
  std::string owner;
  std::string name;
  std::string full;  //!< "owner/name"
};

struct Repo {
  uint64_t id = 0;
  RepoName names[2];      //!< names[1] is used from `rename_hour` on, if rename_hour >= 0
  int rename_hour = -1;
  uint64_t owner_id = 0;  //!< user or org id of the owner
  int org = -1;           //!< index into World::orgs when owned by an organisation
  bool tracked = false;
  std::string description;
  std::string language;
  std::string default_branch;
  int64_t created_at = 0;
  uint32_t stars = 0, forks = 0, size_kb = 0, open_issues = 0;
  uint32_t first_number = 1;  //!< numbers of reports opened inside the corpus start here
  int label_set = 0;          //!< index into World::label_sets
  int activity_weight = 1;    //!< relative share of tracked issue/PR activity

  const RepoName& NameAt(int hour) const {
    return rename_hour >= 0 && hour >= rename_hour ? names[1] : names[0];
  }
  const RepoName& LatestName() const { return rename_hour >= 0 ? names[1] : names[0]; }
};

struct Label {
  std::string name;
  std::string color;
  std::string description;  //!< empty = null
  bool is_default = false;
};

struct World {
  std::vector<User> users;
  std::vector<Org> orgs;
  std::vector<Repo> repos;     //!< tracked repos first
  size_t tracked_count = 0;
  std::vector<Label> labels;
  std::vector<uint32_t> label_sets[2];  //!< 0: GitHub defaults, 1: framework-style triage labels
  uint32_t probe_label = 0;             //!< index of the `ghsiftprobelabel` label
  int64_t corpus_start = 0;
  int hours = 1;

  //! Builds the cast. `hours` decides when the tracked rename happens (hour hours/2, none if 1).
  static World Build(uint64_t seed, int64_t corpus_start, int hours);
};

// The vocabulary the cast is built from, for casts drawn elsewhere (gen/hour_cast.hpp).
std::string MakeRepoName(Rng& rng);      //!< "fast-parser", "ml_notes_bert42", ...
const char* PickLanguage(Rng& rng);
const char* PickDescription(Rng& rng);  //!< never empty
const char* PickSyllable(Rng& rng);
const char* PickFirstName(Rng& rng);

}  // namespace ghsift::gen
