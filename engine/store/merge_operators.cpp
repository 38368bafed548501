#include "store/merge_operators.hpp"

#include "aggregate/issue_record.hpp"
#include "aggregate/latest_text_record.hpp"
#include "common/byte_codec.hpp"
#include "store/key_codec.hpp"

namespace ghsift {
namespace {

class CounterMergeOperator final : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice&, const rocksdb::Slice* existing, const rocksdb::Slice& value,
             std::string* new_value, rocksdb::Logger*) const override {
    int64_t sum = keys::DecodeInt64(value.ToStringView());
    if (existing != nullptr) sum += keys::DecodeInt64(existing->ToStringView());
    *new_value = keys::EncodeInt64(sum);
    return true;
  }
  const char* Name() const override { return "ghsift.counter_add"; }
};

class IssueMergeOperator final : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice&, const rocksdb::Slice* existing, const rocksdb::Slice& value,
             std::string* new_value, rocksdb::Logger*) const override {
    auto incoming = IssueRecord::Decode(value.ToStringView());
    if (!incoming.ok()) return false;
    if (existing == nullptr) {
      *new_value = value.ToString();
      return true;
    }
    auto base = IssueRecord::Decode(existing->ToStringView());
    if (!base.ok()) return false;
    base->Merge(*incoming);
    *new_value = base->Encode();
    return true;
  }
  const char* Name() const override { return "ghsift.issue_merge"; }
};

class LatestTextMergeOperator final : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice&, const rocksdb::Slice* existing, const rocksdb::Slice& value,
             std::string* new_value, rocksdb::Logger*) const override {
    auto incoming = LatestTextRecord::Decode(value.ToStringView());
    if (!incoming.ok()) return false;
    if (existing == nullptr) {
      *new_value = value.ToString();
      return true;
    }
    auto base = LatestTextRecord::Decode(existing->ToStringView());
    if (!base.ok()) return false;
    base->Merge(*incoming);
    *new_value = base->Encode();
    return true;
  }
  const char* Name() const override { return "ghsift.latest_text_merge"; }
};

class RepoMergeOperator final : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice&, const rocksdb::Slice* existing, const rocksdb::Slice& value,
             std::string* new_value, rocksdb::Logger*) const override {
    if (existing == nullptr) {
      *new_value = value.ToString();
      return true;
    }
    int64_t t_old, t_new;
    std::string n_old, n_new;
    if (!DecodeRepoName(existing->ToStringView(), &t_old, &n_old) ||
        !DecodeRepoName(value.ToStringView(), &t_new, &n_new)) {
      return false;
    }
    const bool newer = t_new > t_old || (t_new == t_old && n_new > n_old);
    *new_value = newer ? value.ToString() : existing->ToString();
    return true;
  }
  const char* Name() const override { return "ghsift.repo_latest_name"; }
};

}  // namespace

std::string EncodeRepoName(int64_t time, std::string_view name) {
  std::string out;
  PutSignedVarint(out, time);
  PutLengthPrefixed(out, name);
  return out;
}

bool DecodeRepoName(std::string_view value, int64_t* time, std::string* name) {
  ByteReader in(value);
  *time = in.SignedVarint();
  *name = std::string(in.LengthPrefixed());
  return in.ok();
}

std::shared_ptr<rocksdb::MergeOperator> MakeCounterMergeOperator() { return std::make_shared<CounterMergeOperator>(); }
std::shared_ptr<rocksdb::MergeOperator> MakeIssueMergeOperator() { return std::make_shared<IssueMergeOperator>(); }
std::shared_ptr<rocksdb::MergeOperator> MakeLatestTextMergeOperator() {
  return std::make_shared<LatestTextMergeOperator>();
}
std::shared_ptr<rocksdb::MergeOperator> MakeRepoMergeOperator() { return std::make_shared<RepoMergeOperator>(); }

}  // namespace ghsift
