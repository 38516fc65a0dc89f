// gemm and matmul: C = act(alpha * op(A) * op(B) + beta * C + bias) over a
// strided batch (matmul.comp, blocked in shared memory, TM x TN outputs per
// item); porta_ops_matmul is the case without batch, bias or activation. The
// launchers check the operands, then one path picks the kernel and its tile
// for the device and queues it. Error bound: bound.hpp.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/launch.hpp"
#include "common/tensor_view.hpp"
#include "launchers.hpp"
#include "matmul_cpu.hpp"

namespace porta::ops {

namespace {

struct Tile {
  uint32_t lx, ly, bk, tm, tn;  // work-group LX x LY, block TM*LY x TN*LX, depth BK
  uint32_t prefetch;            // matmul.comp's PREFETCH: 0 none, 1 registers, 2 registers + two stages
  uint32_t fma;                 // matmul.comp's FMA: 1 adds each product with fma()
  bool narrow = false;          // 4-byte global loads only (the device's tile says so)
};

// matmul.comp's shared arrays hold BM, BN <= 128 and BK <= 16 in two stages;
// TM, TN <= 8.
constexpr uint32_t kBlockMax = 128, kDepthMax = 16, kItemTileMax = 8;

// PREFETCH and FMA on GPUs: the next slice's global loads are issued before
// the current slice is multiplied, and each product is added with one fma()
// (the OpenCL translation would not fuse them). CPU-type devices run items
// one after another, so there is no latency to hide, and fma() may be a
// library call there: they keep FMA 0, and PREFETCH 0 except porta's CPU
// backend (kCpuPrefetch; its built-in kernel is compiled with the kernel's
// defaults).
constexpr uint32_t kGpuPrefetch = 2, kGpuFma = 1;

// PREFETCH on porta's CPU backend, whose items are fibers: 2 halves the
// barriers, and each barrier switches through every item of the group
// (512^2 and 1024^2: 1.3-1.5x the speed of 0 there, bench/README.md).
constexpr uint32_t kCpuPrefetch = 2;

// matmul.comp's VEC4 on GPUs: 16-byte global loads of runs of four elements
// (bit 0). Bit 1 (row-major A by depths, 4-byte shared stores) is in the
// sweep (bench/ops/matmul_sweep.cpp) until a GPU run says which is faster.
constexpr uint32_t kGpuVec4 = 1;

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
  return {t->group_x, t->group_y, t->depth, t->item_m, t->item_n, t->prefetch, kGpuFma, t->wide_loads == 1};
}

Tile pick_tile(const porta_device_info& info, uint64_t m, uint64_t n) {
  // CPU-type devices, items of 8 x 8 elements, the fastest of
  // `porta-bench --sweep-matmul` at 512^2 and 1024^2 (bench/README.md):
  // porta's CPU backend runs the kernel's defaults (its built-in variant),
  // 256 items in 128 x 128 blocks with two shared stages (one barrier, so
  // one fiber switch per item, per slice); PoCL and lavapipe 64 items in
  // 64 x 64 blocks. GPUs: 64
  // items of 4 x 4 for small C, 256 items of 4 x 4 (64 x 64 blocks) from 256
  // rows and columns, and with C large enough to fill the device with larger
  // blocks, the backend's large tile. TM and TN are multiples of 4.
  Tile tile = !cpu_like(info)              ? Tile{8, 8, 16, 4, 4, 0, 0}
              : precompiled_defaults(info) ? Tile{16, 16, 16, 8, 8, kCpuPrefetch, 0}
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

// matmul.comp's INPUT: how A and B's elements are read.
uint32_t input_code(porta_dtype dtype) {
  return dtype == PORTA_DTYPE_FLOAT16 ? 1u : dtype == PORTA_DTYPE_BFLOAT16 ? 2u : 0u;
}

// A checked GEMM: batch x (M x N) = (M x K)(K x N), strides in elements.
struct Gemm {
  View a, b, c, bias;
  bool has_bias = false, trans_a = false, trans_b = false;
  uint64_t m = 0, n = 0, k = 0, batch = 1;
  uint32_t lda = 0, ldb = 0, ldc = 0;
  uint64_t a_batch = 0, b_batch = 0, c_batch = 0;  // 0: one matrix for the whole batch
  float alpha = 1.0f, beta = 0.0f;
  porta_gemm_compute compute = PORTA_GEMM_COMPUTE_DEFAULT;
  porta_gemm_activation activation = PORTA_GEMM_ACTIVATION_NONE;
};

// The kernel a GEMM runs on a device and its constants: matmul.comp with a
// Tile, or a matmul_coop.comp variant (cooperative matrices) with a CoopTile.
struct CoopTile {
  uint32_t warps_m, warps_n;  // subgroup tiles down and across a block
  uint32_t tiles_m, tiles_n;  // 16 x 16 accumulators down and across a subgroup tile
  uint32_t bk;                // slice depth, a multiple of 16
  uint32_t subgroup;          // items per subgroup the group is sized for
};

struct KernelChoice {
  const char* name;
  bool coop = false;
  Tile tile{};              // matmul.comp
  CoopTile ctile{};         // matmul_coop_*
  uint64_t bm = 0, bn = 0;  // C's block per work-group
};

KernelChoice simt_choice(const porta_device_info& info, const Gemm& g) {
  KernelChoice k{"matmul"};
  k.tile = pick_tile(info, g.m, g.n);
  k.bm = uint64_t(k.tile.tm) * k.tile.ly;
  k.bn = uint64_t(k.tile.tn) * k.tile.lx;
  return k;
}

// matmul_coop.comp's fixed shared arrays and limits (keep in step with it):
// BM, BN <= 128, WARPS_M * WARPS_N <= 8, BK <= 32 (float16) or 16 (float32),
// two stages of A's and B's slices, rows padded by 16 bytes (float32 rows
// along M or N: 32), and at most kCoopSlots runs of a slice per item and
// operand with PREFETCH.
constexpr uint32_t kCoopBlockMax = 128, kCoopWarpsMax = 8, kCoopTile = 16, kCoopSlots = 4;
constexpr uint32_t kCoopSharedF16 = 2 * (128 * (32 + 8) * 2 + 32 * (128 + 8) * 2) + 9 * 16 * 16 * 4;
constexpr uint32_t kCoopSharedF32 = 2 * (128 * (16 + 4) * 4 + 16 * (128 + 8) * 4) + 9 * 16 * 16 * 4;

// The matmul_coop variant for A and B's type: float16 matrices for float16
// inputs; for bfloat16, bfloat16 matrices where the device multiplies them on
// matrix hardware (matmul_coop_bf16, built from the float16 variant's module),
// else float32 matrices (bfloat16 is exact in them, also at TF32 precision);
// float32 matrices for float32 where the caller allows TF32 (a device's
// float32 matrices may multiply at TF32 precision). Null: none.
const char* coop_variant(const porta_device_info& info, const Gemm& g) {
  if (g.a.dtype == PORTA_DTYPE_FLOAT16) return "matmul_coop_f16";
  if (g.a.dtype == PORTA_DTYPE_BFLOAT16)
    return (info.features & PORTA_FEATURE_COOPERATIVE_MATRIX_BF16_HW) &&
                   has_builtin_kernel("matmul_coop_bf16")
               ? "matmul_coop_bf16"
               : "matmul_coop_f32";
  if (g.compute == PORTA_GEMM_COMPUTE_ALLOW_TF32) return "matmul_coop_f32";
  return nullptr;
}

// PORTA_GEMM_COOP_TILE (a benchmarking knob, read once): the tiling of every
// cooperative-matrix GEMM, "WMxWN:TMxTN:BK" (subgroup tiles per group,
// accumulators per subgroup tile, slice depth; e.g. 2x2:4x4:32), so that
// one run on a GPU compares tilings side by side; BK is capped at the
// variant's largest (16 for float32 matrices). Unset: pick_coop_tile().
struct CoopKnob {
  bool set = false;
  uint32_t warps_m = 0, warps_n = 0, tiles_m = 0, tiles_n = 0, bk = 0;
};

const CoopKnob& coop_knob(const OpCall& call) {
  static const CoopKnob knob = [] {
    CoopKnob k;
    const char* env = std::getenv("PORTA_GEMM_COOP_TILE");
    if (!env || !*env) return k;
    char tail = 0;
    const int fields =
        std::sscanf(env, "%ux%u:%ux%u:%u%c", &k.warps_m, &k.warps_n, &k.tiles_m, &k.tiles_n, &k.bk, &tail);
    // A malformed value is remembered as such (bk 0) and refused at each call.
    k.set = true;
    if (fields != 5) k.bk = 0;
    return k;
  }();
  if (knob.set) {
    const uint64_t bm = uint64_t(knob.warps_m) * knob.tiles_m * kCoopTile;
    const uint64_t bn = uint64_t(knob.warps_n) * knob.tiles_n * kCoopTile;
    if (knob.bk == 0 || knob.bk % kCoopTile != 0 || knob.bk > 32 || bm == 0 || bn == 0 ||
        bm > kCoopBlockMax || bn > kCoopBlockMax || knob.warps_m * knob.warps_n > kCoopWarpsMax)
      call.fail(PORTA_ERROR_INVALID_ARGUMENT,
                "PORTA_GEMM_COOP_TILE is '%s'; it must be WMxWN:TMxTN:BK (e.g. 2x2:4x4:32) with blocks of "
                "16 WM TM x 16 WN TN of at most 128 x 128, WM WN <= 8 and BK 16 or 32",
                std::getenv("PORTA_GEMM_COOP_TILE"));
  }
  return knob;
}

// The cooperative-matrix tiling from what the device reports: its subgroup
// size (a group is that many items per subgroup tile), its group-size limit
// and C's size. GPUs: C from 2048 rows and columns in 128 x 128 blocks of
// 2 x 2 subgroups holding 4 x 4 accumulators each (64 x 64 of C: the most
// multiply-adds per fragment loaded that registers hold; groups of 4
// subgroups, so that two fit a multiprocessor); from 512, 64 x 64 blocks of
// 2 x 2 subgroups with 2 x 2; below, 32 x 32 blocks of 2 x 2 with one each
// (more groups to fill the device). CPU-type devices (the coopmat path only
// when PORTA_GEMM_KERNEL=coopmat asks for it) take 32 x 32 blocks of 2 x 1
// subgroups with 1 x 2, so every part of the kernel runs small.
// PORTA_GEMM_COOP_TILE overrides it.
CoopTile pick_coop_tile(const OpCall& call, const Gemm& g, bool half_matrices) {
  const porta_device_info& info = call.info;
  const uint32_t sg = info.limits.subgroup_size ? info.limits.subgroup_size : 32;
  const uint32_t bk = half_matrices ? 32 : 16;
  const CoopKnob& knob = coop_knob(call);
  CoopTile t =
      knob.set ? CoopTile{knob.warps_m, knob.warps_n, knob.tiles_m, knob.tiles_n, std::min(knob.bk, bk), sg}
      : cpu_like(info)             ? CoopTile{2, 1, 1, 2, bk, sg}
      : g.m >= 2048 && g.n >= 2048 ? CoopTile{2, 2, 4, 4, bk, sg}
      : g.m >= 512 && g.n >= 512   ? CoopTile{2, 2, 2, 2, bk, sg}
                                   : CoopTile{2, 2, 1, 1, bk, sg};
  // Fewer subgroups where the device's groups are smaller.
  while (t.warps_m * t.warps_n * sg > info.limits.max_workgroup_invocations && t.warps_m * t.warps_n > 1) {
    if (t.warps_n > 1)
      t.warps_n /= 2, t.tiles_n *= 2;
    else
      t.warps_m /= 2, t.tiles_m *= 2;
  }
  return t;
}

// PORTA_GEMM_KERNEL (a testing and benchmarking knob): "coopmat" runs every
// GEMM whose inputs have a matmul_coop variant on it, also on CPU-type
// devices, and a device that cannot run it is an error; "simt" runs
// matmul.comp everywhere; unset or "auto", coop_choice() decides.
enum class KernelMode { kAuto, kSimt, kCoop };

KernelMode kernel_mode(const OpCall& call) {
  const char* env = std::getenv("PORTA_GEMM_KERNEL");
  if (!env || !*env || !std::strcmp(env, "auto")) return KernelMode::kAuto;
  if (!std::strcmp(env, "simt")) return KernelMode::kSimt;
  if (!std::strcmp(env, "coopmat")) return KernelMode::kCoop;
  call.fail(PORTA_ERROR_INVALID_ARGUMENT, "PORTA_GEMM_KERNEL is '%s'; it must be auto, simt or coopmat", env);
}

// The cooperative-matrix kernel. Auto: where the device reports that it runs
// the variant's multiply-adds on matrix hardware (device features each
// backend reports: CUDA lowers float16 and bfloat16 matrices to mma.sync from sm_80, and
// float32 ones at TF32 for kernels created with PORTA_KERNEL_FLAG_ALLOW_TF32,
// which the float32 variant always is (bfloat16 inputs are exact in TF32;
// float32 ones take it only where the caller allowed TF32); Vulkan drivers
// list 16x16x16 float16 with float32 accumulators), with float16 arithmetic
// for the float16 variant and the kernel's shared memory; else matmul.comp.
// PORTA_GEMM_KERNEL=coopmat:
// every device with cooperative matrices, natively or lowered, and a device
// that cannot run it is refused, saying which piece is missing.
std::optional<KernelChoice> coop_choice(const OpCall& call, const Gemm& g, KernelMode mode) {
  const porta_device_info& info = call.info;
  const char* name = coop_variant(info, g);
  if (mode == KernelMode::kSimt || !name) return std::nullopt;
  const bool f16 = std::strcmp(name, "matmul_coop_f16") == 0;
  const bool bf16 = std::strcmp(name, "matmul_coop_bf16") == 0;
  const uint64_t hardware = f16    ? PORTA_FEATURE_COOPERATIVE_MATRIX_F16_HW
                            : bf16 ? PORTA_FEATURE_COOPERATIVE_MATRIX_BF16_HW
                                   : PORTA_FEATURE_COOPERATIVE_MATRIX_TF32_HW;
  if (mode == KernelMode::kAuto && !(info.features & hardware)) return std::nullopt;
  const char* missing =
      !has_builtin_kernel(name) ? "libporta was built without glslangValidator 13, so "
                                  "without its cooperative-matrix kernels"
      : !(info.features & PORTA_FEATURE_COOPERATIVE_MATRIX) ? "the device has no cooperative matrices"
      : f16 && !(info.features & PORTA_FEATURE_FP16)        ? "the device has no float16 arithmetic"
      : info.limits.max_shared_memory_bytes < (f16 || bf16 ? kCoopSharedF16 : kCoopSharedF32)
          ? "the device has too little shared memory for the kernel's tiles"
          : nullptr;
  if (missing && mode == KernelMode::kAuto) return std::nullopt;
  if (missing)
    call.fail(PORTA_ERROR_UNSUPPORTED, "PORTA_GEMM_KERNEL=coopmat asks for %s, but %s", name, missing);
  KernelChoice k{name, true};
  k.ctile = pick_coop_tile(call, g, f16 || bf16);
  k.bm = uint64_t(k.ctile.warps_m) * k.ctile.tiles_m * kCoopTile;
  k.bn = uint64_t(k.ctile.warps_n) * k.ctile.tiles_n * kCoopTile;
  static_assert(kCoopBlockMax == 128 && kCoopWarpsMax == 8 && kCoopSlots == 4,
                "keep in step with matmul_coop.comp");
  return k;
}

// VEC4 for this GEMM: GPUs, float32 inputs, and every vec4 of A and B
// aligned in every batch. CPU-type devices keep the kernel's default (0).
uint32_t vec4_loads(const porta_device_info& info, const Gemm& g) {
  if (cpu_like(info) || g.a.dtype != PORTA_DTYPE_FLOAT32) return 0;
  const bool aligned = g.a.offset % 4 == 0 && g.b.offset % 4 == 0 && g.lda % 4 == 0 && g.ldb % 4 == 0 &&
                       g.a_batch % 4 == 0 && g.b_batch % 4 == 0;
  return aligned ? kGpuVec4 : 0;
}

// matmul_coop.comp's VEC: 16-byte runs (4 float32 or 8 16-bit elements)
// where every run of A and B is aligned in every batch, on every device (the
// kernel runs on CPU-type devices only when a test forces it, and should run
// there as it does on GPUs).
uint32_t coop_runs(const Gemm& g) {
  const uint64_t run = g.a.dtype == PORTA_DTYPE_FLOAT32 ? 4 : 8;
  const bool aligned = g.a.offset % run == 0 && g.b.offset % run == 0 && g.lda % run == 0 &&
                       g.ldb % run == 0 && g.a_batch % run == 0 && g.b_batch % run == 0;
  return aligned ? 1 : 0;
}

// matmul_coop.comp's PREFETCH: the next slice held in registers as 16-byte
// runs while the current one is multiplied, where the runs are 16 bytes
// (coop_runs) and each item's share of a slice is at most the kernel's
// SLOTS_MAX (kCoopSlots) runs per operand.
uint32_t coop_prefetch(const CoopTile& t, bool f32_inputs, bool runs) {
  if (!runs) return 0;
  const uint64_t run = f32_inputs ? 4 : 8;
  const uint64_t items = uint64_t(t.subgroup) * t.warps_m * t.warps_n;
  const uint64_t runs_a = uint64_t(t.warps_m) * t.tiles_m * kCoopTile * t.bk / run;
  const uint64_t runs_b = uint64_t(t.warps_n) * t.tiles_n * kCoopTile * t.bk / run;
  return runs_a <= kCoopSlots * items && runs_b <= kCoopSlots * items ? 1 : 0;
}

// Queues the GEMM: batches in as many dispatches as the device's group
// count allows, and on loop-limited devices K in slices (depth_per_dispatch):
// C = alpha op(A) op(B) over the first slice plus beta C, each further slice
// added with beta = 1, and the bias and activation with the last slice only.
void queue_with(const OpCall& call, const Gemm& g, const KernelChoice& choice) {
  const Tile& tile = choice.tile;
  const uint64_t bm = choice.bm, bn = choice.bn;
  const uint64_t groups_x = (g.n + bn - 1) / bn, row_groups = (g.m + bm - 1) / bm;
  const uint64_t batch_per_dispatch = call.info.limits.max_workgroup_count[1] / row_groups;
  if (groups_x > call.info.limits.max_workgroup_count[0] || batch_per_dispatch == 0)
    call.fail(PORTA_ERROR_UNSUPPORTED,
              "C is %s: %llu x %llu work-groups of %llu x %llu exceed the device's limit",
              g.c.shape_text().c_str(), static_cast<unsigned long long>(row_groups),
              static_cast<unsigned long long>(groups_x), static_cast<unsigned long long>(bm),
              static_cast<unsigned long long>(bn));
  struct {
    uint32_t m, n, k, lda, ldb, ldc, a_offset, b_offset, c_offset, trans_a, trans_b;
    float alpha, beta;
    uint32_t a_batch, b_batch, c_batch, row_groups, bias_offset;
  } push{static_cast<uint32_t>(g.m),
         static_cast<uint32_t>(g.n),
         static_cast<uint32_t>(g.k),
         g.lda,
         g.ldb,
         g.ldc,
         0,
         0,
         0,
         g.trans_a ? 1u : 0u,
         g.trans_b ? 1u : 0u,
         g.alpha,
         g.beta,
         static_cast<uint32_t>(g.a_batch),
         static_cast<uint32_t>(g.b_batch),
         static_cast<uint32_t>(g.c_batch),
         static_cast<uint32_t>(row_groups),
         static_cast<uint32_t>(g.has_bias ? g.bias.offset : 0)};
  // matmul_coop.comp runs only where cooperative matrices are, which
  // loop-limited devices (llvmpipe) do not have: K in one dispatch.
  const uint64_t depth = choice.coop ? std::max<uint64_t>(g.k, 1) : depth_per_dispatch(call.info, tile, g.k);
  // Constants 0-6 are each kernel's tiling; 7-10 are the input type, the
  // epilogue and the loads in both; 11-12 matmul_coop.comp's transposes.
  std::vector<porta_spec_constant> specs;
  if (choice.coop) {
    const CoopTile& t = choice.ctile;
    specs = {{0, t.subgroup * t.warps_m * t.warps_n},
             {1, t.warps_m},
             {2, t.warps_n},
             {3, t.tiles_m},
             {4, t.tiles_n},
             {5, t.bk},
             {6, coop_prefetch(t, g.a.dtype == PORTA_DTYPE_FLOAT32, coop_runs(g) != 0)}};
  } else {
    specs = {{0, tile.lx}, {1, tile.ly},       {2, tile.bk}, {3, tile.tm},
             {4, tile.tn}, {5, tile.prefetch}, {6, tile.fma}};
  }
  specs.push_back({7, input_code(g.a.dtype)});
  // matmul_coop.comp takes the transposes as constants (its staging folds them).
  if (choice.coop) {
    specs.push_back({11, g.trans_a ? 1u : 0u});
    specs.push_back({12, g.trans_b ? 1u : 0u});
  }
  const uint32_t loads = choice.coop ? coop_runs(g) : choice.tile.narrow ? 0 : vec4_loads(call.info, g);
  const auto kernel_for = [&](bool epilogue) {
    std::vector<porta_spec_constant> all = specs;
    all.push_back({8, epilogue && g.has_bias ? 1u : 0u});
    all.push_back({9, epilogue ? static_cast<uint32_t>(g.activation) : 0u});
    all.push_back({10, loads});
    // matmul_coop_f32 runs only for bfloat16 inputs (exact in TF32) or where
    // the caller allowed TF32 (coop_variant): its matrices may use TF32.
    const bool tf32 = choice.coop && std::strcmp(choice.name, "matmul_coop_f32") == 0;
    return builtin_kernel(call, choice.name, all.data(), all.size(), tf32 ? PORTA_KERNEL_FLAG_ALLOW_TF32 : 0);
  };
  const bool plain = !g.has_bias && g.activation == PORTA_GEMM_ACTIVATION_NONE;
  const KernelHandle last = kernel_for(true);
  const KernelHandle inner = plain || depth >= g.k ? KernelHandle() : kernel_for(false);
  // Without a bias the kernel's bias parameter is bound to A's buffer, unread.
  const porta_buffer bias = g.has_bias ? g.bias.buffer : g.a.buffer;
  // One float32 matrix: rows of C (and of A unless transposed) in pieces the
  // device binds (for_each_row_piece); one piece of whole buffers where they
  // fit. Batches and 16-bit inputs bind whole buffers.
  if (g.batch == 1 && g.a.dtype == PORTA_DTYPE_FLOAT32) {
    const View& bias_view = g.has_bias ? g.bias : g.b;
    for_each_row_piece(
        call,
        {{&g.a, g.lda, g.trans_a ? g.m : g.k, !g.trans_a},
         {&g.b, g.ldb, 0, false},
         {&g.c, g.ldc, g.n, true},
         {&bias_view, 1, 0, false}},
        g.m, static_cast<uint32_t>(bm), [&](const Piece& piece) {
          const uint64_t piece_groups = (piece.count + bm - 1) / bm;
          push.m = static_cast<uint32_t>(piece.count);
          push.row_groups = static_cast<uint32_t>(piece_groups);
          push.c_offset = piece.offset[2];
          uint64_t k0 = 0;
          do {
            push.k = static_cast<uint32_t>(std::min(depth, g.k - k0));
            push.a_offset = static_cast<uint32_t>(piece.offset[0] + (g.trans_a ? k0 * g.lda : k0));
            push.b_offset = static_cast<uint32_t>(g.b.offset + (g.trans_b ? k0 : k0 * g.ldb));
            push.beta = k0 == 0 ? g.beta : 1.0f;
            const bool final_slice = k0 + depth >= g.k;
            dispatch_ranges(call, final_slice || plain ? last : inner, static_cast<uint32_t>(groups_x),
                            static_cast<uint32_t>(piece_groups),
                            {piece.binding[0], piece.binding[1], piece.binding[2], piece.binding[3]}, &push,
                            sizeof push);
            k0 += depth;
          } while (k0 < g.k);
        });
    return;
  }
  for (uint64_t b0 = 0; b0 < g.batch; b0 += batch_per_dispatch) {
    const uint64_t batches = std::min(batch_per_dispatch, g.batch - b0);
    uint64_t k0 = 0;
    do {
      push.k = static_cast<uint32_t>(std::min(depth, g.k - k0));
      push.a_offset = static_cast<uint32_t>(g.a.offset + b0 * g.a_batch + (g.trans_a ? k0 * g.lda : k0));
      push.b_offset = static_cast<uint32_t>(g.b.offset + b0 * g.b_batch + (g.trans_b ? k0 : k0 * g.ldb));
      push.c_offset = static_cast<uint32_t>(g.c.offset + b0 * g.c_batch);
      push.beta = k0 == 0 ? g.beta : 1.0f;
      const bool final_slice = k0 + depth >= g.k;
      dispatch(call, final_slice || plain ? last : inner, static_cast<uint32_t>(groups_x),
               static_cast<uint32_t>(row_groups * batches), {g.a.buffer, g.b.buffer, g.c.buffer, bias}, push);
      k0 += depth;
    } while (k0 < g.k);
  }
}

// Picks the kernel (coop_choice, else matmul_cpu.comp where it suits the
// device and the GEMM, else simt_choice) and queues the GEMM.
void queue_gemm(const OpCall& call, const Gemm& g) {
  if (g.m == 0 || g.n == 0 || g.batch == 0) return;
  const KernelMode mode = kernel_mode(call);
  const std::optional<KernelChoice> coop = coop_choice(call, g, mode);
  const CpuGemm cpu{g.a, g.b, g.c, g.m, g.n, g.k, g.lda, g.ldb, g.ldc, g.trans_a, g.trans_b, g.alpha, g.beta};
  if (!coop && mode == KernelMode::kAuto && g.batch == 1 && !g.has_bias &&
      g.activation == PORTA_GEMM_ACTIVATION_NONE && cpu_gemm_suits(call.info, cpu))
    return queue_cpu_gemm(call, cpu);
  queue_with(call, g, coop ? *coop : simt_choice(call.info, g));
}

// The refusal of shapes that do not multiply.
[[noreturn]] void refuse_shapes(const OpCall& call, const Gemm& g, uint64_t k_b) {
  call.fail(PORTA_ERROR_INVALID_ARGUMENT,
            "shapes do not match: op(A) is %llu x %llu (A %s%s), op(B) is %llu x %llu (B %s%s), C is %s; "
            "need op(A) M x K, op(B) K x N, C M x N",
            static_cast<unsigned long long>(g.m), static_cast<unsigned long long>(g.k),
            g.a.shape_text().c_str(), g.trans_a ? " transposed" : "", static_cast<unsigned long long>(k_b),
            static_cast<unsigned long long>(g.n), g.b.shape_text().c_str(), g.trans_b ? " transposed" : "",
            g.c.shape_text().c_str());
}

// A matrix's last two dimensions as a rank-2 view, for row_stride().
View matrix_of(const View& v) {
  View m = v;
  if (v.rank == 3) {
    m.rank = 2;
    m.shape[0] = v.shape[1];
    m.shape[1] = v.shape[2];
    m.strides[0] = v.strides[1];
    m.strides[1] = v.strides[2];
  }
  return m;
}

// M, N, K and the leading dimensions from the views; the shapes must agree.
void measure(const OpCall& call, Gemm& g) {
  const View a = matrix_of(g.a), b = matrix_of(g.b), c = matrix_of(g.c);
  g.m = g.trans_a ? a.shape[1] : a.shape[0];
  g.k = g.trans_a ? a.shape[0] : a.shape[1];
  const uint64_t k_b = g.trans_b ? b.shape[1] : b.shape[0];
  g.n = g.trans_b ? b.shape[0] : b.shape[1];
  if (g.k != k_b || c.shape[0] != g.m || c.shape[1] != g.n) refuse_shapes(call, g, k_b);
  g.lda = row_stride(call, a);
  g.ldb = row_stride(call, b);
  g.ldc = row_stride(call, c);
}

// 16-bit elements are read as halves of 32-bit words: the word holding the
// view's last element must lie inside the buffer.
void require_whole_words(const OpCall& call, const View& v) {
  if (porta_dtype_size(v.dtype) != 2 || v.elements == 0) return;
  const uint64_t last = v.end - 1;
  if ((last / 2 + 1) * 4 > v.buffer_bytes)
    call.fail(PORTA_ERROR_INVALID_ARGUMENT,
              "operand '%s' %s is %s, read as 32-bit words of two elements: its last element (%llu) needs "
              "bytes up to %llu, but its buffer has %llu; pad the buffer to a multiple of 4 bytes",
              v.name.c_str(), v.shape_text().c_str(), dtype_name(v.dtype),
              static_cast<unsigned long long>(last), static_cast<unsigned long long>((last / 2 + 1) * 4),
              static_cast<unsigned long long>(v.buffer_bytes));
}

}  // namespace

void launch_matmul(porta_stream stream, const porta_tensor* a_tensor, const porta_tensor* b_tensor,
                   const porta_tensor* c_tensor, float alpha, float beta, bool trans_a, bool trans_b) {
  const OpCall call = begin_call(stream, "porta_ops_matmul");
  require_float32(call, {a_tensor, b_tensor, c_tensor}, {"A", "B", "C"});
  Gemm g;
  g.c = view(call, c_tensor, "C");
  g.b = view(call, b_tensor, "B");
  g.a = view(call, a_tensor, "A");
  require_rank(call, g.a, 2);
  require_rank(call, g.b, 2);
  require_rank(call, g.c, 2);
  g.trans_a = trans_a;
  g.trans_b = trans_b;
  g.alpha = alpha;
  g.beta = beta;
  measure(call, g);
  require_disjoint(call, g.c, g.a);
  require_disjoint(call, g.c, g.b);
  queue_gemm(call, g);
}

void launch_gemm(porta_stream stream, const porta_gemm_desc* desc) {
  const OpCall call = begin_call(stream, "porta_ops_gemm");
  if (!desc) call.fail(PORTA_ERROR_INVALID_ARGUMENT, "desc is null");
  if (desc->struct_size != sizeof(porta_gemm_desc))
    call.fail(PORTA_ERROR_INVALID_ARGUMENT,
              "desc->struct_size is %u; set it to sizeof(porta_gemm_desc) (%zu)", desc->struct_size,
              sizeof(porta_gemm_desc));
  const int compute = static_cast<int>(desc->compute), activation = static_cast<int>(desc->activation);
  if (compute != PORTA_GEMM_COMPUTE_DEFAULT && compute != PORTA_GEMM_COMPUTE_ALLOW_TF32)
    call.fail(PORTA_ERROR_INVALID_ARGUMENT, "desc->compute is %d, which is not a porta_gemm_compute",
              compute);
  if (activation < PORTA_GEMM_ACTIVATION_NONE || activation > PORTA_GEMM_ACTIVATION_GELU_TANH)
    call.fail(PORTA_ERROR_INVALID_ARGUMENT, "desc->activation is %d, which is not a porta_gemm_activation",
              activation);
  if (!desc->a || !desc->b || !desc->c)
    call.fail(PORTA_ERROR_INVALID_ARGUMENT, "operand '%s' is null", !desc->c ? "C" : !desc->b ? "B" : "A");
  for (const auto& [t, name] :
       {std::pair{desc->bias, "bias"}, {desc->c, "C"}, {desc->b, "B"}, {desc->a, "A"}})
    if (t && !dtype_name(t->dtype))
      call.fail(PORTA_ERROR_INVALID_ARGUMENT, "operand '%s' has dtype %d, which is not a porta_dtype", name,
                static_cast<int>(t->dtype));
  // A and B: one of the three input types, the same for both.
  const porta_dtype input = desc->a->dtype;
  if (input != PORTA_DTYPE_FLOAT32 && input != PORTA_DTYPE_FLOAT16 && input != PORTA_DTYPE_BFLOAT16)
    call.fail(PORTA_ERROR_UNSUPPORTED, "operand 'A' is %s; A and B must be float32, float16 or bfloat16",
              dtype_name(input));
  if (desc->b->dtype != input)
    call.fail(PORTA_ERROR_INVALID_ARGUMENT, "operand 'B' is %s but 'A' is %s; A and B must have one dtype",
              dtype_name(desc->b->dtype), dtype_name(input));
  Gemm g;
  g.has_bias = desc->bias != nullptr;
  if (g.has_bias) g.bias = view(call, desc->bias, "bias");
  g.c = view(call, desc->c, "C");
  g.b = view(call, desc->b, "B", input);
  g.a = view(call, desc->a, "A", input);
  for (const View* v : {&g.a, &g.b, &g.c})
    if (v->rank != 2 && v->rank != 3)
      call.fail(PORTA_ERROR_INVALID_ARGUMENT,
                "operand '%s' has rank %u (shape %s); a GEMM operand has rank 2 (a matrix) or 3 (a batch)",
                v->name.c_str(), v->rank, v->shape_text().c_str());
  g.batch = g.c.rank == 3 ? g.c.shape[0] : 1;
  for (const View* v : {&g.a, &g.b})
    if (v->rank == 3 && (g.c.rank != 3 || v->shape[0] != g.batch))
      call.fail(PORTA_ERROR_INVALID_ARGUMENT,
                "operand '%s' %s is a batch of %llu but C %s is %s; a rank-3 A or B has C's batch size "
                "(rank 2: one matrix for every batch)",
                v->name.c_str(), v->shape_text().c_str(), static_cast<unsigned long long>(v->shape[0]),
                g.c.shape_text().c_str(),
                g.c.rank == 3 ? ("a batch of " + std::to_string(g.batch)).c_str() : "one matrix");
  g.trans_a = desc->trans_a != 0;
  g.trans_b = desc->trans_b != 0;
  g.alpha = desc->alpha;
  g.beta = desc->beta;
  g.compute = desc->compute;
  g.activation = desc->activation;
  measure(call, g);
  g.a_batch = g.a.rank == 3 && g.batch > 1 ? static_cast<uint64_t>(g.a.strides[0]) : 0;
  g.b_batch = g.b.rank == 3 && g.batch > 1 ? static_cast<uint64_t>(g.b.strides[0]) : 0;
  g.c_batch = g.c.rank == 3 && g.batch > 1 ? static_cast<uint64_t>(g.c.strides[0]) : 0;
  // C's matrices must not share elements: each is written by its own groups.
  if (g.batch > 1 && g.m > 0 && g.n > 0 && g.c_batch < (g.m - 1) * g.ldc + g.n)
    call.fail(PORTA_ERROR_INVALID_ARGUMENT,
              "operand 'C' %s has batch stride %llu, but each of its %llu x %llu matrices spans %llu "
              "elements (row stride %u): its matrices overlap",
              g.c.shape_text().c_str(), static_cast<unsigned long long>(g.c_batch),
              static_cast<unsigned long long>(g.m), static_cast<unsigned long long>(g.n),
              static_cast<unsigned long long>((g.m - 1) * g.ldc + g.n), g.ldc);
  if (g.has_bias) {
    if (g.bias.rank != 1 || g.bias.shape[0] != g.n)
      call.fail(PORTA_ERROR_INVALID_ARGUMENT,
                "operand 'bias' has shape %s; it must be [%llu] (N, C's columns)",
                g.bias.shape_text().c_str(), static_cast<unsigned long long>(g.n));
    if (g.n > 1 && g.bias.strides[0] != 1)
      call.fail(PORTA_ERROR_UNSUPPORTED, "operand 'bias' has stride %lld; the bias needs unit stride",
                static_cast<long long>(g.bias.strides[0]));
    require_disjoint(call, g.c, g.bias);
  }
  require_whole_words(call, g.a);
  require_whole_words(call, g.b);
  require_disjoint(call, g.c, g.a);
  require_disjoint(call, g.c, g.b);
  queue_gemm(call, g);
}

}  // namespace porta::ops
