/* The contract between CUDA C++ emitted by porta's translator (target cuda)
 * and the CUDA backend, which compiles it with NVRTC.
 *
 * Translated source includes this header, then porta_glsl.hpp; the backend
 * hands both to NVRTC in memory, and compiles with -default-device so that
 * functions without an execution-space annotation are device functions.
 *
 * The kernel: extern "C" __global__ void porta_cuda_kernel(
 * const void* __restrict__ b0, void* b1, ..., <push-constant struct> pc,
 * porta_buffer_sizes<N> porta_sizes) — one pointer per buffer parameter in
 * (set, binding, array element) order (const __restrict__ where no view of
 * the buffer writes it; a written buffer may alias another parameter), then
 * the push constants by value (omitted when the kernel has none), then the
 * buffers' sizes in bytes by value (omitted when the kernel has no buffers).
 * Shared memory is static; the block size is the work-group size.
 *
 * NVRTC (13.0) has no standard headers and lacks a few GCC builtins that
 * porta_glsl.hpp uses on the host; the CUDA equivalents stand in for them.
 */
#ifndef PORTA_CUDA_H
#define PORTA_CUDA_H

#if defined(__CUDACC_RTC__)
/* A null-based offsetof that NVRTC evaluates at compile time (__INTADDR__),
 * so that the std430 static_asserts of translated structs hold on the device
 * compiler too. */
#ifndef offsetof
#define offsetof(type, member) ((unsigned long)__INTADDR__(&(((type*)0)->member)))
#endif
#ifndef __builtin_popcount
#define __builtin_popcount(x) __popc(x)
#endif
#ifndef __builtin_ctz
#define __builtin_ctz(x) (__ffs(x) - 1)
#endif
#ifndef __builtin_clz
#define __builtin_clz(x) __clz(x)
#endif
#endif

/* The sizes in bytes of a kernel's N buffer parameters, passed by value
 * after the push constants: what `.length()` (OpArrayLength) reads. */
template <unsigned N>
struct porta_buffer_sizes {
  unsigned long long bytes[N];
};

/* An unsigned type of `Bytes` bytes, aligned to them: one access of that size. */
template <unsigned Bytes>
struct porta_word;
template <>
struct porta_word<4> {
  using type = unsigned;
};
template <>
struct porta_word<8> {
  using type = uint2;
};
template <>
struct porta_word<16> {
  using type = uint4;
};

/* Wide loads and stores (the translator's wide accesses, cuda_compiler.hpp):
 * a vector of 8 or 16 bytes moved as one 64- or 128-bit access, which the
 * hardware allows only at an address that is a multiple of its size and
 * porta's vector types (aligned like their components) do not promise. Where
 * the translator knows the alignment (Aligned true: shared memory, or
 * porta_cuda_kernel_aligned, which the host runs for buffers whose starts
 * are aligned, porta_wide_alignment) the access is made as it is; else (buffers, which
 * imported memory may start anywhere) a vector off alignment moves
 * component by component. The translator makes a buffer access wide only
 * where the vector lies at a multiple of its size from the buffer's start
 * (a member at such an offset, or an element of an array whose stride is
 * the size) and passes that start (`buffer`): the vector is aligned exactly
 * where the start is. Without it, the address itself is tested. ReadOnly: no
 * view of the buffer writes it during the kernel, so the load may take the
 * read-only data cache (the narrow loads of the __restrict__ parameter do). */
