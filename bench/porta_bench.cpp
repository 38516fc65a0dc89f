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
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "host_loops.hpp"
#include "json.hpp"
#include "porta/porta.hpp"

namespace porta::bench {
namespace {

// ---- options --------------------------------------------------------------------

struct LogregSize {
  uint64_t m, d;
};

struct Options {
  std::vector<std::string> backends;  // empty: all
  std::vector<std::string> ops = {"mul", "sigmoid", "matmul", "logreg_step", "overhead"};
  std::vector<uint64_t> elementwise, matmul;  // empty: per device class
  std::vector<LogregSize> logreg;
  uint32_t runs = 10, warmup = 2;
  bool peers = true;
  bool gpu_only = false;     // leave CPU-type devices out
  std::string sweep_source;  // matmul.comp: time tile choices instead of the ops
  std::string json;
  std::string command;
};

[[noreturn]] void usage(const std::string& why) {
  if (!why.empty()) std::fprintf(stderr, "porta-bench: %s\n", why.c_str());
  std::fprintf(stderr,
               "usage: porta-bench [--backends cuda,vulkan,opencl,cpu] [--ops "
               "mul,sigmoid,matmul,logreg_step,overhead]\n"
               "                   [--elementwise N,...] [--matmul N,...] [--logreg MxD,...]\n"
               "                   [--runs N (>= 10)] [--warmup N] [--no-peers] [--gpu-only] [--json FILE]\n"
               "                   [--sweep-matmul kernels/matmul/matmul.comp]  time tile choices of it\n"
               "sizes accept 2^k; defaults depend on the device (GPU or CPU-type)\n");
  std::exit(2);
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, sep);)
    if (!item.empty()) out.push_back(item);
  return out;
}

uint64_t parse_size(const std::string& text) {
  char* end = nullptr;
  if (text.size() > 2 && text[0] == '2' && text[1] == '^') {
    unsigned long e = std::strtoul(text.c_str() + 2, &end, 10);
    if (*end || e > 40) usage("size '" + text + "' is not a number or 2^k");
    return uint64_t(1) << e;
  }
  unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || *end || v == 0) usage("size '" + text + "' is not a positive number or 2^k");
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 0; i < argc; ++i) o.command += (i ? " " : "") + std::string(argv[i]);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--backends") {
      o.backends = split(value(), ',');
    } else if (a == "--ops") {
      o.ops = split(value(), ',');
      for (const auto& op : o.ops)
        if (op != "mul" && op != "sigmoid" && op != "matmul" && op != "logreg_step" && op != "overhead")
          usage("unknown op '" + op + "'");
    } else if (a == "--elementwise") {
      for (const auto& s : split(value(), ',')) o.elementwise.push_back(parse_size(s));
    } else if (a == "--matmul") {
      for (const auto& s : split(value(), ',')) o.matmul.push_back(parse_size(s));
    } else if (a == "--logreg") {
      for (const auto& s : split(value(), ',')) {
        auto parts = split(s, 'x');
        if (parts.size() != 2) usage("--logreg wants MxD, not '" + s + "'");
        o.logreg.push_back({parse_size(parts[0]), parse_size(parts[1])});
      }
    } else if (a == "--runs") {
      o.runs = static_cast<uint32_t>(parse_size(value()));
      if (o.runs < 10) usage("--runs must be at least 10 (a median of at least ten runs)");
    } else if (a == "--warmup") {
      const std::string v = value();
      o.warmup = v == "0" ? 0 : static_cast<uint32_t>(parse_size(v));
    } else if (a == "--sweep-matmul") {
      o.sweep_source = value();
    } else if (a == "--gpu-only") {
      o.gpu_only = true;
    } else if (a == "--no-peers") {
      o.peers = false;
    } else if (a == "--json") {
      o.json = value();
    } else if (a == "--help" || a == "-h") {
      usage("");
    } else {
      usage("unknown argument '" + a + "'");
    }
  }
  return o;
}

// ---- measurements ---------------------------------------------------------------

struct Timing {
  double median_ms = 0, min_ms = 0;
  uint32_t runs = 0;
};

Timing summarize(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  Timing t;
  t.runs = static_cast<uint32_t>(samples.size());
  if (samples.empty()) return t;
  const size_t n = samples.size();
  t.median_ms = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  t.min_ms = samples.front();
  return t;
}

// Times `body` (queues work on `stream`) between two events, one sample per run.
Timing time_events(Stream& stream, uint32_t warmup, uint32_t runs, const std::function<void()>& body) {
  for (uint32_t i = 0; i < warmup; ++i) body();
  stream.sync();
  std::vector<double> samples;
  for (uint32_t i = 0; i < runs; ++i) {
    Event start = stream.record_event();
    body();
    Event stop = stream.record_event();
    stream.sync();
    samples.push_back(start.elapsed_ms(stop));
  }
  return summarize(samples);
}

