// GLSL's value types and built-in functions in C++, for code that porta's
// translator emits (target cpp; written so that CUDA C++ can reuse it).
//
// Vectors are vec<T, N> with members x, y, z, w, aligned like their scalar
// (the translator adds alignas() where a std430 layout needs more) and with
// swizzles as member functions: v.xy() reads; on a non-const vector it returns
// a proxy that is a vec and also writes back (v.xy() = w). Functions follow
// the GLSL 4.50 definitions; math uses the C library's functions, which are
// correctly rounded or close to it: never a fast-math approximation.
#ifndef PORTA_GLSL_HPP
#define PORTA_GLSL_HPP

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define PORTA_GLSL_FN __host__ __device__ inline
#define PORTA_GLSL_CUDA 1
#else
#define PORTA_GLSL_FN inline
#define PORTA_GLSL_CUDA 0
#endif

#ifndef __CUDACC_RTC__
#include <stddef.h>
#include <stdint.h>
#else
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
typedef unsigned long size_t;
#endif

#ifndef offsetof
#define offsetof(type, member) __builtin_offsetof(type, member)
#endif

// C math: the compiler's builtins on the host (no <cmath> in the global
// namespace, so GLSL's names never collide with the C library's), the CUDA
// math library on the device.
#if PORTA_GLSL_CUDA
#define PORTA_GLSL_MATH(name) ::name
#else
#define PORTA_GLSL_MATH(name) __builtin_##name
#endif

namespace porta_glsl {

typedef unsigned int uint;

// ---- small type traits (no <type_traits>: NVRTC has no standard headers) ----
namespace detail {
template <bool B, class T = void>
struct enable_if {};
template <class T>
struct enable_if<true, T> {
  typedef T type;
};
template <class...>
struct make_void {
  typedef void type;
};
template <class T>
struct is_signed_integer {
  static constexpr bool value = T(-1) < T(0);
};
}  // namespace detail

template <class T, int N>
struct vec;
template <class T, int N, int... I>
struct swizzle;

// Number of components an argument of a vector constructor contributes.
template <class A, class = void>
struct components {
  static constexpr int value = 1;
};
template <class A>
struct components<A, typename detail::make_void<typename A::porta_vec_type>::type> {
  static constexpr int value = A::porta_vec_type::size;
};

#define PORTA_GLSL_SWIZZLE_INDEX_x 0
#define PORTA_GLSL_SWIZZLE_INDEX_y 1
#define PORTA_GLSL_SWIZZLE_INDEX_z 2
#define PORTA_GLSL_SWIZZLE_INDEX_w 3
#define PORTA_GLSL_SWIZZLE_I(c) PORTA_GLSL_SWIZZLE_INDEX_##c

#define PORTA_GLSL_SWIZZLE2(a, b)                                                     \
  PORTA_GLSL_FN constexpr vec<T, 2> a##b() const { return vec<T, 2>(a, b); }          \
  PORTA_GLSL_FN swizzle<T, size, PORTA_GLSL_SWIZZLE_I(a), PORTA_GLSL_SWIZZLE_I(b)> a##b() { \
    return swizzle<T, size, PORTA_GLSL_SWIZZLE_I(a), PORTA_GLSL_SWIZZLE_I(b)>(*this);  \
  }
#define PORTA_GLSL_SWIZZLE3(a, b, c)                                                                          \
  PORTA_GLSL_FN constexpr vec<T, 3> a##b##c() const { return vec<T, 3>(a, b, c); }                            \
  PORTA_GLSL_FN swizzle<T, size, PORTA_GLSL_SWIZZLE_I(a), PORTA_GLSL_SWIZZLE_I(b), PORTA_GLSL_SWIZZLE_I(c)> \
      a##b##c() {                                                                                             \
    return swizzle<T, size, PORTA_GLSL_SWIZZLE_I(a), PORTA_GLSL_SWIZZLE_I(b), PORTA_GLSL_SWIZZLE_I(c)>(*this); \
  }
#define PORTA_GLSL_SWIZZLE4(a, b, c, d)                                                                        \
  PORTA_GLSL_FN constexpr vec<T, 4> a##b##c##d() const { return vec<T, 4>(a, b, c, d); }                       \
  PORTA_GLSL_FN swizzle<T, size, PORTA_GLSL_SWIZZLE_I(a), PORTA_GLSL_SWIZZLE_I(b), PORTA_GLSL_SWIZZLE_I(c),  \
                        PORTA_GLSL_SWIZZLE_I(d)>                                                               \
      a##b##c##d() {                                                                                           \
    return swizzle<T, size, PORTA_GLSL_SWIZZLE_I(a), PORTA_GLSL_SWIZZLE_I(b), PORTA_GLSL_SWIZZLE_I(c),         \
                   PORTA_GLSL_SWIZZLE_I(d)>(*this);                                                            \
  }

#define PORTA_GLSL_SWIZZLES_2 \
  PORTA_GLSL_SWIZZLE2(x, x) PORTA_GLSL_SWIZZLE2(x, y) PORTA_GLSL_SWIZZLE2(y, x) PORTA_GLSL_SWIZZLE2(y, y) \
  PORTA_GLSL_SWIZZLE3(x, x, x) PORTA_GLSL_SWIZZLE3(x, x, y) PORTA_GLSL_SWIZZLE3(x, y, x) \
  PORTA_GLSL_SWIZZLE3(x, y, y) PORTA_GLSL_SWIZZLE3(y, x, x) PORTA_GLSL_SWIZZLE3(y, x, y) \
  PORTA_GLSL_SWIZZLE3(y, y, x) PORTA_GLSL_SWIZZLE3(y, y, y) \
  PORTA_GLSL_SWIZZLE4(x, x, x, x) PORTA_GLSL_SWIZZLE4(x, x, x, y) PORTA_GLSL_SWIZZLE4(x, x, y, x) \
  PORTA_GLSL_SWIZZLE4(x, x, y, y) PORTA_GLSL_SWIZZLE4(x, y, x, x) PORTA_GLSL_SWIZZLE4(x, y, x, y) \
  PORTA_GLSL_SWIZZLE4(x, y, y, x) PORTA_GLSL_SWIZZLE4(x, y, y, y) PORTA_GLSL_SWIZZLE4(y, x, x, x) \
  PORTA_GLSL_SWIZZLE4(y, x, x, y) PORTA_GLSL_SWIZZLE4(y, x, y, x) PORTA_GLSL_SWIZZLE4(y, x, y, y) \
  PORTA_GLSL_SWIZZLE4(y, y, x, x) PORTA_GLSL_SWIZZLE4(y, y, x, y) PORTA_GLSL_SWIZZLE4(y, y, y, x) \
  PORTA_GLSL_SWIZZLE4(y, y, y, y)