template <unsigned Bytes>
bool porta_is_aligned(const void* at) {
  return (unsigned(reinterpret_cast<unsigned long long>(at)) & (Bytes - 1u)) == 0u;
}
template <unsigned Bytes, bool Aligned, bool ReadOnly = false, class T>
T porta_load_wide(const T* at, const void* buffer = nullptr) {
  static_assert(sizeof(T) == Bytes, "porta: a wide access moves the whole vector");
  if (Aligned || porta_is_aligned<Bytes>(buffer ? buffer : at)) {
    using Word = typename porta_word<Bytes>::type;
    const Word word =
        ReadOnly ? __ldg(reinterpret_cast<const Word*>(at)) : *reinterpret_cast<const Word*>(at);
    T v;
    memcpy(&v, &word, Bytes);
    return v;
  }
  return *at;
}
template <unsigned Bytes, bool Aligned, class T, class Value>
void porta_store_wide(T* at, const Value& value, const void* buffer = nullptr) {
  static_assert(sizeof(T) == Bytes, "porta: a wide access moves the whole vector");
  const T v = value;
  if (Aligned || porta_is_aligned<Bytes>(buffer ? buffer : at)) {
    typename porta_word<Bytes>::type word;
    memcpy(&word, &v, Bytes);
    *reinterpret_cast<typename porta_word<Bytes>::type*>(at) = word;
    return;
  }
  *at = v;
}

/* Cooperative matrices on tensor cores (translator/README.md, "Tensor
 * cores"): D = A * B + C for an M x N x K multiply-add whose matrices a warp
 * holds as mma.sync's operand fragments, tile after tile in row-major order
 * of tiles. float16_t (and bfloat16, as uint16_t bits): m16n8k16, A in 16 x 16 tiles of 8 components a lane,
 * B in 16 x 8 tiles of 4; 8-bit integers: m16n8k32, A 16 x 32 (16), B 32 x 8 (8); C and D in 16 x 8 tiles of
 * 4 (float, float16_t or 32-bit integers). The element types are porta_glsl.hpp's, which comes after this
 * header: everything here is a template. Every lane of the warp calls it together. */
template <class T>
void porta_mma_assign(T& to, const T& from) {
  to = from;
}
inline void porta_mma_assign(float& to, float from) { to = from; }
inline void porta_mma_assign(int& to, unsigned from) { to = int(from); }
inline void porta_mma_assign(unsigned& to, int from) { to = unsigned(from); }
template <class Half>
void porta_mma_assign(float& to, const Half& from) {
  to = from.to_float();
}
template <class Half>
void porta_mma_assign(Half& to, float from) {
  to = Half(from);
}
/* The K of one instruction by A's element type: 32 for 8-bit integers, 16 for float16_t, 8 for
 * float (TF32). */
inline constexpr unsigned porta_mma_k(const signed char*) { return 32; }
inline constexpr unsigned porta_mma_k(const float*) { return 8; }
inline constexpr unsigned porta_mma_k(const unsigned char*) { return 32; }
template <class Half>
constexpr unsigned porta_mma_k(const Half*) {
  return 16;
}
template <class Half>
unsigned porta_mma_pair(const Half* h) {
  return unsigned(h[0].bits) | unsigned(h[1].bits) << 16;
}
template <class Byte>
unsigned porta_mma_quad(const Byte* b) {
  return unsigned((unsigned char)b[0]) | unsigned((unsigned char)b[1]) << 8 |
         unsigned((unsigned char)b[2]) << 16 | unsigned((unsigned char)b[3]) << 24;
}
/* 16-bit A and B (`type`: f16 or bf16) into float32 D. */
#define PORTA_MMA_16BIT(type)                                                                    \
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32." type "." type                            \
               ".f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"            \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                  \
               : "r"(porta_mma_pair(a)), "r"(porta_mma_pair(a + 2)), "r"(porta_mma_pair(a + 4)), \
                 "r"(porta_mma_pair(a + 6)), "r"(porta_mma_pair(b)), "r"(porta_mma_pair(b + 2)))
template <bool, bool, class Half>
void porta_mma_tile(const Half* a, const Half* b, float* d) {
  PORTA_MMA_16BIT("f16");
}
template <bool, bool, class Half>
void porta_mma_tile(const Half* a, const Half* b, Half* d) {
  unsigned d01 = porta_mma_pair(d), d23 = porta_mma_pair(d + 2);
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%0, %1};"
      : "+r"(d01), "+r"(d23)
      : "r"(porta_mma_pair(a)), "r"(porta_mma_pair(a + 2)), "r"(porta_mma_pair(a + 4)),
        "r"(porta_mma_pair(a + 6)), "r"(porta_mma_pair(b)), "r"(porta_mma_pair(b + 2)));
  d[0].bits = (unsigned short)d01, d[1].bits = (unsigned short)(d01 >> 16);
  d[2].bits = (unsigned short)d23, d[3].bits = (unsigned short)(d23 >> 16);
}
/* bfloat16 A and B, each held as its bits in a uint16_t (the translator's
 * lowering of SPV_KHR_bfloat16), into float32. */
