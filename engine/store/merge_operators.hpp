#pragma once
// RocksDB merge operators: writers only add operands, so committing a file never needs to
// read the store, and the merged value does not depend on the order of the operands.
#include <rocksdb/merge_operator.h>

#include <memory>

namespace ghsift {

//! counters CF: signed 64-bit addition.
std::shared_ptr<rocksdb::MergeOperator> MakeCounterMergeOperator();
//! issues CF: IssueRecord::Merge.
std::shared_ptr<rocksdb::MergeOperator> MakeIssueMergeOperator();
//! latest_texts CF: LatestTextRecord::Merge (the newest snapshot, the comments united).
std::shared_ptr<rocksdb::MergeOperator> MakeLatestTextMergeOperator();
//! repos CF: latest name by event time for 'I' keys (the 'N' index is only ever Put).
std::shared_ptr<rocksdb::MergeOperator> MakeRepoMergeOperator();

//! The value format of 'I' keys.
std::string EncodeRepoName(int64_t time, std::string_view name);
bool DecodeRepoName(std::string_view value, int64_t* time, std::string* name);

}  // namespace ghsift