#define PORTA_GLSL_SWIZZLES_3 \
  PORTA_GLSL_SWIZZLE2(x, x) PORTA_GLSL_SWIZZLE2(x, y) PORTA_GLSL_SWIZZLE2(x, z) PORTA_GLSL_SWIZZLE2(y, x) \
  PORTA_GLSL_SWIZZLE2(y, y) PORTA_GLSL_SWIZZLE2(y, z) PORTA_GLSL_SWIZZLE2(z, x) PORTA_GLSL_SWIZZLE2(z, y) \
  PORTA_GLSL_SWIZZLE2(z, z) \
  PORTA_GLSL_SWIZZLE3(x, x, x) PORTA_GLSL_SWIZZLE3(x, x, y) PORTA_GLSL_SWIZZLE3(x, x, z) \
  PORTA_GLSL_SWIZZLE3(x, y, x) PORTA_GLSL_SWIZZLE3(x, y, y) PORTA_GLSL_SWIZZLE3(x, y, z) \
  PORTA_GLSL_SWIZZLE3(x, z, x) PORTA_GLSL_SWIZZLE3(x, z, y) PORTA_GLSL_SWIZZLE3(x, z, z) \
  PORTA_GLSL_SWIZZLE3(y, x, x) PORTA_GLSL_SWIZZLE3(y, x, y) PORTA_GLSL_SWIZZLE3(y, x, z) \
  PORTA_GLSL_SWIZZLE3(y, y, x) PORTA_GLSL_SWIZZLE3(y, y, y) PORTA_GLSL_SWIZZLE3(y, y, z) \
  PORTA_GLSL_SWIZZLE3(y, z, x) PORTA_GLSL_SWIZZLE3(y, z, y) PORTA_GLSL_SWIZZLE3(y, z, z) \
  PORTA_GLSL_SWIZZLE3(z, x, x) PORTA_GLSL_SWIZZLE3(z, x, y) PORTA_GLSL_SWIZZLE3(z, x, z) \
  PORTA_GLSL_SWIZZLE3(z, y, x) PORTA_GLSL_SWIZZLE3(z, y, y) PORTA_GLSL_SWIZZLE3(z, y, z) \
  PORTA_GLSL_SWIZZLE3(z, z, x) PORTA_GLSL_SWIZZLE3(z, z, y) PORTA_GLSL_SWIZZLE3(z, z, z) \
  PORTA_GLSL_SWIZZLE4(x, x, x, x) PORTA_GLSL_SWIZZLE4(x, x, x, y) PORTA_GLSL_SWIZZLE4(x, x, x, z) \
  PORTA_GLSL_SWIZZLE4(x, x, y, x) PORTA_GLSL_SWIZZLE4(x, x, y, y) PORTA_GLSL_SWIZZLE4(x, x, y, z) \
  PORTA_GLSL_SWIZZLE4(x, x, z, x) PORTA_GLSL_SWIZZLE4(x, x, z, y) PORTA_GLSL_SWIZZLE4(x, x, z, z) \
  PORTA_GLSL_SWIZZLE4(x, y, x, x) PORTA_GLSL_SWIZZLE4(x, y, x, y) PORTA_GLSL_SWIZZLE4(x, y, x, z) \
  PORTA_GLSL_SWIZZLE4(x, y, y, x) PORTA_GLSL_SWIZZLE4(x, y, y, y) PORTA_GLSL_SWIZZLE4(x, y, y, z) \
  PORTA_GLSL_SWIZZLE4(x, y, z, x) PORTA_GLSL_SWIZZLE4(x, y, z, y) PORTA_GLSL_SWIZZLE4(x, y, z, z) \
  PORTA_GLSL_SWIZZLE4(x, z, x, x) PORTA_GLSL_SWIZZLE4(x, z, x, y) PORTA_GLSL_SWIZZLE4(x, z, x, z) \
  PORTA_GLSL_SWIZZLE4(x, z, y, x) PORTA_GLSL_SWIZZLE4(x, z, y, y) PORTA_GLSL_SWIZZLE4(x, z, y, z) \
  PORTA_GLSL_SWIZZLE4(x, z, z, x) PORTA_GLSL_SWIZZLE4(x, z, z, y) PORTA_GLSL_SWIZZLE4(x, z, z, z) \
  PORTA_GLSL_SWIZZLE4(y, x, x, x) PORTA_GLSL_SWIZZLE4(y, x, x, y) PORTA_GLSL_SWIZZLE4(y, x, x, z) \
  PORTA_GLSL_SWIZZLE4(y, x, y, x) PORTA_GLSL_SWIZZLE4(y, x, y, y) PORTA_GLSL_SWIZZLE4(y, x, y, z) \
  PORTA_GLSL_SWIZZLE4(y, x, z, x) PORTA_GLSL_SWIZZLE4(y, x, z, y) PORTA_GLSL_SWIZZLE4(y, x, z, z) \
  PORTA_GLSL_SWIZZLE4(y, y, x, x) PORTA_GLSL_SWIZZLE4(y, y, x, y) PORTA_GLSL_SWIZZLE4(y, y, x, z) \
  PORTA_GLSL_SWIZZLE4(y, y, y, x) PORTA_GLSL_SWIZZLE4(y, y, y, y) PORTA_GLSL_SWIZZLE4(y, y, y, z) \
  PORTA_GLSL_SWIZZLE4(y, y, z, x) PORTA_GLSL_SWIZZLE4(y, y, z, y) PORTA_GLSL_SWIZZLE4(y, y, z, z) \
  PORTA_GLSL_SWIZZLE4(y, z, x, x) PORTA_GLSL_SWIZZLE4(y, z, x, y) PORTA_GLSL_SWIZZLE4(y, z, x, z) \
  PORTA_GLSL_SWIZZLE4(y, z, y, x) PORTA_GLSL_SWIZZLE4(y, z, y, y) PORTA_GLSL_SWIZZLE4(y, z, y, z) \
  PORTA_GLSL_SWIZZLE4(y, z, z, x) PORTA_GLSL_SWIZZLE4(y, z, z, y) PORTA_GLSL_SWIZZLE4(y, z, z, z) \
  PORTA_GLSL_SWIZZLE4(z, x, x, x) PORTA_GLSL_SWIZZLE4(z, x, x, y) PORTA_GLSL_SWIZZLE4(z, x, x, z) \
  PORTA_GLSL_SWIZZLE4(z, x, y, x) PORTA_GLSL_SWIZZLE4(z, x, y, y) PORTA_GLSL_SWIZZLE4(z, x, y, z) \
  PORTA_GLSL_SWIZZLE4(z, x, z, x) PORTA_GLSL_SWIZZLE4(z, x, z, y) PORTA_GLSL_SWIZZLE4(z, x, z, z) \
  PORTA_GLSL_SWIZZLE4(z, y, x, x) PORTA_GLSL_SWIZZLE4(z, y, x, y) PORTA_GLSL_SWIZZLE4(z, y, x, z) \
  PORTA_GLSL_SWIZZLE4(z, y, y, x) PORTA_GLSL_SWIZZLE4(z, y, y, y) PORTA_GLSL_SWIZZLE4(z, y, y, z) \
  PORTA_GLSL_SWIZZLE4(z, y, z, x) PORTA_GLSL_SWIZZLE4(z, y, z, y) PORTA_GLSL_SWIZZLE4(z, y, z, z) \
  PORTA_GLSL_SWIZZLE4(z, z, x, x) PORTA_GLSL_SWIZZLE4(z, z, x, y) PORTA_GLSL_SWIZZLE4(z, z, x, z) \
  PORTA_GLSL_SWIZZLE4(z, z, y, x) PORTA_GLSL_SWIZZLE4(z, z, y, y) PORTA_GLSL_SWIZZLE4(z, z, y, z) \
  PORTA_GLSL_SWIZZLE4(z, z, z, x) PORTA_GLSL_SWIZZLE4(z, z, z, y) PORTA_GLSL_SWIZZLE4(z, z, z, z)

