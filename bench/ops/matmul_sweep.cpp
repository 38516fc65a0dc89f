// --sweep-matmul: times a matmul.comp source with several tile choices
// (specialization constants LX, LY, BK, TM, TN, PREFETCH and FMA), dispatched
// the way the matmul launcher does, instead of the ops: how the launcher's
// choices were made. Given a matmul_coop_f16.spv or matmul_coop_f32.spv (the
// cooperative-matrix variants, kernels/matmul/matmul_coop.comp, as the build
// leaves them in build/<preset>/kernels/spirv/), it sweeps their tilings;
// given matmul_workgroup.spv (bench/kernels/matmul_workgroup.comp, left in
// build/<preset>/bench/coopmat_peak/), the Workgroup-scope GEMM's.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "ops/op.hpp"

namespace porta::bench {
namespace {

// The launcher's push constants (kernels/matmul/matmul.cpp) for one n x n
// matrix without a bias (A's buffer bound in its place).
struct SquarePush {
  uint32_t m, n, k, lda, ldb, ldc, a_offset, b_offset, c_offset, trans_a, trans_b;
  float alpha, beta;
  uint32_t a_batch, b_batch, c_batch, row_groups, bias_offset;
};

SquarePush square_push(uint64_t n, uint32_t row_groups) {
  const uint32_t s = uint32_t(n);
  return {s, s, s, s, s, s, 0, 0, 0, 0, 0, 1.0f, 0.0f, 0, 0, 0, row_groups, 0};
}

void time_row(const Options& o, Stream& stream, const Peak& peak, Row& row,
              const std::function<void()>& run) {
  row.timer = "device (events)";
  row.flops = true;
  row.timing = time_events(stream, o.warmup, o.runs, run);
  row.rate = row.work / (row.timing.median_ms * 1e-3) / 1e9;
  if (peak.flops > 0) {
    row.bound = row.work / (row.timing.median_ms * 1e-3) / peak.flops;
    row.bound_kind = "peak FLOP/s";
  }
}

// The cooperative-matrix sweep: subgroup tiles per group (WARPS_M x WARPS_N),
// 16 x 16 accumulators per subgroup (TILES_M x TILES_N) and the slice depth
// BK, with groups of the device's subgroup size per subgroup tile. f16: A
// and B of float16 (INPUT 1); f32: bfloat16 (INPUT 2), the bf16 row's path.
void sweep_coop(const Options& o, Device& device, Stream& stream, const Peak& peak, const Row& prototype,
                const std::function<void(Row&)>& done, std::vector<uint32_t> words, bool f16) {
  struct Choice {
    uint32_t warps_m, warps_n, tiles_m, tiles_n, bk;
  };
  // Within the kernel's arrays: blocks up to 128 x 128, at most 8 subgroup
  // tiles, BK up to 32 (float16) or 16 (float32).
  const uint32_t deep = f16 ? 32 : 16;
  std::vector<Choice> choices;
  for (const Choice& ch : std::vector<Choice>{{2, 2, 1, 1, 16},
                                              {2, 2, 2, 2, 16},
                                              {2, 2, 2, 2, deep},
                                              {2, 2, 4, 2, deep},
                                              {2, 2, 2, 4, deep},
                                              {2, 4, 2, 2, deep},
                                              {4, 2, 2, 2, deep},
                                              {2, 4, 4, 2, 16},
                                              {2, 4, 4, 2, deep},
                                              {4, 2, 2, 4, 16},
                                              {4, 2, 2, 4, deep},
                                              {1, 4, 4, 2, deep},
                                              {2, 2, 4, 4, deep},
                                              {1, 2, 4, 4, deep},
                                              {2, 2, 4, 4, 16},
                                              {4, 4, 2, 2, deep}}) {
    // float32 matrices: deep is 16, so some rows would repeat.
    const auto same = [&](const Choice& o) {
      return o.warps_m == ch.warps_m && o.warps_n == ch.warps_n && o.tiles_m == ch.tiles_m &&
             o.tiles_n == ch.tiles_n && o.bk == ch.bk;
    };
    if (std::none_of(choices.begin(), choices.end(), same)) choices.push_back(ch);
  }
  const DeviceInfo info = device.info();
  const uint32_t sg = info.limits.subgroup_size ? info.limits.subgroup_size : 32;
  const std::string name = f16 ? "matmul_coop_f16" : "matmul_coop_f32";
  std::vector<uint64_t> sizes = !o.matmul.empty() ? o.matmul : std::vector<uint64_t>{4096u};
  for (uint64_t n : sizes) {
    // 16-bit elements, two per word; sizes that are multiples of 8 keep
    // every 16-byte run aligned (VEC 1).
    Buffer a = device.buffer(n * n * 2 + 4), b = device.buffer(n * n * 2 + 4), c = device.buffer(n * n * 4);
    stream.fill(a, 0.5f);  // each word's halves: 0 and a small normal number
    stream.fill(b, 0.25f);
    for (const Choice& ch : choices)
      for (uint32_t prefetch : {0u, 1u}) {
        // PREFETCH 1 holds at most 4 runs (16 bytes each) per operand and item.
        const uint64_t items = uint64_t(sg) * ch.warps_m * ch.warps_n, run = 8;  // 16-bit inputs
        if (prefetch && (16ull * ch.warps_m * ch.tiles_m * ch.bk / run > 4 * items ||
                         16ull * ch.warps_n * ch.tiles_n * ch.bk / run > 4 * items))
          continue;
        Row row = prototype;
        row.op = f16 ? "matmul_f16" : "matmul_bf16";
        row.dims = {n, n, n};
        char label[96];
        std::snprintf(label, sizeof label, "%llu^2 coop %ux%u sg, %ux%u tiles, bk%u, p%u",
                      static_cast<unsigned long long>(n), ch.warps_m, ch.warps_n, ch.tiles_m, ch.tiles_n,
                      ch.bk, prefetch);
        row.size = label;
        row.work = 2.0 * n * n * n;
        try {
          const std::vector<SpecConstant> specs = {{0u, sg * ch.warps_m * ch.warps_n},
                                                   {1u, ch.warps_m},
                                                   {2u, ch.warps_n},
                                                   {3u, ch.tiles_m},
                                                   {4u, ch.tiles_n},
                                                   {5u, ch.bk},
                                                   {6u, prefetch},
                                                   {7u, f16 ? 1u : 2u},
                                                   {10u, 1u}};
          Kernel k = device.kernel(spirv(words, name), specs);
          const uint64_t bm = 16ull * ch.warps_m * ch.tiles_m, bn = 16ull * ch.warps_n * ch.tiles_n;
          const uint32_t gx = uint32_t((n + bn - 1) / bn), gy = uint32_t((n + bm - 1) / bm);
          const SquarePush push = square_push(n, gy);
          time_row(o, stream, peak, row, [&] { stream.dispatch(k, {gx, gy, 1}, {a, b, c, a}, push); });
        } catch (const std::exception& e) {
          row.error = e.what();
        }
        done(row);
      }
  }
}

// The Workgroup-scope GEMM (bench/kernels/matmul_workgroup.comp): blocks of
// C per group, the slice depth and the group's size, each as the device's
// compiler takes them (a shape it does not list is refused, and the row says
// why).
void sweep_workgroup(const Options& o, Device& device, Stream& stream, const Peak& peak, const Row& prototype,
                     const std::function<void(Row&)>& done, const std::vector<uint32_t>& words) {
  struct Choice {
    uint32_t items, bm, bn, bk;
  };
  std::vector<Choice> choices;
  for (uint32_t items : {128u, 256u})
    for (const auto& [bm, bn] : std::vector<std::pair<uint32_t, uint32_t>>{
             {64, 64}, {64, 128}, {64, 256}, {128, 64}, {128, 128}, {128, 256}, {256, 128}})
      for (uint32_t bk : {16u, 32u, 64u}) choices.push_back({items, bm, bn, bk});
  // A device with sm_90's warpgroup MMA runs the blocks of 64 rows per 128
  // items there; the others it would run spread over the items (slowly).
  const bool warpgroups = (device.info().features & PORTA_FEATURE_COOPERATIVE_MATRIX_WORKGROUP_HW) != 0;
  std::vector<uint64_t> sizes = !o.matmul.empty() ? o.matmul : std::vector<uint64_t>{4096u};
  for (uint64_t n : sizes) {
    Buffer a = device.buffer(n * n * 2), b = device.buffer(n * n * 2), c = device.buffer(n * n * 4);
    stream.fill(a, 0.5f);
    stream.fill(b, 0.25f);
    for (const Choice& ch : choices) {
      if (n % ch.bm || n % ch.bn || n % ch.bk) continue;
      if (warpgroups && ch.bm * 128 != 64 * ch.items) continue;
      Row row = prototype;
      row.op = "matmul_f16";
      row.dims = {n, n, n};
      char label[96];
      std::snprintf(label, sizeof label, "%llu^2 workgroup %u items, %ux%u, bk%u",
                    static_cast<unsigned long long>(n), ch.items, ch.bm, ch.bn, ch.bk);
      row.size = label;
      row.work = 2.0 * n * n * n;
      try {
        Kernel k = device.kernel(spirv(words, "matmul_workgroup"),
                                 {{0u, ch.items}, {1u, ch.bm}, {2u, ch.bn}, {3u, ch.bk}});
        const SquarePush push = square_push(n, uint32_t(n / ch.bm));
        time_row(o, stream, peak, row, [&] {
          stream.dispatch(k, {uint32_t(n / ch.bn), uint32_t(n / ch.bm), 1}, {a, b, c}, push);
        });
      } catch (const std::exception& e) {
        row.error = e.what();
      }
      done(row);
    }
  }
}

}  // namespace

void sweep_matmul(const Options& o, Device& device, Stream& stream, bool cpu_type, const Peak& peak,
                  const Row& prototype, const std::function<void(Row&)>& done) {
  const std::string& path = o.sweep_source;
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".spv") == 0) {
    std::ifstream spv(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(spv)), std::istreambuf_iterator<char>());
    if (!spv.good() && !spv.eof())
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "--sweep-matmul: cannot read '" + path + "'");
    if (bytes.empty() || bytes.size() % 4)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "--sweep-matmul: '" + path + "' is not SPIR-V (" +
                                                    std::to_string(bytes.size()) + " bytes)");
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), bytes.size());
    if (path.find("matmul_workgroup") != std::string::npos)
      return sweep_workgroup(o, device, stream, peak, prototype, done, words);
    const bool f16 = path.find("matmul_coop_f16") != std::string::npos;
    if (!f16 && path.find("matmul_coop_f32") == std::string::npos)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  "--sweep-matmul: '" + path + "' is neither matmul_coop_f16.spv nor matmul_coop_f32.spv");
    return sweep_coop(o, device, stream, peak, prototype, done, std::move(words), f16);
  }
  std::ifstream in(o.sweep_source);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw Error(PORTA_ERROR_INVALID_ARGUMENT, "--sweep-matmul: cannot read '" + o.sweep_source + "'");
  struct Choice {
    uint32_t lx, ly, bk, tm, tn, prefetch, fma, vec4 = 0;
  };
  // GPUs: the tilings with the old schedule (p0,f0; the kernel from before
  // those constants sweeps the same rows from its own source), then the
  // candidates with register prefetch (1) and two shared stages (2), with
  // and without fma().
  std::vector<Choice> choices =
      cpu_type
          ? std::vector<Choice>{{8, 8, 16, 4, 4, 0, 0},  {1, 1, 16, 8, 8, 0, 0},  {2, 2, 16, 8, 8, 0, 0},
                                {4, 4, 16, 8, 8, 0, 0},  {1, 1, 8, 8, 8, 0, 0},   {8, 8, 16, 4, 4, 2, 0},
                                {2, 4, 16, 8, 8, 0, 0},  {4, 2, 16, 8, 8, 0, 0},  {8, 8, 16, 8, 8, 0, 0},
                                {8, 4, 16, 8, 8, 0, 0},  {8, 8, 16, 8, 8, 1, 0},  {8, 8, 16, 8, 8, 2, 0},
                                {8, 4, 16, 8, 8, 2, 0},  {16, 8, 16, 8, 8, 0, 0}, {8, 16, 16, 8, 8, 0, 0},
                                {16, 4, 16, 8, 8, 0, 0}, {16, 2, 16, 8, 8, 0, 0}, {4, 16, 16, 8, 8, 0, 0},
                                {16, 8, 16, 8, 8, 2, 0}, {8, 16, 16, 8, 8, 2, 0}, {16, 16, 16, 8, 8, 0, 0},
                                {16, 16, 16, 8, 8, 2, 0}}
          : std::vector<Choice>{// the old schedule
                                {16, 16, 8, 8, 8, 0, 0},
                                {16, 16, 16, 8, 8, 0, 0},
                                {16, 16, 16, 4, 4, 0, 0},
                                {16, 8, 8, 8, 8, 0, 0},
                                {16, 16, 16, 4, 8, 0, 0},
                                // 8x8 items, 256 of them
                                {16, 16, 16, 8, 8, 0, 1},
                                {16, 16, 16, 8, 8, 1, 1},
                                {16, 16, 16, 8, 8, 2, 0},
                                {16, 16, 16, 8, 8, 2, 1},
                                {16, 16, 8, 8, 8, 1, 1},
                                {16, 16, 8, 8, 8, 2, 1},
                                // 8x8 items, 128 of them
                                {16, 8, 16, 8, 8, 1, 1},
                                {16, 8, 16, 8, 8, 2, 1},
                                {16, 8, 8, 8, 8, 1, 1},
                                {16, 8, 8, 8, 8, 2, 1},
                                {8, 16, 16, 8, 8, 2, 1},
                                // 4x8 items
                                {16, 16, 16, 4, 8, 0, 1},
                                {16, 16, 16, 4, 8, 1, 1},
                                {16, 16, 16, 4, 8, 2, 1},
                                {16, 16, 8, 4, 8, 2, 1},
                                // 4x4 items (C from 256 to 1023 rows or columns)
                                {16, 16, 16, 4, 4, 2, 1}};
  // GPUs: the fma() tilings again with 16-byte global loads (VEC4 1), and
  // with row-major A loaded by depths too (3).
  if (!cpu_type) {
    const size_t base = choices.size();
    for (uint32_t vec4 : {1u, 3u})
      for (size_t i = 0; i < base; ++i)
        if (choices[i].fma != 0 && choices[i].prefetch != 0) {
          choices.push_back(choices[i]);
          choices.back().vec4 = vec4;
        }
  }
  std::vector<uint64_t> sizes = !o.matmul.empty() ? o.matmul : std::vector<uint64_t>{cpu_type ? 512u : 4096u};
  for (uint64_t n : sizes) {
    Buffer a = device.buffer(n * n * 4), b = device.buffer(n * n * 4), c = device.buffer(n * n * 4);
    stream.fill(a, 0.5f);
    stream.fill(b, 0.25f);
    for (const Choice& ch : choices) {
      Row row = prototype;
      row.op = "matmul";
      row.dims = {n, n, n};
      char label[96];
      std::snprintf(label, sizeof label, "%llu^2 %ux%u,%u,%ux%u,p%u,f%u%s",
                    static_cast<unsigned long long>(n), ch.lx, ch.ly, ch.bk, ch.tm, ch.tn, ch.prefetch,
                    ch.fma,
                    ch.vec4 == 1   ? ",v1"
                    : ch.vec4 == 3 ? ",v3"
                                   : "");
      row.size = label;
      row.work = 2.0 * n * n * n;
      try {
        // PREFETCH and FMA at 0 are the kernel's defaults and are left out,
        // so sources from before those constants can still be swept.
        std::vector<SpecConstant> specs = {{0u, ch.lx}, {1u, ch.ly}, {2u, ch.bk}, {3u, ch.tm}, {4u, ch.tn}};
        if (ch.prefetch != 0) specs.push_back({5u, ch.prefetch});
        if (ch.fma != 0) specs.push_back({6u, ch.fma});
        if (ch.vec4 != 0) specs.push_back({10u, ch.vec4});
        Kernel k = device.kernel(glsl(text.str(), "matmul"), specs);
        const uint32_t gx = uint32_t((n + ch.tn * ch.lx - 1) / (ch.tn * ch.lx));
        const uint32_t gy = uint32_t((n + ch.tm * ch.ly - 1) / (ch.tm * ch.ly));
        const SquarePush push = square_push(n, gy);
        time_row(o, stream, peak, row, [&] { stream.dispatch(k, {gx, gy, 1}, {a, b, c, a}, push); });
      } catch (const std::exception& e) {
        row.error = e.what();
      }
      done(row);
    }
  }
}

}  // namespace porta::bench