inline unsigned porta_mma_pair(const unsigned short* h) { return unsigned(h[0]) | unsigned(h[1]) << 16; }
template <bool, bool>
void porta_mma_tile(const unsigned short* a, const unsigned short* b, float* d) {
  PORTA_MMA_16BIT("bf16");
}
#undef PORTA_MMA_16BIT
/* float A and B at TF32 precision (the lowering maps them only where the kernel allows it):
 * A 16 x 8 (4 a lane), B 8 x 8 (2), each rounded to TF32 to nearest: ties to even from sm_90,
 * whose cvt.rn.tf32 is one instruction (a multiply-add's worth of conversions took a third
 * of the TF32 GEMM's loop as cvt.rna's three), ties away (cvt.rna) before. */
inline unsigned porta_mma_tf32(float x) {
  unsigned bits;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm("cvt.rn.tf32.f32 %0, %1;" : "=r"(bits) : "f"(x));
#else
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(bits) : "f"(x));
#endif
  return bits;
}
template <bool, bool>
void porta_mma_tile(const float* a, const float* b, float* d) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(porta_mma_tf32(a[0])), "r"(porta_mma_tf32(a[1])), "r"(porta_mma_tf32(a[2])),
        "r"(porta_mma_tf32(a[3])), "r"(porta_mma_tf32(b[0])), "r"(porta_mma_tf32(b[1])));
}
/* 8-bit A and B, each signed or not; a 32-bit integer D (its bits: the sums wrap). */
#define PORTA_MMA_INT8(a_type, b_type)                                                           \
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32." a_type "." b_type                        \
               ".s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"            \
               : "+r"(d0), "+r"(d1), "+r"(d2), "+r"(d3)                                          \
               : "r"(porta_mma_quad(a)), "r"(porta_mma_quad(a + 4)), "r"(porta_mma_quad(a + 8)), \
                 "r"(porta_mma_quad(a + 12)), "r"(porta_mma_quad(b)), "r"(porta_mma_quad(b + 4)))
template <bool ASigned, bool BSigned, class AByte, class BByte, class Word>
void porta_mma_tile(const AByte* a, const BByte* b, Word* d) {
  static_assert(sizeof(AByte) == 1 && sizeof(BByte) == 1 && sizeof(Word) == 4, "8-bit A and B, 32-bit D");
  unsigned d0 = unsigned(d[0]), d1 = unsigned(d[1]), d2 = unsigned(d[2]), d3 = unsigned(d[3]);
  if constexpr (ASigned && BSigned)
    PORTA_MMA_INT8("s8", "s8");
  else if constexpr (ASigned)
    PORTA_MMA_INT8("s8", "u8");
  else if constexpr (BSigned)
    PORTA_MMA_INT8("u8", "s8");
  else
    PORTA_MMA_INT8("u8", "u8");
  d[0] = Word(d0), d[1] = Word(d1), d[2] = Word(d2), d[3] = Word(d3);
}
#undef PORTA_MMA_INT8
template <class D, unsigned M, unsigned N, unsigned K, bool ASigned = true, bool BSigned = true, class A,
          class B, class C>
D porta_mma_sync(const A& a, const B& b, const C& c) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  static_assert(
      M == 0,
      "porta: cooperative matrices on tensor cores need sm_80 or newer (mma.sync.m16n8k16, m16n8k32)");
#endif
  constexpr unsigned k = porta_mma_k(static_cast<decltype(&a.elements[0])>(nullptr));
  D d;
  for (unsigned i = 0; i < M * N / 32; ++i) porta_mma_assign(d.elements[i], c.elements[i]);  // C as D's type