#define PORTA_GLSL_SWIZZLES_4 \
  PORTA_GLSL_SWIZZLE2(x, x) PORTA_GLSL_SWIZZLE2(x, y) PORTA_GLSL_SWIZZLE2(x, z) PORTA_GLSL_SWIZZLE2(x, w) \
  PORTA_GLSL_SWIZZLE2(y, x) PORTA_GLSL_SWIZZLE2(y, y) PORTA_GLSL_SWIZZLE2(y, z) PORTA_GLSL_SWIZZLE2(y, w) \
  PORTA_GLSL_SWIZZLE2(z, x) PORTA_GLSL_SWIZZLE2(z, y) PORTA_GLSL_SWIZZLE2(z, z) PORTA_GLSL_SWIZZLE2(z, w) \
  PORTA_GLSL_SWIZZLE2(w, x) PORTA_GLSL_SWIZZLE2(w, y) PORTA_GLSL_SWIZZLE2(w, z) PORTA_GLSL_SWIZZLE2(w, w) \
  PORTA_GLSL_SWIZZLE3(x, x, x) PORTA_GLSL_SWIZZLE3(x, x, y) PORTA_GLSL_SWIZZLE3(x, x, z) \
  PORTA_GLSL_SWIZZLE3(x, x, w) PORTA_GLSL_SWIZZLE3(x, y, x) PORTA_GLSL_SWIZZLE3(x, y, y) \
  PORTA_GLSL_SWIZZLE3(x, y, z) PORTA_GLSL_SWIZZLE3(x, y, w) PORTA_GLSL_SWIZZLE3(x, z, x) \
  PORTA_GLSL_SWIZZLE3(x, z, y) PORTA_GLSL_SWIZZLE3(x, z, z) PORTA_GLSL_SWIZZLE3(x, z, w) \
  PORTA_GLSL_SWIZZLE3(x, w, x) PORTA_GLSL_SWIZZLE3(x, w, y) PORTA_GLSL_SWIZZLE3(x, w, z) \
  PORTA_GLSL_SWIZZLE3(x, w, w) PORTA_GLSL_SWIZZLE3(y, x, x) PORTA_GLSL_SWIZZLE3(y, x, y) \
  PORTA_GLSL_SWIZZLE3(y, x, z) PORTA_GLSL_SWIZZLE3(y, x, w) PORTA_GLSL_SWIZZLE3(y, y, x) \
  PORTA_GLSL_SWIZZLE3(y, y, y) PORTA_GLSL_SWIZZLE3(y, y, z) PORTA_GLSL_SWIZZLE3(y, y, w) \
  PORTA_GLSL_SWIZZLE3(y, z, x) PORTA_GLSL_SWIZZLE3(y, z, y) PORTA_GLSL_SWIZZLE3(y, z, z) \
  PORTA_GLSL_SWIZZLE3(y, z, w) PORTA_GLSL_SWIZZLE3(y, w, x) PORTA_GLSL_SWIZZLE3(y, w, y) \
  PORTA_GLSL_SWIZZLE3(y, w, z) PORTA_GLSL_SWIZZLE3(y, w, w) PORTA_GLSL_SWIZZLE3(z, x, x) \
  PORTA_GLSL_SWIZZLE3(z, x, y) PORTA_GLSL_SWIZZLE3(z, x, z) PORTA_GLSL_SWIZZLE3(z, x, w) \
  PORTA_GLSL_SWIZZLE3(z, y, x) PORTA_GLSL_SWIZZLE3(z, y, y) PORTA_GLSL_SWIZZLE3(z, y, z) \
  PORTA_GLSL_SWIZZLE3(z, y, w) PORTA_GLSL_SWIZZLE3(z, z, x) PORTA_GLSL_SWIZZLE3(z, z, y) \
  PORTA_GLSL_SWIZZLE3(z, z, z) PORTA_GLSL_SWIZZLE3(z, z, w) PORTA_GLSL_SWIZZLE3(z, w, x) \
  PORTA_GLSL_SWIZZLE3(z, w, y) PORTA_GLSL_SWIZZLE3(z, w, z) PORTA_GLSL_SWIZZLE3(z, w, w) \
  PORTA_GLSL_SWIZZLE3(w, x, x) PORTA_GLSL_SWIZZLE3(w, x, y) PORTA_GLSL_SWIZZLE3(w, x, z) \
  PORTA_GLSL_SWIZZLE3(w, x, w) PORTA_GLSL_SWIZZLE3(w, y, x) PORTA_GLSL_SWIZZLE3(w, y, y) \
  PORTA_GLSL_SWIZZLE3(w, y, z) PORTA_GLSL_SWIZZLE3(w, y, w) PORTA_GLSL_SWIZZLE3(w, z, x) \
  PORTA_GLSL_SWIZZLE3(w, z, y) PORTA_GLSL_SWIZZLE3(w, z, z) PORTA_GLSL_SWIZZLE3(w, z, w) \
  PORTA_GLSL_SWIZZLE3(w, w, x) PORTA_GLSL_SWIZZLE3(w, w, y) PORTA_GLSL_SWIZZLE3(w, w, z) \
  PORTA_GLSL_SWIZZLE3(w, w, w) \
  PORTA_GLSL_SWIZZLE4(x, x, x, x) PORTA_GLSL_SWIZZLE4(x, x, x, y) PORTA_GLSL_SWIZZLE4(x, x, x, z) \
  PORTA_GLSL_SWIZZLE4(x, x, x, w) PORTA_GLSL_SWIZZLE4(x, x, y, x) PORTA_GLSL_SWIZZLE4(x, x, y, y) \
  PORTA_GLSL_SWIZZLE4(x, x, y, z) PORTA_GLSL_SWIZZLE4(x, x, y, w) PORTA_GLSL_SWIZZLE4(x, x, z, x) \
  PORTA_GLSL_SWIZZLE4(x, x, z, y) PORTA_GLSL_SWIZZLE4(x, x, z, z) PORTA_GLSL_SWIZZLE4(x, x, z, w) \
  PORTA_GLSL_SWIZZLE4(x, x, w, x) PORTA_GLSL_SWIZZLE4(x, x, w, y) PORTA_GLSL_SWIZZLE4(x, x, w, z) \
  PORTA_GLSL_SWIZZLE4(x, x, w, w) PORTA_GLSL_SWIZZLE4(x, y, x, x) PORTA_GLSL_SWIZZLE4(x, y, x, y) \
  PORTA_GLSL_SWIZZLE4(x, y, x, z) PORTA_GLSL_SWIZZLE4(x, y, x, w) PORTA_GLSL_SWIZZLE4(x, y, y, x) \
  PORTA_GLSL_SWIZZLE4(x, y, y, y) PORTA_GLSL_SWIZZLE4(x, y, y, z) PORTA_GLSL_SWIZZLE4(x, y, y, w) \
  PORTA_GLSL_SWIZZLE4(x, y, z, x) PORTA_GLSL_SWIZZLE4(x, y, z, y) PORTA_GLSL_SWIZZLE4(x, y, z, z) \
  PORTA_GLSL_SWIZZLE4(x, y, z, w) PORTA_GLSL_SWIZZLE4(x, y, w, x) PORTA_GLSL_SWIZZLE4(x, y, w, y) \
  PORTA_GLSL_SWIZZLE4(x, y, w, z) PORTA_GLSL_SWIZZLE4(x, y, w, w) PORTA_GLSL_SWIZZLE4(x, z, x, x) \
  PORTA_GLSL_SWIZZLE4(x, z, x, y) PORTA_GLSL_SWIZZLE4(x, z, x, z) PORTA_GLSL_SWIZZLE4(x, z, x, w) \
  PORTA_GLSL_SWIZZLE4(x, z, y, x) PORTA_GLSL_SWIZZLE4(x, z, y, y) PORTA_GLSL_SWIZZLE4(x, z, y, z) \
  PORTA_GLSL_SWIZZLE4(x, z, y, w) PORTA_GLSL_SWIZZLE4(x, z, z, x) PORTA_GLSL_SWIZZLE4(x, z, z, y) \
  PORTA_GLSL_SWIZZLE4(x, z, z, z) PORTA_GLSL_SWIZZLE4(x, z, z, w) PORTA_GLSL_SWIZZLE4(x, z, w, x) \
  PORTA_GLSL_SWIZZLE4(x, z, w, y) PORTA_GLSL_SWIZZLE4(x, z, w, z) PORTA_GLSL_SWIZZLE4(x, z, w, w) \
  PORTA_GLSL_SWIZZLE4(x, w, x, x) PORTA_GLSL_SWIZZLE4(x, w, x, y) PORTA_GLSL_SWIZZLE4(x, w, x, z) \
  PORTA_GLSL_SWIZZLE4(x, w, x, w) PORTA_GLSL_SWIZZLE4(x, w, y, x) PORTA_GLSL_SWIZZLE4(x, w, y, y) \
  PORTA_GLSL_SWIZZLE4(x, w, y, z) PORTA_GLSL_SWIZZLE4(x, w, y, w) PORTA_GLSL_SWIZZLE4(x, w, z, x) \
  PORTA_GLSL_SWIZZLE4(x, w, z, y) PORTA_GLSL_SWIZZLE4(x, w, z, z) PORTA_GLSL_SWIZZLE4(x, w, z, w) \
  PORTA_GLSL_SWIZZLE4(x, w, w, x) PORTA_GLSL_SWIZZLE4(x, w, w, y) PORTA_GLSL_SWIZZLE4(x, w, w, z) \
  PORTA_GLSL_SWIZZLE4(x, w, w, w) PORTA_GLSL_SWIZZLE4(y, x, x, x) PORTA_GLSL_SWIZZLE4(y, x, x, y) \
  PORTA_GLSL_SWIZZLE4(y, x, x, z) PORTA_GLSL_SWIZZLE4(y, x, x, w) PORTA_GLSL_SWIZZLE4(y, x, y, x) \
  PORTA_GLSL_SWIZZLE4(y, x, y, y) PORTA_GLSL_SWIZZLE4(y, x, y, z) PORTA_GLSL_SWIZZLE4(y, x, y, w) \
  PORTA_GLSL_SWIZZLE4(y, x, z, x) PORTA_GLSL_SWIZZLE4(y, x, z, y) PORTA_GLSL_SWIZZLE4(y, x, z, z) \
  PORTA_GLSL_SWIZZLE4(y, x, z, w) PORTA_GLSL_SWIZZLE4(y, x, w, x) PORTA_GLSL_SWIZZLE4(y, x, w, y) \
  PORTA_GLSL_SWIZZLE4(y, x, w, z) PORTA_GLSL_SWIZZLE4(y, x, w, w) PORTA_GLSL_SWIZZLE4(y, y, x, x) \
  PORTA_GLSL_SWIZZLE4(y, y, x, y) PORTA_GLSL_SWIZZLE4(y, y, x, z) PORTA_GLSL_SWIZZLE4(y, y, x, w) \
  PORTA_GLSL_SWIZZLE4(y, y, y, x) PORTA_GLSL_SWIZZLE4(y, y, y, y) PORTA_GLSL_SWIZZLE4(y, y, y, z) \
  PORTA_GLSL_SWIZZLE4(y, y, y, w) PORTA_GLSL_SWIZZLE4(y, y, z, x) PORTA_GLSL_SWIZZLE4(y, y, z, y) \
  PORTA_GLSL_SWIZZLE4(y, y, z, z) PORTA_GLSL_SWIZZLE4(y, y, z, w) PORTA_GLSL_SWIZZLE4(y, y, w, x) \
  PORTA_GLSL_SWIZZLE4(y, y, w, y) PORTA_GLSL_SWIZZLE4(y, y, w, z) PORTA_GLSL_SWIZZLE4(y, y, w, w) \
  PORTA_GLSL_SWIZZLE4(y, z, x, x) PORTA_GLSL_SWIZZLE4(y, z, x, y) PORTA_GLSL_SWIZZLE4(y, z, x, z) \
  PORTA_GLSL_SWIZZLE4(y, z, x, w) PORTA_GLSL_SWIZZLE4(y, z, y, x) PORTA_GLSL_SWIZZLE4(y, z, y, y) \
  PORTA_GLSL_SWIZZLE4(y, z, y, z) PORTA_GLSL_SWIZZLE4(y, z, y, w) PORTA_GLSL_SWIZZLE4(y, z, z, x) \
  PORTA_GLSL_SWIZZLE4(y, z, z, y) PORTA_GLSL_SWIZZLE4(y, z, z, z) PORTA_GLSL_SWIZZLE4(y, z, z, w) \
  PORTA_GLSL_SWIZZLE4(y, z, w, x) PORTA_GLSL_SWIZZLE4(y, z, w, y) PORTA_GLSL_SWIZZLE4(y, z, w, z) \
  PORTA_GLSL_SWIZZLE4(y, z, w, w) PORTA_GLSL_SWIZZLE4(y, w, x, x) PORTA_GLSL_SWIZZLE4(y, w, x, y) \
  PORTA_GLSL_SWIZZLE4(y, w, x, z) PORTA_GLSL_SWIZZLE4(y, w, x, w) PORTA_GLSL_SWIZZLE4(y, w, y, x) \
  PORTA_GLSL_SWIZZLE4(y, w, y, y) PORTA_GLSL_SWIZZLE4(y, w, y, z) PORTA_GLSL_SWIZZLE4(y, w, y, w) \
  PORTA_GLSL_SWIZZLE4(y, w, z, x) PORTA_GLSL_SWIZZLE4(y, w, z, y) PORTA_GLSL_SWIZZLE4(y, w, z, z) \
  PORTA_GLSL_SWIZZLE4(y, w, z, w) PORTA_GLSL_SWIZZLE4(y, w, w, x) PORTA_GLSL_SWIZZLE4(y, w, w, y) \
  PORTA_GLSL_SWIZZLE4(y, w, w, z) PORTA_GLSL_SWIZZLE4(y, w, w, w) PORTA_GLSL_SWIZZLE4(z, x, x, x) \
  PORTA_GLSL_SWIZZLE4(z, x, x, y) PORTA_GLSL_SWIZZLE4(z, x, x, z) PORTA_GLSL_SWIZZLE4(z, x, x, w) \
  PORTA_GLSL_SWIZZLE4(z, x, y, x) PORTA_GLSL_SWIZZLE4(z, x, y, y) PORTA_GLSL_SWIZZLE4(z, x, y, z) \
  PORTA_GLSL_SWIZZLE4(z, x, y, w) PORTA_GLSL_SWIZZLE4(z, x, z, x) PORTA_GLSL_SWIZZLE4(z, x, z, y) \
  PORTA_GLSL_SWIZZLE4(z, x, z, z) PORTA_GLSL_SWIZZLE4(z, x, z, w) PORTA_GLSL_SWIZZLE4(z, x, w, x) \
  PORTA_GLSL_SWIZZLE4(z, x, w, y) PORTA_GLSL_SWIZZLE4(z, x, w, z) PORTA_GLSL_SWIZZLE4(z, x, w, w) \
  PORTA_GLSL_SWIZZLE4(z, y, x, x) PORTA_GLSL_SWIZZLE4(z, y, x, y) PORTA_GLSL_SWIZZLE4(z, y, x, z) \
  PORTA_GLSL_SWIZZLE4(z, y, x, w) PORTA_GLSL_SWIZZLE4(z, y, y, x) PORTA_GLSL_SWIZZLE4(z, y, y, y) \
  PORTA_GLSL_SWIZZLE4(z, y, y, z) PORTA_GLSL_SWIZZLE4(z, y, y, w) PORTA_GLSL_SWIZZLE4(z, y, z, x) \
  PORTA_GLSL_SWIZZLE4(z, y, z, y) PORTA_GLSL_SWIZZLE4(z, y, z, z) PORTA_GLSL_SWIZZLE4(z, y, z, w) \
  PORTA_GLSL_SWIZZLE4(z, y, w, x) PORTA_GLSL_SWIZZLE4(z, y, w, y) PORTA_GLSL_SWIZZLE4(z, y, w, z) \
  PORTA_GLSL_SWIZZLE4(z, y, w, w) PORTA_GLSL_SWIZZLE4(z, z, x, x) PORTA_GLSL_SWIZZLE4(z, z, x, y) \
  PORTA_GLSL_SWIZZLE4(z, z, x, z) PORTA_GLSL_SWIZZLE4(z, z, x, w) PORTA_GLSL_SWIZZLE4(z, z, y, x) \
  PORTA_GLSL_SWIZZLE4(z, z, y, y) PORTA_GLSL_SWIZZLE4(z, z, y, z) PORTA_GLSL_SWIZZLE4(z, z, y, w) \
  PORTA_GLSL_SWIZZLE4(z, z, z, x) PORTA_GLSL_SWIZZLE4(z, z, z, y) PORTA_GLSL_SWIZZLE4(z, z, z, z) \
  PORTA_GLSL_SWIZZLE4(z, z, z, w) PORTA_GLSL_SWIZZLE4(z, z, w, x) PORTA_GLSL_SWIZZLE4(z, z, w, y) \
  PORTA_GLSL_SWIZZLE4(z, z, w, z) PORTA_GLSL_SWIZZLE4(z, z, w, w) PORTA_GLSL_SWIZZLE4(z, w, x, x) \
  PORTA_GLSL_SWIZZLE4(z, w, x, y) PORTA_GLSL_SWIZZLE4(z, w, x, z) PORTA_GLSL_SWIZZLE4(z, w, x, w) \
  PORTA_GLSL_SWIZZLE4(z, w, y, x) PORTA_GLSL_SWIZZLE4(z, w, y, y) PORTA_GLSL_SWIZZLE4(z, w, y, z) \
  PORTA_GLSL_SWIZZLE4(z, w, y, w) PORTA_GLSL_SWIZZLE4(z, w, z, x) PORTA_GLSL_SWIZZLE4(z, w, z, y) \
  PORTA_GLSL_SWIZZLE4(z, w, z, z) PORTA_GLSL_SWIZZLE4(z, w, z, w) PORTA_GLSL_SWIZZLE4(z, w, w, x) \
  PORTA_GLSL_SWIZZLE4(z, w, w, y) PORTA_GLSL_SWIZZLE4(z, w, w, z) PORTA_GLSL_SWIZZLE4(z, w, w, w) \
  PORTA_GLSL_SWIZZLE4(w, x, x, x) PORTA_GLSL_SWIZZLE4(w, x, x, y) PORTA_GLSL_SWIZZLE4(w, x, x, z) \
  PORTA_GLSL_SWIZZLE4(w, x, x, w) PORTA_GLSL_SWIZZLE4(w, x, y, x) PORTA_GLSL_SWIZZLE4(w, x, y, y) \
  PORTA_GLSL_SWIZZLE4(w, x, y, z) PORTA_GLSL_SWIZZLE4(w, x, y, w) PORTA_GLSL_SWIZZLE4(w, x, z, x) \
  PORTA_GLSL_SWIZZLE4(w, x, z, y) PORTA_GLSL_SWIZZLE4(w, x, z, z) PORTA_GLSL_SWIZZLE4(w, x, z, w) \
  PORTA_GLSL_SWIZZLE4(w, x, w, x) PORTA_GLSL_SWIZZLE4(w, x, w, y) PORTA_GLSL_SWIZZLE4(w, x, w, z) \
  PORTA_GLSL_SWIZZLE4(w, x, w, w) PORTA_GLSL_SWIZZLE4(w, y, x, x) PORTA_GLSL_SWIZZLE4(w, y, x, y) \
  PORTA_GLSL_SWIZZLE4(w, y, x, z) PORTA_GLSL_SWIZZLE4(w, y, x, w) PORTA_GLSL_SWIZZLE4(w, y, y, x) \
  PORTA_GLSL_SWIZZLE4(w, y, y, y) PORTA_GLSL_SWIZZLE4(w, y, y, z) PORTA_GLSL_SWIZZLE4(w, y, y, w) \
  PORTA_GLSL_SWIZZLE4(w, y, z, x) PORTA_GLSL_SWIZZLE4(w, y, z, y) PORTA_GLSL_SWIZZLE4(w, y, z, z) \
  PORTA_GLSL_SWIZZLE4(w, y, z, w) PORTA_GLSL_SWIZZLE4(w, y, w, x) PORTA_GLSL_SWIZZLE4(w, y, w, y) \
  PORTA_GLSL_SWIZZLE4(w, y, w, z) PORTA_GLSL_SWIZZLE4(w, y, w, w) PORTA_GLSL_SWIZZLE4(w, z, x, x) \
  PORTA_GLSL_SWIZZLE4(w, z, x, y) PORTA_GLSL_SWIZZLE4(w, z, x, z) PORTA_GLSL_SWIZZLE4(w, z, x, w) \
  PORTA_GLSL_SWIZZLE4(w, z, y, x) PORTA_GLSL_SWIZZLE4(w, z, y, y) PORTA_GLSL_SWIZZLE4(w, z, y, z) \
  PORTA_GLSL_SWIZZLE4(w, z, y, w) PORTA_GLSL_SWIZZLE4(w, z, z, x) PORTA_GLSL_SWIZZLE4(w, z, z, y) \
  PORTA_GLSL_SWIZZLE4(w, z, z, z) PORTA_GLSL_SWIZZLE4(w, z, z, w) PORTA_GLSL_SWIZZLE4(w, z, w, x) \
  PORTA_GLSL_SWIZZLE4(w, z, w, y) PORTA_GLSL_SWIZZLE4(w, z, w, z) PORTA_GLSL_SWIZZLE4(w, z, w, w) \
  PORTA_GLSL_SWIZZLE4(w, w, x, x) PORTA_GLSL_SWIZZLE4(w, w, x, y) PORTA_GLSL_SWIZZLE4(w, w, x, z) \
  PORTA_GLSL_SWIZZLE4(w, w, x, w) PORTA_GLSL_SWIZZLE4(w, w, y, x) PORTA_GLSL_SWIZZLE4(w, w, y, y) \
  PORTA_GLSL_SWIZZLE4(w, w, y, z) PORTA_GLSL_SWIZZLE4(w, w, y, w) PORTA_GLSL_SWIZZLE4(w, w, z, x) \
  PORTA_GLSL_SWIZZLE4(w, w, z, y) PORTA_GLSL_SWIZZLE4(w, w, z, z) PORTA_GLSL_SWIZZLE4(w, w, z, w) \
  PORTA_GLSL_SWIZZLE4(w, w, w, x) PORTA_GLSL_SWIZZLE4(w, w, w, y) PORTA_GLSL_SWIZZLE4(w, w, w, z) \
  PORTA_GLSL_SWIZZLE4(w, w, w, w)

