#pragma once
// An allocator whose resize() leaves the new elements uninitialized instead of zeroing them.
//
// Why: a chunk's buffer is resized to 4 MiB before the decoder writes into it. std::vector<char>
// zeroes what resize() adds, and on fresh memory that zeroing is what faults every page in: a
// one-event hour paid for 4 MiB it never used (about 1,000 page faults, a tenth of such a run on
// these virtual machines), and a long file had its bytes written twice.
#include <memory>
#include <utility>

namespace ghsift {

template <typename T>
class UninitializedAllocator : public std::allocator<T> {
 public:
  using std::allocator<T>::allocator;
  template <typename U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  //! Value-initialization, which resize() asks for, becomes default-initialization: none for bytes.
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

}  // namespace ghsift