#pragma unroll
  for (unsigned mi = 0; mi < M / 16; ++mi)
#pragma unroll
    for (unsigned ni = 0; ni < N / 8; ++ni)
#pragma unroll
      for (unsigned ki = 0; ki < K / k; ++ki)
        porta_mma_tile<ASigned, BSigned>(&a.elements[(mi * (K / k) + ki) * (16 * k / 32)],
                                         &b.elements[(ki * (N / 8) + ni) * (k * 8 / 32)],
                                         &d.elements[(mi * (N / 8) + ni) * 4]);
  return d;
}

/* Workgroup-scope cooperative matrices on sm_90's warpgroup MMA (wgmma;
 * translator/README.md, "Tensor cores"): D = A * B + C for a work-group of
 * G = 128 W threads and M = 64 W rows, float16 or bfloat16 A and B, float C
 * and D. Warpgroup w (threads 128 w to 128 w + 127) holds rows 64 w to
 * 64 w + 63 of A, C and D as wgmma's register fragments: per warp, mma.sync
 * m16n8k16's A layout in 16-column blocks (8 components a thread) and its C
 * layout in 8-column blocks (4). B goes through shared memory, where wgmma
 * reads it K-major without swizzling: 8 x 8 core matrices of 128 bytes, the
 * one of n block nb and k block kb at (nb K / 8 + kb) 128 bytes, its row
 * n % 8 16 bytes of 8 consecutive k. A thread holds whole core rows of B, row
 * rho = r G + t (t its index in the group) for r = 0, 1, ... while
 * rho < K N / 8, component 8 r + i at k = rho % K / 8 * 8 + i,
 * n = rho / K * 8 + rho % 8 (coopmat_lowering.cpp's position(), the same
 * layout), so that each row is one 16-byte store. Every thread of the group
 * calls it together (Workgroup scope asks for uniform control flow). */
#define PORTA_WGMMA_D4(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3])
#define PORTA_WGMMA_N8(type)                                                                           \
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %9, 0; wgmma.mma_async.sync.aligned.m64n8k16.f32." type \
               "." type " {%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, p, 1, 1, 0; }"                       \
               : PORTA_WGMMA_D4(0)                                                                     \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(1u))
#define PORTA_WGMMA_N16(type)                                                                            \
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %13, 0; wgmma.mma_async.sync.aligned.m64n16k16.f32." type \
               "." type " {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, p, 1, 1, 0; }"      \
               : PORTA_WGMMA_D4(0), PORTA_WGMMA_D4(4)                                                    \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(1u))
#define PORTA_WGMMA_N32(type)                                                                              \
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %21, 0; wgmma.mma_async.sync.aligned.m64n32k16.f32." type   \
               "." type                                                                                    \
               " {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, " \
               "%19}, %20, p, 1, 1, 0; }"                                                                  \
               : PORTA_WGMMA_D4(0), PORTA_WGMMA_D4(4), PORTA_WGMMA_D4(8), PORTA_WGMMA_D4(12)               \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(1u))
#define PORTA_WGMMA_N64(type)                                                                             \
  asm volatile(                                                                                           \
      "{ .reg .pred p; setp.ne.b32 p, %37, 0; wgmma.mma_async.sync.aligned.m64n64k16.f32." type "." type  \
      " {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, " \
      "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, {%32, %33, %34, %35}, %36, p, 1, 1, 0; }"  \
      : PORTA_WGMMA_D4(0), PORTA_WGMMA_D4(4), PORTA_WGMMA_D4(8), PORTA_WGMMA_D4(12), PORTA_WGMMA_D4(16),  \
        PORTA_WGMMA_D4(20), PORTA_WGMMA_D4(24), PORTA_WGMMA_D4(28)                                        \
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(1u))
/* bfloat16 components are their bits (unsigned short); float16 ones are
 * porta_glsl.hpp's float16_t. */