// Times `body` (which syncs) with the host clock.
Timing time_wall(uint32_t warmup, uint32_t runs, const std::function<void()>& body) {
  for (uint32_t i = 0; i < warmup; ++i) body();
  std::vector<double> samples;
  for (uint32_t i = 0; i < runs; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    body();
    samples.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return summarize(samples);
}

// ---- peers ------------------------------------------------------------------------

struct Peer {
  std::string file;  // library file, or "built in"
  const porta_bench_peer* table = nullptr;
  std::string reason;  // why it is unavailable
  std::string opened;  // the hint it is open with
  std::string device;  // the device it reported
  bool open_failed = false;
};

std::string executable_dir() {
  char path[4096] = {};
  ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return ".";
  std::string p(path, static_cast<size_t>(n));
  return p.substr(0, p.rfind('/'));
}

Peer load_peer(const std::string& name) {
  Peer peer;
  peer.file = "peer-" + name + ".so";
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("PORTA_BENCH_PEER_PATH"))
    for (const auto& d : split(env, ':')) dirs.push_back(d);
  const std::string exe = executable_dir();
  dirs.push_back(exe + "/../lib/porta-bench");
  dirs.push_back(exe);
  std::string reasons;
  for (const auto& dir : dirs) {
    const std::string path = dir + "/" + peer.file;
    if (access(path.c_str(), F_OK) != 0) continue;
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      reasons += std::string(reasons.empty() ? "" : "; ") + dlerror();
      continue;
    }
    auto get = reinterpret_cast<porta_bench_peer_get_fn>(dlsym(lib, "porta_bench_peer_get"));
    const porta_bench_peer* table = get ? get() : nullptr;
    if (!table || table->version != PORTA_BENCH_PEER_VERSION) {
      reasons +=
          "; " + path + ": no porta_bench_peer_get of version " + std::to_string(PORTA_BENCH_PEER_VERSION);
      continue;
    }
    peer.file = path;
    peer.table = table;
    return peer;
  }
  peer.reason =
      reasons.empty() ? peer.file + " was not found (not built here, or PORTA_BENCH_PEER_PATH)" : reasons;
  return peer;
}

// Opens `peer` on the device named by `hint` (reopening if it was open on
// another); false with peer.reason set when it cannot.
bool open_peer(Peer& peer, const std::string& hint) {
  if (!peer.table) return false;
  if (!peer.device.empty() && peer.opened == hint) return true;
  if (peer.open_failed && peer.opened == hint) return false;
  if (!peer.device.empty()) peer.table->close();
  peer.device.clear();
  char name[512] = {}, error[1024] = {};
  peer.opened = hint;
  if (peer.table->open(hint.c_str(), name, sizeof name, error, sizeof error) != 0) {
    peer.open_failed = true;
    peer.reason = std::string("open on '") + hint + "': " + error;
    return false;
  }
  peer.open_failed = false;
  peer.device = name;
  return true;
}

struct PeerResult {
  std::string library;  // what was timed
  std::string device;
  Timing timing;
  std::string error;
};

std::map<std::string, PeerResult> g_peer_cache;

std::optional<PeerResult> run_peer(Peer& peer, const std::string& hint, const std::string& op,
                                   std::array<uint64_t, 3> dims, const Options& o) {
  if (!open_peer(peer, hint)) return std::nullopt;
  const std::string key = peer.file + "|" + peer.device + "|" + op + "|" + std::to_string(dims[0]) + "x" +
                          std::to_string(dims[1]) + "x" + std::to_string(dims[2]);
  auto found = g_peer_cache.find(key);
  if (found != g_peer_cache.end()) return found->second;
  std::vector<double> samples(o.runs);
  char library[256] = {}, error[1024] = {};
  const uint64_t d[3] = {dims[0], dims[1], dims[2]};
  int status = peer.table->time(op.c_str(), d, o.warmup, o.runs, samples.data(), library, sizeof library,
                                error, sizeof error);
  if (status == PORTA_BENCH_PEER_UNSUPPORTED) return std::nullopt;
  PeerResult r;
  r.device = peer.device;
  r.library = library;
  if (status != 0)
    r.error = error;
  else
    r.timing = summarize(samples);
  g_peer_cache[key] = r;
  return r;
}

// ---- the machine ---------------------------------------------------------------------

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

