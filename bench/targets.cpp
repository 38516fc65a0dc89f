// The targets porta-bench judges by itself, from this run's rows. Which
// devices each goal applies to is data, by the native API a device is
// reached through (DeviceInfo::api_version), never a backend's name.
#include <string>

#include "report.hpp"

namespace porta::bench {
namespace {

// matmul 4096^2 against cuBLAS SGEMM on the same GPU, by API.
struct MatmulGoal {
  const char* api;  // nullptr: every other GPU
  double vs_cublas;
};
constexpr MatmulGoal kMatmulGoals[] = {{"CUDA", 0.70}, {nullptr, 0.60}};

// The APIs whose replayed sequences must cost at most this per dispatch.
constexpr const char* kReplayApis[] = {"CUDA", "Vulkan"};
constexpr double kReplayGoalUs = 5.0;

// CPU-type drivers that porta's reference CPU backend must beat on every op,
// by API, with the name the line gives them.
struct ReferenceGoal {
  const char* api;
  const char* driver;
};
constexpr ReferenceGoal kReferenceBeats[] = {{"OpenCL", "PoCL"}};

void line(FILE* out, const std::string& what, double value, double goal, bool higher, const char* unit) {
  if (value < 0) {
    std::fprintf(out, "  [n/a ] %s: not measured in this run\n", what.c_str());
    return;
  }
  const bool ok = higher ? value >= goal : value <= goal;
  std::fprintf(out, "  [%s] %s: %.2f%s (goal %s %.2f%s)\n", ok ? "met " : "MISS", what.c_str(), value, unit,
               higher ? ">=" : "<=", goal, unit);
}

double peer_ratio(const Row* r, const std::string& name) {
  if (!r) return -1;
  for (const auto& p : r->peers)
    if (p.peer.find(name) != std::string::npos && p.peer_ms > 0) return p.ratio;
  return -1;
}

}  // namespace

void print_targets(const Bench& bench, FILE* out) {
  std::fprintf(out, "\ntargets\n");
  const auto& rows = bench.rows();
  const auto& devices = bench.devices();
  auto on_reference = [&](const Row& r) { return devices[r.device_index].reference; };
  auto largest_on_reference = [&](const std::string& op) -> const Row* {
    const Row* best = nullptr;
    for (const auto& r : rows)
      if (on_reference(r) && r.op == op && r.error.empty() && (!best || r.work > best->work)) best = &r;
    return best;
  };
  for (const auto& d : devices) {
    if (d.type != "GPU") continue;
    const Row* mm = nullptr;
    for (const auto& r : rows)
      if (r.backend == d.backend && r.device == d.device && r.op == "matmul" && r.dims[0] == 4096 &&
          r.error.empty())
        mm = &r;
    double goal = 0;
    for (const MatmulGoal& g : kMatmulGoals)
      if (!g.api || uses_api(d.api_version, g.api)) {
        goal = g.vs_cublas;
        break;
      }
    line(out, d.backend + " matmul 4096^2 vs cuBLAS SGEMM", peer_ratio(mm, "cuBLAS"), goal, true, "x");
    const Row* lr = nullptr;
    for (const auto& r : rows)
      if (r.backend == d.backend && r.device == d.device && r.op == "logreg_step" &&
          r.dims[0] == (1u << 20) && r.dims[1] == 256 && r.error.empty())
        lr = &r;
    line(out, d.backend + " logreg_step m=2^20 d=256, share of copy bandwidth for one read of X",
         lr ? lr->bound * (4.0 * lr->dims[0] * lr->dims[1]) / lr->work : -1, 0.70, true, "");
    bool replay_goal = false;
    for (const char* api : kReplayApis) replay_goal = replay_goal || uses_api(d.api_version, api);
    if (replay_goal)
      for (const auto& oh : bench.overheads())
        if (oh.backend == d.backend && oh.device == d.device && oh.error.empty())
          line(out, d.backend + " per dispatch in a replayed sequence", oh.replay_per_dispatch_us,
               kReplayGoalUs, false, " us");
  }
  const std::string ref = bench.reference_backend();
  line(out, ref + " mul (largest size) vs C++ loop, as throughput ratio",
       peer_ratio(largest_on_reference("mul"), "C++ loop"), 1 / 1.25, true, "x");
  line(out, ref + " matmul (largest size) vs OpenBLAS SGEMM",
       peer_ratio(largest_on_reference("matmul"), "OpenBLAS"), 0.25, true, "x");
  for (const ReferenceGoal& g : kReferenceBeats)
    for (const auto& r : rows) {
      if (!r.error.empty() || !uses_api(devices[r.device_index].api_version, g.api)) continue;
      const double ratio = peer_ratio(&r, "porta " + ref);
      if (ratio > 0)
        line(out,
             "porta " + ref + " faster than " + r.device.substr(0, 24) + " on " + r.op + " " + r.size + " (" +
                 g.driver + " / porta " + ref + " throughput)",
             ratio, 1.0, false, "x");
    }
}

}  // namespace porta::bench