// Members every vector size shares: the constructors GLSL allows (broadcast,
// conversion, truncation of a longer vector, and any list of scalars and
// vectors that supplies the components), indexing.
#define PORTA_GLSL_VEC_COMMON(N)                                                                  \
  typedef vec<T, N> porta_vec_type;                                                               \
  static constexpr int size = N;                                                                  \
  PORTA_GLSL_FN constexpr explicit vec(T s) : vec() {                                             \
    for (int i = 0; i < N; ++i) (*this)[i] = s;                                                   \
  }                                                                                               \
  template <class U, int M, class = typename detail::enable_if<(M >= N)>::type>                   \
  PORTA_GLSL_FN constexpr explicit vec(const vec<U, M>& v) : vec() {                              \
    for (int i = 0; i < N; ++i) (*this)[i] = T(v[i]);                                             \
  }                                                                                               \
  template <class A, class B, class... R>                                                         \
  PORTA_GLSL_FN constexpr vec(const A& a, const B& b, const R&... r) : vec() {                    \
    static_assert(components<A>::value + components<B>::value + sum_components<R...>() >= N,      \
                  "too few components for the vector constructor");                               \
    int at = 0;                                                                                   \
    put(at, a);                                                                                   \
    put(at, b);                                                                                   \
    int expand[] = {0, (put(at, r), 0)...};                                                       \
    (void)expand;                                                                                 \
  }                                                                                               \
  PORTA_GLSL_FN constexpr T& operator[](int i) { return i == 0 ? x : i == 1 ? y : last(i); }      \
  PORTA_GLSL_FN constexpr const T& operator[](int i) const { return i == 0 ? x : i == 1 ? y : last(i); } \
                                                                                                  \
 private:                                                                                         \
  template <class... R>                                                                           \
  PORTA_GLSL_FN static constexpr int sum_components() {                                           \
    int total = 0;                                                                                \
    int expand[] = {0, (total += components<R>::value)...};                                       \
    (void)expand;                                                                                 \
    return total;                                                                                 \
  }                                                                                               \
  template <class A>                                                                              \
  PORTA_GLSL_FN constexpr void put(int& at, const A& a) {                                         \
    if constexpr (components<A>::value == 1) {                                                    \
      if (at < N) (*this)[at++] = T(a);                                                           \
    } else {                                                                                      \
      const typename A::porta_vec_type& v = a;                                                    \
      for (int i = 0; i < A::porta_vec_type::size && at < N; ++i) (*this)[at++] = T(v[i]);        \
    }                                                                                             \
  }                                                                                               \
                                                                                                  \
 public:

