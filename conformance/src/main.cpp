// porta-conformance: every built-in op (or a user's kernel) on every available
// backend and device, against porta's CPU backend, itself checked against a
// float64 oracle in the same run.
//
// Each (backend, device) runs in a child process (this program again, with
// --backend B --device I --json-fragment FILE) that writes one JSON line per
// case as it goes: a crash or hang of one device loses only that device's
// remaining cases, and the case it died in is named. With --kernel the parent
// prepares the kernel's job once (user_kernel.hpp), each device's process
// runs it, and the parent compares the devices' buffers.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "json.hpp"
#include "kernel_io.hpp"
#include "porta_cli.hpp"
#include "report.hpp"
#include "suite.hpp"
#include "tolerances.hpp"
#include "user_kernel.hpp"

namespace porta::conformance {
namespace {

const char kDescription[] =
    "Runs every built-in op on every available backend and device (or those named) and compares each\n"
    "result with porta's CPU backend, which is itself checked against a float64 oracle. Tolerances come\n"
    "from each op's error bound (porta-conformance --tolerances lists them).";

const char kFooter[] =
    "User kernels: --inputs auto fills every buffer and the push constants from the kernel's reflected\n"
    "types (floats k/256 in [-2, 2], integers in [0, 64), bools 0/1; a runtime array gets --elements N\n"
    "elements, default the dispatch's invocations), from --seed. Or each --buffer, in parameter order\n"
    "(set, binding, array element), is BYTES (filled with the NaN pattern 0x7f80dead), zeros:BYTES,\n"
    "random:SEED:BYTES, pattern:HEX32:BYTES or file:PATH; --push is hex:BYTES, 0xBYTES, f32:1,2, u32:1,2,\n"
    "i32:-1 or a float list, appended in order. Every device runs in its own process; its buffers are\n"
    "compared member by member with the CPU backend's (or, where it refuses the kernel, the first device\n"
    "that ran it): floats within --tolerance-ulp ulps (default 4) or as many ulps of 32.0 apart, integers\n"
    "and bools exactly, padding bit for bit.\n"
    "A device alone proves nothing: where only one device ran the kernel and no --expect was checked,\n"
    "that device's case is a SKIP ('not compared'), naming why the others did not run it.\n"
    "Exit status: 0 all passed (skips and named deviations allowed), 1 a failure or crash, 2 bad\n"
    "arguments, 77 nothing selected was available (--kernel: or nothing was compared).";

struct Options {
  bool full = false;
  std::vector<std::string> backends, ops;
  std::string device, case_name;
  uint64_t seed = 1;
  std::string json, junit, html, fragment;
  int timeout = 1200;
  bool list = false, tolerances = false;
  std::string program = "porta-conformance";  // as the user called it, for replay commands
  UserKernel kernel;
  bool kernel_mode = false;
  std::string kernel_job;  // a device's process: the job folder its parent prepared
  std::string command;
};

std::string shell_quote(const std::string& s) {
  if (!s.empty() &&
      s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:,=+@%") ==
          std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Declares the options on `command`; their values land in `o` and `raw`.
struct RawOptions {
  std::vector<std::string> backends, ops;
  std::string seed, timeout, tolerance, inputs, elements;
  std::vector<std::string> needs;
};

void declare(porta::cli::Command& command, Options& o, RawOptions& raw) {
  using porta::cli::repeatable;
  command.synopsis(
      "[--quick | --full] [--backend LIST] [--device SEL] [--op LIST]\n"
      "[--case NAME] [--seed N] [--json FILE] [--junit FILE] [--html FILE]\n"
      "[--timeout SECONDS] [--list]\n"
      "--kernel FILE.comp|FILE.spv [--groups X,Y,Z] [--inputs auto [--elements N] | --buffer SPEC...]\n"
      "[--push SPEC]... [--spec ID=VALUE]... [--entry NAME] [--tolerance-ulp N] [--requires LIST]\n"
      "[--strict] [--seed N] [--timeout SECONDS] [--backend LIST] [--device SEL] [reports as above]");
  command.footer(kFooter);
  CLI::App& app = command.app();
  app.add_flag_callback(
         "--quick", [&o] { o.full = false; }, "the CI table (default)")
      ->trigger_on_parse();
  app.add_flag_callback(
         "--full", [&o] { o.full = true; }, "adds >= 2^24-element cases")
      ->trigger_on_parse();
  repeatable(app.add_option("--backend", raw.backends,
                            "comma list (cpu,vulkan,opencl,cuda or any plugin name); default: all found"))
      ->type_name("LIST");
  app.add_option("--device", o.device, "device index or name substring within each backend")
      ->type_name("SEL");
  repeatable(
      app.add_option("--op", raw.ops, "comma list of ops: fill,scale,mul,sigmoid,matmul,gemm,logreg_step"))
      ->type_name("LIST");
  app.add_option("--case", o.case_name,
                 "only this case (see --list); with --seed, replays a reported failure")
      ->type_name("NAME");
  app.add_option("--seed", raw.seed,
                 "the run's seed (default 1); every case's data derive from it and its name")
      ->type_name("N");
  app.add_option("--json", o.json, "the report as JSON (- is standard output)")->type_name("FILE");
  app.add_option("--junit", o.junit, "the report as JUnit XML (- is standard output)")->type_name("FILE");
  app.add_option("--html", o.html, "the report as a self-contained HTML page (- is standard output)")
      ->type_name("FILE");
  app.add_option("--timeout", raw.timeout,
                 "per device process (default 1200); a device past it is reported as hung")
      ->type_name("SECONDS");
  app.add_flag("--list", o.list, "list the cases of the ops given and exit");
  app.add_flag("--tolerances", o.tolerances, "list each op's error bound and exit");
  app.add_option("--kernel", o.kernel.path, "run a user's kernel instead of the built-in ops")
      ->type_name("FILE");
  app.add_option("--groups", o.kernel.groups, "work-groups of the user's kernel")->type_name("X,Y,Z");
  repeatable(app.add_option("--buffer", o.kernel.buffers, "a buffer of the user's kernel (see below)"))
      ->type_name("SPEC");
  repeatable(app.add_option("--push", o.kernel.push, "push-constant bytes of the user's kernel (see below)"))
      ->type_name("SPEC");
  app.add_option("--tolerance-ulp,--tolerance", raw.tolerance,
                 "floats of the user's kernel agree within N ulps (default 4)")
      ->type_name("N");
  app.add_option("--inputs", raw.inputs, "auto: every buffer and push constant from the kernel's types")
      ->type_name("auto");
  app.add_option("--elements", raw.elements,
                 "--inputs auto: elements of each runtime array (default: the dispatch's invocations)")
      ->type_name("N");
  repeatable(app.add_option("--spec", o.kernel.specs, "a spec constant's value, typed by its declaration"))
      ->type_name("ID=VALUE");
  app.add_option("--entry", o.kernel.entry, "the entry point of a module with several")->type_name("NAME");
  repeatable(app.add_option("--expect", o.kernel.expects,
                            "the kernel's own expected value: every scalar of buffer member NAME (NAME[i], "
                            "NAME.x, ...) holds VALUE on every device; a device alone is then checked"))
      ->type_name("NAME=VALUE");
  repeatable(app.add_option("--requires", raw.needs,
                            "comma list of features the kernel needs (porta-info lists them); a device "
                            "without them is a skip naming them"))
      ->type_name("LIST");
  app.add_flag("--layout", o.kernel.layout, "print the user's kernel's buffers as typed and sized, and exit");
  app.add_flag("--strict", o.kernel.strict, "a device that refuses the user's kernel fails (not a skip)");
  // How a device's own process is started (run_device): not for users.
  app.add_option("--kernel-job", o.kernel_job)->group("");
  app.add_option("--json-fragment", o.fragment)->group("");
  app.add_option("--program", o.program)->group("");
}

// Checks and completes what declare() parsed; throws UsageError.
void finish(Options& o, const RawOptions& raw) {
  o.backends = porta::cli::split_list(raw.backends);
  o.ops = porta::cli::split_list(raw.ops);
  if (!raw.seed.empty()) o.seed = parse_size(raw.seed, "--seed");
  o.kernel_mode = !o.kernel.path.empty();
  // A hung kernel is found sooner than a hung suite.
  if (o.kernel_mode) o.timeout = 300;
  if (!raw.timeout.empty()) o.timeout = static_cast<int>(parse_size(raw.timeout, "--timeout"));
  if (o.timeout <= 0) throw UsageError("--timeout must be at least 1 second");
  if (!raw.tolerance.empty()) {
    const std::string& v = raw.tolerance;
    char* end = nullptr;
    o.kernel.tolerance_ulp = std::strtod(v.c_str(), &end);
    if (v.empty() || *end || !(o.kernel.tolerance_ulp >= 0))
      throw UsageError("--tolerance-ulp '" + v + "' is not a number of ulps >= 0");
  }
  if (!raw.inputs.empty() && raw.inputs != "auto")
    throw UsageError("--inputs '" + raw.inputs + "': the only way is auto");
  o.kernel.auto_inputs = raw.inputs == "auto";
  if (!raw.elements.empty()) {
    if (!o.kernel.auto_inputs) throw UsageError("--elements sizes the buffers of --inputs auto");
    o.kernel.elements = parse_size(raw.elements, "--elements");
    if (o.kernel.elements == 0) throw UsageError("--elements must be at least 1");
  }
  o.kernel.needs = porta::cli::split_list(raw.needs);
  if (!o.kernel_mode &&
      (!o.kernel.specs.empty() || !o.kernel.entry.empty() || o.kernel.auto_inputs ||
       !o.kernel.buffers.empty() || !o.kernel.push.empty() || o.kernel.strict || !o.kernel.expects.empty()))
    throw UsageError(
        "--buffer, --push, --spec, --entry, --inputs, --expect and --strict go with --kernel FILE");
  int to_stdout = 0;
  for (const std::string* report : {&o.json, &o.junit, &o.html}) to_stdout += porta::cli::is_stdout(*report);
  if (to_stdout > 1) throw UsageError("only one of --json, --junit and --html can write to standard output");
  if (o.ops.empty() && !o.kernel_mode) o.ops = builtin_ops();
  for (const auto& op : o.ops)
    if (std::find(builtin_ops().begin(), builtin_ops().end(), op) == builtin_ops().end())
      throw UsageError("unknown op '" + op +
                       "'; the built-in ops are fill, scale, mul, sigmoid, matmul, gemm, logreg_step");
  if (!o.case_name.empty()) {
    bool found = false;
    for (const auto& op : o.ops)
      for (const auto& c : cases_of(op, true)) found = found || c.name == o.case_name;
    if (!found) throw UsageError("no case named '" + o.case_name + "' in op(s) given (--list shows them)");
  }
  if (o.kernel_mode) validate(o.kernel);
  if (!o.kernel_job.empty()) o.kernel_mode = true;
  if (!o.fragment.empty() && (o.backends.size() != 1 || o.device.empty()))
    throw UsageError("--json-fragment runs one device: it needs --backend NAME and --device INDEX");
}

// The text report goes to stderr when a report is written to standard output.
bool report_on_stdout(const Options& o) {
  return porta::cli::is_stdout(o.json) || porta::cli::is_stdout(o.junit) || porta::cli::is_stdout(o.html);
}

// ---- child: one device ------------------------------------------------------------

// The reference device, porta's CPU backend, which every other device is compared with.
bool is_reference(const porta::DeviceInfo& info) { return (info.flags & PORTA_DEVICE_FLAG_REFERENCE) != 0; }

porta::Device open_reference() {
  for (const porta::DeviceInfo& info : porta::devices())
    if (is_reference(info)) return porta::open(std::string(info.backend) + ":" + std::to_string(info.index));
  throw porta::Error(PORTA_ERROR_NOT_FOUND,
                     "no reference device was found (porta's CPU backend, libporta-cpu.so)");
}

void emit(FILE* f, const Json& j) {
  std::fputs((j.dump() + "\n").c_str(), f);
  std::fflush(f);
}

// The options that run the user's kernel again, as the user gave them.
std::string kernel_arguments(const Options& o) {
  const UserKernel& k = o.kernel;
  std::string cmd = " --kernel " + shell_quote(k.path) + " --groups " + shell_quote(k.groups);
  if (!k.entry.empty()) cmd += " --entry " + shell_quote(k.entry);
  for (const auto& s : k.specs) cmd += " --spec " + shell_quote(s);
  if (k.auto_inputs) cmd += " --inputs auto --seed " + std::to_string(o.seed);
  if (k.elements) cmd += " --elements " + std::to_string(k.elements);
  for (const auto& b : k.buffers) cmd += " --buffer " + shell_quote(b);
  for (const auto& p : k.push) cmd += " --push " + shell_quote(p);
  for (const auto& e : k.expects) cmd += " --expect " + shell_quote(e);
  char t[48];
  std::snprintf(t, sizeof t, " --tolerance-ulp %g", k.tolerance_ulp);
  return cmd + t;
}

std::string replay_command(const Options& o, const CaseResult& r) {
  std::string cmd;
  if (const char* p = std::getenv("PORTA_PLUGIN_PATH"); p && *p)
    cmd += "PORTA_PLUGIN_PATH=" + shell_quote(p) + " ";
  cmd += shell_quote(o.program) + " --backend " + r.backend + " --device " + std::to_string(r.device_index);
  if (o.kernel_mode) return cmd + kernel_arguments(o);
  return cmd + " --op " + r.op + " --case " + shell_quote(r.name) + " --seed " + std::to_string(r.seed);
}

int child_main(const Options& o) {
  FILE* f = std::fopen(o.fragment.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "porta-conformance: cannot write %s: %s\n", o.fragment.c_str(),
                 std::strerror(errno));
    return 2;
  }
  const std::string backend = o.backends[0];
  Devices d;
  try {
    d.dut = porta::open(backend + ":" + o.device);
  } catch (const porta::Error& e) {
    Json j = Json::object();
    j["type"] = "error";
    j["reason"] = std::string("cannot open the device: ") + e.what();
    emit(f, j);
    std::fclose(f);
    return 0;
  }
  const porta::DeviceInfo info = d.dut.info();
  Json dj = Json::object();
  dj["type"] = "device";
  dj["device"] = info.name;
  dj["index"] = static_cast<int>(info.index);
  dj["driver"] = info.driver;
  dj["api"] = info.api_version;
  emit(f, dj);
  if (!is_reference(info) && !o.kernel_mode) {
    try {
      d.ref = open_reference();
    } catch (const porta::Error& e) {
      d.ref_unavailable = e.what();
    }
  }
  const std::string label = backend + ":" + std::to_string(info.index);
  auto finish = [&](CaseResult& r) {
    r.replay = replay_command(o, r);
    emit(f, r.to_json());
    if (r.outcome == Outcome::kFail)
      std::printf("[%s] FAIL %s %s: %s\n", label.c_str(), r.op.c_str(), r.name.c_str(),
                  r.detail.substr(0, r.detail.find('\n', r.detail.find('\n') + 1)).c_str());
  };
  if (o.kernel_mode) {
    Json b = Json::object();
    b["type"] = "begin";
    b["op"] = "kernel";
    b["case"] = o.kernel.path;
    emit(f, b);
    // Judged by the parent, once every device has run.
    CaseResult r = run_job(d.dut, o.kernel_job);
    r.seed = o.seed;
    emit(f, r.to_json());
  } else {
    for (const auto& op : o.ops) {
      const auto start = std::chrono::steady_clock::now();
      int n = 0, bad = 0;
      for (const Case& c : cases_of(op, o.full || !o.case_name.empty())) {
        if (!o.case_name.empty() && c.name != o.case_name) continue;
        Json b = Json::object();
        b["type"] = "begin";
        b["op"] = op;
        b["case"] = c.name;
        emit(f, b);
        CaseResult r = run_case(d, c, o.seed);
        finish(r);
        ++n;
        bad += r.outcome == Outcome::kFail;
      }
      std::printf("[%s] %-12s %4d cases, %d failed, %.1f s\n", label.c_str(), op.c_str(), n, bad,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      std::fflush(stdout);
    }
  }
  Json e = Json::object();
  e["type"] = "end";
  emit(f, e);
  std::fclose(f);
  return 0;
}

// ---- parent: every device in its own process ---------------------------------------------

std::string signal_text(int sig) {
  const char* s = sigabbrev_np(sig);
  return "signal " + std::to_string(sig) + " (SIG" + (s ? s : "?") + ", " + strsignal(sig) + ")";
}

void run_device(const Options& o, DeviceReport& dev) {
  char tmpl[] = "/tmp/porta-conformance-XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd < 0) {
    dev.status = "failed to start";
    dev.reason = std::string("cannot create a temporary file: ") + std::strerror(errno);
    return;
  }
  close(fd);
  const std::string fragment = tmpl;
  std::vector<std::string> args = {
      "/proc/self/exe",          "--program",       o.program, "--backend", dev.backend,           "--device",
      std::to_string(dev.index), "--json-fragment", fragment,  "--seed",    std::to_string(o.seed)};
  if (o.full) args.push_back("--full");
  if (o.kernel_mode) {
    args.insert(args.end(), {"--kernel", o.kernel.path, "--kernel-job", o.kernel_job});
  } else {
    std::string ops;
    for (const auto& op : o.ops) ops += (ops.empty() ? "" : ",") + op;
    args.insert(args.end(), {"--op", ops});
    if (!o.case_name.empty()) args.insert(args.end(), {"--case", o.case_name});
  }
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    dev.status = "failed to start";
    dev.reason = std::string("fork: ") + std::strerror(errno);
    return;
  }
  if (pid == 0) {
    // A report on standard output keeps it: the device's progress lines go to stderr.
    if (report_on_stdout(o)) dup2(STDERR_FILENO, STDOUT_FILENO);
    execv(argv[0], argv.data());
    std::fprintf(stderr, "porta-conformance: cannot run itself (%s): %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  bool timed_out = false;
  for (;;) {
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(o.timeout)) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }

  std::ifstream in(fragment);
  std::string line, begun_op, begun_case;
  bool ended = false;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    Json j;
    try {
      j = Json::parse(line);
    } catch (const std::exception&) {
      continue;  // a line cut short by a crash
    }
    const std::string type = text_at(j, "type");
    if (type == "device") {
      dev.device = text_at(j, "device");
    } else if (type == "begin") {
      begun_op = text_at(j, "op");
      begun_case = text_at(j, "case");
    } else if (type == "case") {
      dev.cases.push_back(CaseResult::from_json(j));
      begun_op.clear();
      begun_case.clear();
    } else if (type == "error") {
      dev.status = "failed to open";
      dev.reason = text_at(j, "reason");
    } else if (type == "end") {
      ended = true;
    }
  }
  std::remove(fragment.c_str());
  if (dev.status == "failed to open") return;
  std::string how;
  if (timed_out)
    how = "hung: no result within " + std::to_string(o.timeout) + " s (--timeout)";
  else if (WIFSIGNALED(status))
    how = "crashed with " + signal_text(WTERMSIG(status));
  else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    how = "exited with status " + std::to_string(WEXITSTATUS(status));
  else if (!ended)
    how = "stopped before finishing";
  if (how.empty()) {
    dev.status = "ran";
    return;
  }
  dev.status = timed_out ? "hung" : "crashed";
  dev.reason = how + (begun_case.empty() ? "" : " during " + begun_op + " case " + begun_case) + "; " +
               std::to_string(dev.cases.size()) + " case(s) finished before are kept";
  if (!begun_case.empty()) {
    CaseResult r;
    r.backend = dev.backend;
    r.device = dev.device;
    r.device_index = dev.index;
    r.op = begun_op;
    r.name = o.kernel_mode ? o.kernel.path.substr(o.kernel.path.find_last_of('/') + 1) : begun_case;
    r.seed = o.seed;
    r.outcome = timed_out ? Outcome::kHang : Outcome::kCrash;
    r.detail = "the device's process " + how + " during this case";
    Options single = o;
    r.replay = replay_command(single, r);
    dev.cases.push_back(r);
  }
}

bool device_selected(const std::string& sel, const porta::DeviceInfo& info) {
  if (sel.empty()) return true;
  if (sel.find_first_not_of("0123456789") == std::string::npos) return std::to_string(info.index) == sel;
  return std::string(info.name).find(sel) != std::string::npos;
}

int parent_main(Options o) {
  FILE* text = report_on_stdout(o) ? stderr : stdout;
  const auto start = std::chrono::steady_clock::now();
  // --kernel: the kernel is compiled, reflected and given its inputs once, in
  // a folder every device's process reads.
  std::optional<KernelJob> job;
  if (o.kernel_mode) {
    try {
      job = prepare_job(o.kernel, o.seed);
      if (o.kernel.layout) {
        std::fputs(describe_layout(*job).c_str(), stdout);
        return 0;
      }
      char folder[] = "/tmp/porta-kernel-XXXXXX";
      if (!mkdtemp(folder))
        throw std::runtime_error(std::string("cannot create a folder in /tmp: ") + std::strerror(errno));
      o.kernel_job = folder;
      write_job(*job, o.kernel_job);
    } catch (const UsageError& e) {
      std::fprintf(stderr, "porta-conformance: %s\n", e.what());
      return 2;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "porta-conformance: %s: %s\n", o.kernel.path.c_str(), e.what());
      return 1;
    }
  }
  RunReport report;
  report.mode = o.kernel_mode ? "kernel " + o.kernel.path : o.full ? "--full" : "--quick";
  report.seed = o.seed;
  report.command = o.command;
  report.ops = o.kernel_mode ? std::vector<std::string>{"kernel"} : o.ops;