template <class T>
constexpr bool porta_is_bits(const T*) {
  return false;
}
inline constexpr bool porta_is_bits(const unsigned short*) { return true; }
/* d[0 .. N / 2) += A's 64 x 16 fragment (a) times the 16 x N at desc. */
template <unsigned N, bool BFloat16>
void porta_wgmma_chunk(float* d, const unsigned* a, unsigned long long desc) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if constexpr (BFloat16) {
    if constexpr (N == 64) PORTA_WGMMA_N64("bf16");
    if constexpr (N == 32) PORTA_WGMMA_N32("bf16");
    if constexpr (N == 16) PORTA_WGMMA_N16("bf16");
    if constexpr (N == 8) PORTA_WGMMA_N8("bf16");
  } else {
    if constexpr (N == 64) PORTA_WGMMA_N64("f16");
    if constexpr (N == 32) PORTA_WGMMA_N32("f16");
    if constexpr (N == 16) PORTA_WGMMA_N16("f16");
    if constexpr (N == 8) PORTA_WGMMA_N8("f16");
  }
#else
  static_assert(N == 0, "porta: Workgroup-scope cooperative matrices on tensor cores need sm_90a (wgmma)");
#endif
}
#undef PORTA_WGMMA_N8
#undef PORTA_WGMMA_N16
#undef PORTA_WGMMA_N32
#undef PORTA_WGMMA_N64
#undef PORTA_WGMMA_D4
/* The columns [N0, N) of D: wgmma chunks of 64, then 32, 16 and 8 columns. */
template <unsigned N0, unsigned N, unsigned K, bool BFloat16>
void porta_wgmma_columns(float* d, const unsigned* a, unsigned base, unsigned k16) {
  if constexpr (N0 < N) {
    constexpr unsigned chunk = N - N0 >= 64 ? 64 : N - N0 >= 32 ? 32 : N - N0 >= 16 ? 16 : 8;
    // The chunk's first core matrix (n block N0 / 8, k block 2 k16), LBO 128
    // bytes to the next along K, SBO K * 16 to the next along N.
    const unsigned start = base + (N0 / 8 * (K / 8) + 2 * k16) * 128u;
    const unsigned long long desc = (unsigned long long)((start >> 4) & 0x3fffu) |
                                    (unsigned long long)(128u >> 4) << 16 |
                                    (unsigned long long)((K * 16u) >> 4) << 32;
    porta_wgmma_chunk<chunk, BFloat16>(d + N0 / 2, a, desc);
    porta_wgmma_columns<N0 + chunk, N, K, BFloat16>(d, a, base, k16);
  }
}
template <class D, unsigned M, unsigned N, unsigned K, class A, class B, class C>
D porta_wgmma(const A& a, const B& b, const C& c) {
  constexpr unsigned rows = K * N / 8;  // core-matrix rows of B
  constexpr bool bfloat16 = porta_is_bits(static_cast<decltype(&a.elements[0])>(nullptr));
  __shared__ alignas(128) unsigned short stage[K * N];
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned group = blockDim.x * blockDim.y * blockDim.z;
  // Every thread has finished the products that read the stage before.
  __syncthreads();
  constexpr unsigned per_thread = sizeof(b.elements) / sizeof(b.elements[0]) / 8;
#pragma unroll
  for (unsigned r = 0; r < per_thread; ++r) {
    const unsigned rho = r * group + t;
    if (rho < rows) {
      uint4 row;
      row.x = porta_mma_pair(&b.elements[8 * r]);
      row.y = porta_mma_pair(&b.elements[8 * r + 2]);
      row.z = porta_mma_pair(&b.elements[8 * r + 4]);
      row.w = porta_mma_pair(&b.elements[8 * r + 6]);
      *reinterpret_cast<uint4*>(&stage[rho * 8]) = row;
    }
  }
  // The stores, made by the generic proxy, seen by wgmma's async proxy.
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  D d;
  // The accumulators: C's, held in place while the products run (no read or
  // write of them moves across the asm statements).
#pragma unroll
  for (unsigned i = 0; i < N / 2; ++i) {
    porta_mma_assign(d.elements[i], c.elements[i]);
    asm volatile("" : "+f"(d.elements[i])::"memory");
  }
  // A's fragments, every 16-deep slice's, before the fence: registers the
  // products read are written before it (else ptxas fences each product).
  unsigned fragments[K / 16][4];
#pragma unroll
  for (unsigned k16 = 0; k16 < K / 16; ++k16)
#pragma unroll
    for (unsigned j = 0; j < 4; ++j) {
      fragments[k16][j] = porta_mma_pair(&a.elements[8 * k16 + 2 * j]);
      asm volatile("" : "+r"(fragments[k16][j]));
    }
  const unsigned base = unsigned(__cvta_generic_to_shared(stage));
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
  for (unsigned k16 = 0; k16 < K / 16; ++k16)
    porta_wgmma_columns<0, N, K, bfloat16>(d.elements, fragments[k16], base, k16);
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
#pragma unroll
  for (unsigned i = 0; i < N / 2; ++i) asm volatile("" : "+f"(d.elements[i])::"memory");
  return d;
}

