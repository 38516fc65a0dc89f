#include "report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "porta_cli.hpp"

namespace porta::bench {
namespace {

std::string fmt(const char* f, double v) {
  char text[64];
  std::snprintf(text, sizeof text, f, v);
  return text;
}

using Json = nlohmann::ordered_json;

// Whole numbers (sizes, counts) exactly, the rest to 6 significant digits;
// null for what is not finite.
Json number(double v) {
  if (!std::isfinite(v)) return nullptr;
  if (v == std::floor(v) && std::fabs(v) < 1e15) return static_cast<int64_t>(v);
  return std::strtod(fmt("%.6g", v).c_str(), nullptr);
}

// The energy figures: each device's meter, then each measured row.
void print_energy(const Bench& bench, FILE* out) {
  const Options& o = bench.options();
  std::fprintf(out,
               "\nenergy (power between energy-counter updates while the op runs back to back for at least "
               "%.1f s; median of %u such samples)\n",
               o.energy_seconds, o.energy_samples);
  for (size_t i = 0; i < bench.devices().size(); ++i) {
    const DeviceSummary& d = bench.devices()[i];
    std::fprintf(out, "  %-7s %-40s %s\n", d.backend.c_str(), d.device.substr(0, 40).c_str(),
                 d.energy_source.c_str());
    if (d.copy_energy.joules_per_run > 0)
      std::fprintf(out, "          %-12s %-14s %10.4g J/GB    %6.0f W\n", "copy", "256 MiB",
                   d.copy_energy.joules_per_run / (2.0 * (256 << 20) / 1e9), d.copy_energy.watts);
    else if (!d.copy_energy.reason.empty())
      std::fprintf(out, "          %-12s %-14s n/a: %s\n", "copy", "256 MiB", d.copy_energy.reason.c_str());
    for (const Row& r : bench.rows()) {
      if (r.device_index != i || !r.error.empty()) continue;
      const Energy& e = r.timing.energy;
      if (e.joules_per_run > 0)
        std::fprintf(out, "          %-12s %-14s %10.4g %-7s %6.0f W\n", r.op.c_str(), r.size.c_str(),
                     joules_per_unit(r), energy_unit(r), e.watts);
      else if (!e.reason.empty())
        std::fprintf(out, "          %-12s %-14s n/a: %s\n", r.op.c_str(), r.size.c_str(), e.reason.c_str());
    }
  }
}

}  // namespace

// How each part of a run reads in --json (nlohmann-json's to_json, found by
// argument-dependent lookup when a value or a vector of them is assigned).
// Energy of a run that moved or computed `work_units` (GB or GFLOP).
Json energy_json(const Energy& e, double work_units, const char* unit) {
  if (e.joules_per_run <= 0) return {{"reason", e.reason}};
  return {{"joules_per_unit", number(e.joules_per_run / work_units)},
          {"unit", unit},
          {"watts", number(e.watts)},
          {"seconds_per_sample", number(e.seconds)},
          {"samples", e.samples}};
}

void to_json(Json& j, const DeviceSummary& d) {
  j = {{"backend", d.backend},
       {"device", d.device},
       {"type", d.type},
       {"copy_gbs", number(d.copy_gbs)},
       {"buffer_copy_gbs", number(d.copy_engine_gbs)},
       {"copy_kernel_gbs", number(d.copy_kernel_gbs)},
       {"peak_flops", number(d.peak.flops)},
       {"peak_source", d.peak.source},
       {"energy", d.energy_source},
       {"copy_energy", energy_json(d.copy_energy, 2.0 * (256 << 20) / 1e9, "J/GB")},
       {"coopmat_tflops",
        {{"f16", number(d.coopmat_f16_tflops)},
         {"bf16", number(d.coopmat_bf16_tflops)},
         {"tf32", number(d.coopmat_tf32_tflops)}}},
       {"coopmat_note", d.coopmat_note},
       {"error", d.error}};
}

void to_json(Json& j, const Peer& p) {
  j = {{"file", p.file}, {"loaded", p.table != nullptr}, {"device", p.device}, {"reason", p.reason}};
}

void to_json(Json& j, const Comparison& c) {
  j = {{"peer", c.peer}, {"median_ms", number(c.peer_ms)}, {"ratio", number(c.ratio)}};
}

void to_json(Json& j, const Row& r) {
  j = {{"backend", r.backend},
       {"device", r.device},
       {"op", r.op},
       {"dtype", op_dtype(r.op)},
       {"size", r.size},
       {"dims", r.dims},
       {"error", r.error},
       {"median_ms", number(r.timing.median_ms)},
       {"min_ms", number(r.timing.min_ms)},
       {"runs", r.timing.runs},
       {"timer", r.timer},
       {"unit", r.flops ? "GFLOP/s" : "GB/s"},
       {"rate", number(r.rate)},
       {"bound_fraction", number(r.bound)},
       {"bound", r.bound_kind},
       {"energy", energy_json(r.timing.energy, r.work / 1e9, energy_unit(r))},
       {"peers", r.peers}};
}

void to_json(Json& j, const Overhead& oh) {
  Json floors = Json::array();
  for (const Floor& f : oh.floors)
    floors.push_back({{"figure", f.figure}, {"floor", f.label}, {"us", number(f.us)}, {"error", f.error}});
  j = {{"backend", oh.backend},
       {"device", oh.device},
       {"error", oh.error},
       {"round_trip_us", number(oh.round_trip_us)},
       {"replay_per_dispatch_us", number(oh.replay_per_dispatch_us)},
       {"floors", floors}};
}

namespace {

// (base, dtype) of an op name whose last part, after _ . - or :, names a type.
std::pair<std::string, std::string> split_dtype(const std::string& op) {
  static const std::pair<const char*, const char*> kSpellings[] = {
      {"f32", "f32"},   {"fp32", "f32"}, {"float32", "f32"}, {"tf32", "tf32"}, {"f16", "f16"},
      {"fp16", "f16"},  {"half", "f16"}, {"float16", "f16"}, {"bf16", "bf16"}, {"bfloat16", "bf16"},
      {"int8", "int8"}, {"i8", "int8"},  {"s8", "int8"}};
  const size_t cut = op.find_last_of("_.-:");
  if (cut != std::string::npos && cut > 0) {
    std::string suffix = op.substr(cut + 1);
    std::transform(suffix.begin(), suffix.end(), suffix.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    for (const auto& [spelling, dtype] : kSpellings)
      if (suffix == spelling) return {op.substr(0, cut), dtype};
  }
  return {op, "f32"};
}

}  // namespace

std::string canonical_op(const std::string& op) {
  const auto [base, dtype] = split_dtype(op);
  return dtype == "f32" ? base : base + "_" + dtype;
}

std::string op_dtype(const std::string& op) { return split_dtype(op).second; }

std::string op_base(const std::string& op) { return split_dtype(op).first; }

double joules_per_unit(const Row& row) {
  return row.timing.energy.joules_per_run > 0 && row.work > 0
             ? row.timing.energy.joules_per_run / (row.work / 1e9)
             : 0;
}

std::string size_text(const std::string& name, const Dims& d) {
  const std::string op = op_base(name);
  auto pow2 = [](uint64_t v) {
    if (v && !(v & (v - 1)) && v >= 1024) return "2^" + std::to_string(__builtin_ctzll(v));
    return std::to_string(v);
  };
  if (op == "matmul")
    return d[0] == d[1] && d[1] == d[2] ? std::to_string(d[0]) + "^2"
                                        : pow2(d[0]) + "x" + pow2(d[1]) + "x" + pow2(d[2]);
  if (op.rfind("logreg_step", 0) == 0) return "m=" + pow2(d[0]) + " d=" + std::to_string(d[1]);
  return pow2(d[0]);
}

void print_row(FILE* out, const Row& r) {
  std::string dev = r.device.substr(0, 28);
  if (!r.error.empty()) {
    std::fprintf(out, "%-7s %-28s %-12s %-14s  error: %s\n", r.backend.c_str(), dev.c_str(), r.op.c_str(),
                 r.size.c_str(), r.error.c_str());
    return;
  }
  std::string rate = fmt(r.flops ? "%.1f GFLOP/s" : "%.1f GB/s", r.rate);
  std::string bound = r.bound > 0 ? fmt("%.0f%%", 100 * r.bound) : "-";
  std::string vs;
  for (const auto& p : r.peers)
    vs += (vs.empty() ? "" : "; ") +
          (p.peer_ms > 0 ? fmt("%.2fx ", p.ratio) + p.peer + fmt(" %.3f ms", p.peer_ms) : p.peer);
  std::fprintf(out, "%-7s %-28s %-12s %-14s %10.3f %12s %7s  %s\n", r.backend.c_str(), dev.c_str(),
               r.op.c_str(), r.size.c_str(), r.timing.median_ms, rate.c_str(), bound.c_str(), vs.c_str());
  std::fflush(out);
}

void print_table(const Bench& bench, FILE* out) {
  const Options& o = bench.options();
  std::fprintf(out, "porta-bench  %s  %s  (%s, %u threads for the CPU backend and its peers)\n",
               utc_now().c_str(), porta_version(), cpu_model().c_str(), cpu_backend_threads());
  std::fprintf(out, "command: %s\nmedian of %u runs after %u warm-up runs\n\n", o.command.c_str(), o.runs,
               o.warmup);
  std::fprintf(
      out, "devices (bound: device-to-device copy through porta, bytes read + written; peak fp32 FLOP/s)\n");
  for (const auto& d : bench.devices()) {
    std::fprintf(out, "  %-7s %-44s %-9s copy %8.1f GB/s (buffer copy %.1f, copy kernel %.1f)",
                 d.backend.c_str(), d.device.c_str(), d.type.c_str(), d.copy_gbs, d.copy_engine_gbs,
                 d.copy_kernel_gbs);
    if (d.peak.flops > 0)
      std::fprintf(out, "  peak %.1f GFLOP/s (%s)", d.peak.flops / 1e9, d.peak.source.c_str());
    if (!d.error.empty()) std::fprintf(out, "  error: %s", d.error.c_str());
    std::fprintf(out, "\n");
    if (d.coopmat_f16_tflops > 0 || d.coopmat_bf16_tflops > 0 || d.coopmat_tf32_tflops > 0)
      std::fprintf(
          out, "          cooperative-matrix multiply-add alone: f16 %.1f, bf16 %.1f, TF32 %.1f TFLOP/s\n",
          d.coopmat_f16_tflops, d.coopmat_bf16_tflops, d.coopmat_tf32_tflops);
    if (!d.coopmat_note.empty())
      std::fprintf(out, "          cooperative matrices: %s\n", d.coopmat_note.c_str());
  }
  std::fprintf(out, "peers\n");
  for (const Peer& p : bench.peers()) {
    if (!o.peers) break;
    std::fprintf(out, "  %-48s %s\n", p.file.c_str(),
                 p.table ? (p.device.empty() ? (p.reason.empty() ? "loaded, not used" : p.reason.c_str())
                                             : ("on " + p.device).c_str())
                         : p.reason.c_str());
  }
  std::fprintf(out, "\n%-7s %-28s %-12s %-14s %10s %12s %7s  %s\n", "backend", "device", "op", "size",
               "median ms", "rate", "%bound", "vs peer (porta throughput / peer's)");
  for (const auto& r : bench.rows()) print_row(out, r);
  std::fprintf(
      out,
      "\ndispatch overhead (host clock; per dispatch in a replayed sequence of 1000 empty dispatches)\n");
  for (const auto& oh : bench.overheads()) {
    if (!oh.error.empty()) {
      std::fprintf(out, "  %-7s %-40s error: %s\n", oh.backend.c_str(), oh.device.c_str(), oh.error.c_str());
      continue;
    }
    std::fprintf(out, "  %-7s %-40s round trip %8.1f us   replay %7.2f us/dispatch", oh.backend.c_str(),
                 oh.device.substr(0, 40).c_str(), oh.round_trip_us, oh.replay_per_dispatch_us);
    std::fprintf(out, "\n");
    for (const Floor& f : oh.floors) {
      if (!f.error.empty())
        std::fprintf(out, "    floor %-10s %s: %s\n", f.figure.c_str(), f.label.c_str(), f.error.c_str());
      else
        std::fprintf(out, "    floor %-10s %8.2f us%s  %s (porta / floor %.2fx)\n", f.figure.c_str(), f.us,
                     f.figure == "replay" ? "/dispatch" : "          ", f.label.c_str(),
                     (f.figure == "replay" ? oh.replay_per_dispatch_us : oh.round_trip_us) / f.us);
    }
  }
  print_energy(bench, out);
}

void to_json(Json& j, const Target& t) {
  j = {{"group", t.group},   {"what", t.what},     {"peer", t.peer},    {"measured", t.measured},
       {"target", t.target}, {"status", t.status}, {"detail", t.detail}};
}

void write_json(const Bench& bench, const std::vector<Target>& targets, const std::string& path) {
  const Options& o = bench.options();
  Json j;
  j["tool"] = "porta-bench";
  j["porta_version"] = porta_version();
  j["date"] = utc_now();
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  j["host"] = host;
  j["cpu"] = cpu_model();
  j["cpu_threads"] = cpu_backend_threads();
  j["command"] = o.command;
  j["runs"] = o.runs;
  j["warmup"] = o.warmup;
  j["devices"] = bench.devices();
  j["peers"] = bench.peers();
  j["results"] = bench.rows();
  j["overhead"] = bench.overheads();
  j["energy_seconds_per_sample"] = o.energy_seconds;
  j["energy_samples"] = o.energy_samples;
  j["targets"] = targets;
  porta::cli::write_output(path, j.dump() + "\n");
}

}  // namespace porta::bench
