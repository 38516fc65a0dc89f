#include "user_kernel.hpp"

#include <chrono>
#include <cmath>
#include <cstring>

#include "bounds.hpp"
#include "kernel_io.hpp"

namespace porta::conformance {

void validate(const UserKernel& k) {
  load_kernel(k.path);
  parse_groups(k.groups);
  if (k.buffers.empty())
    throw UsageError("--kernel needs a --buffer for each of the kernel's storage buffers");
  std::vector<uint8_t> push;
  for (const auto& b : k.buffers) parse_buffer(b);
  for (const auto& p : k.push) append_push(p, push);
  if (k.tolerance_ulp >= 0 && !std::isfinite(k.tolerance_ulp))
    throw UsageError("--tolerance must be a finite number of ulps");
}

namespace {

using Bytes = std::vector<uint8_t>;

// Runs the kernel once on `dev`; returns every buffer after it.
std::vector<Bytes> run_on(porta::Device& dev, const UserKernel& k, const porta::KernelSource& source,
                          const std::vector<Bytes>& inputs, const std::vector<uint8_t>& push) {
  porta::Kernel kernel = dev.kernel(source);
  if (kernel.buffer_count() != inputs.size())
    throw UsageError("the kernel has " + std::to_string(kernel.buffer_count()) + " storage buffer(s) but " +
                     std::to_string(inputs.size()) +
                     " --buffer option(s) were given (one per binding, in order)");
  if (kernel.push_constant_size() != push.size())
    throw UsageError("the kernel's push-constant block is " + std::to_string(kernel.push_constant_size()) +
                     " bytes but --push gives " + std::to_string(push.size()));
  std::vector<porta::Buffer> buffers;
  for (const auto& in : inputs) {
    buffers.push_back(dev.buffer(in.size()));
    buffers.back().write(std::span<const uint8_t>(in));
  }
  porta::Stream s = dev.stream();
  s.dispatch_bytes(kernel, parse_groups(k.groups), std::span<const porta::Buffer>(buffers),
                   push.empty() ? nullptr : push.data(), static_cast<uint32_t>(push.size()));
  s.sync();
  std::vector<Bytes> out;
  for (auto& b : buffers) out.push_back(b.to_vector<uint8_t>());
  return out;
}

}  // namespace

CaseResult run_user_kernel(Devices& d, const UserKernel& k) {
  return run_timed(d, "kernel", k.path.substr(k.path.find_last_of('/') + 1), [&](CaseResult& r) {
    r.unit = k.tolerance_ulp >= 0 ? "ulp" : "bits";
    const porta::KernelSource source = load_kernel(k.path);
    std::vector<Bytes> inputs;
    for (const auto& spec : k.buffers) inputs.push_back(parse_buffer(spec).contents());
    std::vector<uint8_t> push;
    for (const auto& p : k.push) append_push(p, push);
    for (const auto& in : inputs) r.elements += in.size() / 4;
    std::vector<Bytes> got = run_on(d.dut, k, source, inputs, push);
    if (!d.ref) {
      if (!d.ref_unavailable.empty()) {
        r.outcome = Outcome::kSkip;
        r.detail = "the CPU backend (the reference) is unavailable: " + d.ref_unavailable;
      } else {
        int written = 0;
        for (size_t i = 0; i < got.size(); ++i) written += got[i] != inputs[i];
        r.detail = "the reference; " + std::to_string(written) + " buffer(s) written";
      }
    } else {
      std::vector<Bytes> want = run_on(*d.ref, k, source, inputs, push);
      int bad = 0;
      std::string lines;
      for (size_t b = 0; b < got.size(); ++b) {
        const bool as_float = k.tolerance_ulp >= 0 && got[b].size() % 4 == 0;
        const size_t step = as_float ? 4 : 1;
        for (size_t i = 0; i + step <= got[b].size(); i += step) {
          bool ok;
          double err = 0;
          if (as_float) {
            float g, w;
            std::memcpy(&g, &got[b][i], 4);
            std::memcpy(&w, &want[b][i], 4);
            err = test::ulp_distance(g, w);
            ok = err <= k.tolerance_ulp;
            if (err > r.worst_error || (r.worst_error == 0 && err == 0)) {
              r.worst_error = err;
              r.worst_bound = k.tolerance_ulp;
            }
          } else {
            ok = got[b][i] == want[b][i];
          }
          if (ok) continue;
          if (bad++ < 5) {
            char line[200];
            if (as_float) {
              float g, w;
              std::memcpy(&g, &got[b][i], 4);
              std::memcpy(&w, &want[b][i], 4);
              std::snprintf(line, sizeof line,
                            "buffer %zu element %zu (byte %zu): %.9g, the CPU backend %.9g, %.3g ulp > %g", b,
                            i / 4, i, static_cast<double>(g), static_cast<double>(w), err, k.tolerance_ulp);
            } else {
              // Show the aligned 32-bit word around the byte for context.
              const size_t w0 = i & ~size_t(3);
              uint32_t g = 0, w = 0;
              std::memcpy(&g, &got[b][w0], std::min<size_t>(4, got[b].size() - w0));
              std::memcpy(&w, &want[b][w0], std::min<size_t>(4, want[b].size() - w0));
              std::snprintf(line, sizeof line,
                            "buffer %zu byte %zu (word %zu): 0x%08x, the CPU backend 0x%08x (bitwise)", b, i,
                            w0 / 4, g, w);
            }
            lines += std::string("\n") + line;
          }
          if (!as_float) i = (i | 3);  // one report per 32-bit word
        }
      }
      if (bad) {
        r.outcome = Outcome::kFail;
        r.detail = std::to_string(bad) + " element(s) differ from the CPU backend:" + lines;
      }
    }
  });
}

}  // namespace porta::conformance