/* Fragment loads and stores between a `shared` array and a warp's fragments
 * (the lowering's porta_fragment_load/store_RxC_use_layout): the matrix's
 * row r, column c at base[element + r * stride + c] (RowMajor) or
 * base[element + c * stride + r]. float16 A and B fragments are ldmatrix
 * (.trans where memory runs across the operand's K-major order), and so are
 * row-major float32 (TF32) A fragments, where every row the lanes address
 * starts on a 16-byte boundary; accumulators of 16- or
 * 32-bit components in row-major memory move as pairs where the pairs are
 * aligned; anything else goes one component at a time, at the positions
 * porta_fragment_place gives (coopmat_lowering.cpp's position(), the same
 * layout). Every lane of the warp calls them together. */
inline unsigned porta_lane() {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}
/* Whether every row of a fragment at `element_bytes` into a shared array
 * (base) whose rows lie `stride_bytes` apart starts on a multiple of `bytes`.
 * The array's address is taken in the shared window, where the compiler knows
 * the alignment porta_group_shared gives it, apart from the offset, whose low
 * bits it knows from the index arithmetic: in the kernels that load fragments
 * in a loop (matmul_coop.comp) the test folds away with its fallback. (Their
 * sum's generic address would keep it at run time: the window's generic base
 * is unknown to the compiler.) */
template <class T>
bool porta_fragment_aligned(const T* base, unsigned element_bytes, unsigned stride_bytes, unsigned bytes) {
  return (unsigned(__cvta_generic_to_shared(base)) | element_bytes | stride_bytes) % bytes == 0u;
}
/* Row and column, in a matrix of Cols columns, of component e of the lane's
 * fragment: tiles of mma.sync's operands in row-major order of tiles. */
template <unsigned Use, unsigned Size, unsigned Cols>
void porta_fragment_place(unsigned lane, unsigned e, unsigned& row, unsigned& col) {
  constexpr unsigned tile_rows = Use == 1 ? (Size == 1 ? 32 : Size == 4 ? 8 : 16) : 16;
  constexpr unsigned tile_cols = Use == 0 ? (Size == 1 ? 32 : Size == 4 ? 8 : 16) : 8;
  constexpr unsigned tile_elements = tile_rows * tile_cols / 32;
  const unsigned g = lane >> 2, q = lane & 3, tile = e / tile_elements, i = e % tile_elements;
  const unsigned pair = q * 2 + (i & 1);
  unsigned r, c;
  if (Use == 0 && Size == 4)  // TF32
    r = g + (i & 1) * 8, c = q + (i >> 1) * 4;
  else if (Use == 1 && Size == 4)
    r = q + i * 4, c = g;
  else if (Use == 0 && Size == 1)
    r = g + ((i >> 2) & 1) * 8, c = q * 4 + (i & 3) + (i >> 3) * 16;
  else if (Use == 1 && Size == 1)
    r = q * 4 + (i & 3) + (i >> 2) * 16, c = g;
  else if (Use == 0)
    r = g + ((i >> 1) & 1) * 8, c = pair + (i >> 2) * 8;
  else if (Use == 1)
    r = pair + (i >> 1) * 8, c = g;
  else
    r = g + (i >> 1) * 8, c = pair;
  row = tile / (Cols / tile_cols) * tile_rows + r;
  col = tile % (Cols / tile_cols) * tile_cols + c;
}
/* Four (two) 8 x 8 matrices of 16-bit elements, lanes 0-7 addressing the
 * first's rows, 8-15 the second's, ...; .trans delivers each transposed. */
