// --sweep-matmul: times a matmul.comp source with several tile choices
// (specialization constants LX, LY, BK, TM, TN, PREFETCH and FMA), dispatched
// the way the matmul launcher does, instead of the ops: how the launcher's
// choices were made.
#include <cstdio>
#include <fstream>
#include <sstream>

#include "ops/op.hpp"

namespace porta::bench {

void sweep_matmul(const Options& o, Device& device, Stream& stream, bool cpu_type, const Peak& peak,
                  const Row& prototype, const std::function<void(Row&)>& done) {
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
      row.timer = "device (events)";
      row.flops = true;
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
        // The launcher's push constants (kernels/matmul/matmul.cpp): one
        // matrix, no bias (A's buffer bound in its place).
        struct {
          uint32_t m, n, k, lda, ldb, ldc, a_offset, b_offset, c_offset, trans_a, trans_b;
          float alpha, beta;
          uint32_t a_batch, b_batch, c_batch, row_groups, bias_offset;
        } push{uint32_t(n), uint32_t(n), uint32_t(n), uint32_t(n), uint32_t(n), uint32_t(n), 0, 0,  0,
               0,           0,           1.0f,        0.0f,        0,           0,           0, gy, 0};
        row.timing = time_events(stream, o.warmup, o.runs, [&] {
          stream.dispatch(k, {gx, gy, 1}, {a, b, c, a}, push);
        });
        row.rate = row.work / (row.timing.median_ms * 1e-3) / 1e9;
        if (peak.flops > 0) {
          row.bound = row.work / (row.timing.median_ms * 1e-3) / peak.flops;
          row.bound_kind = "peak FLOP/s";
        }
      } catch (const std::exception& e) {
        row.error = e.what();
      }
      done(row);
    }
  }
}

}  // namespace porta::bench