template <class T>
struct vec<T, 2> {
  T x, y;
  PORTA_GLSL_FN constexpr vec() : x(), y() {}
  PORTA_GLSL_VEC_COMMON(2)
  PORTA_GLSL_SWIZZLES_2

 private:
  PORTA_GLSL_FN constexpr T& last(int) { return y; }
  PORTA_GLSL_FN constexpr const T& last(int) const { return y; }
};

template <class T>
struct vec<T, 3> {
  T x, y, z;
  PORTA_GLSL_FN constexpr vec() : x(), y(), z() {}
  PORTA_GLSL_VEC_COMMON(3)
  PORTA_GLSL_SWIZZLES_3

 private:
  PORTA_GLSL_FN constexpr T& last(int) { return z; }
  PORTA_GLSL_FN constexpr const T& last(int) const { return z; }
};

template <class T>
struct vec<T, 4> {
  T x, y, z, w;
  PORTA_GLSL_FN constexpr vec() : x(), y(), z(), w() {}
  PORTA_GLSL_VEC_COMMON(4)
  PORTA_GLSL_SWIZZLES_4

 private:
  PORTA_GLSL_FN constexpr T& last(int i) { return i == 2 ? z : w; }
  PORTA_GLSL_FN constexpr const T& last(int i) const { return i == 2 ? z : w; }
};

// v.xy() on a non-const vector: a copy of the components that is a vec
// (so it goes anywhere a vec goes) and writes back when assigned to.
template <class T, int N, int... I>
struct swizzle : vec<T, int(sizeof...(I))> {
  typedef vec<T, int(sizeof...(I))> value_type;
  PORTA_GLSL_FN explicit swizzle(vec<T, N>& target) : value_type(target[I]...), target_(target) {}
  PORTA_GLSL_FN swizzle& operator=(const value_type& value) {
    int at = 0;
    int expand[] = {0, (target_[I] = value[at++], 0)...};
    (void)expand;
    static_cast<value_type&>(*this) = value;
    return *this;
  }
  PORTA_GLSL_FN swizzle& operator=(const swizzle& other) { return *this = static_cast<const value_type&>(other); }

 private:
  vec<T, N>& target_;
};

// vec<T, 2>(a, b) for the 2-component swizzle proxies' base needs the generic
// constructor with two scalars, which the common members provide.

typedef vec<float, 2> vec2;
typedef vec<float, 3> vec3;
typedef vec<float, 4> vec4;
typedef vec<double, 2> dvec2;
typedef vec<double, 3> dvec3;
typedef vec<double, 4> dvec4;
typedef vec<int, 2> ivec2;
typedef vec<int, 3> ivec3;
typedef vec<int, 4> ivec4;
typedef vec<uint, 2> uvec2;
typedef vec<uint, 3> uvec3;
typedef vec<uint, 4> uvec4;
typedef vec<bool, 2> bvec2;
typedef vec<bool, 3> bvec3;
typedef vec<bool, 4> bvec4;
typedef vec<int64_t, 2> i64vec2;
typedef vec<int64_t, 3> i64vec3;
typedef vec<int64_t, 4> i64vec4;
typedef vec<uint64_t, 2> u64vec2;
typedef vec<uint64_t, 3> u64vec3;
typedef vec<uint64_t, 4> u64vec4;
typedef vec<int16_t, 2> i16vec2;
typedef vec<int16_t, 3> i16vec3;
typedef vec<int16_t, 4> i16vec4;
typedef vec<uint16_t, 2> u16vec2;
typedef vec<uint16_t, 3> u16vec3;
typedef vec<uint16_t, 4> u16vec4;
typedef vec<int8_t, 2> i8vec2;
typedef vec<int8_t, 3> i8vec3;
typedef vec<int8_t, 4> i8vec4;
typedef vec<uint8_t, 2> u8vec2;
typedef vec<uint8_t, 3> u8vec3;
typedef vec<uint8_t, 4> u8vec4;

// ---- operators, component-wise ----
#define PORTA_GLSL_BINARY_OPERATOR(op)                                                           \
  template <class T, int N>                                                                      \
  PORTA_GLSL_FN constexpr vec<T, N> operator op(const vec<T, N>& a, const vec<T, N>& b) {        \
    vec<T, N> r;                                                                                 \
    for (int i = 0; i < N; ++i) r[i] = T(a[i] op b[i]);                                          \
    return r;                                                                                    \
  }                                                                                              \
  template <class T, int N>                                                                      \
  PORTA_GLSL_FN constexpr vec<T, N> operator op(const vec<T, N>& a, T b) {                       \
    vec<T, N> r;                                                                                 \
    for (int i = 0; i < N; ++i) r[i] = T(a[i] op b);                                             \
    return r;                                                                                    \
  }                                                                                              \
  template <class T, int N>                                                                      \
  PORTA_GLSL_FN constexpr vec<T, N> operator op(T a, const vec<T, N>& b) {                       \
    vec<T, N> r;                                                                                 \
    for (int i = 0; i < N; ++i) r[i] = T(a op b[i]);                                             \
    return r;                                                                                    \
  }                                                                                              \
  template <class T, int N, class U>                                                             \
  PORTA_GLSL_FN constexpr vec<T, N>& operator op##=(vec<T, N>& a, const U& b) {                  \
    a = a op b;                                                                                  \
    return a;                                                                                    \
  }
PORTA_GLSL_BINARY_OPERATOR(+)
PORTA_GLSL_BINARY_OPERATOR(-)
PORTA_GLSL_BINARY_OPERATOR(*)
PORTA_GLSL_BINARY_OPERATOR(/)
PORTA_GLSL_BINARY_OPERATOR(%)
PORTA_GLSL_BINARY_OPERATOR(&)
PORTA_GLSL_BINARY_OPERATOR(|)
PORTA_GLSL_BINARY_OPERATOR(^)
#undef PORTA_GLSL_BINARY_OPERATOR

// Shifts may mix signedness (SPIR-V allows it); the result has the base's type.
#define PORTA_GLSL_SHIFT_OPERATOR(op)                                                 \
  template <class T, class U, int N>                                                  \
  PORTA_GLSL_FN constexpr vec<T, N> operator op(const vec<T, N>& a, const vec<U, N>& b) { \
    vec<T, N> r;                                                                      \
    for (int i = 0; i < N; ++i) r[i] = T(a[i] op b[i]);                               \
    return r;                                                                         \
  }                                                                                   \
  template <class T, int N>                                                           \
  PORTA_GLSL_FN constexpr vec<T, N> operator op(const vec<T, N>& a, T b) {            \
    vec<T, N> r;                                                                      \
    for (int i = 0; i < N; ++i) r[i] = T(a[i] op b);                                  \
    return r;                                                                         \
  }                                                                                   \
  template <class T, int N, class U>                                                  \
  PORTA_GLSL_FN constexpr vec<T, N>& operator op##=(vec<T, N>& a, const U& b) {       \
    a = a op b;                                                                       \
    return a;                                                                         \
  }
PORTA_GLSL_SHIFT_OPERATOR(<<)
PORTA_GLSL_SHIFT_OPERATOR(>>)
#undef PORTA_GLSL_SHIFT_OPERATOR

template <class T, int N>
PORTA_GLSL_FN constexpr vec<T, N> operator-(const vec<T, N>& a) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = T(-a[i]);
  return r;
}
template <class T, int N>
PORTA_GLSL_FN constexpr vec<T, N> operator+(const vec<T, N>& a) {
  return a;
}
template <class T, int N>
PORTA_GLSL_FN constexpr vec<T, N> operator~(const vec<T, N>& a) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = T(~a[i]);
  return r;
}

// ---- relational and logical (bvec results) ----
#define PORTA_GLSL_RELATION(name, op)                                                     \
  template <class T, int N>                                                               \
  PORTA_GLSL_FN constexpr vec<bool, N> name(const vec<T, N>& a, const vec<T, N>& b) {     \
    vec<bool, N> r;                                                                       \
    for (int i = 0; i < N; ++i) r[i] = a[i] op b[i];                                      \
    return r;                                                                             \
  }
PORTA_GLSL_RELATION(lessThan, <)
PORTA_GLSL_RELATION(lessThanEqual, <=)
PORTA_GLSL_RELATION(greaterThan, >)
PORTA_GLSL_RELATION(greaterThanEqual, >=)
PORTA_GLSL_RELATION(equal, ==)
PORTA_GLSL_RELATION(notEqual, !=)
#undef PORTA_GLSL_RELATION

