// logreg_step: one logistic-regression step. logreg_partial.comp (X read
// once, per-group partial sums) then logreg_update.comp (partials added in
// group order, the step applied, the loss written). Both are queued on the
// stream, so a loop of steps records into one sequence. Error bound:
// bound.hpp (one step, and backends' agreement after training).
//
// X may be float32, float16, bfloat16 or int8 (with a float32 scale per
// column): the kernel reads it as 32-bit words of PACK elements
// (logreg_partial.comp, DTYPE), so its rows must start on a word.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/launch.hpp"
#include "common/tensor_view.hpp"
#include "launchers.hpp"

namespace porta::ops {

namespace {

constexpr uint64_t kTileFloats = 2048;   // logreg_partial.comp: TILE
constexpr uint64_t kRowsMax = 1024;      // ROWS_MAX
constexpr uint32_t kWorkgroupMax = 256;  // WG_MAX
constexpr uint32_t kRegisterWords = 32;  // RC_MAX: words of X (R x C) and columns (C x PACK) per item
// MODE 1 keeps R x C words of X per item in flight, as many again loading
// while a step is reduced. float32: 8 words (8 KiB per group of 256),
// measured best on an H100 (bench/README.md). Packed X takes more words,
// up to 32: its groups are narrower (a row is fewer words), so without more
// rows per step a multiprocessor holds fewer bytes in flight; but no more
// rows than keep the step's decoded elements within kKeptFloats (below), so
// each is decoded once: float16 and bfloat16 at d = 256 take 16 rows of 2
// words (CUDA on an H200: 2.35 against 2.48 ms at 8 rows), int8 16 rows of
// 1 word (at 32, the registers, 128 on CUDA, cut the groups a
// multiprocessor holds).
constexpr uint32_t kRowsTimesColumns = 8;
constexpr uint32_t kPackedRowsTimesColumns = 32;
// The most columns (C x PACK) an item keeps in registers in the plans
// chosen here; the kernel takes up to RC_MAX (PORTA_LOGREG_PLAN).
constexpr uint32_t kRegisterColumns = 16;
// The most decoded elements of X (R x C x PACK) an item keeps across a
// step's barriers for X^T r; beyond, the kernel decodes its words again
// (REDECODE): int8 at R = 16 keeps 64 floats (121 registers on CUDA, 8
// groups of 64 per H100 multiprocessor) and decodes each element once; at
// R = 32 it would need 237 registers and so decodes twice (128).
constexpr uint32_t kKeptFloats = 64;
// Groups of a step on GPUs (split_rows).
constexpr uint64_t kGpuGroups = 8192;
constexpr uint32_t kUpdateItemsMax = 256;  // logreg_update.comp: ITEMS_MAX

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

uint64_t ceil_pow2(uint64_t v) {
  uint64_t p = 1;
  while (p < v) p *= 2;
  return p;
}

uint64_t floor_pow2(uint64_t v) {
  uint64_t p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
}

// logreg_partial.comp's DTYPE (the index in kXTypes) and the elements of X
// per 32-bit word.
struct XType {
  porta_dtype dtype = PORTA_DTYPE_FLOAT32;
  uint32_t code = 0;  // DTYPE: 0 float32, 1 float16, 2 bfloat16, 3 int8
  uint32_t pack = 1;
};

constexpr XType kXTypes[] = {{PORTA_DTYPE_FLOAT32, 0, 1},
                             {PORTA_DTYPE_FLOAT16, 1, 2},
                             {PORTA_DTYPE_BFLOAT16, 2, 2},
                             {PORTA_DTYPE_INT8, 3, 4}};
constexpr XType kFloat32 = kXTypes[0];
constexpr uint32_t kInt8 = 3;

struct LogregPlan {
  uint32_t workgroup = 0;        // items per group of logreg_partial
  uint32_t mode = 0;             // logreg_partial's MODE: 0 tiles, 1 columns in registers, 2 one item
  uint32_t rows_per_tile = 0;    // rows per tile (MODE 0) or per step (MODE 1: spec constant R)
  uint32_t columns = 1;          // MODE 1: columns per item (spec constant C)
  uint32_t redecode = 0;         // MODE 1: 1 decodes X again for X^T r (spec constant REDECODE)
  uint32_t vector = 1;           // MODE 1: words per load (spec constant V), where X's offsets allow
  uint32_t lanes = 0;            // MODE 0: items per row for z (1, or workgroup / rows)
  uint32_t tiles_per_group = 0;  // tiles (MODE 0) or steps (MODE 1) per group
  uint32_t groups = 0;
  uint64_t workspace_floats = 0;  // (d + 2) per group of the most any row count up to m takes
};

// Devices whose barriers switch fibers (porta's CPU backend): groups of one
// item, which walk their rows. Where the kernel's defaults are compiled in
// (porta's CPU backend), MODE 2: no barriers, no fiber switches, and its
// compiler adds the running sums as one vec4. lavapipe, whose barriers switch
// fibers too, ends a work-item's loops after 65535 iterations in all
// (loop_limited): one item per group would need thousands of small groups,
// and 64 items share the rows ten times faster (m = 2^16, d = 256: 387 ms
// against 3844 with one item; 2026-11-25, this machine; the 101 ms measured
// before were of loops cut short). PoCL, whose work-item loops handle
// barriers cheaply, keeps 64 items too.
bool one_item_groups(const porta_device_info& info) { return fiber_barriers(info) && !loop_limited(info); }

// MODE 1's words per load (V) for packed X on GPUs: 4, else 2, where a row's
// words divide into them and 64 items still share a row; else 1. A row's
// dot product then has a quarter (half) as many shares to add up, and an
// item one load per V words. Measured on an H200 (m = 2^24, d = 256, the
// float32 step 4.40 ms): float16 64 items x 2 words (R = 8, 8-byte loads)
// 2.51 ms, 32 x 4 (R = 8) 2.64, 32 x 4 (R = 4) 3.25, word by word (128
// items, R = 16) 2.86; int8 word by word (64 items, R = 16) 2.50 ms, 32 x 2
// (R = 8) 2.62, 16 x 4 4.79.
uint32_t packed_vector(const porta_device_info& device, uint64_t words, XType type) {
  if (type.pack == 1 || cpu_like(device)) return 1;
  for (uint32_t v : {4u, 2u})
    if (words % v == 0 && words / v >= 64) return v;
  return 1;
}

// How items share the work: the group size, MODE and the shape of a tile (or
// step), before the rows are split among groups.
LogregPlan shape_plan(const porta_device_info& device, uint64_t d, XType type) {
  LogregPlan plan;
  // CPU-type devices run work-items as loop iterations or fibers: fewer per
  // group means less switching at each barrier. GPUs want full groups.
  plan.workgroup = workgroup_size(device, cpu_like(device) ? 64 : kWorkgroupMax);
  // GPUs, d >= 32: columns in registers, with a group no wider than the row
  // (every item owns a word of PACK columns) up to 256 items, then C words
  // per item. A word per item keeps the loads of packed X coalesced (a warp
  // reads consecutive words) and as many bytes in flight as float32's.
  const uint64_t words = (d + type.pack - 1) / type.pack;
  const uint32_t vector = packed_vector(device, words, type);
  const uint32_t row_group = workgroup_size(
      device, static_cast<uint32_t>(std::min<uint64_t>(ceil_pow2(ceil_div(words, vector)), kWorkgroupMax)));
  const uint64_t columns = ceil_div(words, uint64_t(row_group) * vector) * vector;
  const uint32_t in_flight = type.pack > 1 ? kPackedRowsTimesColumns : kRowsTimesColumns;
  if (!cpu_like(device) && d >= 32 && row_group >= 32 && columns <= in_flight &&
      columns * type.pack <= kRegisterColumns) {
    plan.mode = 1;
    plan.workgroup = row_group;
    plan.columns = static_cast<uint32_t>(columns);
    plan.vector = vector;
    // R <= WG and R WG <= TILE (the kernel's precondition).
    plan.rows_per_tile = static_cast<uint32_t>(std::min<uint64_t>(
        {floor_pow2(in_flight / columns), row_group, kTileFloats / row_group,
         type.pack > 1 ? std::max<uint64_t>(floor_pow2(kKeptFloats / (columns * type.pack)), 1) : kRowsMax}));
    plan.lanes = 1;
    plan.redecode = uint64_t(plan.rows_per_tile) * plan.columns * type.pack > kKeptFloats;
    static_assert(kPackedRowsTimesColumns <= kRegisterWords && kRegisterColumns <= kRegisterWords,
                  "MODE 1 needs R * C <= RC_MAX and C * PACK <= RC_MAX");
  } else if (one_item_groups(device)) {
    plan.mode = precompiled_defaults(device) ? 2 : 0;
    plan.workgroup = 1;
    plan.rows_per_tile = 1;
    plan.lanes = 1;
  } else if (d <= kTileFloats) {
    uint64_t rows = std::min<uint64_t>(kRowsMax, kTileFloats / d);
    if (rows < plan.workgroup) rows = floor_pow2(rows);  // so lanes = workgroup / rows is exact
    plan.rows_per_tile = static_cast<uint32_t>(rows);
    plan.lanes = rows < plan.workgroup ? plan.workgroup / static_cast<uint32_t>(rows) : 1;
  } else {
    plan.rows_per_tile = 1;
    plan.lanes = 1;
  }
  return plan;
}

uint64_t log2_of(uint64_t pow2) {
  uint64_t n = 0;
  while (pow2 > 1) pow2 /= 2, ++n;
  return n;
}

// Loop iterations one item of logreg_partial.comp makes per tile (MODE 0),
// step (MODE 1) or row (MODE 2), counting every loop of the code, those of
// four fixed trips too, at its full trip count: an upper bound, whatever the
// driver's compiler unrolls.
uint64_t partial_iterations_per_tile(const LogregPlan& p, uint64_t d, XType type) {
  const uint64_t wg = p.workgroup, r = p.rows_per_tile, t = p.lanes, c = p.columns;
  if (p.mode == 1)  // copy and load R x C words, the dot products (PACK per word), two levels of sums, X^T r
    return 1 + r * c + 3 * r * (c * type.pack + c + 1) + r + wg / r;
  if (p.mode == 2)  // z over four columns at a time and the rest, then x r likewise
    return 1 + 2 * (ceil_div(d, 4) + 3);
  if (d > kTileFloats) return 1 + 2 * ceil_div(d, wg) + log2_of(wg);
  uint64_t n = 1 + ceil_div(r * d, 4 * wg) * 9;  // the tile's loads: two loops of four per pass
  n += t == 1 ? ceil_div(r, wg) * (d + 1) : ceil_div(d, t) + log2_of(t);
  n += d >= wg ? ceil_div(d, wg) * (r + 1) : ceil_div(r, wg / d) + wg / d;
  return n;
}

// Splits the m rows into groups of consecutive tiles. Where the driver ends a
// work-item's loops after PORTA_LOOP_LIMIT_ITERATIONS in all (Mesa's llvmpipe,
// loop_limited), each group takes few enough tiles to stay below half of it
// (room for what the count leaves out), and logreg_update.comp's loop over
// the groups must fit too. False when the rows cannot be split so.
// `groups`: at most that many groups (PORTA_LOGREG_PLAN), 0 for the device's
// own number.
bool split_rows(LogregPlan& plan, const porta_device_info& device, uint64_t m, uint64_t d, XType type,
                uint64_t groups = 0) {
  // Enough groups to fill the device; each takes consecutive tiles. GPUs:
  // 8192 groups, of 64 items (16-bit and int8 X at d = 256) or of 256
  // (float32). On an H200 at m = 2^24, with logreg_update.comp's groups of
  // one column: float16 2.21-2.23 / 2.46-2.48 / 2.03 ms on CUDA / Vulkan /
  // OpenCL with 8192 groups against 2.29 / 2.53 / 2.03 with 4096 and
  // 2.28-2.29 / 2.46-2.47 / 2.09 with 16384; float32 4.07-4.10 / 4.54-4.58
  // / 4.00-4.05 against 4.12 / 4.57 / 4.12 with 4096 (bench/README.md).
  const uint64_t target_groups = groups                    ? groups
                                 : one_item_groups(device) ? 64
                                 : cpu_like(device)        ? 32
                                                           : kGpuGroups;
  const uint64_t tiles = ceil_div(m, plan.rows_per_tile);
  uint64_t per_group = ceil_div(tiles, target_groups);
  if (loop_limited(device)) {
    const uint64_t budget = PORTA_LOOP_LIMIT_ITERATIONS / 2;
    // The group's sums and the weights (MODE 1); MODE 2 zeroes its slot and
    // scales it for int8.
    const uint64_t fixed = 2 * (plan.workgroup + 1) + plan.columns * type.pack * 2 +
                           (plan.mode == 2 ? (type.code == kInt8 ? 2 : 1) * d : 0);
    const uint64_t per_tile = partial_iterations_per_tile(plan, d, type);
    if (fixed + per_tile > budget) return false;
    per_group = std::min(per_group, (budget - fixed) / per_tile);
    if (ceil_div(tiles, per_group) > budget) return false;  // logreg_update's loop over the groups
  }
  if (ceil_div(tiles, per_group) > device.limits.max_workgroup_count[0]) return false;
  plan.tiles_per_group = static_cast<uint32_t>(per_group);
  plan.groups = static_cast<uint32_t>(ceil_div(tiles, per_group));
  // Fewer rows may take more groups (33 tiles: 17 groups of 2; 32 tiles: 32
  // of 1), so the partials are sized for every row count up to m: a
  // workspace for m rows serves a step of fewer (a last chunk, a piece).
  // Unlimited, a plan never has more than min(tiles, target_groups) groups;
  // under a loop limit beyond that, ceil(tiles / per_group) grows with m.
  const uint64_t most_groups = std::max<uint64_t>(plan.groups, std::min(tiles, target_groups));
  plan.workspace_floats = most_groups * (d + 2);
  return true;
}

// PORTA_LOGREG_PLAN (a benchmarking knob, read once): "WG:R:C" or
// "WG:R:C:G", optionally followed by "/once" or "/twice", runs every step in
// MODE 1 (columns in registers) with groups of WG items, R rows per step, C
// words of a row per item and at most G groups (without G, as many as the
// device's own plan would take), decoding X once or twice per step
// (REDECODE; without it, as kKeptFloats decides) and V words per load
// (/v1, /v2, /v4; where X's shape and offsets allow), on every device, so
// that one GPU run compares plans side by side. A malformed value, or one that
// cannot take X's shape and type on the device, is refused naming the knob.
struct PlanKnob {
  bool set = false;
  bool well_formed = false;
  std::string text;
  uint32_t workgroup = 0, rows = 0, columns = 0, groups = 0;
  int redecode = -1;  // 0 once, 1 twice, -1 by kKeptFloats
  uint32_t vector = 1;  // V, words per load
};

// A decimal field of the knob: digits only, at most 9.
bool parse_field(const std::string& field, uint32_t& value) {
  if (field.empty() || field.size() > 9 || field.find_first_not_of("0123456789") != std::string::npos)
    return false;
  value = static_cast<uint32_t>(std::stoul(field));
  return true;
}

const PlanKnob& plan_knob() {
  static const PlanKnob knob = [] {
    PlanKnob k;
    const char* env = std::getenv("PORTA_LOGREG_PLAN");
    if (!env || !*env) return k;
    k.set = true;
    k.text = env;
    std::string plan = k.text;
    // Suffixes: /once or /twice, /v1, /v2 or /v4, each at most once.
    bool decode_given = false, vector_given = false;
    for (size_t slash = plan.rfind('/'); slash != std::string::npos; slash = plan.rfind('/')) {
      const std::string suffix = plan.substr(slash + 1);
      if ((suffix == "once" || suffix == "twice") && !decode_given) {
        k.redecode = suffix == "twice";
        decode_given = true;
      } else if ((suffix == "v1" || suffix == "v2" || suffix == "v4") && !vector_given) {
        k.vector = static_cast<uint32_t>(suffix[1] - '0');
        vector_given = true;
      } else {
        return k;
      }
      plan.resize(slash);
    }
    std::vector<uint32_t> fields;
    size_t start = 0;
    bool ok = true;
    while (ok) {
      const size_t colon = plan.find(':', start);
      uint32_t v = 0;
      ok = parse_field(plan.substr(start, colon == std::string::npos ? std::string::npos : colon - start), v);
      fields.push_back(v);
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
    if (!ok || (fields.size() != 3 && fields.size() != 4)) return k;
    k.workgroup = fields[0];
    k.rows = fields[1];
    k.columns = fields[2];
    k.groups = fields.size() == 4 ? fields[3] : 0;
    const auto pow2 = [](uint32_t v) { return v > 0 && (v & (v - 1)) == 0; };
    k.well_formed = pow2(k.workgroup) && k.workgroup <= kWorkgroupMax && pow2(k.rows) &&
                    k.rows <= k.workgroup && uint64_t(k.rows) * k.workgroup <= kTileFloats && k.columns > 0 &&
                    uint64_t(k.rows) * k.columns <= kRegisterWords && (fields.size() == 3 || k.groups > 0) &&
                    k.columns % k.vector == 0;
    return k;
  }();
  return knob;
}

[[noreturn]] void refuse_malformed_knob(const OpCall& call, const PlanKnob& knob) {
  call.fail(
      PORTA_ERROR_INVALID_ARGUMENT,
      "PORTA_LOGREG_PLAN is '%s'; it must be WG:R:C or WG:R:C:G, then optionally /once or /twice and /v1, "
      "/v2 or /v4 (e.g. 128:16:1, 64:16:1:1848/twice, 32:4:4/v4): groups of WG items (a power of two up to "
      "%u), R rows per step (a power of two, R <= WG, R WG <= %llu), C words of a row per item (R C <= %u, "
      "a multiple of V), at most G groups (G >= 1), X decoded once or twice per step, V words per load",
      knob.text.c_str(), kWorkgroupMax, static_cast<unsigned long long>(kTileFloats), kRegisterWords);
}

// The plan PORTA_LOGREG_PLAN asks for (well formed) at d columns of `type`,
// before the rows are split; false, with the reason in `why`, where it
// cannot take them on this device.
bool knob_shape(const PlanKnob& knob, const porta_device_info& device, uint64_t d, XType type,
                LogregPlan& plan, std::string& why) {
  const uint64_t words = (d + type.pack - 1) / type.pack;
  char text[256];
  if (workgroup_size(device, knob.workgroup) != knob.workgroup) {
    std::snprintf(text, sizeof text, "the device's groups hold at most %u items",
                  std::min(device.limits.max_workgroup_invocations, device.limits.max_workgroup_size[0]));
  } else if (uint64_t(knob.columns) * type.pack > kRegisterWords) {
    std::snprintf(text, sizeof text, "C = %u words of %u elements (%s) are more than %u columns per item",
                  knob.columns, type.pack, dtype_name(type.dtype), kRegisterWords);
  } else if (uint64_t(knob.workgroup) * knob.columns < words) {
    std::snprintf(text, sizeof text, "WG C = %u words do not cover a row of X (d = %llu, %s: %llu words)",
                  knob.workgroup * knob.columns, static_cast<unsigned long long>(d), dtype_name(type.dtype),
                  static_cast<unsigned long long>(words));
  } else {
    plan = LogregPlan{};
    plan.mode = 1;
    plan.workgroup = knob.workgroup;
    plan.rows_per_tile = knob.rows;
    plan.columns = knob.columns;
    plan.vector = knob.vector;
    plan.lanes = 1;
    plan.redecode = knob.redecode >= 0 ? static_cast<uint32_t>(knob.redecode)
                                       : uint64_t(knob.rows) * knob.columns * type.pack > kKeptFloats;
    return true;
  }
  why = text;
  return false;
}

// X's shape within what one step's kernels index.
void check_shape(const OpCall& call, uint64_t m, uint64_t d) {
  if (m == 0 || d == 0)
    call.fail(PORTA_ERROR_INVALID_ARGUMENT, "X is %llu x %llu: %s", static_cast<unsigned long long>(m),
              static_cast<unsigned long long>(d),
              m == 0 ? "m = 0, there are no samples" : "d = 0, there are no features");
  // One piece of X: for_each_row_piece keeps its elements within 32-bit
  // indices, so the last one's index is at most max_index_elements().
  const uint64_t most = max_index_elements() + 1;
  if (m > most || d > most || m * d > most)
    call.fail(PORTA_ERROR_UNSUPPORTED, "X is %llu x %llu: an element's index in one piece past %s",
              static_cast<unsigned long long>(m), static_cast<unsigned long long>(d),
              index_limit_text().c_str());
}

LogregPlan plan_logreg(const OpCall& call, uint64_t m, uint64_t d, XType type) {
  check_shape(call, m, d);
  const porta_device_info& device = call.info;
  const PlanKnob& knob = plan_knob();
  LogregPlan plan = shape_plan(device, d, type);
  if (knob.set) {
    std::string why;
    if (!knob.well_formed) refuse_malformed_knob(call, knob);
    if (!knob_shape(knob, device, d, type, plan, why))
      call.fail(PORTA_ERROR_INVALID_ARGUMENT,
                "PORTA_LOGREG_PLAN is '%s', which cannot take X (%llu x %llu, %s): %s", knob.text.c_str(),
                static_cast<unsigned long long>(m), static_cast<unsigned long long>(d),
                dtype_name(type.dtype), why.c_str());
  }
  if (split_rows(plan, device, m, d, type, knob.set ? knob.groups : 0)) return plan;
  if (loop_limited(device))
    call.fail(PORTA_ERROR_UNSUPPORTED,
              "X is %llu x %llu: more work per work-item than the device's loop limit allows (%u loop "
              "iterations per item in all, PORTA_DEVICE_FLAG_LOOP_LIMIT) within %u work-groups",
              static_cast<unsigned long long>(m), static_cast<unsigned long long>(d),
              PORTA_LOOP_LIMIT_ITERATIONS, device.limits.max_workgroup_count[0]);
  call.fail(PORTA_ERROR_UNSUPPORTED, "X is %llu x %llu: more rows than %u work-groups can take",
            static_cast<unsigned long long>(m), static_cast<unsigned long long>(d),
            device.limits.max_workgroup_count[0]);
}

}  // namespace

void logreg_workspace_size(porta_device device, uint64_t m, uint64_t d, uint64_t* bytes) {
  const OpCall call = begin_device_call(device, "porta_ops_logreg_workspace_size");
  if (!bytes) call.fail(PORTA_ERROR_INVALID_ARGUMENT, "bytes is null");
  if (m > 0 && d > max_index_elements() + 1)
    call.fail(PORTA_ERROR_UNSUPPORTED, "X is %llu x %llu: more than %s elements in a row",
              static_cast<unsigned long long>(m), static_cast<unsigned long long>(d),
              index_limit_text().c_str());
  // X beyond 32-bit indices is stepped in pieces of at most `rows` rows (a
  // piece's elements stay within the index limit); the partials of one piece
  // are what the workspace holds. Enough for X of any dtype: packed X may
  // split the rows among more groups.
  const uint64_t rows = d > 0 ? std::min(m, (max_index_elements() + 1) / d) : m;
  // With PORTA_LOGREG_PLAN, also the plans it gives for the dtypes it takes
  // (a step on a dtype it cannot take is refused).
  const PlanKnob& knob = plan_knob();
  if (knob.set && !knob.well_formed) refuse_malformed_knob(call, knob);
  check_shape(call, std::max<uint64_t>(rows, m > 0), d);
  const uint64_t piece_rows = std::max<uint64_t>(rows, 1);
  // The float32 step's plan (or its refusal) first.
  uint64_t floats = knob.set ? 0 : plan_logreg(call, piece_rows, d, kFloat32).workspace_floats;
  for (XType type : kXTypes) {
    LogregPlan plan = shape_plan(call.info, d, type);
    if (split_rows(plan, call.info, piece_rows, d, type)) floats = std::max(floats, plan.workspace_floats);
    std::string why;
    if (knob.set && knob_shape(knob, call.info, d, type, plan, why) &&
        split_rows(plan, call.info, piece_rows, d, type, knob.groups))
      floats = std::max(floats, plan.workspace_floats);
  }
  // The plan knob splits the rows of no dtype: its float32 step's refusal.
  if (floats == 0) floats = plan_logreg(call, piece_rows, d, kFloat32).workspace_floats;
  *bytes = floats * sizeof(float);
}

namespace {

// Where logreg_update.comp writes: w (d), the bias and the loss, each a
// buffer and an element offset.
struct UpdateTarget {
  porta_buffer w = nullptr, b = nullptr, loss = nullptr;
  uint32_t w_offset = 0, b_offset = 0, loss_offset = 0;
};

// PORTA_LOGREG_UPDATE (a benchmarking knob, read once): "LX:S", the shape
// of logreg_update.comp's groups on every device: LX columns, S slices of
// items per column (powers of two, LX S <= 256).
struct UpdateKnob {
  bool set = false;
  bool well_formed = false;
  std::string text;
  uint32_t columns = 0, slices = 0;
};

const UpdateKnob& update_knob() {
  static const UpdateKnob knob = [] {
    UpdateKnob k;
    const char* env = std::getenv("PORTA_LOGREG_UPDATE");
    if (!env || !*env) return k;
    k.set = true;
    k.text = env;
    const size_t colon = k.text.find(':');
    const auto pow2 = [](uint32_t v) { return v > 0 && (v & (v - 1)) == 0; };
    k.well_formed = colon != std::string::npos && parse_field(k.text.substr(0, colon), k.columns) &&
                    parse_field(k.text.substr(colon + 1), k.slices) && pow2(k.columns) && pow2(k.slices) &&
                    uint64_t(k.columns) * k.slices <= kUpdateItemsMax;
    return k;
  }();
  return knob;
}

// Queues logreg_update.comp over `groups` slots of partials: the step
// (w -= lr * sum / m, ...) or, with `accumulate`, the sums added as they are.
void queue_update(const OpCall& call, porta_buffer partials, uint32_t partials_offset, uint32_t groups,
                  uint64_t d, const UpdateTarget& target, float m, float lr, bool accumulate) {
  // GPUs: a column's partials spread over as many items as a group's second
  // dimension takes, up to 256, with 256 / S columns per group: one column of
  // 256 items where the device allows. On an H200 (m = 2^24, d = 256, 4096
  // groups of partials) CUDA's float16 step took 2.29 ms so against 2.36 with
  // 16 columns x 16 slices and 2.30 with 4 x 64; float32 4.21 against
  // 4.27-4.30. CPU-type devices: 64 columns, one slice, in group order.
  const porta_device_limits& limits = call.info.limits;
  const uint32_t slices_max = static_cast<uint32_t>(floor_pow2(
      std::min<uint64_t>({kUpdateItemsMax, limits.max_workgroup_size[1], limits.max_workgroup_invocations})));
  const bool spread = !cpu_like(call.info) && slices_max >= 16;
  uint32_t update_slices = spread ? slices_max : 1;
  uint32_t update_wg = spread ? kUpdateItemsMax / update_slices : workgroup_size(call.info, 64);
  if (const UpdateKnob& knob = update_knob(); knob.set) {
    if (!knob.well_formed || knob.columns * knob.slices > limits.max_workgroup_invocations ||
        knob.columns > limits.max_workgroup_size[0] || knob.slices > limits.max_workgroup_size[1])
      call.fail(PORTA_ERROR_INVALID_ARGUMENT,
                "PORTA_LOGREG_UPDATE is '%s'; it must be LX:S, powers of two with LX S <= %u and within the "
                "device's group limits (%u items, %u x %u)",
                knob.text.c_str(), kUpdateItemsMax, limits.max_workgroup_invocations, limits.max_workgroup_size[0],
                limits.max_workgroup_size[1]);
    update_wg = knob.columns;
    update_slices = knob.slices;
  }
  const uint64_t update_groups = (d + 2 + update_wg - 1) / update_wg;
  if (update_groups > call.info.limits.max_workgroup_count[0])
    call.fail(PORTA_ERROR_UNSUPPORTED, "d = %llu features need more work-groups than the device allows",
              static_cast<unsigned long long>(d));
  struct {
    uint32_t d, groups, w_offset, b_offset, loss_offset, partials_offset;
    float m, lr;
    uint32_t accumulate;
  } push{static_cast<uint32_t>(d),
         groups,
         target.w_offset,
         target.b_offset,
         target.loss_offset,
         partials_offset,
         m,
         lr,
         accumulate ? 1u : 0u};
  auto update = builtin_kernel(call, "logreg_update", {{0, update_wg}, {1, update_slices}});
  dispatch(call, update, static_cast<uint32_t>(update_groups), 1, {partials, target.w, target.b, target.loss},
           push);
}

}  // namespace

void launch_logreg(porta_stream stream, const porta_tensor* x_tensor, const porta_tensor* x_scale_tensor,
                   const porta_tensor* y_tensor, const porta_tensor* w_tensor, const porta_tensor* b_tensor,
                   float lr, const porta_tensor* loss_tensor, const porta_tensor* sums_tensor,
                   const porta_tensor* workspace_tensor, const char* function) {
  const OpCall call = begin_call(stream, function);
  const bool gradient = sums_tensor != nullptr;  // porta_ops_logreg_gradient: sums, no step
  if (!std::isfinite(lr))
    call.fail(PORTA_ERROR_INVALID_ARGUMENT, "learning rate lr = %g is not finite", static_cast<double>(lr));
  if (gradient)
    require_float32(call, {x_scale_tensor, y_tensor, w_tensor, b_tensor, sums_tensor, workspace_tensor},
                    {"x_scale", "y", "w", "b", "sums", "workspace"});
  else
    require_float32(call, {x_scale_tensor, y_tensor, w_tensor, b_tensor, loss_tensor, workspace_tensor},
                    {"x_scale", "y", "w", "b", "loss", "workspace"});
  // X in any of the types logreg_partial.comp decodes; the rest float32.
  XType type = kFloat32;
  if (x_tensor) {
    const XType* found = nullptr;
    for (const XType& t : kXTypes)
      if (t.dtype == x_tensor->dtype) found = &t;
    if (!found && !dtype_name(x_tensor->dtype))
      call.fail(PORTA_ERROR_INVALID_ARGUMENT, "operand 'X' has dtype %d, which is not a porta_dtype",
                static_cast<int>(x_tensor->dtype));
    if (!found)
      call.fail(PORTA_ERROR_UNSUPPORTED,
                "operand 'X' is %s; X may be float32, float16, bfloat16 or int8 (with x_scale)",
                dtype_name(x_tensor->dtype));
    type = *found;
    if (type.code == kInt8 && !x_scale_tensor)
      call.fail(PORTA_ERROR_INVALID_ARGUMENT,
                "operand 'x_scale' is null; int8 X needs a float32 scale per column "
                "(porta_ops_logreg_step_scaled)");
    if (type.code != kInt8 && x_scale_tensor)
      call.fail(PORTA_ERROR_INVALID_ARGUMENT, "'x_scale' is given but X is %s; only int8 X has a scale",
                dtype_name(x_tensor->dtype));
  }
  // X and y of any size: they are split into row pieces below.
  const View x = view(call, x_tensor, "X", x_tensor ? x_tensor->dtype : PORTA_DTYPE_FLOAT32, Extent::pieces),
             y = view(call, y_tensor, "y", PORTA_DTYPE_FLOAT32, Extent::pieces),
             w = view(call, w_tensor, "w"), b = view(call, b_tensor, "b"),
             out = gradient ? view(call, sums_tensor, "sums") : view(call, loss_tensor, "loss");
  View x_scale_view;
  if (x_scale_tensor) x_scale_view = view(call, x_scale_tensor, "x_scale");
  View workspace_view;
  const View* workspace = nullptr;
  if (workspace_tensor) {
    workspace_view = view(call, workspace_tensor, "workspace");
    workspace = &workspace_view;
  }
  require_rank(call, x, 2);
  const uint64_t m = x.shape[0], d = x.shape[1];
  const uint32_t ldx = row_stride(call, x);
  if (type.pack > 1) {
    // Rows start on a 32-bit word, and the word holding X's last element lies in the buffer.
    if (x.offset % type.pack || (m > 1 && ldx % type.pack))
      call.fail(PORTA_ERROR_UNSUPPORTED,
                "X (%s, %s) has element offset %llu and row stride %u; %s X is read in 32-bit words, "
                "so both must be multiples of %u (pad the rows)",
                dtype_name(x_tensor->dtype), x.shape_text().c_str(),
                static_cast<unsigned long long>(x.offset), ldx, dtype_name(x_tensor->dtype), type.pack);
    const uint64_t words_end = (x.end + type.pack - 1) / type.pack;
    if (words_end * 4 > x.buffer_bytes)
      call.fail(PORTA_ERROR_INVALID_ARGUMENT,
                "X (%s, %s) ends inside the last 32-bit word of its %llu-byte buffer, past its end; %s X is "
                "read in whole words, so the buffer needs %llu bytes",
                dtype_name(x_tensor->dtype), x.shape_text().c_str(),
                static_cast<unsigned long long>(x.buffer_bytes), dtype_name(x_tensor->dtype),
                static_cast<unsigned long long>(words_end * 4));
  }
  auto require_elements = [&](const View& v, uint64_t n, const char* what) {
    require_contiguous(call, v);
    if (v.elements != n)
      call.fail(PORTA_ERROR_INVALID_ARGUMENT,
                "'%s' is %s (%llu elements) but X is %llu x %llu, so it needs %s", v.name.c_str(),
                v.shape_text().c_str(), static_cast<unsigned long long>(v.elements),
                static_cast<unsigned long long>(m), static_cast<unsigned long long>(d), what);
  };
  require_elements(y, m, "m elements (one label per row)");
  require_elements(w, d, "d elements (one weight per column)");
  require_elements(b, 1, "1 element");
  if (gradient)
    require_elements(out, d + 2, "d + 2 elements (the sums of X^T r, of r and of the loss)");
  else
    require_elements(out, 1, "1 element");
  if (x_scale_tensor) require_elements(x_scale_view, d, "d elements (one scale per column)");
  if (workspace) require_contiguous(call, *workspace);
  // Outputs never share memory with inputs or with each other (the gradient's
  // inputs w and b may share a buffer; it writes only the sums).
  std::vector<const View*> outputs = {&out};
  if (!gradient) outputs = {&w, &b, &out};
  if (workspace) outputs.push_back(workspace);
  for (size_t i = 0; i < outputs.size(); ++i) {
    require_disjoint(call, *outputs[i], x);
    require_disjoint(call, *outputs[i], y);
    if (x_scale_tensor) require_disjoint(call, *outputs[i], x_scale_view);
    if (gradient) {
      require_disjoint(call, *outputs[i], w);
      require_disjoint(call, *outputs[i], b);
    }
    for (size_t j = 0; j < i; ++j) require_disjoint(call, *outputs[i], *outputs[j]);
  }

  // X and y in row pieces of at most max_binding_bytes each whose elements
  // the kernel's 32-bit indices reach (one piece of whole buffers where the
  // device binds them whole and X is within 2^31 - 1 elements). X is split in
  // 32-bit words: rows start on a word (checked above), so a piece's offset
  // in words times PACK is its offset in elements.
  View x_words = x;
  x_words.offset = x.offset / type.pack;
  const uint64_t ldx_words = m > 1 ? ldx / type.pack : 1, row_words = (d + type.pack - 1) / type.pack;
  std::vector<Piece> pieces;
  for_each_row_piece(
      call, {RowOperand{&x_words, ldx_words, row_words, true, type.pack}, RowOperand{&y, 1, 1, true}}, m, 1,
      [&](const Piece& piece) { pieces.push_back(piece); });
  std::vector<LogregPlan> plans;
  uint64_t partial_floats = 0;
  for (const Piece& piece : pieces) {
    plans.push_back(plan_logreg(call, piece.count, d, type));
    partial_floats = std::max(partial_floats, plans.back().workspace_floats);
  }
  const bool split = pieces.size() > 1;
  if (workspace && !split && workspace->elements < partial_floats)
    call.fail(PORTA_ERROR_INVALID_ARGUMENT,
              "'workspace' has %llu elements; this step needs %llu "
              "(porta_ops_logreg_workspace_size)",
              static_cast<unsigned long long>(workspace->elements),
              static_cast<unsigned long long>(partial_floats));

  // The partials: the caller's workspace, else (or where pieces need more
  // than porta_ops_logreg_workspace_size could foresee) a buffer of our own.
  porta::Buffer own;
  porta_buffer partials = nullptr;
  uint32_t partials_offset = 0;
  if (workspace && workspace->elements >= partial_floats) {
    partials = workspace->buffer;
    partials_offset = static_cast<uint32_t>(workspace->offset);
  } else {
    own = scratch_buffer(call, partial_floats * sizeof(float));
    partials = own.handle();
  }
  // Where the pieces' sums go: the step's own outputs (one piece), the
  // gradient's sums, or (a step in pieces) d + 2 floats added up piece by
  // piece, then one step from them.
  UpdateTarget target;
  porta::Buffer sums;
  if (gradient) {
    target = {out.buffer,
              out.buffer,
              out.buffer,
              static_cast<uint32_t>(out.offset),
              static_cast<uint32_t>(out.offset + d),
              static_cast<uint32_t>(out.offset + d + 1)};
  } else if (split) {
    sums = scratch_buffer(call, (d + 2) * sizeof(float));
    const porta_status status = porta_stream_fill(call.stream, sums.handle(), 0, (d + 2) * sizeof(float), 0);
    if (status != PORTA_SUCCESS) throw porta::Error(status, std::string(call.op) + ": " + porta_last_error());
    target = {sums.handle(),
              sums.handle(),
              sums.handle(),
              0,
              static_cast<uint32_t>(d),
              static_cast<uint32_t>(d + 1)};
  } else {
    target = {w.buffer,
              b.buffer,
              out.buffer,
              static_cast<uint32_t>(w.offset),
              static_cast<uint32_t>(b.offset),
              static_cast<uint32_t>(out.offset)};
  }

  // Without int8 X the kernel reads no scale: w's buffer fills the binding.
  const porta_buffer scale = x_scale_tensor ? x_scale_view.buffer : w.buffer;
  for (size_t k = 0; k < pieces.size(); ++k) {
    const Piece& piece = pieces[k];
    const LogregPlan& plan = plans[k];
    struct {
      uint32_t m, d, x_offset, ldx, y_offset, w_offset, b_offset, rows_per_tile, lanes, tiles_per_group,
          partials_offset, scale_offset;
    } partial_push{static_cast<uint32_t>(piece.count),
                   static_cast<uint32_t>(d),
                   piece.offset[0] * type.pack,
                   ldx,
                   piece.offset[1],
                   static_cast<uint32_t>(w.offset),
                   static_cast<uint32_t>(b.offset),
                   plan.rows_per_tile,
                   plan.lanes,
                   plan.tiles_per_group,
                   partials_offset,
                   static_cast<uint32_t>(x_scale_tensor ? x_scale_view.offset : 0)};
    // V words per load where a row's words, the piece's first word and X's
    // row stride in words are multiples of V; else one word at a time, the
    // same columns per item.
    const bool vectors =
        row_words % plan.vector == 0 && piece.offset[0] % plan.vector == 0 && ldx_words % plan.vector == 0;
    // MODE 0 and 2 keep the kernel's defaults for R and C: one variant per
    // group size and mode (and X's type, float32 the default).
    auto partial =
        plan.mode == 1 ? builtin_kernel(call, "logreg_partial",
                                        {{0, plan.workgroup},
                                         {1, 1},
                                         {2, plan.rows_per_tile},
                                         {3, plan.columns},
                                         {4, type.code},
                                         {5, plan.redecode},
                                         {6, vectors ? plan.vector : 1}})
        : type.code
            ? builtin_kernel(call, "logreg_partial", {{0, plan.workgroup}, {1, plan.mode}, {4, type.code}})
            : builtin_kernel(call, "logreg_partial", {{0, plan.workgroup}, {1, plan.mode}});
    dispatch_ranges(call, partial, plan.groups, 1,
                    {piece.binding[0],
                     piece.binding[1],
                     {w.buffer, 0, 0},
                     {b.buffer, 0, 0},
                     {partials, 0, 0},
                     {scale, 0, 0}},
                    &partial_push, sizeof partial_push);
    queue_update(call, partials, partials_offset, plan.groups, d, target, static_cast<float>(m), lr,
                 gradient || split);
  }
  // A step in pieces: the step itself, from the pieces' sums (one slot).
  if (!gradient && split)
    queue_update(call, sums.handle(), 0, 1, d,
                 {w.buffer, b.buffer, out.buffer, static_cast<uint32_t>(w.offset),
                  static_cast<uint32_t>(b.offset), static_cast<uint32_t>(out.offset)},
                 static_cast<float>(m), lr, false);
}

}  // namespace porta::ops
