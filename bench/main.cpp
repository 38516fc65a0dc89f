// porta-bench: porta's ops on every backend and device, against the memory
// bound of the same device and against a peer measured in the same run.
//
//   porta-bench                          every device, default sizes
//   porta-bench --backends cuda,vulkan   only those backends
//   porta-bench --ops matmul --matmul 4096 --runs 20 --json out.json
//
// Each figure is the median of --runs timed runs after --warmup untimed ones,
// timed with porta's events (device timers on GPU backends; the CPU backend's
// events are host clock stamps in stream order). Peers (cuBLAS and CUDA C++,
// CLBlast, OpenBLAS) are shared objects loaded at run time; a peer that does
// not load is listed with the reason and its comparisons are left out.
//
// The parts: harness (timing), peers (loading and matching peer libraries),
// ops/ (one file per benchmark), bench (the run), report and targets.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "bench.hpp"
#include "porta_cli.hpp"
#include "report.hpp"

namespace porta::bench {
namespace {

using porta::cli::UsageError;

uint64_t parse_size(const std::string& text) {
  char* end = nullptr;
  if (text.size() > 2 && text[0] == '2' && text[1] == '^') {
    unsigned long e = std::strtoul(text.c_str() + 2, &end, 10);
    if (*end || e > 40) throw UsageError("size '" + text + "' is not a number or 2^k");
    return uint64_t(1) << e;
  }
  unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || *end || v == 0) throw UsageError("size '" + text + "' is not a positive number or 2^k");
  return v;
}

// What --ops takes: every benchmark in ops/, and the dispatch overhead.
std::vector<std::string> op_names() {
  std::vector<std::string> names;
  for (const OpBench* bench : op_benches()) names.push_back(bench->name);
  names.push_back("overhead");
  return names;
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

bool known_op(const std::string& op) {
  const std::vector<std::string> names = op_names();
  return std::find(names.begin(), names.end(), op) != names.end();
}

// The command line's text options, read into `o` once parsed.
struct RawOptions {
  std::string backends, ops, runs, warmup, energy, energy_runs;
  std::vector<std::string> elementwise, matmul, logreg;
};

void declare(porta::cli::Command& command, Options& o, RawOptions& raw) {
  using porta::cli::repeatable;
  const std::string ops = "[--ops " + joined(op_names(), ",") + "]";
  command.synopsis(
      "[--backends cuda,vulkan,opencl,cpu] " + ops +
      "\n[--elementwise N,...] [--matmul N,...] [--logreg MxD,...]\n"
      "[--runs N (>= 10)] [--warmup N] [--energy SECONDS] [--energy-runs N] [--no-peers]\n"
      "[--gpu-only] [--robust-cost] [--json FILE] [--targets FILE.md] [--peer-results torch.json]\n"
      "[--sweep-matmul kernels/matmul/matmul.comp | build/release/kernels/spirv/matmul_coop_f16.spv |\n"
      "                   build/release/bench/coopmat_peak/matmul_workgroup.spv]");
  CLI::App& app = command.app();
  app.add_option("--backends", raw.backends, "comma list of backends to run (default: every one found)")
      ->type_name("LIST");
  app.add_option("--ops", raw.ops, "comma list of " + joined(op_names(), ", ") + " (default: all)")
      ->type_name("LIST");
  repeatable(app.add_option("--elementwise", raw.elementwise, "sizes of mul and sigmoid, in elements"))
      ->type_name("N,...");
  repeatable(app.add_option("--matmul", raw.matmul, "sizes of matmul (N: an N x N by N x N product)"))
      ->type_name("N,...");
  repeatable(app.add_option("--logreg", raw.logreg, "sizes of logreg_step: M samples of D features"))
      ->type_name("MxD,...");
  app.add_option("--runs", raw.runs, "timed runs per figure, at least 10 (default 10); the median is shown")
      ->type_name("N");
  app.add_option("--warmup", raw.warmup, "untimed runs before them (default 2)")->type_name("N");
  app.add_option("--energy", raw.energy, "seconds per energy sample on NVML devices, 0: none (default 1)")
      ->type_name("SECONDS");
  app.add_option("--energy-runs", raw.energy_runs, "energy samples per figure, median shown (default 3)")
      ->type_name("N");
  app.add_option("--targets", o.targets, "the issue's targets, judged from this run, as markdown")
      ->type_name("FILE");
  app.add_option("--peer-results", o.peer_results, "a peer's figures from this run (torch_compare.py --json)")
      ->type_name("FILE");
  app.add_flag_callback(
      "--no-peers", [&o] { o.peers = false; }, "load no peer library and compare with none");
  app.add_flag("--gpu-only", o.gpu_only, "leave CPU-type devices out");
  app.add_flag("--robust-cost", o.robust_cost,
               "each device a second time the other way: the CPU backend with PORTA_CPU_BOUNDS=off, "
               "the others opened robust (porta/robust.h); each pair of rows compared");
  app.add_option("--json", o.json,
                 "the whole run as JSON (- is standard output; the table then goes to stderr)")
      ->type_name("FILE");
  app.add_option(
         "--sweep-matmul", o.sweep_source,
         "time tile choices of that matmul.comp, or of a matmul_coop_f16.spv / matmul_coop_f32.spv "
         "(cooperative matrices; the build leaves them in kernels/spirv/), or of matmul_workgroup.spv "
         "(Workgroup-scope matrices; in bench/coopmat_peak/), instead of the ops")
      ->type_name("FILE");
  app.footer(std::string("Sizes accept 2^k; defaults depend on the device (GPU or CPU-type).\n") +
             porta::cli::kExitStatusText);
}

void finish(Options& o, const RawOptions& raw) {
  if (!raw.backends.empty()) o.backends = porta::cli::split_list(raw.backends);
  if (!raw.ops.empty()) {
    o.ops = porta::cli::split_list(raw.ops);
    for (const auto& op : o.ops)
      if (!known_op(op)) throw UsageError("unknown op '" + op + "'");
  }
  for (const auto& s : porta::cli::split_list(raw.elementwise)) o.elementwise.push_back(parse_size(s));
  for (const auto& s : porta::cli::split_list(raw.matmul)) o.matmul.push_back(parse_size(s));
  for (const auto& s : porta::cli::split_list(raw.logreg)) {
    auto parts = porta::cli::split_list(s, 'x');
    if (parts.size() != 2) throw UsageError("--logreg wants MxD, not '" + s + "'");
    o.logreg.push_back({parse_size(parts[0]), parse_size(parts[1])});
  }
  if (!raw.runs.empty()) {
    o.runs = static_cast<uint32_t>(parse_size(raw.runs));
    if (o.runs < 10) throw UsageError("--runs must be at least 10 (a median of at least ten runs)");
  }
  if (!raw.warmup.empty()) o.warmup = raw.warmup == "0" ? 0 : static_cast<uint32_t>(parse_size(raw.warmup));
  if (!raw.energy.empty()) {
    char* end = nullptr;
    o.energy_seconds = std::strtod(raw.energy.c_str(), &end);
    if (*end || !(o.energy_seconds >= 0) || o.energy_seconds > 600)
      throw UsageError("--energy wants seconds from 0 to 600, not '" + raw.energy + "'");
  }
  if (!raw.energy_runs.empty()) o.energy_samples = static_cast<uint32_t>(parse_size(raw.energy_runs));
}

}  // namespace
}  // namespace porta::bench

