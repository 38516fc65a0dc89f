#include "targets.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "report.hpp"

namespace porta::bench {
namespace {

// How a goal's figure is found in the run.
enum class Figure {
  kVsPeer,     // porta's throughput / the peer's (rows' comparisons), the worst size in range
  kVsDriver,   // the reference device's throughput / a CPU-type driver's at the same op and size, worst size
  kReplay,     // microseconds per dispatch in a replayed sequence
  kRoundTrip,  // microseconds for an empty dispatch and sync
  kVsFp32,     // the fp32 op's time / this op's, at the goal's size
  kEnergy,     // porta's joules per unit / the external peer's, same op and size
};

struct Goal {
  const char* group;  // "GPU": each GPU of each of `apis`; "CPU": the reference device
  const char* apis;   // GPU goals: the native APIs, separated by blanks; CPU kVsDriver: the driver's API
  const char* what;
  Figure figure;
  const char* op;    // the rows' op ("matmul_f16")
  const char* peer;  // part of the peer's name ("cuBLAS SGEMM"); kVsDriver: the driver ("PoCL")
  double goal;
  bool at_least;                // the figure must be >= goal (else <=)
  uint64_t min_size = 0;        // rows' dims[0] from
  uint64_t max_size = 0;        // to (0: any)
  const char* issue = nullptr;  // the peer's figure as the issue measured it
};

constexpr uint64_t k2e24 = uint64_t(1) << 24;
constexpr const char* kGpuApis = "CUDA Vulkan OpenCL";

// Issue 19's targets table.
constexpr Goal kGoals[] = {
    {"GPU", "CUDA", "fp32 matmul 1024-8192", Figure::kVsPeer, "matmul", "cuBLAS SGEMM", 0.90, true, 1024,
     8192},
    {"GPU", "Vulkan OpenCL", "fp32 matmul 1024-8192", Figure::kVsPeer, "matmul", "cuBLAS SGEMM", 0.85, true,
     1024, 8192},
    {"GPU", "CUDA Vulkan", "fp16 matmul, fp32 accumulate", Figure::kVsPeer, "matmul_f16", "cuBLAS HGEMM",
     0.70, true},
    {"GPU", "CUDA Vulkan", "bf16 matmul, fp32 accumulate", Figure::kVsPeer, "matmul_bf16", "cuBLAS BF16",
     0.70, true},
    {"GPU", "CUDA", "TF32 matmul", Figure::kVsPeer, "matmul_tf32", "cuBLAS TF32", 0.70, true},
    {"GPU", kGpuApis, "replay per dispatch (us)", Figure::kReplay, nullptr, "API floor", 2.0, false},
    {"GPU", kGpuApis, "round trip (us)", Figure::kRoundTrip, nullptr, "API floor", 10.0, false, 0, 0,
     "PyTorch tiny op 10.3 us"},
    {"GPU", kGpuApis, "logreg step f16 features, m=2^24 d=256", Figure::kVsFp32, "logreg_step_f16",
     "porta fp32 step", 1.8, true, k2e24, k2e24},
    {"GPU", kGpuApis, "logreg step int8 features, m=2^24 d=256", Figure::kVsFp32, "logreg_step_int8",
     "porta fp32 step", 3.0, true, k2e24, k2e24},
    {"GPU", kGpuApis, "energy, fp32 matmul", Figure::kEnergy, "matmul", "PyTorch torch.mm fp32", 1.1, false,
     0, 0, "12.9 J/TFLOP"},
    {"GPU", "CUDA", "energy, TF32 matmul", Figure::kEnergy, "matmul_tf32", "PyTorch torch.mm TF32", 1.1,
     false, 0, 0, "1.97 J/TFLOP"},
    {"GPU", "CUDA Vulkan", "energy, fp16 matmul", Figure::kEnergy, "matmul_f16", "PyTorch torch.mm fp16", 1.1,
     false, 0, 0, "1.05 J/TFLOP"},
    {"GPU", "CUDA Vulkan", "energy, bf16 matmul", Figure::kEnergy, "matmul_bf16", "PyTorch torch.mm bf16",
     1.1, false, 0, 0, "1.01 J/TFLOP"},
    {"GPU", kGpuApis, "energy, mul", Figure::kEnergy, "mul", "PyTorch torch.mul", 1.1, false, 0, 0,
     "0.19 J/GB"},
    {"CPU", nullptr, "mul", Figure::kVsPeer, "mul", "C++ loop", 1.0, true},
    {"CPU", "OpenCL", "mul", Figure::kVsDriver, "mul", "PoCL", 1.0, true},
    {"CPU", nullptr, "sigmoid", Figure::kVsPeer, "sigmoid", "C++ loop", 1.0, true},
    {"CPU", "OpenCL", "sigmoid", Figure::kVsDriver, "sigmoid", "PoCL", 1.0, true},
    {"CPU", nullptr, "logreg step", Figure::kVsPeer, "logreg_step", "C++ loop", 1.0, true},
    {"CPU", "OpenCL", "logreg step", Figure::kVsDriver, "logreg_step", "PoCL", 1.0, true},
    {"CPU", nullptr, "matmul", Figure::kVsPeer, "matmul", "OpenBLAS SGEMM", 0.5, true},
};

std::vector<std::string> words(const char* text) {
  std::vector<std::string> out;
  std::istringstream in(text ? text : "");
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

std::string fmt(const char* f, double v) {
  char text[64];
  std::snprintf(text, sizeof text, f, v);
  return text;
}

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

// Judges one goal on one device (or on none: `device` < 0, with `why`).
class Judge {
 public:
  Judge(const RunResults& run, const ExternalPeer& external) : run_(run), external_(external) {}

  Target judge(const Goal& g, const std::string& label, int device, const std::string& why) const {
    Target t;
    t.group = g.group;
    t.what = label + " " + g.what;
    t.peer = g.peer;
    if (g.issue) t.peer += std::string(" (issue: ") + g.issue + ")";
    t.target = std::string(g.at_least ? ">= " : "<= ") + fmt("%g", g.goal) + unit(g);
    if (device < 0) return not_run(t, why);
    switch (g.figure) {
      case Figure::kVsPeer:
        return vs_peer(g, t, size_t(device));
      case Figure::kVsDriver:
        return vs_driver(g, t, size_t(device));
      case Figure::kReplay:
      case Figure::kRoundTrip:
        return overhead(g, t, size_t(device));
      case Figure::kVsFp32:
        return vs_fp32(g, t, size_t(device));
      case Figure::kEnergy:
        return energy(g, t, size_t(device));
    }
    return t;
  }

 private:
  static const char* unit(const Goal& g) {
    return g.figure == Figure::kReplay || g.figure == Figure::kRoundTrip ? " us" : "x";
  }

  static Target not_run(Target t, const std::string& why, const char* status = "not run") {
    t.status = status;
    t.measured = "-";
    t.detail = why;
    return t;
  }

  static Target verdict(const Goal& g, Target t, double value, const std::string& detail) {
    t.measured =
        fmt(g.figure == Figure::kReplay || g.figure == Figure::kRoundTrip ? "%.2f us" : "%.2fx", value);
    t.status = (g.at_least ? value >= g.goal : value <= g.goal) ? "ok" : "MISS";
    t.detail = detail;
    return t;
  }

  bool in_range(const Goal& g, const Row& r) const {
    return (!g.min_size || r.dims[0] >= g.min_size) && (!g.max_size || r.dims[0] <= g.max_size);
  }

  // Rows of `op` on device `device`, measured without error.
  std::vector<const Row*> rows(size_t device, const std::string& op, std::string* errors = nullptr) const {
    std::vector<const Row*> out;
    for (const Row& r : run_.rows) {
      if (r.device_index != device || r.op != op) continue;
      if (r.error.empty())
        out.push_back(&r);
      else if (errors)
        *errors += (errors->empty() ? "" : "; ") + r.size + ": " + r.error;
    }
    return out;
  }

  // Why there is no row of `op`: a failure, or no such op in porta-bench.
  Target missing(Target t, const std::string& op, const std::string& errors) const {
    if (!errors.empty()) {
      t.status = "MISS";
      t.measured = "-";
      t.detail = op + " failed: " + errors;
      return t;
    }
    for (const Row& r : run_.rows)
      if (r.op == op) return not_run(t, "no " + op + " row on this device in this run");
    std::vector<std::string> ops;
    for (const OpBench* b : op_benches()) ops.push_back(canonical_op(b->name));
    const bool built = std::find(ops.begin(), ops.end(), op) != ops.end();
    bool requested = false;  // --ops names the op, or the op the dtype belongs to
    for (const std::string& name : run_.options.ops)
      requested = requested || canonical_op(name) == op || name == op_base(op);
    if (!requested) return not_run(t, op_base(op) + " was not in --ops");
    if (built) return not_run(t, "no " + op + " row in this run");
    return not_run(t,
                   "porta-bench measured no " + op +
                       " on any device: no such op or element type yet (its ops: " + joined(ops) + ")",
                   "not built");
  }

  // Why no comparison with `peer` exists.
  std::string peer_absent(const std::string& peer) const {
    std::string why = "no " + peer + " figure in this run";
    std::vector<std::string> reasons;
    for (const Peer& p : run_.peers)
      if (!p.reason.empty()) reasons.push_back(p.file + ": " + p.reason);
    if (!run_.options.peers) return why + " (--no-peers)";
    return reasons.empty() ? why : why + " (" + joined(reasons) + ")";
  }

  Target vs_peer(const Goal& g, Target t, size_t device) const {
    std::string errors;
    std::vector<std::string> parts, failures, outside;
    double worst = 0, peer_best = 0;  // the peer's best rate (FLOP/s or B/s)
    std::string peer_best_size;
    bool any = false, any_row = false;
    for (const Row* r : rows(device, g.op, &errors)) {
      if (!in_range(g, *r)) {
        outside.push_back(r->size);
        continue;
      }
      any_row = true;
      for (const Comparison& c : r->peers) {
        if (c.peer.find(g.peer) == std::string::npos) continue;
        if (c.peer_ms <= 0) {
          failures.push_back(r->size + ": " + c.peer);
          continue;
        }
        parts.push_back(r->size + " " + fmt("%.2f", c.ratio));
        worst = any ? std::min(worst, c.ratio) : c.ratio;
        any = true;
        if (const double rate = r->work / (c.peer_ms * 1e-3); rate > peer_best) {
          peer_best = rate;
          peer_best_size = r->size;
        }
      }
    }
    if (!any_row) {
      if (!outside.empty())
        return not_run(t, "sizes run (" + joined(outside) + ") are outside the goal's range");
      return missing(t, g.op, errors);
    }
    if (!any) return not_run(t, failures.empty() ? peer_absent(g.peer) : joined(failures));
    std::string detail = "worst of: " + joined(parts);
    if (!failures.empty()) detail += "; " + joined(failures);
    if (!errors.empty()) detail += "; failed: " + errors;
    detail += ceiling(g, device, peer_best, peer_best_size);
    return verdict(g, t, worst, detail);
  }

  // The tensor-core GEMMs: porta's cooperative-matrix multiply-add alone on
  // the device (the ceiling of any GEMM written with it) against the peer's
  // best rate; "" for other goals or without the figure.
  std::string ceiling(const Goal& g, size_t device, double peer_best, const std::string& at) const {
    const DeviceSummary& d = run_.devices[device];
    const std::string op = g.op ? g.op : "";
    const double tflops = op == "matmul_f16"    ? d.coopmat_f16_tflops
                          : op == "matmul_bf16" ? d.coopmat_bf16_tflops
                          : op == "matmul_tf32" ? d.coopmat_tf32_tflops
                                                : -1;
    if (tflops < 0) return "";
    if (tflops == 0 || peer_best <= 0)
      return d.coopmat_note.empty() ? "" : "; cooperative-matrix ceiling not measured: " + d.coopmat_note;
    const double share = tflops * 1e12 / peer_best;
    return "; porta's cooperative-matrix multiply-add alone (no memory traffic): " + fmt("%.1f", tflops) +
           " TFLOP/s, " + fmt("%.2f", share) + " of the peer's best (" + fmt("%.1f", peer_best / 1e12) +
           " TFLOP/s at " + at + ")" +
           (g.at_least && share < g.goal ? ": below the target, which no GEMM of these products reaches"
                                         : "");
  }

  // The reference device against each CPU-type device of the goal's API.
  Target vs_driver(const Goal& g, Target t, size_t reference) const {
    const auto& devices = run_.devices;
    const std::string ref = "porta " + devices[reference].backend;
    std::vector<std::string> parts;
    double worst = 0;
    bool any = false, driver = false;
    for (size_t i = 0; i < devices.size(); ++i) {
      if (i == reference || devices[i].type != "CPU-type" || !uses_api(devices[i].api_version, g.apis))
        continue;
      driver = true;
      for (const Row* r : rows(i, g.op))
        for (const Comparison& c : r->peers)
          if (c.peer.rfind(ref, 0) == 0 && c.ratio > 0) {
            const double ratio =
                1.0 / c.ratio;  // the row's ratio is the driver's throughput / the reference's
            parts.push_back(r->size + " " + fmt("%.2f", ratio));
            worst = any ? std::min(worst, ratio) : ratio;
            any = true;
          }
    }
    t.peer = std::string(g.peer) + " on the same cores";
    if (!driver)
      return not_run(t, std::string("no ") + g.apis + " CPU-type device (" + g.peer +
                            ") in this run: add its backend to --backends");
    if (!any) return missing(t, g.op, "");
    return verdict(g, t, worst, "worst of: " + joined(parts));
  }

  Target overhead(const Goal& g, Target t, size_t device) const {
    const DeviceSummary& d = run_.devices[device];
    const Overhead* found = nullptr;
    for (const Overhead& oh : run_.overheads)
      if (oh.backend == d.backend && oh.device == d.device) found = &oh;
    if (!found) return missing(t, "overhead", "");
    if (!found->error.empty()) return missing(t, "overhead", found->error);
    // The native API's own cost of the same work on the same device, in the
    // same run (the floor peers): the lowest is the floor, each is listed.
    const bool replay = g.figure == Figure::kReplay;
    const double porta = replay ? found->replay_per_dispatch_us : found->round_trip_us;
    const Floor* floor = nullptr;
    std::vector<std::string> floors;
    for (const Floor& f : found->floors) {
      if (!f.figure.empty() && f.figure != (replay ? "replay" : "round trip")) continue;
      if (!f.error.empty()) {
        floors.push_back(f.label + ": " + f.error);
      } else {
        floors.push_back(f.label + fmt(" %.2f us", f.us));
        if (!floor || f.us < floor->us) floor = &f;
      }
    }
    std::string detail = replay
                             ? "empty kernel, " + std::to_string(kReplayDispatches) + " dispatches replayed"
                             : "256 B up, one dispatch, 256 B back, sync; host clock";
    if (floor) {
      t.peer = fmt("API floor %.2f us", floor->us);
      detail =
          fmt("porta / floor %.2fx", porta / floor->us) +
          (floor->us > g.goal ? fmt(" (the API alone takes %.2f us, above the target)", floor->us) : "") +
          "; floor: " + floor->label + "; " + detail;
    } else {
      t.peer = "API floor: none in this run";
      if (floors.empty()) detail += "; " + peer_absent("floor");
    }
    if (floors.size() > 1 || (!floor && !floors.empty())) detail += "; floors: " + joined(floors);
    if (!replay) {
      if (external_.round_trip_us > 0)
        detail += fmt("; PyTorch tiny op %.1f us", external_.round_trip_us) + " (issue: " + g.issue + ")";
      else
        detail += external_.file.empty() ? "; PyTorch tiny op not in this run (--peer-results)"
                                         : "; PyTorch tiny op not in " + external_.file;
    }
    return verdict(g, t, porta, detail);
  }

  Target vs_fp32(const Goal& g, Target t, size_t device) const {
    std::string errors;
    const std::vector<const Row*> typed = rows(device, g.op, &errors);
    if (typed.empty()) return missing(t, g.op, errors);
    const std::string fp32 = op_base(g.op);
    std::vector<std::string> other;
    for (const Row* r : typed)
      for (const Row* base : rows(device, fp32))
        if (base->dims == r->dims) {
          const double ratio = base->timing.median_ms / r->timing.median_ms;
          if (in_range(g, *r))
            return verdict(g, t, ratio,
                           r->size + fmt(": fp32 %.3f ms", base->timing.median_ms) +
                               fmt(", %.3f ms", r->timing.median_ms));
          other.push_back(r->size + " " + fmt("%.2fx", ratio));
        }
    if (other.empty()) return not_run(t, "no " + fp32 + " row of the same size to compare with");
    return not_run(t, "the goal's size was not run; other sizes: " + joined(other));
  }

  Target energy(const Goal& g, Target t, size_t device) const {
    const DeviceSummary& d = run_.devices[device];
    std::string errors;
    const std::vector<const Row*> measured = rows(device, g.op, &errors);
    if (measured.empty()) return missing(t, g.op, errors);
    const Row* row = nullptr;
    for (const Row* r : measured)
      if (joules_per_unit(*r) > 0) row = r;
    if (!row) {
      std::string why = d.energy_source.rfind("n/a", 0) == 0 ? d.energy_source : "";
      for (const Row* r : measured)
        if (!r->timing.energy.reason.empty()) why = r->timing.energy.reason;
      if (why.empty()) why = "no energy figure (" + d.energy_source + ")";
      return not_run(t, why, why.rfind("n/a", 0) == 0 ? "n/a" : "not run");
    }
    const double scale = row->flops ? 1000 : 1;  // J/GFLOP shown as J/TFLOP
    const char* shown = row->flops ? "J/TFLOP" : "J/GB";
    const double porta = joules_per_unit(*row) * scale;
    const std::string mine =
        row->size + fmt(": porta %.3g ", porta) + shown + fmt(" at %.0f W", row->timing.energy.watts);
    const ExternalPeer::Result* peer = nullptr;
    for (const auto& r : external_.results)
      if (r.op == g.op && r.dims == row->dims && d.device.find(external_.device) != std::string::npos &&
          !external_.device.empty())
        peer = &r;
    if (!peer) {
      return not_run(
          t, mine + "; " +
                 (external_.file.empty()     ? std::string("no peer figures (--peer-results)")
                  : !external_.error.empty() ? external_.error
                                             : std::string("no ") + g.op + " " + row->size + " figure on " +
                                                   d.device + " in " + external_.file));
    }
    if (peer->joules_per_unit <= 0) return not_run(t, mine + "; peer: " + peer->energy_reason);
    t.peer = std::string(g.peer) + fmt(" %.3g ", peer->joules_per_unit * scale) + shown +
             " (issue: " + g.issue + ")";
    return verdict(g, t, porta / (peer->joules_per_unit * scale), mine + "; porta's joules / the peer's");
  }

  const RunResults& run_;
  const ExternalPeer& external_;
};

std::string cell(std::string text) {
  for (size_t i = 0; (i = text.find('|', i)) != std::string::npos; i += 2) text.replace(i, 1, "\\|");
  return text;
}

}  // namespace

ExternalPeer load_external_peer(const std::string& path) {
  ExternalPeer peer;
  peer.file = path;
  if (path.empty()) return peer;
  try {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot be read");
    const nlohmann::json j = nlohmann::json::parse(in);
    peer.device = j.value("device", "");
    peer.name = j.value("peer", "") + (peer.device.empty() ? "" : " on " + peer.device);
    peer.round_trip_us = j.value("round_trip_us", 0.0);
    for (const auto& r : j.at("results")) {
      ExternalPeer::Result result;
      result.op = canonical_op(r.at("op").get<std::string>());
      const auto dims = r.at("dims").get<std::vector<uint64_t>>();
      for (size_t i = 0; i < 3 && i < dims.size(); ++i) result.dims[i] = dims[i];
      result.median_ms = r.value("median_ms", 0.0);
      if (r.contains("energy")) {
        const auto& e = r.at("energy");
        result.joules_per_unit = e.value("joules_per_unit", 0.0);
        result.energy_reason = e.value("reason", "");
      }
      peer.results.push_back(result);
    }
  } catch (const std::exception& e) {
    peer.error = path + ": " + e.what();
  }
  return peer;
}

std::vector<Target> judge_targets(const RunResults& run, const ExternalPeer& external) {
  const Judge judge(run, external);
  const auto& devices = run.devices;
  int reference = -1;
  bool any_gpu = false;
  for (size_t i = 0; i < devices.size(); ++i) {
    if (devices[i].reference) reference = static_cast<int>(i);
    any_gpu = any_gpu || devices[i].type == "GPU";
  }
  std::vector<Target> out;
  for (const Goal& g : kGoals) {
    if (std::string(g.group) == "CPU") {
      if (reference >= 0)
        out.push_back(judge.judge(g, devices[size_t(reference)].backend + " backend", reference, ""));
      continue;
    }
    if (!any_gpu && !run.options.gpu_only) continue;
    for (const std::string& api : words(g.apis)) {
      bool found = false;
      for (size_t i = 0; i < devices.size(); ++i)
        if (devices[i].type == "GPU" && uses_api(devices[i].api_version, api.c_str())) {
          found = true;
          out.push_back(
              judge.judge(g, devices[i].backend + " (" + devices[i].device + ")", static_cast<int>(i), ""));
        }
      if (!found) out.push_back(judge.judge(g, api, -1, "no " + api + " GPU in this run"));
    }
  }
  return out;
}

void print_targets(const std::vector<Target>& targets, FILE* out) {
  std::fprintf(out,
               "\ntargets (ratios: porta's throughput / the peer's, from medians; energy: porta's joules / "
               "the peer's)\n");
  if (targets.empty()) std::fprintf(out, "  (no device of any target in this run)\n");
  for (const Target& t : targets)
    std::fprintf(out, "  [%-9s] %s vs %s: %s (target %s)  %s\n", t.status.c_str(), t.what.c_str(),
                 t.peer.c_str(), t.measured.c_str(), t.target.c_str(), t.detail.c_str());
}

std::string targets_markdown(const RunResults& run, const ExternalPeer& external,
                             const std::vector<Target>& targets) {
  const Options& o = run.options;
  std::string md = "porta-bench " + utc_now() + ", porta " + porta_version() + ", host CPU " + cpu_model() +
                   " (" + std::to_string(cpu_backend_threads()) +
                   " threads for the CPU backend and its peers)\n\n";
  md += "Command: `" + o.command + "`; each figure the median of " + std::to_string(o.runs) + " runs after " +
        std::to_string(o.warmup) +
        " warm-up runs; energy: power between NVML counter updates while the op runs "
        "back to back for at least " +
        fmt("%g", o.energy_seconds) + " s, median of " + std::to_string(o.energy_samples) +
        " such samples.\n\nDevices:\n\n";
  for (const DeviceSummary& d : run.devices)
    md += "- " + d.backend + ": " + d.device + " (" + d.type + ", " + d.api_version +
          "); energy: " + d.energy_source + "\n";
  if (!external.file.empty())
    md += "- peer figures: " +
          (external.error.empty() ? external.name + " (" + external.file + ")" : external.error) + "\n";
  md += "\n| what | peer | measured | target | status | detail |\n|---|---|---|---|---|---|\n";
  for (const Target& t : targets)
    md += "| " + cell(t.what) + " | " + cell(t.peer) + " | " + cell(t.measured) + " | " + cell(t.target) +
          " | " + cell(t.status) + " | " + cell(t.detail) + " |\n";
  return md;
}

}  // namespace porta::bench
