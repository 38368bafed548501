#pragma once
#include <cassert>
#include <optional>
#include <utility>

#include "common/status.hpp"

namespace ghsift {

//! A value or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) { assert(!status_.ok()); }  // NOLINT

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace ghsift

//! Assigns the value of a Result expression to `lhs`, or returns its Status.
#define GHSIFT_ASSIGN_OR_RETURN(lhs, expr)            \
  auto GHSIFT_CONCAT_(result_, __LINE__) = (expr);     \
  if (!GHSIFT_CONCAT_(result_, __LINE__).ok())         \
    return GHSIFT_CONCAT_(result_, __LINE__).status(); \
  lhs = std::move(GHSIFT_CONCAT_(result_, __LINE__)).value()
#define GHSIFT_CONCAT_INNER_(a, b) a##b
#define GHSIFT_CONCAT_(a, b) GHSIFT_CONCAT_INNER_(a, b)
