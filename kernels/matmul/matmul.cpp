// matmul: C = alpha * op(A) * op(B) + beta * C (matmul.comp, blocked in
// shared memory, TM x TN outputs per item). The launcher checks the shapes of
// op(A), op(B) and C and picks the tile for the device. Error bound:
// bound.hpp.
#include <algorithm>

#include "common/launch.hpp"
#include "common/tensor_view.hpp"
#include "launchers.hpp"

namespace porta::ops {

namespace {

struct Tile {
  uint32_t lx, ly, bk, tm, tn;  // work-group LX x LY, block TM*LY x TN*LX, depth BK
  uint32_t prefetch;            // matmul.comp's PREFETCH: 0 none, 1 registers, 2 registers + two stages
  uint32_t fma;                 // matmul.comp's FMA: 1 adds each product with fma()
};

// matmul.comp's shared arrays hold BM, BN <= 128 and BK <= 16 in two stages;
// TM, TN <= 8.
constexpr uint32_t kBlockMax = 128, kDepthMax = 16, kItemTileMax = 8;

// PREFETCH and FMA on GPUs: the next slice's global loads are issued before
// the current slice is multiplied, and each product is added with one fma()
// (the OpenCL translation would not fuse them). CPU-type devices run items
// one after another, so there is no latency to hide, and fma() may be a
// library call there: they keep 0 and 0 (the CPU backend's built-in kernel
// is compiled with the kernel's defaults).
constexpr uint32_t kGpuPrefetch = 2, kGpuFma = 1;

// C of at least 1024 x 1024 on a GPU: the backend's own tile where it
// reports one (porta_device_info.tuning, the best of `porta-bench --gpu-only
// --sweep-matmul kernels/matmul/matmul.comp` at 4096^2 on an H100,
// bench/README.md), else 4 x 8 items (128 x 64 blocks): larger blocks would
// leave SMs idle below 2048 rows or columns (64 of them at 1024^2 on 132).
bool has_tile(const porta_tile_shape& t) { return t.group_x && t.group_y && t.depth && t.item_m && t.item_n; }

Tile large_tile(const porta_device_tuning& tuning, uint64_t m, uint64_t n) {
  const porta_tile_shape* t = nullptr;
  if (m >= 2048 && n >= 2048 && has_tile(tuning.tile_huge))
    t = &tuning.tile_huge;
  else if (has_tile(tuning.tile_large))
    t = &tuning.tile_large;
  if (!t) return {16, 16, 16, 4, 8, kGpuPrefetch, kGpuFma};
  return {t->group_x, t->group_y, t->depth, t->item_m, t->item_n, t->prefetch, kGpuFma};
}

Tile pick_tile(const porta_device_info& info, uint64_t m, uint64_t n) {
  // CPU-type devices, items of 8 x 8 elements, the fastest of
  // `porta-bench --sweep-matmul` at 1024^2 (bench/README.md): porta's CPU
  // backend runs the kernel's defaults (its built-in variant), 128 items in
  // 64 x 128 blocks; PoCL and lavapipe 64 items in 64 x 64 blocks. GPUs: 64
  // items of 4 x 4 for small C, 256 items of 4 x 4 (64 x 64 blocks) from 256
  // rows and columns, and with C large enough to fill the device with larger
  // blocks, the backend's large tile. TM and TN are multiples of 4.
  Tile tile = !cpu_like(info)              ? Tile{8, 8, 16, 4, 4, 0, 0}
              : precompiled_defaults(info) ? Tile{16, 8, 16, 8, 8, 0, 0}
                                           : Tile{8, 8, 16, 8, 8, 0, 0};
  const auto& lim = info.limits;
  const bool wide = lim.max_workgroup_invocations >= 256 && lim.max_workgroup_size[0] >= 16 &&
                    lim.max_workgroup_size[1] >= 16;
  if (!cpu_like(info) && wide && m >= 256 && n >= 256) tile = {16, 16, 16, 4, 4, kGpuPrefetch, kGpuFma};
  if (!cpu_like(info) && wide && m >= 1024 && n >= 1024) tile = large_tile(info.tuning, m, n);
  while (tile.lx * tile.ly > lim.max_workgroup_invocations && tile.lx > 1) {
    tile.lx /= 2;
    tile.ly /= 2;
  }
  static_assert(kBlockMax == 128 && kDepthMax == 16 && kItemTileMax == 8, "keep in step with matmul.comp");
  return tile;
}

// Where the driver ends a work-item's loops after PORTA_LOOP_LIMIT_ITERATIONS
// in all (llvmpipe, loop_limited), the depth K one dispatch may take: each
// slice of BK costs an item one iteration of the K loop, its share of the
// two loops that load the slice and BK multiply steps (the [[unroll]] loops
// inside them are unrolled), and a dispatch stays below half of the limit.
uint64_t depth_per_dispatch(const porta_device_info& info, const Tile& t, uint64_t k) {
  if (!loop_limited(info)) return std::max<uint64_t>(k, 1);
  const uint64_t threads = uint64_t(t.lx) * t.ly;
  const uint64_t loads = (uint64_t(t.tm) / 4 * t.ly * t.bk + threads - 1) / threads +
                         (uint64_t(t.tn) / 4 * t.lx * t.bk + threads - 1) / threads;
  const uint64_t per_slice = 1 + loads + t.bk;
  return std::max<uint64_t>(PORTA_LOOP_LIMIT_ITERATIONS / 2 / per_slice, 1) * t.bk;
}

}  // namespace

void launch_matmul(porta_stream stream, const porta_tensor* a_tensor, const porta_tensor* b_tensor,
                   const porta_tensor* c_tensor, float alpha, float beta, bool trans_a, bool trans_b) {
  const OpCall call = begin_call(stream, "porta_ops_matmul");
  require_float32(call, {a_tensor, b_tensor, c_tensor}, {"A", "B", "C"});
  const View c = view(call, c_tensor, "C"), b = view(call, b_tensor, "B"), a = view(call, a_tensor, "A");
  require_rank(call, a, 2);
  require_rank(call, b, 2);
  require_rank(call, c, 2);
  const uint64_t m = trans_a ? a.shape[1] : a.shape[0];
  const uint64_t k = trans_a ? a.shape[0] : a.shape[1];
  const uint64_t k_b = trans_b ? b.shape[1] : b.shape[0];
  const uint64_t n = trans_b ? b.shape[0] : b.shape[1];
  if (k != k_b || c.shape[0] != m || c.shape[1] != n)
    call.fail(PORTA_ERROR_INVALID_ARGUMENT,
              "shapes do not match: op(A) is %llu x %llu (A %s%s), op(B) is %llu x %llu (B %s%s), C is %s; "
              "need op(A) M x K, op(B) K x N, C M x N",
              static_cast<unsigned long long>(m), static_cast<unsigned long long>(k), a.shape_text().c_str(),
              trans_a ? " transposed" : "", static_cast<unsigned long long>(k_b),
              static_cast<unsigned long long>(n), b.shape_text().c_str(), trans_b ? " transposed" : "",
              c.shape_text().c_str());
  const uint32_t lda = row_stride(call, a), ldb = row_stride(call, b), ldc = row_stride(call, c);
  require_disjoint(call, c, a);
  require_disjoint(call, c, b);
  if (m == 0 || n == 0) return;

  const Tile tile = pick_tile(call.info, m, n);
  const uint64_t bm = uint64_t(tile.tm) * tile.ly, bn = uint64_t(tile.tn) * tile.lx;
  const uint64_t groups_x = (n + bn - 1) / bn, groups_y = (m + bm - 1) / bm;
  if (groups_x > call.info.limits.max_workgroup_count[0] ||
      groups_y > call.info.limits.max_workgroup_count[1])
    call.fail(PORTA_ERROR_UNSUPPORTED,
              "C is %s: %llu x %llu work-groups of %llu x %llu exceed the device's limit",
              c.shape_text().c_str(), static_cast<unsigned long long>(groups_y),
              static_cast<unsigned long long>(groups_x), static_cast<unsigned long long>(bm),
              static_cast<unsigned long long>(bn));
  struct {
    uint32_t m, n, k, lda, ldb, ldc, a_offset, b_offset, c_offset, trans_a, trans_b;
    float alpha, beta;
  } push{static_cast<uint32_t>(m),
         static_cast<uint32_t>(n),
         static_cast<uint32_t>(k),
         lda,
         ldb,
         ldc,
         static_cast<uint32_t>(a.offset),
         static_cast<uint32_t>(b.offset),
         static_cast<uint32_t>(c.offset),
         trans_a ? 1u : 0u,
         trans_b ? 1u : 0u,
         alpha,
         beta};
  // K in slices where the device limits loops (depth_per_dispatch): C = alpha
  // op(A) op(B) over the first slice plus beta C, then each further slice
  // added with beta = 1. Elsewhere one dispatch takes all of K.
  const uint64_t depth = depth_per_dispatch(call.info, tile, k);
  auto kernel = builtin_kernel(call, "matmul",
                               {{0, tile.lx},
                                {1, tile.ly},
                                {2, tile.bk},
                                {3, tile.tm},
                                {4, tile.tn},
                                {5, tile.prefetch},
                                {6, tile.fma}});
  // Rows of C (and of A unless transposed) in pieces the device binds
  // (for_each_row_piece); one piece of whole buffers where they fit.
  for_each_row_piece(call, {{&a, lda, trans_a ? m : k, !trans_a}, {&b, ldb, 0, false}, {&c, ldc, n, true}}, m,
                     static_cast<uint32_t>(bm), [&](const Piece& piece) {
                       push.m = static_cast<uint32_t>(piece.count);
                       push.c_offset = piece.offset[2];
                       const uint64_t piece_groups_y = (piece.count + bm - 1) / bm;
                       uint64_t k0 = 0;
                       do {
                         push.k = static_cast<uint32_t>(std::min(depth, k - k0));
                         push.a_offset = static_cast<uint32_t>(piece.offset[0] + (trans_a ? k0 * lda : k0));
                         push.b_offset = static_cast<uint32_t>(b.offset + (trans_b ? k0 : k0 * ldb));
                         push.beta = k0 == 0 ? beta : 1.0f;
                         dispatch_ranges(call, kernel, static_cast<uint32_t>(groups_x),
                                         static_cast<uint32_t>(piece_groups_y),
                                         {piece.binding[0], piece.binding[1], piece.binding[2]}, &push,
                                         sizeof push);
                         k0 += depth;
                       } while (k0 < k);
                     });
}

}  // namespace porta::ops