template <bool Trans>
void porta_ldmatrix_x4(unsigned (&r)[4], const void* row) {
  const unsigned at = unsigned(__cvta_generic_to_shared(row));
  if constexpr (Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(at));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(at));
}
template <bool Trans>
void porta_ldmatrix_x2(unsigned (&r)[4], const void* row) {
  const unsigned at = unsigned(__cvta_generic_to_shared(row));
  if constexpr (Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(at));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(at));
}
/* Each pair of an accumulator fragment in row-major memory: visit(p, e) for
 * the pair at p holding components e and e + 1 (c0 c1 at row g, c2 c3 at row
 * g + 8 of each 16 x 8 tile, columns 2q and 2q + 1). */
template <unsigned Rows, unsigned Cols, class T, class Visit>
void porta_fragment_pairs(T* at, unsigned stride, Visit visit) {
  const unsigned lane = porta_lane(), g = lane >> 2, q = lane & 3;
#pragma unroll
  for (unsigned ti = 0; ti < Rows / 16; ++ti)
#pragma unroll
    for (unsigned tj = 0; tj < Cols / 8; ++tj) {
      T* p = at + (ti * 16 + g) * stride + tj * 8 + q * 2;
      const unsigned e = (ti * (Cols / 8) + tj) * 4;
      visit(p, e);
      visit(p + 8 * stride, e + 2);
    }
}
template <class F, unsigned Rows, unsigned Cols, unsigned Use, bool RowMajor, class T>
F porta_fragment_load(const T* base, unsigned element, unsigned stride) {
  F f;
  const unsigned lane = porta_lane();
  const T* at = base + element;
  constexpr unsigned size = sizeof(T);
  if constexpr (size == 2 && Use < 2) {
    if (porta_fragment_aligned(base, element * 2u, stride * 2u, 16u)) {
      unsigned r[4];
      if constexpr (Use == 0) {
        // A, 16 x 16 tiles: matrix m of ldmatrix holds rows (m & 1) * 8, columns (m >> 1) * 8.
#pragma unroll
        for (unsigned ti = 0; ti < Rows / 16; ++ti)
#pragma unroll
          for (unsigned tj = 0; tj < Cols / 16; ++tj) {
            const unsigned m = lane >> 3, row = ti * 16 + (m & 1) * 8, col = tj * 16 + (m >> 1) * 8;
            if constexpr (RowMajor)
              porta_ldmatrix_x4<false>(r, at + (row + (lane & 7)) * stride + col);
            else
              porta_ldmatrix_x4<true>(r, at + (col + (lane & 7)) * stride + row);
            memcpy(&f.elements[(ti * (Cols / 16) + tj) * 8], r, 16);
          }
      } else if constexpr (Cols % 16 == 0) {
        // B, 16 x 8 tiles two at a time: matrix m holds rows (m & 1) * 8 of tile m >> 1.
#pragma unroll
        for (unsigned ki = 0; ki < Rows / 16; ++ki)
#pragma unroll
          for (unsigned ni = 0; ni < Cols / 8; ni += 2) {
            const unsigned m = lane >> 3, k = ki * 16 + (m & 1) * 8, n = (ni + (m >> 1)) * 8;
            if constexpr (RowMajor)
              porta_ldmatrix_x4<true>(r, at + (k + (lane & 7)) * stride + n);
            else
              porta_ldmatrix_x4<false>(r, at + (n + (lane & 7)) * stride + k);
            memcpy(&f.elements[(ki * (Cols / 8) + ni) * 4], r, 16);
          }
      } else {
#pragma unroll
        for (unsigned ki = 0; ki < Rows / 16; ++ki)
#pragma unroll
          for (unsigned ni = 0; ni < Cols / 8; ++ni) {
            const unsigned m = (lane >> 3) & 1, k = ki * 16 + m * 8, n = ni * 8;
            if constexpr (RowMajor)
              porta_ldmatrix_x2<true>(r, at + (k + (lane & 7)) * stride + n);
            else
              porta_ldmatrix_x2<false>(r, at + (n + (lane & 7)) * stride + k);
            memcpy(&f.elements[(ki * (Cols / 8) + ni) * 4], r, 8);
          }
      }
      return f;
    }
  }
  if constexpr (size == 4 && Use == 0 && RowMajor) {
    // TF32 A, 16 x 8 tiles: an 8 x 8 matrix of 16-bit elements is 8 rows of
    // 4 float32, and lane l receives row l / 4, float32 l % 4 of it: matrix
    // m holding rows (m & 1) * 8, columns (m >> 1) * 4 of the tile gives
    // component m of the fragment (porta_fragment_place's order).
    if (porta_fragment_aligned(base, element * 4u, stride * 4u, 16u)) {
      unsigned r[4];
#pragma unroll
      for (unsigned ti = 0; ti < Rows / 16; ++ti)
#pragma unroll
        for (unsigned tj = 0; tj < Cols / 8; ++tj) {
          const unsigned m = lane >> 3, row = ti * 16 + (m & 1) * 8, col = tj * 8 + (m >> 1) * 4;
          porta_ldmatrix_x4<false>(r, at + (row + (lane & 7)) * stride + col);
          memcpy(&f.elements[(ti * (Cols / 8) + tj) * 4], r, 16);
        }
      return f;
    }
  }
  if constexpr (Use == 2 && RowMajor && (size == 2 || size == 4)) {
    if (porta_fragment_aligned(base, element * size, stride * size, 2u * size)) {
      using Pair = typename porta_word<2 * size>::type;  // two components at once
      porta_fragment_pairs<Rows, Cols>(at, stride, [&](const T* p, unsigned e) {
        const Pair bits = *reinterpret_cast<const Pair*>(p);
        memcpy(&f.elements[e], &bits, sizeof bits);
      });
      return f;
    }
  }
#pragma unroll
  for (unsigned e = 0; e < Rows * Cols / 32; ++e) {
    unsigned r, c;
    porta_fragment_place<Use, size, Cols>(lane, e, r, c);
    f.elements[e] = at[RowMajor ? r * stride + c : c * stride + r];
  }
  return f;
}
template <unsigned Rows, unsigned Cols, unsigned Use, bool RowMajor, class T, class F>
void porta_fragment_store(T* base, unsigned element, unsigned stride, const F& f) {
  const unsigned lane = porta_lane();
  T* at = base + element;
  constexpr unsigned size = sizeof(T);
  if constexpr (Use == 2 && RowMajor && (size == 2 || size == 4)) {
    if (porta_fragment_aligned(base, element * size, stride * size, 2u * size)) {
      using Pair = typename porta_word<2 * size>::type;  // two components at once
      porta_fragment_pairs<Rows, Cols>(at, stride, [&](T* p, unsigned e) {
        Pair bits;
        memcpy(&bits, &f.elements[e], sizeof bits);
        *reinterpret_cast<Pair*>(p) = bits;
      });
      return;
    }
  }
#pragma unroll
  for (unsigned e = 0; e < Rows * Cols / 32; ++e) {
    unsigned r, c;
    porta_fragment_place<Use, size, Cols>(lane, e, r, c);
    at[RowMajor ? r * stride + c : c * stride + r] = f.elements[e];
  }
}

#endif /* PORTA_CUDA_H */
