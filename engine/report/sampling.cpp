#include "report/sampling.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <numeric>
#include <tuple>
#include <unordered_map>

#include "common/hash.hpp"

namespace ghsift {

double InverseNormal(double p) {
  if (!(p > 0 && p < 1)) return std::nan("");
  // Acklam's rational approximation (relative error about 1e-9), then Halley steps against
  // erfc to reach double precision.
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01,  -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  const double low = 0.02425;
  double x;
  if (p < low) {
    const double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - low) {
    const double q = p - 0.5;
    const double r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const double q = std::sqrt(-2 * std::log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const double sqrt2pi = std::sqrt(2 * M_PI);
  for (int step = 0; step < 2; ++step) {
    const double e = 0.5 * std::erfc(-x / std::sqrt(2.0)) - p;
    const double u = e * sqrt2pi * std::exp(x * x / 2);
    x = x - u / (1 + x * u / 2);
  }
  return x;
}

double ZForConfidence(double confidence) {
  // The rounded values every sample-size table uses, so that our sizes match published ones.
  if (std::fabs(confidence - 0.90) < 1e-12) return 1.645;
  if (std::fabs(confidence - 0.95) < 1e-12) return 1.96;
  if (std::fabs(confidence - 0.99) < 1e-12) return 2.576;
  return InverseNormal(1 - (1 - confidence) / 2);
}

SampleSize CochranSampleSize(int64_t population, double confidence, double margin, double p) {
  SampleSize s;
  s.z = ZForConfidence(confidence);
  s.n0 = s.z * s.z * p * (1 - p) / (margin * margin);
  if (population <= 0) return s;
  const double n_pop = static_cast<double>(population);
  s.exact = s.n0 / (1 + (s.n0 - 1) / n_pop);
  // Guard against 377.0000000001 from floating error before rounding up.
  const double rounded = std::ceil(s.exact - 1e-9);
  s.n = std::min<int64_t>(static_cast<int64_t>(rounded), population);
  s.corrected = s.n < static_cast<int64_t>(std::ceil(s.n0 - 1e-9));
  return s;
}

std::vector<int64_t> AllocateProportional(const std::vector<int64_t>& sizes, int64_t n,
                                          const std::vector<uint64_t>& tie_keys) {
  std::vector<int64_t> out(sizes.size(), 0);
  std::vector<bool> full(sizes.size(), false);
  int64_t total = 0;
  for (int64_t s : sizes) total += std::max<int64_t>(s, 0);
  int64_t left = std::min(std::max<int64_t>(n, 0), total);
  // Strata whose proportional share exceeds their size take everything; the rest is shared
  // again among the others. Each round fixes at least one stratum, so this ends.
  while (left > 0) {
    int64_t open_total = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
      if (!full[i]) open_total += std::max<int64_t>(sizes[i], 0);
    }
    std::vector<int64_t> share(sizes.size(), 0);
    std::vector<std::pair<int64_t, size_t>> remainders;  // (remainder numerator, index)
    int64_t given = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
      if (full[i] || sizes[i] <= 0) continue;
      // Exact integer arithmetic: quota = left * size / open_total.
      const __int128 num = static_cast<__int128>(left) * sizes[i];
      share[i] = static_cast<int64_t>(num / open_total);
      remainders.emplace_back(static_cast<int64_t>(num % open_total), i);
      given += share[i];
    }
    const auto tie_key = [&](size_t i) { return i < tie_keys.size() ? tie_keys[i] : 0; };
    std::stable_sort(remainders.begin(), remainders.end(), [&](const auto& x, const auto& y) {
      if (x.first != y.first) return x.first > y.first;
      return tie_key(x.second) < tie_key(y.second);
    });
    for (size_t r = 0; given < left && r < remainders.size(); ++r, ++given) ++share[remainders[r].second];
    bool capped = false;
    for (size_t i = 0; i < sizes.size(); ++i) {
      if (!full[i] && share[i] > sizes[i]) {
        out[i] = sizes[i];
        full[i] = true;
        left -= sizes[i];
        capped = true;
      }
    }
    if (capped) continue;
    for (size_t i = 0; i < sizes.size(); ++i) {
      if (!full[i]) out[i] += share[i];
    }
    left = 0;
  }
  return out;
}

std::vector<size_t> DrawIndices(size_t size, size_t k, SplitMix64& rng) {
  k = std::min(k, size);
  if (k * 4 >= size) {
    std::vector<size_t> pool(size);
    std::iota(pool.begin(), pool.end(), size_t{0});
    for (size_t i = 0; i < k; ++i) {
      const size_t j = i + static_cast<size_t>(rng.Below(size - i));
      std::swap(pool[i], pool[j]);
    }
    pool.resize(k);
    return pool;
  }
  // The same shuffle over a pool that is not written out: only the positions a swap moved are
  // kept (k of millions), so the draw is identical and its memory is O(k).
  std::unordered_map<size_t, size_t> moved;
  const auto at = [&](size_t i) {
    const auto it = moved.find(i);
    return it == moved.end() ? i : it->second;
  };
  std::vector<size_t> out;
  out.reserve(k);
  for (size_t i = 0; i < k; ++i) {
    const size_t j = i + static_cast<size_t>(rng.Below(size - i));
    const size_t at_i = at(i), at_j = at(j);
    moved[j] = at_i;
    out.push_back(at_j);
  }
  return out;
}

uint32_t FrameBuilder::Intern(std::string_view name,
                              std::unordered_map<std::string, uint32_t, NameHash, std::equal_to<>>& index,
                              std::vector<std::string>& names) {
  if (const auto it = index.find(name); it != index.end()) return it->second;
  const auto id = static_cast<uint32_t>(names.size());
  names.emplace_back(name);
  index.emplace(names.back(), id);
  return id;
}

uint32_t FrameBuilder::RepoOfId(int64_t repo_id, std::string_view repo) {
  if (const uint32_t* known = repo_of_id_.Find(repo_id)) return *known;
  // A name is kept under the first id seen with it; a later id of that name shares its index.
  const uint32_t index = Intern(repo, repo_index_, repos_);
  repo_of_id_[repo_id] = index;
  members_of_repo_.resize(repos_.size());
  return index;
}

void FrameBuilder::Add(int64_t repo_id, std::string_view repo, int64_t number, std::string_view stratum,
                       uint64_t preference) {
  const uint32_t repo_index = RepoOfId(repo_id, repo);
  if (last_stratum_ >= strata_.size() || strata_[last_stratum_] != stratum) {
    last_stratum_ = Intern(stratum, stratum_index_, strata_);
  }
  std::vector<Member>& of_repo = members_of_repo_[repo_index];
  of_repo.push_back({last_stratum_, static_cast<uint32_t>(of_repo.size()), number, preference, repo_id});
  ++member_count_;
}

std::vector<uint32_t> FrameBuilder::ReposInNameOrder() const {
  std::vector<uint32_t> by_name(repos_.size());
  std::iota(by_name.begin(), by_name.end(), 0u);
  std::sort(by_name.begin(), by_name.end(), [&](uint32_t a, uint32_t b) { return repos_[a] < repos_[b]; });
  return by_name;
}

bool FrameBuilder::Before(const Member& a, const Member& b) {
  // With `order` last this is a total order, so any sort of a repository's members gives what a
  // stable sort by (number, preference) gives.
  return std::tie(a.number, a.preference, a.order) < std::tie(b.number, b.preference, b.order);
}

void FrameBuilder::SortMembers(Member* first, Member* last) {
  if (std::is_sorted(first, last, Before)) return;
  // The listing index gives reports newest first, so a repository's members mostly come in
  // falling numbers, a few out of place (and one such sequence per category listed): reversed,
  // they are a few rising runs, each member a few places from where it belongs.
  size_t falls = 0;
  for (const Member* m = first + 1; m < last; ++m) falls += Before(*m, m[-1]);
  if (falls * 2 > static_cast<size_t>(last - first)) std::reverse(first, last);
  std::vector<Member*> run_ends;
  for (Member* run = first; run < last;) {
    run = SortedRunFrom(run, last);
    run_ends.push_back(run);
  }
  // Neighbouring runs merged pairwise until one is left: log(runs) passes, so members in no
  // useful order cost n log n, not the n^2 of insertion sort.
  while (run_ends.size() > 1) {
    std::vector<Member*> merged;
    Member* begin = first;
    for (size_t i = 0; i < run_ends.size(); i += 2) {
      if (i + 1 < run_ends.size()) std::inplace_merge(begin, run_ends[i], run_ends[i + 1], Before);
      begin = run_ends[std::min(i + 1, run_ends.size() - 1)];
      merged.push_back(begin);
    }
    run_ends = std::move(merged);
  }
}

FrameBuilder::Member* FrameBuilder::SortedRunFrom(Member* first, Member* last) {
  // A member that would move further back than this ends the run (it starts the next one).
  constexpr std::ptrdiff_t kMaxInsertionSteps = 16;
  for (Member* next = first + 1; next < last; ++next) {
    Member* at = next;
    while (at > first && next - at < kMaxInsertionSteps && Before(*next, at[-1])) --at;
    if (at > first && Before(*next, at[-1])) return next;
    std::rotate(at, next, next + 1);
  }
  return last;
}

SamplingFrame FrameBuilder::Build() && {
  // The order is that of a stable sort of all members by (name, number, preference): members
  // are kept apart by repository as they are added, so only each repository's few thousand
  // are sorted, not millions, and the repositories are put in name order.
  SamplingFrame frame;
  frame.items.reserve(member_count_);
  for (const uint32_t repo : ReposInNameOrder()) {
    const auto rank = static_cast<uint32_t>(frame.repos.size());
    frame.repos.push_back(std::move(repos_[repo]));
    std::vector<Member>& members = members_of_repo_[repo];
    SortMembers(members.data(), members.data() + members.size());
    const size_t repo_begins = frame.items.size();
    for (const Member& m : members) {
      // A number listed again: the first in this order (the smallest preference) is kept.
      if (frame.items.size() > repo_begins && frame.items.back().number == m.number) continue;
      frame.items.push_back({rank, m.stratum, m.number, m.repo_id});
    }
    members = {};  // in the frame now
  }
  members_of_repo_ = {};
  repo_of_id_ = {};
  frame.strata = std::move(strata_);
  return frame;
}

//! Mixed into a stratum's seed for its tie-breaking number, so that it is not the first number
//! of the stream its rows are drawn with.
constexpr uint64_t kTieStream = 0x7469652d62726561ull;  // "tie-brea"

StratifiedSample DrawStratified(const SamplingFrame& frame, int64_t n, uint64_t seed) {
  const std::vector<FrameItem>& items = frame.items;
  // Counted first so that each stratum's list is allocated once, not grown by doubling.
  std::vector<size_t> stratum_sizes(frame.strata.size(), 0);
  for (const FrameItem& item : items) ++stratum_sizes[item.stratum];
  std::vector<std::vector<size_t>> members(frame.strata.size());
  for (size_t s = 0; s < members.size(); ++s) members[s].reserve(stratum_sizes[s]);
  for (size_t i = 0; i < items.size(); ++i) members[items[i].stratum].push_back(i);
  // Strata in name order, those with members only.
  std::vector<size_t> strata;
  for (size_t s = 0; s < members.size(); ++s) {
    if (!members[s].empty()) strata.push_back(s);
  }
  std::sort(strata.begin(), strata.end(), [&](size_t a, size_t b) { return frame.strata[a] < frame.strata[b]; });
  auto by_key = [&](size_t x, size_t y) {
    return std::tie(items[x].repo, items[x].number) < std::tie(items[y].repo, items[y].number);
  };
  std::vector<int64_t> sizes;
  for (size_t s : strata) {
    std::vector<size_t>& list = members[s];
    // A frame given in (repo, number) order (FrameBuilder's) is checked in one pass, not sorted again.
    if (!std::is_sorted(list.begin(), list.end(), by_key)) std::sort(list.begin(), list.end(), by_key);
    sizes.push_back(static_cast<int64_t>(list.size()));
  }
  // Ties of the allocation are drawn by lot too, from the same per-stratum streams' seeds.
  std::vector<uint64_t> tie_keys;
  for (size_t s : strata) tie_keys.push_back(SplitMix64(seed ^ Fnv1a64(frame.strata[s]) ^ kTieStream).Next());
  const std::vector<int64_t> allocation = AllocateProportional(sizes, n, tie_keys);
  StratifiedSample out;
  for (size_t k = 0; k < strata.size(); ++k) {
    const std::vector<size_t>& list = members[strata[k]];
    StratumDraw draw;
    draw.name = frame.strata[strata[k]];
    draw.population = static_cast<int64_t>(list.size());
    draw.allocated = allocation[k];
    // One stream per stratum, seeded from its name's hash: a stratum's rows do not change when
    // another stratum changes.
    SplitMix64 rng(seed ^ Fnv1a64(draw.name));
    std::vector<size_t> picked = DrawIndices(list.size(), static_cast<size_t>(draw.allocated), rng);
    draw.drawn = static_cast<int64_t>(picked.size());
    std::sort(picked.begin(), picked.end());  // positions in the sorted list: (repo, number) order
    for (size_t p : picked) out.chosen.push_back(list[p]);
    out.strata.push_back(std::move(draw));
  }
  return out;
}

}  // namespace ghsift