template <int N>
PORTA_GLSL_FN constexpr bool all(const vec<bool, N>& v) {
  for (int i = 0; i < N; ++i)
    if (!v[i]) return false;
  return true;
}
template <int N>
PORTA_GLSL_FN constexpr bool any(const vec<bool, N>& v) {
  for (int i = 0; i < N; ++i)
    if (v[i]) return true;
  return false;
}
// GLSL's not(bvec) reads as the C++ operator keyword `not`, that is `!`.
template <int N>
PORTA_GLSL_FN constexpr vec<bool, N> operator!(const vec<bool, N>& v) {
  vec<bool, N> r;
  for (int i = 0; i < N; ++i) r[i] = !v[i];
  return r;
}

// ---- bit casts ----
template <class To, class From>
PORTA_GLSL_FN constexpr To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast between types of different sizes");
  return __builtin_bit_cast(To, from);
}
PORTA_GLSL_FN constexpr int floatBitsToInt(float x) { return bit_cast<int>(x); }
PORTA_GLSL_FN constexpr uint floatBitsToUint(float x) { return bit_cast<uint>(x); }
PORTA_GLSL_FN constexpr float intBitsToFloat(int x) { return bit_cast<float>(x); }
PORTA_GLSL_FN constexpr float uintBitsToFloat(uint x) { return bit_cast<float>(x); }
PORTA_GLSL_FN constexpr int64_t doubleBitsToInt64(double x) { return bit_cast<int64_t>(x); }
PORTA_GLSL_FN constexpr uint64_t doubleBitsToUint64(double x) { return bit_cast<uint64_t>(x); }
PORTA_GLSL_FN constexpr double int64BitsToDouble(int64_t x) { return bit_cast<double>(x); }
PORTA_GLSL_FN constexpr double uint64BitsToDouble(uint64_t x) { return bit_cast<double>(x); }

// Applies a scalar function to every component (one, two or three vectors).
#define PORTA_GLSL_VECTORIZE1(name)                                                    \
  template <class T, int N>                                                            \
  PORTA_GLSL_FN auto name(const vec<T, N>& a)->vec<decltype(name(a.x)), N> {           \
    vec<decltype(name(a.x)), N> r;                                                     \
    for (int i = 0; i < N; ++i) r[i] = name(a[i]);                                     \
    return r;                                                                          \
  }
#define PORTA_GLSL_VECTORIZE2(name)                                                                   \
  template <class T, int N>                                                                           \
  PORTA_GLSL_FN vec<T, N> name(const vec<T, N>& a, const vec<T, N>& b) {                              \
    vec<T, N> r;                                                                                      \
    for (int i = 0; i < N; ++i) r[i] = name(a[i], b[i]);                                              \
    return r;                                                                                         \
  }                                                                                                   \
  template <class T, int N>                                                                           \
  PORTA_GLSL_FN vec<T, N> name(const vec<T, N>& a, T b) {                                             \
    vec<T, N> r;                                                                                      \
    for (int i = 0; i < N; ++i) r[i] = name(a[i], b);                                                 \
    return r;                                                                                         \
  }
#define PORTA_GLSL_VECTORIZE3(name)                                                                   \
  template <class T, int N>                                                                           \
  PORTA_GLSL_FN vec<T, N> name(const vec<T, N>& a, const vec<T, N>& b, const vec<T, N>& c) {          \
    vec<T, N> r;                                                                                      \
    for (int i = 0; i < N; ++i) r[i] = name(a[i], b[i], c[i]);                                        \
    return r;                                                                                         \
  }

// ---- GLSL.std.450, scalars: float and double through the C library ----
#define PORTA_GLSL_MATH1(name, cname)                                                      \
  PORTA_GLSL_FN float name(float x) { return PORTA_GLSL_MATH(cname##f)(x); }                 \
  PORTA_GLSL_FN double name(double x) { return PORTA_GLSL_MATH(cname)(x); }                  \
  PORTA_GLSL_VECTORIZE1(name)
PORTA_GLSL_MATH1(floor, floor)
PORTA_GLSL_MATH1(ceil, ceil)
PORTA_GLSL_MATH1(trunc, trunc)
PORTA_GLSL_MATH1(round, round)
PORTA_GLSL_MATH1(roundEven, rint)  // the default rounding mode rounds half to even
PORTA_GLSL_MATH1(exp, exp)
PORTA_GLSL_MATH1(exp2, exp2)
PORTA_GLSL_MATH1(log, log)
PORTA_GLSL_MATH1(log2, log2)
PORTA_GLSL_MATH1(sqrt, sqrt)
PORTA_GLSL_MATH1(sin, sin)
PORTA_GLSL_MATH1(cos, cos)
PORTA_GLSL_MATH1(tan, tan)
PORTA_GLSL_MATH1(asin, asin)
PORTA_GLSL_MATH1(acos, acos)
PORTA_GLSL_MATH1(sinh, sinh)
PORTA_GLSL_MATH1(cosh, cosh)
PORTA_GLSL_MATH1(tanh, tanh)
PORTA_GLSL_MATH1(asinh, asinh)
PORTA_GLSL_MATH1(acosh, acosh)
PORTA_GLSL_MATH1(atanh, atanh)
#undef PORTA_GLSL_MATH1

PORTA_GLSL_FN float atan(float x) { return PORTA_GLSL_MATH(atanf)(x); }
PORTA_GLSL_FN double atan(double x) { return PORTA_GLSL_MATH(atan)(x); }
PORTA_GLSL_FN float atan(float y, float x) { return PORTA_GLSL_MATH(atan2f)(y, x); }
PORTA_GLSL_FN double atan(double y, double x) { return PORTA_GLSL_MATH(atan2)(y, x); }
PORTA_GLSL_VECTORIZE1(atan)
template <class T, int N>
PORTA_GLSL_FN vec<T, N> atan(const vec<T, N>& y, const vec<T, N>& x) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = atan(y[i], x[i]);
  return r;
}
PORTA_GLSL_FN float pow(float x, float y) { return PORTA_GLSL_MATH(powf)(x, y); }
PORTA_GLSL_FN double pow(double x, double y) { return PORTA_GLSL_MATH(pow)(x, y); }
template <class T, int N>
PORTA_GLSL_FN vec<T, N> pow(const vec<T, N>& x, const vec<T, N>& y) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = pow(x[i], y[i]);
  return r;
}
// GLSL lets fma() outside `precise` round twice; spirv-opt also fuses a * b + c
// into fma. Without a hardware FMA the C library's exact fma is a slow call,
// so the host uses it only when the target has the instruction.
#if PORTA_GLSL_CUDA || defined(__FMA__)
PORTA_GLSL_FN float fma(float a, float b, float c) { return PORTA_GLSL_MATH(fmaf)(a, b, c); }
PORTA_GLSL_FN double fma(double a, double b, double c) { return PORTA_GLSL_MATH(fma)(a, b, c); }
#else
PORTA_GLSL_FN float fma(float a, float b, float c) { return a * b + c; }
PORTA_GLSL_FN double fma(double a, double b, double c) { return a * b + c; }
#endif
PORTA_GLSL_VECTORIZE3(fma)

PORTA_GLSL_FN float inversesqrt(float x) { return 1.0f / sqrt(x); }
PORTA_GLSL_FN double inversesqrt(double x) { return 1.0 / sqrt(x); }
PORTA_GLSL_VECTORIZE1(inversesqrt)
PORTA_GLSL_FN float fract(float x) { return x - floor(x); }
PORTA_GLSL_FN double fract(double x) { return x - floor(x); }
PORTA_GLSL_VECTORIZE1(fract)
PORTA_GLSL_FN float radians(float x) { return x * 0.017453292519943295f; }
PORTA_GLSL_FN float degrees(float x) { return x * 57.29577951308232f; }
PORTA_GLSL_VECTORIZE1(radians)
PORTA_GLSL_VECTORIZE1(degrees)
PORTA_GLSL_FN bool isnan(float x) { return __builtin_isnan(x); }
PORTA_GLSL_FN bool isnan(double x) { return __builtin_isnan(x); }
PORTA_GLSL_FN bool isinf(float x) { return __builtin_isinf(x); }
PORTA_GLSL_FN bool isinf(double x) { return __builtin_isinf(x); }
PORTA_GLSL_VECTORIZE1(isnan)
PORTA_GLSL_VECTORIZE1(isinf)

// abs, sign, min, max, clamp for every scalar type GLSL has them for.
#define PORTA_GLSL_MINMAX(T)                                                              \
  PORTA_GLSL_FN constexpr T min(T a, T b) { return b < a ? b : a; }                        \
  PORTA_GLSL_FN constexpr T max(T a, T b) { return a < b ? b : a; }                        \
  PORTA_GLSL_FN constexpr T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }
PORTA_GLSL_MINMAX(float)
PORTA_GLSL_MINMAX(double)
PORTA_GLSL_MINMAX(int)
PORTA_GLSL_MINMAX(uint)
PORTA_GLSL_MINMAX(int64_t)
PORTA_GLSL_MINMAX(uint64_t)
PORTA_GLSL_MINMAX(int16_t)
PORTA_GLSL_MINMAX(uint16_t)
PORTA_GLSL_MINMAX(int8_t)
PORTA_GLSL_MINMAX(uint8_t)
#undef PORTA_GLSL_MINMAX
PORTA_GLSL_VECTORIZE2(min)
PORTA_GLSL_VECTORIZE2(max)
PORTA_GLSL_VECTORIZE3(clamp)
template <class T, int N>
PORTA_GLSL_FN vec<T, N> clamp(const vec<T, N>& x, T lo, T hi) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = clamp(x[i], lo, hi);
  return r;
}

