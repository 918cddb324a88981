// Handler: a move-only `void()` callable with inline storage, the payload of every engine event.
//
// Callables up to kInlineBytes (and alignof <= kInlineAlign = 8) that are nothrow
// move-constructible live inside the Handler, so scheduling them does not allocate; larger ones
// fall back to one heap allocation. An empty Handler must not be invoked (checked).
// Unlike std::function, Handler accepts move-only captures (e.g. std::unique_ptr).
#ifndef COMMSIM_SIM_HANDLER_H_
#define COMMSIM_SIM_HANDLER_H_

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

#include "base/check.h"

namespace commsim {

class Handler {
 public:
  static constexpr size_t kInlineBytes = 48;
  static constexpr size_t kInlineAlign = 8;

  Handler() = default;
  template <
      class F, class D = std::decay_t<F>,
      class = std::enable_if_t<!std::is_same_v<D, Handler> && std::is_invocable_r_v<void, D&>>>
  Handler(F&& f) {  // NOLINT: implicit by design, like std::function.
    Construct<D>(std::forward<F>(f));
  }
  Handler(Handler&& other) noexcept : ops_(other.ops_) {
    if (ops_ != nullptr) {
      ops_->relocate(buf_, other.buf_);
      other.ops_ = nullptr;
    }
  }
  Handler& operator=(Handler&& other) noexcept {
    if (this != &other) {
      Reset();
      ops_ = other.ops_;
      if (ops_ != nullptr) {
        ops_->relocate(buf_, other.buf_);
        other.ops_ = nullptr;
      }
    }
    return *this;
  }
  Handler(const Handler&) = delete;
  Handler& operator=(const Handler&) = delete;
  ~Handler() { Reset(); }

  explicit operator bool() const { return ops_ != nullptr; }
  // True when the callable lives in the inline buffer (no heap allocation was made).
  bool is_inline() const { return ops_ != nullptr && ops_->is_inline; }

  void operator()() {
    COMMSIM_CHECK(ops_ != nullptr, "invoking an empty Handler");
    ops_->invoke(buf_);
  }
  void Reset() {
    if (ops_ != nullptr) {
      if (ops_->destroy != nullptr) ops_->destroy(buf_);
      ops_ = nullptr;
    }
  }
  // Replaces the callable in place (no temporary Handler, no relocation).
  template <class F, class D = std::decay_t<F>>
  void Emplace(F&& f) {
    Reset();
    if constexpr (std::is_same_v<D, Handler>) {
      static_assert(!std::is_lvalue_reference_v<F>, "pass a Handler by std::move");
      *this = std::move(f);
    } else {
      Construct<D>(std::forward<F>(f));
    }
  }

 private:
  template <class D, class F>
  void Construct(F&& f) {
    static_assert(std::is_invocable_r_v<void, D&>, "a Handler wraps a void() callable");
    if constexpr (kFitsInline<D>) {
      ::new (static_cast<void*>(buf_)) D(std::forward<F>(f));
      ops_ = &kInlineOps<D>;
    } else {
      *reinterpret_cast<D**>(buf_) = new D(std::forward<F>(f));
      ops_ = &kHeapOps<D>;
    }
  }

  struct Ops {
    void (*invoke)(void* buf);
    void (*relocate)(void* dst, void* src);  // move-construct into dst, destroy src
    void (*destroy)(void* buf);              // nullptr when there is nothing to destroy
    bool is_inline;
  };

  template <class D>
  static constexpr bool kFitsInline =
      sizeof(D) <= kInlineBytes &&
      alignof(D) <= kInlineAlign&& std::is_nothrow_move_constructible_v<D>;

  template <class D>
  static constexpr Ops kInlineOps = {
      [](void* buf) { (*std::launder(static_cast<D*>(buf)))(); },
      [](void* dst, void* src) {
        D* s = std::launder(static_cast<D*>(src));
        ::new (dst) D(std::move(*s));
        s->~D();
      },
      std::is_trivially_destructible_v<D>
          ? nullptr
          : +[](void* buf) { std::launder(static_cast<D*>(buf))->~D(); },
      true,
  };
  template <class D>
  static constexpr Ops kHeapOps = {
      [](void* buf) { (**static_cast<D**>(buf))(); },
      [](void* dst, void* src) { *static_cast<D**>(dst) = *static_cast<D**>(src); },
      [](void* buf) { delete *static_cast<D**>(buf); },
      false,
  };

  // 8-byte alignment keeps sizeof(Handler) at 56, so an engine slot (handler + seq) is 64 bytes.
  alignas(kInlineAlign) unsigned char buf_[kInlineBytes];
  const Ops* ops_ = nullptr;
};

}  // namespace commsim

#endif  // COMMSIM_SIM_HANDLER_H_
