#include "gen/world.hpp"

#include <iterator>
#include <unordered_set>

#include "gen/rng.hpp"

namespace ghsift::gen {

namespace {

struct TrackedRepo {
  const char* owner;
  const char* name;
  uint64_t repo_id;
  uint64_t org_id;
  uint32_t first_number;
  int weight;
  const char* language;
  const char* description;
};

// Stable ids so runs with different seeds still agree on the tracked repos.
const TrackedRepo kTracked[] = {
    {"tensorflow", "tensorflow", 45717250, 15658638, 62000, 20, "C++", "An Open Source Machine Learning Framework for Everyone"},
    {"pytorch", "pytorch", 65600975, 21003710, 115000, 22, "Python", "Tensors and Dynamic neural networks in Python with strong GPU acceleration"},
    {"keras-team", "keras", 33015583, 34455048, 18800, 6, "Python", "Deep Learning for humans"},
    {"apache", "incubator-mxnet", 34864402, 47359, 21000, 4, "C++", "Lightweight, Portable, Flexible Distributed/Mobile Deep Learning"},
    {"BVLC", "caffe", 18045573, 7894311, 7000, 2, "C++", "Caffe: a fast open framework for deep learning."},
    {"huggingface", "transformers", 155220641, 25720743, 28000, 14, "Python", "State-of-the-art Machine Learning for PyTorch, TensorFlow, and JAX."},
    {"google", "jax", 154739597, 1342004, 19000, 7, "Python", "Composable transformations of Python+NumPy programs"},
    {"onnx", "onnx", 102692863, 31675368, 5800, 4, "Python", "Open standard for machine learning interoperability"},
    {"microsoft", "onnxruntime", 156939672, 6154722, 18500, 6, "C++", "ONNX Runtime: cross-platform, high performance ML inferencing and training accelerator"},
    {"PaddlePaddle", "Paddle", 65711522, 23534030, 58000, 5, "C++", "PArallel Distributed Deep LEarning"},
};

const char* const kSyllables[] = {"ka", "ri", "to", "mi", "za", "lo", "ne", "su", "vi", "an", "el", "or",
                                  "ba", "de", "ju", "ko", "li", "ma", "no", "pa", "qu", "ra", "se", "ti",
                                  "ul", "ve", "wa", "xi", "yo", "ze", "chen", "wang", "li", "zhang", "kim",
                                  "lee", "park", "sato", "gupta", "singh", "silva", "muller", "rossi"};
const char* const kFirstNames[] = {"alex", "maria", "wei", "yuki", "omar", "lena", "ravi", "sofia", "jonas",
                                   "ana", "tom", "nina", "hugo", "mei", "ivan", "zoe", "ahmed", "julia",
                                   "kai", "noah", "emma", "luca", "sara", "felix", "priya", "diego"};
const char* const kRepoWords[] = {"awesome", "ml", "toolkit", "notes", "dotfiles", "api", "server", "web",
                                  "app", "bot", "lab", "tiny", "fast", "simple", "vision", "nlp", "data",
                                  "pipeline", "infra", "cli", "parser", "sdk", "engine", "graph", "cache",
                                  "dashboard", "blog", "site", "homework", "course", "demo", "template",
                                  "starter", "gan", "yolo", "bert", "diffusion", "rl", "agent", "chat",
                                  "scraper", "tracker", "utils", "config", "kernels", "bench", "playground"};
const char* const kOrgWords[] = {"labs", "ai", "research", "dev", "hq", "io", "team", "group", "systems", "works"};
const char* const kLanguages[] = {"Python", "JavaScript", "TypeScript", "Go", "Rust", "C++", "Java", "Jupyter Notebook",
                                  "Shell", "C", "HTML", "Kotlin", "Swift", "Ruby", "PHP", "C#"};
const char* const kDescriptions[] = {
    "My personal dotfiles", "A small web app for tracking things", "Experiments with neural networks",
    "Course assignments", "Yet another CLI tool", "Config and scripts", "A fast, simple parser",
    "Notes on machine learning papers", "Demo project", "Homepage source", "Bot for our Discord server",
    "Data pipeline for the team", "Benchmarks of various models", "Playground — café & code ☕",
    "Résumé site built with Hugo", "Tools für die Datenanalyse", "Utilities 🚀"};
const char* const kBots[] = {"dependabot[bot]", "github-actions[bot]", "pytorchbot", "google-ml-butler[bot]",
                             "copybara-service[bot]", "stale[bot]", "tensorflow-jenkins", "facebook-github-bot"};

struct LabelSeed {
  const char* name;
  const char* color;
  const char* description;
  bool is_default;
};

// GitHub's default label set.
const LabelSeed kDefaultLabels[] = {
    {"bug", "d73a4a", "Something isn't working", true},
    {"documentation", "0075ca", "Improvements or additions to documentation", true},
    {"duplicate", "cfd3d7", "This issue or pull request already exists", true},
    {"enhancement", "a2eeef", "New feature or request", true},
    {"good first issue", "7057ff", "Good for newcomers", true},
    {"help wanted", "008672", "Extra attention is needed", true},
    {"invalid", "e4e669", "This doesn't seem right", true},
    {"question", "d876e3", "Further information is requested", true},
    {"wontfix", "ffffff", "This will not be worked on", true},
};
// Triage labels in the style of the big frameworks.
const LabelSeed kFrameworkLabels[] = {
    {"type:bug", "d93f0b", "Bug", false},
    {"type:feature", "0e8a16", "Feature requests", false},
    {"type:performance", "fbca04", "Performance Issue", false},
    {"type:docs-bug", "c5def5", "Document issues", false},
    {"type:build/install", "bfdadc", "Build and install issues", false},
    {"stat:awaiting response", "ededed", "Status - Awaiting response from author", false},
    {"stat:awaiting tensorflower", "ededed", "Status - Awaiting response from tensorflower", false},
    {"comp:gpu", "1d76db", "GPU related issues", false},
    {"comp:ops", "1d76db", "OPs related issues", false},
    {"comp:keras", "1d76db", "", false},
    {"module: cuda", "f7e101", "Related to torch.cuda, and CUDA support in general", false},
    {"module: performance", "f7e101", "Issues related to performance, either of kernel code or framework glue", false},
    {"module: nn", "f7e101", "Related to torch.nn", false},
    {"module: autograd", "f7e101", "", false},
    {"triaged", "0e8a16", "This issue has been looked at a team member, and triaged", false},
    {"high priority", "b60205", "", false},
    {"oncall: distributed", "fef2c0", "Add this issue/PR to distributed oncall triage queue", false},
    {"🐛 bug", "ee0701", "", false},
    {"Core: Modeling", "FF8446", "Internals of the library; Models.", false},
    {"WIP", "ededed", "Work in progress", false},
    {"needs repro", "e99695", "", false},
    {"stale", "ededed", "", false},
};

std::string MakeLogin(Rng& rng) {
  std::string login;
  switch (rng.Below(4)) {
    case 0:
      login = rng.Pick(kFirstNames);
      login += rng.Pick(kSyllables);
      break;
    case 1:
      login = rng.Pick(kFirstNames);
      login += '-';
      login += rng.Pick(kSyllables);
      login += rng.Pick(kSyllables);
      break;
    case 2:
      login = rng.Pick(kSyllables);
      login += rng.Pick(kSyllables);
      login += rng.Pick(kSyllables);
      break;
    default:
      login = rng.Pick(kFirstNames);
      login += std::to_string(rng.Below(2000));
      break;
  }
  if (rng.Chance(0.2)) login[0] = static_cast<char>(login[0] - 'a' + 'A');
  return login;
}

}  // namespace

std::string MakeRepoName(Rng& rng) {
  std::string name = rng.Pick(kRepoWords);
  const int extra = static_cast<int>(rng.Below(3));
  const char sep = rng.Chance(0.7) ? '-' : '_';
  for (int i = 0; i < extra; ++i) {
    name += sep;
    name += rng.Pick(kRepoWords);
  }
  if (rng.Chance(0.1)) name += std::to_string(rng.Below(100));
  return name;
}

const char* PickLanguage(Rng& rng) { return rng.Pick(kLanguages); }

const char* PickDescription(Rng& rng) { return rng.Pick(kDescriptions); }

const char* PickSyllable(Rng& rng) { return rng.Pick(kSyllables); }

const char* PickFirstName(Rng& rng) { return rng.Pick(kFirstNames); }

World World::Build(uint64_t seed, int64_t corpus_start, int hours) {
  World world;
  world.corpus_start = corpus_start;
  world.hours = hours;
  Rng rng(MixSeed(seed, 0x776f726c64));  // "world"

  // Labels: defaults, framework style, then the probe label that tests look for.
  for (const auto* table : {kDefaultLabels, kFrameworkLabels}) {
    const bool defaults = table == kDefaultLabels;
    const size_t n = defaults ? std::size(kDefaultLabels) : std::size(kFrameworkLabels);
    for (size_t i = 0; i < n; ++i) {
      world.label_sets[defaults ? 0 : 1].push_back(static_cast<uint32_t>(world.labels.size()));
      world.labels.push_back({table[i].name, table[i].color, table[i].description, table[i].is_default});
    }
  }
  world.probe_label = static_cast<uint32_t>(world.labels.size());
  world.labels.push_back({"ghsiftprobelabel", "ededed", "", false});

  std::unordered_set<uint64_t> used_ids;
  std::unordered_set<std::string> used_logins;
  auto fresh_id = [&](uint64_t lo, uint64_t span) {
    for (;;) {
      const uint64_t id = lo + rng.Below(span);
      if (used_ids.insert(id).second) return id;
    }
  };

  // Users: a few bots first (they are the busiest accounts), then people.
  for (const char* bot : kBots) {
    used_logins.insert(bot);
    world.users.push_back({fresh_id(20000000, 130000000), bot, std::string(bot).find("[bot]") != std::string::npos});
  }
  while (world.users.size() < 5000) {
    std::string login = MakeLogin(rng);
    if (!used_logins.insert(login).second) continue;
    world.users.push_back({fresh_id(1000, 160000000), std::move(login), false});
  }

  std::unordered_set<std::string> used_names;
  for (const auto& t : kTracked) {
    world.orgs.push_back({t.org_id, t.owner});
    used_ids.insert(t.repo_id);
    used_ids.insert(t.org_id);
    Repo repo;
    repo.id = t.repo_id;
    repo.names[0] = {t.owner, t.name, std::string(t.owner) + "/" + t.name};
    repo.owner_id = t.org_id;
    repo.org = static_cast<int>(world.orgs.size() - 1);
    repo.tracked = true;
    repo.description = t.description;
    repo.language = t.language;
    repo.default_branch = repo.names[0].full == "tensorflow/tensorflow" ? "master" : "main";
    repo.created_at = 1420070400 + static_cast<int64_t>(rng.Below(4 * 365 * 86400));
    repo.stars = 20000 + static_cast<uint32_t>(rng.Below(160000));
    repo.forks = repo.stars / 4;
    repo.size_kb = 100000 + static_cast<uint32_t>(rng.Below(900000));
    repo.open_issues = 500 + static_cast<uint32_t>(rng.Below(5000));
    repo.first_number = t.first_number;
    repo.label_set = 1;
    repo.activity_weight = t.weight;
    if (repo.names[0].full == "apache/incubator-mxnet" && hours > 1) {
      repo.names[1] = {"apache", "mxnet", "apache/mxnet"};
      repo.rename_hour = hours / 2;
    }
    used_names.insert(repo.names[0].full);
    if (repo.rename_hour >= 0) used_names.insert(repo.names[1].full);
    world.repos.push_back(std::move(repo));
  }
  world.tracked_count = world.repos.size();

  for (int i = 0; i < 40; ++i) {
    std::string login = std::string(rng.Pick(kRepoWords)) + "-" + rng.Pick(kOrgWords);
    if (!used_logins.insert(login).second) continue;
    world.orgs.push_back({fresh_id(1000000, 150000000), std::move(login)});
  }

  while (world.repos.size() < world.tracked_count + 3000) {
    Repo repo;
    std::string owner;
    if (rng.Chance(0.3)) {
      repo.org = static_cast<int>(world.tracked_count + rng.Below(world.orgs.size() - world.tracked_count));
      owner = world.orgs[repo.org].login;
      repo.owner_id = world.orgs[repo.org].id;
    } else {
      const User& user = world.users[8 + rng.Below(world.users.size() - 8)];
      owner = user.login;
      repo.owner_id = user.id;
    }
    std::string name = rng.Chance(0.03) ? owner + ".github.io" : MakeRepoName(rng);
    std::string full = owner + "/" + name;
    if (!used_names.insert(full).second) continue;
    repo.id = fresh_id(10000000, 740000000);
    repo.names[0] = {std::move(owner), std::move(name), std::move(full)};
    repo.description = rng.Chance(0.3) ? std::string() : std::string(rng.Pick(kDescriptions));
    repo.language = rng.Pick(kLanguages);
    repo.default_branch = rng.Chance(0.75) ? "main" : "master";
    repo.created_at = 1262304000 + static_cast<int64_t>(rng.Below(14 * 365 * 86400ULL));
    if (repo.created_at > corpus_start - 86400) repo.created_at = corpus_start - 86400 * (1 + static_cast<int64_t>(rng.Below(300)));
    repo.stars = static_cast<uint32_t>(rng.Skewed(3000));
    repo.forks = static_cast<uint32_t>(rng.Below(repo.stars / 3 + 1));
    repo.size_kb = static_cast<uint32_t>(rng.Below(200000));
    repo.open_issues = static_cast<uint32_t>(rng.Below(60));
    repo.first_number = 40 + static_cast<uint32_t>(rng.Skewed(3000));  // room below for older reports
    repo.label_set = rng.Chance(0.8) ? 0 : 1;
    world.repos.push_back(std::move(repo));
  }
  return world;
}

}  // namespace ghsift::gen