PORTA_GLSL_FN float abs(float x) { return PORTA_GLSL_MATH(fabsf)(x); }
PORTA_GLSL_FN double abs(double x) { return PORTA_GLSL_MATH(fabs)(x); }
// Through unsigned so that abs(INT_MIN) wraps as on GPUs instead of overflowing.
PORTA_GLSL_FN int abs(int x) { return x < 0 ? int(0u - uint(x)) : x; }
PORTA_GLSL_FN int64_t abs(int64_t x) { return x < 0 ? int64_t(uint64_t(0) - uint64_t(x)) : x; }
PORTA_GLSL_VECTORIZE1(abs)
PORTA_GLSL_FN float sign(float x) { return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x; }
PORTA_GLSL_FN double sign(double x) { return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : x; }
PORTA_GLSL_FN int sign(int x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }
PORTA_GLSL_FN int64_t sign(int64_t x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }
PORTA_GLSL_VECTORIZE1(sign)

PORTA_GLSL_FN float mod(float x, float y) { return x - y * floor(x / y); }
PORTA_GLSL_FN double mod(double x, double y) { return x - y * floor(x / y); }
PORTA_GLSL_VECTORIZE2(mod)

PORTA_GLSL_FN float mix(float x, float y, float a) { return x * (1.0f - a) + y * a; }
PORTA_GLSL_FN double mix(double x, double y, double a) { return x * (1.0 - a) + y * a; }
PORTA_GLSL_VECTORIZE3(mix)
template <class T, int N>
PORTA_GLSL_FN vec<T, N> mix(const vec<T, N>& x, const vec<T, N>& y, T a) {
  return mix(x, y, vec<T, N>(a));
}
// mix with a boolean selector picks y where a is true (OpSelect).
template <class T>
PORTA_GLSL_FN T mix(const T& x, const T& y, bool a) {
  return a ? y : x;
}
template <class T, int N>
PORTA_GLSL_FN vec<T, N> mix(const vec<T, N>& x, const vec<T, N>& y, const vec<bool, N>& a) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = a[i] ? y[i] : x[i];
  return r;
}