unsigned cpu_backend_threads() {
  // The CPU backend's rule (backends/cpu/thread_pool.cpp).
  if (const char* env = std::getenv("PORTA_CPU_THREADS")) {
    int v = std::atoi(env);
    if (v > 0) return static_cast<unsigned>(v);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

// Peak fp32 FLOP/s where known: datasheet figures of GPUs (no tensor cores),
// an estimate for the host's cores (threads x clock x FMA width).
struct Peak {
  double flops = 0;
  std::string source;
};

Peak peak_flops(const DeviceInfo& info) {
  const std::string name = info.name;
  struct Known {
    const char* match;
    double tflops;
  };
  static const Known kKnown[] = {{"H100 PCIe", 51.2}, {"H100 NVL", 60.0}, {"H100", 66.9}, {"H200", 66.9},
                                 {"A100", 19.5},      {"L40S", 91.6},     {"A10", 31.2}};
  for (const auto& k : kKnown)
    if (name.find(k.match) != std::string::npos)
      return {k.tflops * 1e12, std::string("datasheet fp32 for ") + k.match};
  const bool host = info.type == PORTA_DEVICE_CPU || std::string(info.backend) == "cpu";
  if (!host) return {};
  double mhz = 0;
  std::string flags;
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (!mhz && line.rfind("cpu MHz", 0) == 0) mhz = std::atof(line.substr(line.find(':') + 1).c_str());
    if (flags.empty() && line.rfind("flags", 0) == 0) flags = line + " ";
  }
  if (mhz <= 0) return {};
  const bool avx512 = flags.find(" avx512f ") != std::string::npos;
  const bool fma = flags.find(" fma ") != std::string::npos && flags.find(" avx2 ") != std::string::npos;
  const double per_cycle = avx512 ? 64 : fma ? 32 : 8;  // two FMA pipes x lanes x 2
  const unsigned threads = cpu_backend_threads();
  char text[160];
  std::snprintf(text, sizeof text, "estimate: %u threads x %.0f MHz x %.0f FLOP/cycle", threads, mhz,
                per_cycle);
  return {threads * mhz * 1e6 * per_cycle, text};
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char text[64];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
  return text;
}

// ---- results ----------------------------------------------------------------------------

struct Comparison {
  std::string peer;  // "cuBLAS SGEMM (NVIDIA H100 ...)" or "porta cpu"
  double peer_ms = 0;
  double ratio = 0;  // porta's throughput / the peer's (peer_ms / porta_ms)
};

struct Row {
  std::string backend, device, op, size;
  std::array<uint64_t, 3> dims{};
  Timing timing;
  std::string timer;
  double work = 0;  // bytes (memory-bound ops) or FLOPs (matmul)
  bool flops = false;
  double rate = 0;   // GB/s or GFLOP/s
  double bound = 0;  // fraction of the bound, 0 if unknown
  std::string bound_kind;
  std::vector<Comparison> peers;
  std::string error;
};

// One result line of the table (also printed to stderr as each is measured).
void print_row(FILE* out, const Row& r);

struct Overhead {
  std::string backend, device;
  double round_trip_us = 0;  // empty kernel: dispatch + sync
  double replay_per_dispatch_us = 0;
  std::string timer = "host clock";
  std::vector<std::pair<std::string, std::pair<double, double>>> peers;  // name -> (round trip, per dispatch)
  std::string error;
};

struct DeviceSummary {
  std::string backend, device, type;
  double copy_gbs = 0;                              // device-to-device copy, bytes read + written: the bound
  double copy_engine_gbs = 0, copy_kernel_gbs = 0;  // porta's buffer copy, a copy kernel
  Peak peak;
  std::string error;
};

std::string size_text(const std::string& op, std::array<uint64_t, 3> d) {
  auto pow2 = [](uint64_t v) {
    if (v && !(v & (v - 1)) && v >= 1024) return "2^" + std::to_string(__builtin_ctzll(v));
    return std::to_string(v);
  };
  if (op == "matmul")
    return d[0] == d[1] && d[1] == d[2] ? std::to_string(d[0]) + "^2"
                                        : pow2(d[0]) + "x" + pow2(d[1]) + "x" + pow2(d[2]);
  if (op == "logreg_step") return "m=" + pow2(d[0]) + " d=" + std::to_string(d[1]);
  return pow2(d[0]);
}

std::vector<float> pattern(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * (float((i * 2654435761u) % 1024u) / 1024.0f - 0.5f);
  return v;
}

const char* kCopyKernel =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) readonly buffer Src { vec4 src[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer Dst { vec4 dst[]; };\n"
    "layout(push_constant) uniform Params { uint n4; uint stride; } p;\n"
    "void main() {\n"
    "  for (uint i = gl_GlobalInvocationID.x; i < p.n4; i += p.stride) dst[i] = src[i];\n"
    "}\n";

const char* kEmptyKernel =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "layout(set = 0, binding = 0) buffer Data { float data[]; };\n"
    "void main() {}\n";

class Bench {
 public:
  explicit Bench(Options options) : o_(std::move(options)) {
    if (o_.peers) {
      cuda_ = load_peer("cuda");
      clblast_ = load_peer("clblast");
      openblas_ = load_peer("openblas");
    }
    loops_.file = "built in";
    loops_.table = host_loops_peer();
  }

  void run_all() {
    std::vector<DeviceInfo> infos = devices();
    // porta's CPU backend first: the CPU-type drivers are compared with it.
    std::stable_sort(infos.begin(), infos.end(), [](const DeviceInfo& a, const DeviceInfo& b) {
      return (std::string(a.backend) == "cpu") > (std::string(b.backend) == "cpu");
    });
    for (const auto& info : infos) {
      if (!o_.backends.empty() &&
          std::find(o_.backends.begin(), o_.backends.end(), std::string(info.backend)) == o_.backends.end())
        continue;
      if (o_.gpu_only && host_class(info)) continue;
      run_device(info);
      // What is measured so far survives a driver that takes the process down.
      if (!o_.json.empty()) write_json(o_.json);
    }
    compare_with_cpu_backend();
  }

  void print_table() const;
  void print_targets() const;
  void write_json(const std::string& path) const;

 private:
  bool host_class(const DeviceInfo& info) const {
    return info.type == PORTA_DEVICE_CPU || std::string(info.backend) == "cpu";
  }

  void run_device(const DeviceInfo& info) {
    const std::string selector = std::string(info.backend) + ":" + std::to_string(info.index);
    DeviceSummary summary;
    summary.backend = info.backend;
    summary.device = info.name;
    summary.type = host_class(info) ? "CPU-type" : "GPU";
    summary.peak = peak_flops(info);
    std::fprintf(stderr, "porta-bench: %s (%s)\n", selector.c_str(), info.name);
    Device device;
    try {
      device = open(selector);
    } catch (const std::exception& e) {
      summary.error = e.what();
      devices_.push_back(summary);
      return;
    }
    Stream stream = device.stream();
    try {
      summary.copy_gbs = measure_copy(device, stream, summary);
    } catch (const std::exception& e) {
      summary.error = std::string("copy: ") + e.what();
    }
    devices_.push_back(summary);
    const bool host = host_class(info);
    if (!o_.sweep_source.empty()) {
      sweep_matmul(info, device, stream, host);
      return;
    }
    auto has = [&](const char* op) { return std::find(o_.ops.begin(), o_.ops.end(), op) != o_.ops.end(); };
    std::vector<uint64_t> elementwise =
        !o_.elementwise.empty() ? o_.elementwise : std::vector<uint64_t>{1u << 20, 1u << 24, 1u << 26};
    std::vector<uint64_t> matmul = !o_.matmul.empty() ? o_.matmul
                                   : host             ? std::vector<uint64_t>{256, 512, 1024}
                                                      : std::vector<uint64_t>{1024, 2048, 4096};
    std::vector<LogregSize> logreg = !o_.logreg.empty() ? o_.logreg
                                     : host ? std::vector<LogregSize>{{1u << 16, 256}, {1u << 18, 256}}
                                            : std::vector<LogregSize>{{1u << 18, 256}, {1u << 20, 256}};
    for (const char* op : {"mul", "sigmoid"})
      if (has(op))
        for (uint64_t n : elementwise) guarded(info, device, stream, op, {n, 1, 1});
    if (has("matmul"))
      for (uint64_t n : matmul) guarded(info, device, stream, "matmul", {n, n, n});
    if (has("logreg_step"))
      for (const auto& s : logreg) guarded(info, device, stream, "logreg_step", {s.m, s.d, 1});
    if (has("overhead")) measure_overhead(info, device, stream);
  }

  // The device's memory bandwidth: the faster of porta's buffer copy (which
  // may run on a copy engine, slower than the compute units) and a copy
  // kernel, 256 MiB device to device, bytes read + written.
  double measure_copy(Device& device, Stream& stream, DeviceSummary& summary) {
    const uint64_t bytes = uint64_t(256) << 20;
    Buffer src = device.buffer(bytes), dst = device.buffer(bytes);
    stream.fill(src, 1.0f);
    stream.fill(dst, 0.0f);
    Timing t = time_events(stream, o_.warmup, o_.runs, [&] { stream.copy(src, dst, bytes); });
    summary.copy_engine_gbs = 2.0 * bytes / (t.median_ms * 1e-3) / 1e9;
    try {
      Kernel k = device.kernel(glsl(kCopyKernel, "copy"));
      const uint32_t n4 = static_cast<uint32_t>(bytes / 16);
      const uint32_t groups = std::min<uint32_t>(n4 / 256, 65535);
      struct {
        uint32_t n4, stride;
      } push{n4, groups * 256};
      Timing tk = time_events(stream, o_.warmup, o_.runs, [&] {
        stream.dispatch(k, {groups, 1, 1}, {src, dst}, push);
      });
      summary.copy_kernel_gbs = 2.0 * bytes / (tk.median_ms * 1e-3) / 1e9;
    } catch (const std::exception& e) {
      summary.error = std::string("copy kernel: ") + e.what();
    }
    return std::max(summary.copy_engine_gbs, summary.copy_kernel_gbs);
  }

  void guarded(const DeviceInfo& info, Device& device, Stream& stream, const std::string& op,
               std::array<uint64_t, 3> dims) {
    Row row;
    row.backend = info.backend;
    row.device = info.name;
    row.op = op;
    row.dims = dims;
    row.size = size_text(op, dims);
    row.timer = std::string(info.backend) == "cpu" ? "host clock (events)" : "device (events)";
    std::fprintf(stderr, "  %s %s\n", op.c_str(), row.size.c_str());
    try {
      measure(device, stream, row);
    } catch (const std::exception& e) {
      row.error = e.what();
    }
    if (row.error.empty()) add_peers(info, row);
    rows_.push_back(row);
    print_row(stderr, row);
  }

  void measure(Device& device, Stream& stream, Row& row) {
    const auto& d = row.dims;
    if (row.op == "mul") {
      const uint64_t n = d[0];
      Buffer a = device.upload(pattern(n, 1.0f)), b = device.upload(pattern(n, 2.0f)),
             out = device.buffer(n * 4);
      Tensor ta(a, {n}), tb(b, {n}), to(out, {n});
      row.timing = time_events(stream, o_.warmup, o_.runs, [&] { ops::mul(stream, ta, tb, to); });
      row.work = 12.0 * n;
    } else if (row.op == "sigmoid") {
      const uint64_t n = d[0];
      Buffer x = device.upload(pattern(n, 16.0f)), out = device.buffer(n * 4);
      Tensor tx(x, {n}), to(out, {n});
      row.timing = time_events(stream, o_.warmup, o_.runs, [&] { ops::sigmoid(stream, tx, to); });
      row.work = 8.0 * n;
    } else if (row.op == "matmul") {
      const uint64_t m = d[0], n = d[1], k = d[2];
      Buffer a = device.buffer(m * k * 4), b = device.buffer(k * n * 4), c = device.buffer(m * n * 4);
      stream.fill(a, 0.5f);
      stream.fill(b, 0.25f);
      Tensor ta(a, {m, k}), tb(b, {k, n}), tc(c, {m, n});
      row.timing = time_events(stream, o_.warmup, o_.runs, [&] { ops::matmul(stream, ta, tb, tc); });
      row.work = 2.0 * m * n * k;
      row.flops = true;
    } else if (row.op == "logreg_step") {
      const uint64_t m = d[0], dim = d[1];
      Buffer x = device.buffer(m * dim * 4), y = device.buffer(m * 4), w = device.buffer(dim * 4),
             b = device.buffer(4), loss = device.buffer(4);
      const uint64_t ws_bytes = ops::logreg_workspace_bytes(device, m, dim);
      Buffer ws = device.buffer(ws_bytes);
      stream.fill(x, 0.01f);
      stream.fill(y, 1.0f);
      stream.fill(w, 0.0f);
      stream.fill(b, 0.0f);
      Tensor tx(x, {m, dim}), ty(y, {m}), tw(w, {dim}), tb(b, {1}), tl(loss, {1}), tws(ws, {ws_bytes / 4});
      row.timing = time_events(stream, o_.warmup, o_.runs,
                               [&] { ops::logreg_step(stream, tx, ty, tw, tb, 0.1f, tl, &tws); });
      row.work = 4.0 * m * dim + 4.0 * m;  // X read once, and y
    }
    const double seconds = row.timing.median_ms * 1e-3;
    row.rate = row.work / seconds / 1e9;
    const DeviceSummary& dev = devices_.back();
    if (row.flops) {
      if (dev.peak.flops > 0) {
        row.bound = row.work / seconds / dev.peak.flops;
        row.bound_kind = "peak FLOP/s (" + dev.peak.source + ")";
      }
    } else if (dev.copy_gbs > 0) {
      row.bound = row.rate / dev.copy_gbs;
      row.bound_kind = "device-to-device copy";
    }
  }

  void compare(Row& row, Peer& peer, const std::string& hint, const std::string& op) {
    auto r = run_peer(peer, hint, op, row.dims, o_);
    if (!r) return;
    if (!r->error.empty()) {
      row.peers.push_back({r->library + " (" + r->device + "): failed: " + r->error, 0, 0});
      return;
    }
    row.peers.push_back({r->library + " (" + r->device + ")", r->timing.median_ms,
                         r->timing.median_ms / row.timing.median_ms});
  }

  void add_peers(const DeviceInfo& info, Row& row) {
    if (!o_.peers) return;
    const std::string backend = info.backend;
    if (backend == "cpu") {
      const std::string threads = std::to_string(cpu_backend_threads());
      if (row.op == "matmul")
        compare(row, openblas_, threads, row.op);
      else
        compare(row, loops_, threads, row.op);
      return;
    }
    if (backend == "opencl" && row.op == "matmul") compare(row, clblast_, info.name, row.op);
    if (!host_class(info)) compare(row, cuda_, info.name, row.op);
  }

  // CPU-type drivers (lavapipe, PoCL) against porta's CPU backend, same op and size.
  void compare_with_cpu_backend() {
    for (Row& row : rows_) {
      if (row.backend == "cpu" || !row.error.empty()) continue;
      const DeviceSummary* dev = nullptr;
      for (const auto& s : devices_)
        if (s.backend == row.backend && s.device == row.device) dev = &s;
      if (!dev || dev->type != "CPU-type") continue;
      for (const Row& cpu : rows_)
        if (cpu.backend == "cpu" && cpu.op == row.op && cpu.size == row.size && cpu.error.empty())
          row.peers.push_back({"porta cpu (" + cpu.device + ")", cpu.timing.median_ms,
                               cpu.timing.median_ms / row.timing.median_ms});
    }
  }

  // Times matmul.comp from a file with several tile choices (specialization
  // constants LX, LY, BK, TM, TN, PREFETCH and FMA), dispatched the way
  // kernels/matmul/matmul.cpp does.
  void sweep_matmul(const DeviceInfo& info, Device& device, Stream& stream, bool host) {
    std::ifstream in(o_.sweep_source);
    std::stringstream text;
    text << in.rdbuf();
    if (!in)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "--sweep-matmul: cannot read '" + o_.sweep_source + "'");
    struct Choice {
      uint32_t lx, ly, bk, tm, tn, prefetch, fma;
    };
    // GPUs: the tilings with the old schedule (p0,f0; the kernel from before
    // those constants sweeps the same rows from its own source), then the
    // candidates with register prefetch (1) and two shared stages (2), with
    // and without fma().
    const std::vector<Choice> choices =
        host ? std::vector<Choice>{{8, 8, 16, 4, 4, 0, 0},  {1, 1, 16, 8, 8, 0, 0},  {2, 2, 16, 8, 8, 0, 0},
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
    std::vector<uint64_t> sizes = !o_.matmul.empty() ? o_.matmul : std::vector<uint64_t>{host ? 512u : 4096u};
    for (uint64_t n : sizes) {
      Buffer a = device.buffer(n * n * 4), b = device.buffer(n * n * 4), c = device.buffer(n * n * 4);
      stream.fill(a, 0.5f);
      stream.fill(b, 0.25f);
      for (const Choice& ch : choices) {
        Row row;
        row.backend = info.backend;
        row.device = info.name;
        row.op = "matmul";
        row.dims = {n, n, n};
        char label[96];
        std::snprintf(label, sizeof label, "%llu^2 %ux%u,%u,%ux%u,p%u,f%u",
                      static_cast<unsigned long long>(n), ch.lx, ch.ly, ch.bk, ch.tm, ch.tn, ch.prefetch,
                      ch.fma);
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
          Kernel k = device.kernel(glsl(text.str(), "matmul"), specs);
          struct {
            uint32_t m, n, k, lda, ldb, ldc, a_offset, b_offset, c_offset, trans_a, trans_b;
            float alpha, beta;
          } push{uint32_t(n), uint32_t(n), uint32_t(n), uint32_t(n), uint32_t(n), uint32_t(n), 0,
                 0,           0,           0,           0,           1.0f,        0.0f};
          const uint32_t gx = uint32_t((n + ch.tn * ch.lx - 1) / (ch.tn * ch.lx));
          const uint32_t gy = uint32_t((n + ch.tm * ch.ly - 1) / (ch.tm * ch.ly));
          row.timing = time_events(stream, o_.warmup, o_.runs, [&] {
            stream.dispatch(k, {gx, gy, 1}, {a, b, c}, push);
          });
          row.rate = row.work / (row.timing.median_ms * 1e-3) / 1e9;
          if (devices_.back().peak.flops > 0) {
            row.bound = row.work / (row.timing.median_ms * 1e-3) / devices_.back().peak.flops;
            row.bound_kind = "peak FLOP/s";
          }
          add_peers(info, row);
        } catch (const std::exception& e) {
          row.error = e.what();
        }
        rows_.push_back(row);
        print_row(stderr, row);
      }
    }
  }

  void measure_overhead(const DeviceInfo& info, Device& device, Stream& stream) {
    Overhead oh;
    oh.backend = info.backend;
    oh.device = info.name;
    std::fprintf(stderr, "  dispatch overhead\n");
    try {
      Kernel empty = device.kernel(glsl(kEmptyKernel, "empty"));
      Buffer data = device.buffer(256);
      const uint32_t runs = std::max<uint32_t>(o_.runs, 100);
      Timing trip = time_wall(10, runs, [&] {
        stream.dispatch(empty, {1, 1, 1}, {data});
        stream.sync();
      });
      oh.round_trip_us = trip.median_ms * 1e3;
      // Per dispatch inside a replayed sequence: the slope between a sequence
      // of 1 and one of N dispatches, so the submit and sync cost drops out.
      const uint32_t n = 1000;
      auto record = [&](uint32_t count) {
        stream.begin_record();
        for (uint32_t i = 0; i < count; ++i) stream.dispatch(empty, {1, 1, 1}, {data});
        return stream.end_record();
      };
      Sequence one = record(1), many = record(n);
      Timing t1 = time_wall(3, o_.runs, [&] {
        stream.replay(one);
        stream.sync();
      });
      Timing tn = time_wall(3, o_.runs, [&] {
        stream.replay(many);
        stream.sync();
      });
      oh.replay_per_dispatch_us = (tn.median_ms - t1.median_ms) * 1e3 / (n - 1);
    } catch (const std::exception& e) {
      oh.error = e.what();
    }
    if (o_.peers && std::string(info.backend) == "cuda" && open_peer(cuda_, info.name)) {
      auto trip = run_peer(cuda_, info.name, "empty", {1, 1, 1}, o_);
      auto g1 = run_peer(cuda_, info.name, "empty_graph", {1, 1, 1}, o_);
      auto gn = run_peer(cuda_, info.name, "empty_graph", {1000, 1, 1}, o_);
      if (trip && g1 && gn && trip->error.empty() && g1->error.empty() && gn->error.empty())
        oh.peers.push_back(
            {"CUDA runtime launch / CUDA graph (" + cuda_.device + ")",
             {trip->timing.median_ms * 1e3, (gn->timing.median_ms - g1->timing.median_ms) * 1e3 / 999}});
    }
    overheads_.push_back(oh);
  }

  Options o_;
  Peer cuda_, clblast_, openblas_, loops_;
  std::vector<DeviceSummary> devices_;
  std::vector<Row> rows_;
  std::vector<Overhead> overheads_;

 public:
  std::vector<const Peer*> peers() const { return {&cuda_, &clblast_, &openblas_, &loops_}; }
  const Options& options() const { return o_; }
  const std::vector<DeviceSummary>& device_summaries() const { return devices_; }
  const std::vector<Row>& rows() const { return rows_; }
  const std::vector<Overhead>& overheads() const { return overheads_; }
};

std::string fmt(const char* f, double v) {
  char text[64];
  std::snprintf(text, sizeof text, f, v);
  return text;
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

void Bench::print_table() const {
  std::printf("porta-bench  %s  %s  (%s, %u threads for the CPU backend and its peers)\n", utc_now().c_str(),
              porta_version(), cpu_model().c_str(), cpu_backend_threads());
  std::printf("command: %s\nmedian of %u runs after %u warm-up runs\n\n", o_.command.c_str(), o_.runs,
              o_.warmup);
  std::printf(
      "devices (bound: device-to-device copy through porta, bytes read + written; peak fp32 FLOP/s)\n");
  for (const auto& d : devices_) {
    std::printf("  %-7s %-44s %-9s copy %8.1f GB/s (buffer copy %.1f, copy kernel %.1f)", d.backend.c_str(),
                d.device.c_str(), d.type.c_str(), d.copy_gbs, d.copy_engine_gbs, d.copy_kernel_gbs);
    if (d.peak.flops > 0) std::printf("  peak %.1f GFLOP/s (%s)", d.peak.flops / 1e9, d.peak.source.c_str());
    if (!d.error.empty()) std::printf("  error: %s", d.error.c_str());
    std::printf("\n");
  }
  std::printf("peers\n");
  for (const Peer* p : peers()) {
    if (!o_.peers) break;
    std::printf("  %-48s %s\n", p->file.c_str(),
                p->table ? (p->device.empty() ? (p->reason.empty() ? "loaded, not used" : p->reason.c_str())
                                              : ("on " + p->device).c_str())
                         : p->reason.c_str());
  }
  std::printf("\n%-7s %-28s %-12s %-14s %10s %12s %7s  %s\n", "backend", "device", "op", "size", "median ms",
              "rate", "%bound", "vs peer (porta throughput / peer's)");
  for (const auto& r : rows_) print_row(stdout, r);
  std::printf(
      "\ndispatch overhead (host clock; per dispatch in a replayed sequence of 1000 empty dispatches)\n");
  for (const auto& oh : overheads_) {
    if (!oh.error.empty()) {
      std::printf("  %-7s %-40s error: %s\n", oh.backend.c_str(), oh.device.c_str(), oh.error.c_str());
      continue;
    }
    std::printf("  %-7s %-40s round trip %8.1f us   replay %7.2f us/dispatch", oh.backend.c_str(),
                oh.device.substr(0, 40).c_str(), oh.round_trip_us, oh.replay_per_dispatch_us);
    for (const auto& p : oh.peers)
      std::printf("   | %s: %.1f us, %.2f us/dispatch", p.first.c_str(), p.second.first, p.second.second);
    std::printf("\n");
  }
}

// The targets that this run can judge alone (PyTorch's are judged by
// bench/gpu/torch_compare.py from this run's JSON).
void Bench::print_targets() const {
  std::printf("\ntargets\n");
  auto largest = [&](const std::string& backend, const std::string& op) -> const Row* {
    const Row* best = nullptr;
    for (const auto& r : rows_)
      if (r.backend == backend && r.op == op && r.error.empty() && (!best || r.work > best->work)) best = &r;
    return best;
  };
  auto peer_ratio = [](const Row* r, const char* name) -> double {
    if (!r) return -1;
    for (const auto& p : r->peers)
      if (p.peer.find(name) != std::string::npos && p.peer_ms > 0) return p.ratio;
    return -1;
  };
  auto line = [](const std::string& what, double value, double goal, bool higher, const char* unit) {
    if (value < 0) {
      std::printf("  [n/a ] %s: not measured in this run\n", what.c_str());
      return;
    }
    const bool ok = higher ? value >= goal : value <= goal;
    std::printf("  [%s] %s: %.2f%s (goal %s %.2f%s)\n", ok ? "met " : "MISS", what.c_str(), value, unit,
                higher ? ">=" : "<=", goal, unit);
  };
  for (const auto& d : devices_) {
    if (d.type != "GPU") continue;
    const Row* mm = nullptr;
    for (const auto& r : rows_)
      if (r.backend == d.backend && r.device == d.device && r.op == "matmul" && r.dims[0] == 4096 &&
          r.error.empty())
        mm = &r;
    line(d.backend + " matmul 4096^2 vs cuBLAS SGEMM", peer_ratio(mm, "cuBLAS"),
         d.backend == "cuda" ? 0.70 : 0.60, true, "x");
    const Row* lr = nullptr;
    for (const auto& r : rows_)
      if (r.backend == d.backend && r.device == d.device && r.op == "logreg_step" &&
          r.dims[0] == (1u << 20) && r.dims[1] == 256 && r.error.empty())
        lr = &r;
    line(d.backend + " logreg_step m=2^20 d=256, share of copy bandwidth for one read of X",
         lr ? lr->bound * (4.0 * lr->dims[0] * lr->dims[1]) / lr->work : -1, 0.70, true, "");
    if (d.backend == "cuda" || d.backend == "vulkan")
      for (const auto& oh : overheads_)
        if (oh.backend == d.backend && oh.device == d.device && oh.error.empty())
          line(d.backend + " per dispatch in a replayed sequence", oh.replay_per_dispatch_us, 5.0, false,
               " us");
  }
  line("cpu mul (largest size) vs C++ loop, as throughput ratio",
       peer_ratio(largest("cpu", "mul"), "C++ loop"), 1 / 1.25, true, "x");
  line("cpu matmul (largest size) vs OpenBLAS SGEMM", peer_ratio(largest("cpu", "matmul"), "OpenBLAS"), 0.25,
       true, "x");
  for (const auto& r : rows_) {
    if (r.backend != "opencl" || !r.error.empty()) continue;
    const double ratio = peer_ratio(&r, "porta cpu");
    if (ratio > 0)
      line("porta cpu faster than " + r.device.substr(0, 24) + " on " + r.op + " " + r.size +
               " (PoCL / porta cpu throughput)",
           ratio, 1.0, false, "x");
  }
}

void Bench::write_json(const std::string& path) const {
  Json j;
  j.begin_object();
  j.key("tool").value("porta-bench");
  j.key("porta_version").value(porta_version());
  j.key("date").value(utc_now());
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  j.key("host").value(host);
  j.key("cpu").value(cpu_model());
  j.key("cpu_threads").value(double(cpu_backend_threads()));
  j.key("command").value(o_.command);
  j.key("runs").value(double(o_.runs));
  j.key("warmup").value(double(o_.warmup));
  j.key("devices").begin_array();
  for (const auto& d : devices_) {
    j.begin_object();
    j.key("backend").value(d.backend);
    j.key("device").value(d.device);
    j.key("type").value(d.type);
    j.key("copy_gbs").value(d.copy_gbs);
    j.key("buffer_copy_gbs").value(d.copy_engine_gbs);
    j.key("copy_kernel_gbs").value(d.copy_kernel_gbs);
    j.key("peak_flops").value(d.peak.flops);
    j.key("peak_source").value(d.peak.source);
    j.key("error").value(d.error);
    j.end_object();
  }
  j.end_array();
  j.key("peers").begin_array();
  for (const Peer* p : peers()) {
    j.begin_object();
    j.key("file").value(p->file);
    j.key("loaded").value(p->table != nullptr);
    j.key("device").value(p->device);
    j.key("reason").value(p->reason);
    j.end_object();
  }
  j.end_array();
  j.key("results").begin_array();
  for (const auto& r : rows_) {
    j.begin_object();
    j.key("backend").value(r.backend);
    j.key("device").value(r.device);
    j.key("op").value(r.op);
    j.key("size").value(r.size);
    j.key("dims").begin_array();
    for (uint64_t v : r.dims) j.value(double(v));
    j.end_array();
    j.key("error").value(r.error);
    j.key("median_ms").value(r.timing.median_ms);
    j.key("min_ms").value(r.timing.min_ms);
    j.key("runs").value(double(r.timing.runs));
    j.key("timer").value(r.timer);
    j.key("unit").value(r.flops ? "GFLOP/s" : "GB/s");
    j.key("rate").value(r.rate);
    j.key("bound_fraction").value(r.bound);
    j.key("bound").value(r.bound_kind);
    j.key("peers").begin_array();
    for (const auto& p : r.peers) {
      j.begin_object();
      j.key("peer").value(p.peer);
      j.key("median_ms").value(p.peer_ms);
      j.key("ratio").value(p.ratio);
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.key("overhead").begin_array();
  for (const auto& oh : overheads_) {
    j.begin_object();
    j.key("backend").value(oh.backend);
    j.key("device").value(oh.device);
    j.key("error").value(oh.error);
    j.key("round_trip_us").value(oh.round_trip_us);
    j.key("replay_per_dispatch_us").value(oh.replay_per_dispatch_us);
    j.key("peers").begin_array();
    for (const auto& p : oh.peers) {
      j.begin_object();
      j.key("peer").value(p.first);
      j.key("round_trip_us").value(p.second.first);
      j.key("replay_per_dispatch_us").value(p.second.second);
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.end_object();
  std::ofstream out(path);
  out << j.text() << "\n";
  if (!out) {
    std::fprintf(stderr, "porta-bench: cannot write '%s'\n", path.c_str());
    std::exit(1);
  }
}

}  // namespace
}  // namespace porta::bench

int main(int argc, char** argv) {
  using namespace porta::bench;
  Options options = parse(argc, argv);
  try {
    for (const auto& b : porta::backends())
      if (!b.available)
        std::fprintf(stderr, "porta-bench: backend %s unavailable: %s\n", b.name.c_str(), b.reason.c_str());
    Bench bench(options);
    bench.run_all();
    bench.print_table();
    bench.print_targets();
    if (!options.json.empty()) bench.write_json(options.json);
  } catch (const porta::Error& e) {
    std::fprintf(stderr, "porta-bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