  const std::vector<porta::BackendInfo> found = porta::backends();
  const std::vector<porta::DeviceInfo> devices = porta::devices();
  std::vector<std::string> names = o.backends;
  if (names.empty()) {
    // The reference first, then every other plugin found.
    auto has_reference = [&](const porta::BackendInfo& b) {
      return std::any_of(devices.begin(), devices.end(),
                         [&](const porta::DeviceInfo& i) { return i.backend == b.name && is_reference(i); });
    };
    for (const auto& b : found)
      if (has_reference(b)) names.push_back(b.name);
    for (const auto& b : found)
      if (!has_reference(b)) names.push_back(b.name);
  }
  if (o.kernel_mode) {
    // Every device is compared with the CPU backend's results: it runs even where --backend leaves it out.
    bool selected = false;
    for (const auto& info : devices)
      selected =
          selected || (is_reference(info) && device_selected(o.device, info) &&
                       std::find(names.begin(), names.end(), std::string(info.backend)) != names.end());
    for (const auto& info : devices)
      if (!selected && is_reference(info)) {
        selected = true;
        DeviceReport d;
        d.backend = info.backend;
        d.index = static_cast<int>(info.index);
        d.device = info.name;
        d.reference = d.reference_only = true;
        std::fprintf(text, "[%s:%u] %s (the reference)\n", info.backend, info.index, info.name);
        std::fflush(text);
        run_device(o, d);
        report.devices.push_back(d);
      }
  }
  for (const auto& name : names) {
    auto it =
        std::find_if(found.begin(), found.end(), [&](const porta::BackendInfo& b) { return b.name == name; });
    if (it == found.end() || !it->available) {
      DeviceReport d;
      d.backend = name;
      d.status = "unavailable";
      d.reason = it == found.end() ? "no plugin libporta-" + name +
                                         ".so was found (PORTA_PLUGIN_PATH, next to "
                                         "libporta, the install's plugin folder)"
                                   : it->reason;
      std::fprintf(text, "[%s] unavailable: %s\n", name.c_str(), d.reason.c_str());
      report.devices.push_back(d);
      continue;
    }
    bool any = false;
    for (const auto& info : devices) {
      if (name != info.backend || !device_selected(o.device, info)) continue;
      any = true;
      DeviceReport d;
      d.backend = name;
      d.index = static_cast<int>(info.index);
      d.device = info.name;
      d.reference = is_reference(info);
      std::fprintf(text, "[%s:%u] %s\n", name.c_str(), info.index, info.name);
      std::fflush(text);
      const std::string missing = job ? missing_features(job->needs, info.features) : "";
      if (!missing.empty()) {
        // Not started: the device lacks what the kernel declares it needs.
        d.status = "ran";
        d.lacks_features = true;
        CaseResult r;
        r.backend = name;
        r.device = d.device;
        r.device_index = d.index;
        r.op = "kernel";
        r.name = job->name;
        r.seed = o.seed;
        r.outcome = Outcome::kSkip;
        r.detail = "the device lacks " + missing;
        d.cases.push_back(r);
      } else {
        run_device(o, d);
      }
      report.devices.push_back(d);
    }
    if (!any) {
      DeviceReport d;
      d.backend = name;
      d.status = "unavailable";
      d.reason = o.device.empty() ? "the backend has no device" : "no device matches --device " + o.device;
      report.devices.push_back(d);
    }
  }
  if (job) {
    judge_job(*job, o.kernel_job, o.kernel, report);
    std::error_code ignored;
    std::filesystem::remove_all(o.kernel_job, ignored);
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  print_text(report, text);
  if (job) {
    // What each device did with the kernel, passes included: which device was the reference and why.
    std::fprintf(text, "\nKernel %s:\n", job->name.c_str());
    for (const auto& d : report.devices)
      for (const auto& c : d.cases)
        std::fprintf(text, "  %-12s %-6s %s\n", d.label().c_str(), outcome_name(c.outcome),
                     c.detail.substr(0, c.detail.find('\n')).c_str());
  }
  try {
    if (!o.json.empty()) write_json(report, o.json);
    if (!o.junit.empty()) write_junit(report, o.junit);
    if (!o.html.empty()) write_html(report, o.html);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "porta-conformance: %s\n", e.what());
    return 1;
  }
  const int status = exit_status(report);
  if (job && status == 0) {
    // Nothing ran the kernel (every device skipped it), or one device alone ran it and
    // nothing was compared (judge_job): 77, as when none is there.
    bool ran = false;
    for (const auto& d : report.devices)
      for (const auto& c : d.cases) ran = ran || c.outcome == Outcome::kPass;
    if (!ran) return 77;
  }
  return status;
}

void list_cases(const Options& o) {
  for (const auto& op : o.ops) {
    const Tolerance& t = tolerance_of(op);
    std::printf("%s  (bound: %s)\n", op.c_str(), t.source);
    for (const auto& c : cases_of(op, true))
      std::printf("  %-32s %s%llu elements\n", c.name.c_str(), c.full_only ? "[--full] " : "",
                  static_cast<unsigned long long>(c.elements()));
  }
}

void list_tolerances() {
  std::printf("%-12s %-8s %-18s %-10s %s\n", "op", "dtype", "measured in", "vs CPU", "bound");
  for (const auto& t : kTolerances) {
    char ref[32];
    if (t.reference_factor == 0)
      std::snprintf(ref, sizeof ref, "same bits");
    else
      std::snprintf(ref, sizeof ref, "%g x bound", t.reference_factor);
    std::printf("%-12s %-8s %-18s %-10s %s\n", t.op, "float32", t.unit, ref, t.source);
  }
}

}  // namespace
}  // namespace porta::conformance

int main(int argc, char** argv) {
  using namespace porta::conformance;
  porta::cli::Command command("porta-conformance", kDescription, porta_version());
  Options o;
  RawOptions raw;
  declare(command, o, raw);
  if (argc > 0) o.program = argv[0];
  for (int i = 0; i < argc; ++i) o.command += (i ? " " : "") + shell_quote(argv[i]);
  if (std::optional<int> done = command.parse(argc, argv)) return *done;
  try {
    finish(o, raw);
  } catch (const std::exception& e) {
    return command.usage_error(e.what());
  }
  if (o.tolerances) {
    list_tolerances();
    return 0;
  }
  if (o.list) {
    list_cases(o);
    return 0;
  }
  if (!o.fragment.empty()) return child_main(o);
  return parent_main(o);
}