PORTA_GLSL_FN float step(float edge, float x) { return x < edge ? 0.0f : 1.0f; }
PORTA_GLSL_FN double step(double edge, double x) { return x < edge ? 0.0 : 1.0; }
PORTA_GLSL_VECTORIZE2(step)
template <class T, int N>
PORTA_GLSL_FN vec<T, N> step(T edge, const vec<T, N>& x) {
  return step(vec<T, N>(edge), x);
}
PORTA_GLSL_FN float smoothstep(float e0, float e1, float x) {
  const float t = clamp((x - e0) / (e1 - e0), 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}
PORTA_GLSL_FN double smoothstep(double e0, double e1, double x) {
  const double t = clamp((x - e0) / (e1 - e0), 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}
PORTA_GLSL_VECTORIZE3(smoothstep)
template <class T, int N>
PORTA_GLSL_FN vec<T, N> smoothstep(T e0, T e1, const vec<T, N>& x) {
  return smoothstep(vec<T, N>(e0), vec<T, N>(e1), x);
}

// frexp/ldexp/modf with GLSL's out parameters.
PORTA_GLSL_FN float frexp(float x, int& exponent) { return PORTA_GLSL_MATH(frexpf)(x, &exponent); }
PORTA_GLSL_FN double frexp(double x, int& exponent) { return PORTA_GLSL_MATH(frexp)(x, &exponent); }
PORTA_GLSL_FN float ldexp(float x, int exponent) { return PORTA_GLSL_MATH(ldexpf)(x, exponent); }
PORTA_GLSL_FN double ldexp(double x, int exponent) { return PORTA_GLSL_MATH(ldexp)(x, exponent); }
PORTA_GLSL_FN float modf(float x, float& whole) { return PORTA_GLSL_MATH(modff)(x, &whole); }
PORTA_GLSL_FN double modf(double x, double& whole) { return PORTA_GLSL_MATH(modf)(x, &whole); }

// ---- geometry ----
template <class T, int N>
PORTA_GLSL_FN constexpr T dot(const vec<T, N>& a, const vec<T, N>& b) {
  T sum = a[0] * b[0];
  for (int i = 1; i < N; ++i) sum += a[i] * b[i];
  return sum;
}
PORTA_GLSL_FN constexpr float dot(float a, float b) { return a * b; }
template <class T, int N>
PORTA_GLSL_FN T length(const vec<T, N>& v) {
  return sqrt(dot(v, v));
}
PORTA_GLSL_FN float length(float x) { return abs(x); }
template <class T, int N>
PORTA_GLSL_FN T distance(const vec<T, N>& a, const vec<T, N>& b) {
  return length(a - b);
}
PORTA_GLSL_FN float distance(float a, float b) { return abs(a - b); }
template <class T, int N>
PORTA_GLSL_FN vec<T, N> normalize(const vec<T, N>& v) {
  return v * (T(1) / length(v));
}
PORTA_GLSL_FN float normalize(float x) { return sign(x); }
template <class T>
PORTA_GLSL_FN vec<T, 3> cross(const vec<T, 3>& a, const vec<T, 3>& b) {
  return vec<T, 3>(a.y * b.z - b.y * a.z, a.z * b.x - b.z * a.x, a.x * b.y - b.x * a.y);
}
template <class T, int N>
PORTA_GLSL_FN vec<T, N> reflect(const vec<T, N>& i, const vec<T, N>& n) {
  return i - n * (T(2) * dot(n, i));
}
template <class T, int N>
PORTA_GLSL_FN vec<T, N> faceforward(const vec<T, N>& n, const vec<T, N>& i, const vec<T, N>& nref) {
  return dot(nref, i) < T(0) ? n : -n;
}

// ---- integer functions ----
PORTA_GLSL_FN int bitCount(uint x) { return __builtin_popcount(x); }
PORTA_GLSL_FN int bitCount(int x) { return __builtin_popcount(uint(x)); }
PORTA_GLSL_FN int findLSB(uint x) { return x == 0u ? -1 : __builtin_ctz(x); }
PORTA_GLSL_FN int findLSB(int x) { return findLSB(uint(x)); }
PORTA_GLSL_FN int findMSB(uint x) { return x == 0u ? -1 : 31 - __builtin_clz(x); }
// For a negative int the most significant 0 bit (GLSL 4.50, 8.8).
PORTA_GLSL_FN int findMSB(int x) { return findMSB(x < 0 ? ~uint(x) : uint(x)); }
PORTA_GLSL_VECTORIZE1(bitCount)
PORTA_GLSL_VECTORIZE1(findLSB)
PORTA_GLSL_VECTORIZE1(findMSB)
PORTA_GLSL_FN uint bitfieldExtract(uint value, int offset, int bits) {
  if (bits <= 0) return 0u;
  const uint mask = bits >= 32 ? ~0u : (1u << bits) - 1u;
  return (value >> offset) & mask;
}
PORTA_GLSL_FN int bitfieldExtract(int value, int offset, int bits) {
  if (bits <= 0) return 0;
  // Move the field to the top, then shift back arithmetically to sign-extend.
  const uint top = uint(value) << (32 - offset - bits);
  return int(top) >> (32 - bits);
}
PORTA_GLSL_FN uint bitfieldInsert(uint base, uint insert, int offset, int bits) {
  if (bits <= 0) return base;
  const uint mask = (bits >= 32 ? ~0u : (1u << bits) - 1u) << offset;
  return (base & ~mask) | ((insert << offset) & mask);
}
PORTA_GLSL_FN int bitfieldInsert(int base, int insert, int offset, int bits) {
  return int(bitfieldInsert(uint(base), uint(insert), offset, bits));
}
template <class T, int N>
PORTA_GLSL_FN vec<T, N> bitfieldExtract(const vec<T, N>& value, int offset, int bits) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = bitfieldExtract(value[i], offset, bits);
  return r;
}
template <class T, int N>
PORTA_GLSL_FN vec<T, N> bitfieldInsert(const vec<T, N>& base, const vec<T, N>& insert, int offset, int bits) {
  vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = bitfieldInsert(base[i], insert[i], offset, bits);
  return r;
}
PORTA_GLSL_FN uint bitfieldReverse(uint x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
  return (x >> 16) | (x << 16);
}
PORTA_GLSL_FN int bitfieldReverse(int x) { return int(bitfieldReverse(uint(x))); }
PORTA_GLSL_VECTORIZE1(bitfieldReverse)
PORTA_GLSL_FN void umulExtended(uint x, uint y, uint& msb, uint& lsb) {
  const uint64_t product = uint64_t(x) * uint64_t(y);
  msb = uint(product >> 32);
  lsb = uint(product);
}
PORTA_GLSL_FN void imulExtended(int x, int y, int& msb, int& lsb) {
  const int64_t product = int64_t(x) * int64_t(y);
  msb = int(uint64_t(product) >> 32);
  lsb = int(uint(uint64_t(product)));
}
PORTA_GLSL_FN uint uaddCarry(uint x, uint y, uint& carry) {
  const uint sum = x + y;
  carry = sum < x ? 1u : 0u;
  return sum;
}
PORTA_GLSL_FN uint usubBorrow(uint x, uint y, uint& borrow) {
  borrow = x < y ? 1u : 0u;
  return x - y;
}

// Integer division and remainder that do not trap: GLSL leaves x / 0 undefined,
// a CPU would raise SIGFPE. x / 0 gives 0 here, INT_MIN / -1 wraps.
template <class T>
PORTA_GLSL_FN T checked_div(T a, T b) {
  if (b == T(0)) return T(0);
  if (detail::is_signed_integer<T>::value && b == T(-1)) return T(T(0) - a == a ? a : T(0) - a);
  return T(a / b);
}
template <class T>
PORTA_GLSL_FN T checked_rem(T a, T b) {
  if (b == T(0) || (detail::is_signed_integer<T>::value && b == T(-1))) return T(0);
  return T(a % b);
}
// OpSMod: the result takes the sign of the divisor.
template <class T>
PORTA_GLSL_FN T checked_mod(T a, T b) {
  T r = checked_rem(a, b);
  if (r != T(0) && ((r < T(0)) != (b < T(0)))) r = T(r + b);
  return r;
}
#define PORTA_GLSL_CHECKED_VEC(name)                                             \
  template <class T, int N>                                                      \
  PORTA_GLSL_FN vec<T, N> name(const vec<T, N>& a, const vec<T, N>& b) {         \
    vec<T, N> r;                                                                 \
    for (int i = 0; i < N; ++i) r[i] = name(a[i], b[i]);                         \
    return r;                                                                    \
  }
PORTA_GLSL_CHECKED_VEC(checked_div)
PORTA_GLSL_CHECKED_VEC(checked_rem)
PORTA_GLSL_CHECKED_VEC(checked_mod)
#undef PORTA_GLSL_CHECKED_VEC

// ---- packing ----
// float → binary16, round to nearest even (what GPUs do for packHalf2x16).
PORTA_GLSL_FN uint float_to_half(float value) {
  const uint f = floatBitsToUint(value);
  const uint sign = (f >> 16) & 0x8000u;
  const uint exponent = (f >> 23) & 0xffu;
  uint mantissa = f & 0x7fffffu;
  if (exponent == 0xffu) return sign | 0x7c00u | (mantissa ? 0x200u | (mantissa >> 13) : 0u);
  const int e = int(exponent) - 127 + 15;
  if (e >= 31) return sign | 0x7c00u;
  if (e <= 0) {
    if (e < -10) return sign;
    mantissa |= 0x800000u;
    const int shift = 14 - e;
    uint half = mantissa >> shift;
    const uint rest = mantissa & ((1u << shift) - 1u);
    const uint halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1u))) ++half;
    return sign | half;
  }
  uint half = (uint(e) << 10) | (mantissa >> 13);
  const uint rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // may carry into the exponent: still right
  return sign | half;
}
PORTA_GLSL_FN float half_to_float(uint h) {
  const uint sign = (h & 0x8000u) << 16;
  const uint exponent = (h >> 10) & 0x1fu;
  const uint mantissa = h & 0x3ffu;
  if (exponent == 0u) {
    const float magnitude = float(mantissa) * 5.9604644775390625e-8f;  // 2^-24
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31u) return uintBitsToFloat(sign | 0x7f800000u | (mantissa << 13));
  return uintBitsToFloat(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}
PORTA_GLSL_FN uint packHalf2x16(const vec2& v) { return float_to_half(v.x) | (float_to_half(v.y) << 16); }
PORTA_GLSL_FN vec2 unpackHalf2x16(uint v) { return vec2(half_to_float(v & 0xffffu), half_to_float(v >> 16)); }
PORTA_GLSL_FN uint packUnorm4x8(const vec4& v) {
  uint r = 0u;
  for (int i = 0; i < 4; ++i) r |= uint(roundEven(clamp(v[i], 0.0f, 1.0f) * 255.0f)) << (8 * i);
  return r;
}
PORTA_GLSL_FN vec4 unpackUnorm4x8(uint v) {
  vec4 r;
  for (int i = 0; i < 4; ++i) r[i] = float((v >> (8 * i)) & 0xffu) / 255.0f;
  return r;
}
PORTA_GLSL_FN uint packSnorm4x8(const vec4& v) {
  uint r = 0u;
  for (int i = 0; i < 4; ++i) r |= (uint(int(roundEven(clamp(v[i], -1.0f, 1.0f) * 127.0f))) & 0xffu) << (8 * i);
  return r;
}
PORTA_GLSL_FN vec4 unpackSnorm4x8(uint v) {
  vec4 r;
  for (int i = 0; i < 4; ++i) r[i] = clamp(float(int8_t(uint8_t(v >> (8 * i)))) / 127.0f, -1.0f, 1.0f);
  return r;
}
PORTA_GLSL_FN uint packUnorm2x16(const vec2& v) {
  return uint(roundEven(clamp(v.x, 0.0f, 1.0f) * 65535.0f)) |
         (uint(roundEven(clamp(v.y, 0.0f, 1.0f) * 65535.0f)) << 16);
}
PORTA_GLSL_FN vec2 unpackUnorm2x16(uint v) {
  return vec2(float(v & 0xffffu) / 65535.0f, float(v >> 16) / 65535.0f);
}
PORTA_GLSL_FN uint packSnorm2x16(const vec2& v) {
  return (uint(int(roundEven(clamp(v.x, -1.0f, 1.0f) * 32767.0f))) & 0xffffu) |
         (uint(int(roundEven(clamp(v.y, -1.0f, 1.0f) * 32767.0f))) << 16);
}
PORTA_GLSL_FN vec2 unpackSnorm2x16(uint v) {
  return vec2(clamp(float(int16_t(uint16_t(v))) / 32767.0f, -1.0f, 1.0f),
              clamp(float(int16_t(uint16_t(v >> 16))) / 32767.0f, -1.0f, 1.0f));
}

// ---- atomics on buffer and shared memory (relaxed, as GLSL's are) ----
#if PORTA_GLSL_CUDA
template <class T, class U>
__device__ inline T atomicAdd(T& mem, U v) { return ::atomicAdd(&mem, T(v)); }
template <class T, class U>
__device__ inline T atomicMin(T& mem, U v) { return ::atomicMin(&mem, T(v)); }
template <class T, class U>
__device__ inline T atomicMax(T& mem, U v) { return ::atomicMax(&mem, T(v)); }
template <class T, class U>
__device__ inline T atomicAnd(T& mem, U v) { return ::atomicAnd(&mem, T(v)); }
template <class T, class U>
__device__ inline T atomicOr(T& mem, U v) { return ::atomicOr(&mem, T(v)); }
template <class T, class U>
__device__ inline T atomicXor(T& mem, U v) { return ::atomicXor(&mem, T(v)); }
template <class T, class U>
__device__ inline T atomicExchange(T& mem, U v) { return ::atomicExch(&mem, T(v)); }
template <class T, class U, class V>
__device__ inline T atomicCompSwap(T& mem, U compare, V v) { return ::atomicCAS(&mem, T(compare), T(v)); }
__device__ inline void memoryBarrier() { __threadfence(); }
__device__ inline void memoryBarrierBuffer() { __threadfence(); }
__device__ inline void memoryBarrierShared() { __threadfence_block(); }
__device__ inline void groupMemoryBarrier() { __threadfence_block(); }
#else
template <class T, class U>
inline T atomicAdd(T& mem, U v) {
  return __atomic_fetch_add(&mem, T(v), __ATOMIC_RELAXED);
}
template <class T, class U>
inline T atomicAnd(T& mem, U v) {
  return __atomic_fetch_and(&mem, T(v), __ATOMIC_RELAXED);
}
template <class T, class U>
inline T atomicOr(T& mem, U v) {
  return __atomic_fetch_or(&mem, T(v), __ATOMIC_RELAXED);
}
template <class T, class U>
inline T atomicXor(T& mem, U v) {
  return __atomic_fetch_xor(&mem, T(v), __ATOMIC_RELAXED);
}
template <class T, class U>
inline T atomicExchange(T& mem, U v) {
  return __atomic_exchange_n(&mem, T(v), __ATOMIC_RELAXED);
}
template <class T, class U, class V>
inline T atomicCompSwap(T& mem, U compare, V v) {
  T expected = T(compare);
  __atomic_compare_exchange_n(&mem, &expected, T(v), false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return expected;  // the value before the operation, whether it swapped or not
}
template <class T, class U>
inline T atomicMin(T& mem, U v) {
  const T value = T(v);
  T old = __atomic_load_n(&mem, __ATOMIC_RELAXED);
  while (value < old && !__atomic_compare_exchange_n(&mem, &old, value, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
}
template <class T, class U>
inline T atomicMax(T& mem, U v) {
  const T value = T(v);
  T old = __atomic_load_n(&mem, __ATOMIC_RELAXED);
  while (old < value && !__atomic_compare_exchange_n(&mem, &old, value, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
}
// Work-items of a group share one thread between barriers; fences order
// memory between groups running on different threads.
inline void memoryBarrier() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void memoryBarrierBuffer() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void memoryBarrierShared() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void groupMemoryBarrier() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
#endif

// ---- what translated code uses beyond GLSL ----
// A typed pointer `offset` bytes into a buffer.
template <class T>
PORTA_GLSL_FN T* buffer_at(void* base, size_t offset) {
  return reinterpret_cast<T*>(static_cast<char*>(base) + offset);
}
// Array assignment (C++ arrays are not values).
template <class T, size_t N>
PORTA_GLSL_FN void array_copy(T (&dst)[N], const T (&src)[N]) {
  for (size_t i = 0; i < N; ++i) dst[i] = src[i];
}
template <class T, size_t N, size_t M>
PORTA_GLSL_FN void array_copy(T (&dst)[N][M], const T (&src)[N][M]) {
  for (size_t i = 0; i < N; ++i) array_copy(dst[i], src[i]);
}

#undef PORTA_GLSL_VECTORIZE1
#undef PORTA_GLSL_VECTORIZE2
#undef PORTA_GLSL_VECTORIZE3

}  // namespace porta_glsl

#endif  // PORTA_GLSL_HPP