int main(int argc, char** argv) {
  using namespace porta::bench;
  porta::cli::Command command(
      "porta-bench",
      "Times porta's ops on every backend and device, against the memory bound of the\n"
      "same device and against a peer library measured in the same run.",
      porta_version());
  Options options;
  RawOptions raw;
  declare(command, options, raw);
  for (int i = 0; i < argc; ++i) options.command += (i ? " " : "") + std::string(argv[i]);
  return command.run(argc, argv, [&] {
    finish(options, raw);
    try {
      for (const auto& b : porta::backends())
        if (!b.available)
          std::fprintf(stderr, "porta-bench: backend %s unavailable: %s\n", b.name.c_str(), b.reason.c_str());
      // With the JSON on standard output, the table goes to stderr.
      const bool json_to_stdout = porta::cli::is_stdout(options.json);
      FILE* text = json_to_stdout ? stderr : stdout;
      const ExternalPeer external = load_external_peer(options.peer_results);
      if (!external.error.empty())
        std::fprintf(stderr, "porta-bench: --peer-results %s\n", external.error.c_str());
      Bench bench(options);
      // What is measured so far survives a driver that takes the process down.
      bench.run_all([&] {
        if (!options.json.empty() && !json_to_stdout)
          write_json(bench, judge_targets(bench.results(), external), options.json);
      });
      const std::vector<Target> targets = judge_targets(bench.results(), external);
      print_table(bench, text);
      print_targets(targets, text);
      if (!options.json.empty()) write_json(bench, targets, options.json);
      if (!options.targets.empty())
        porta::cli::write_output(options.targets, targets_markdown(bench.results(), external, targets));
    } catch (const porta::Error& e) {
      return command.failure(e.what());
    }
    return porta::cli::kSuccess;
  });
}
