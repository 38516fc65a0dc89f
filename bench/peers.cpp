#include "peers.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "host_loops.hpp"
#include "porta_cli.hpp"

namespace porta::bench {
namespace {

// Every peer, in the order the report lists them.
constexpr PeerSpec kCatalogue[] = {
    // cuBLAS and plain CUDA C++ kernels: every op, on any GPU that CUDA opens by name.
    {"cuda", "CUDA", RunsOn::kAnyGpu, nullptr, nullptr},
    // CLBlast SGEMM: matmul on the OpenCL device porta measured.
    {"clblast", "OpenCL", RunsOn::kSameApi, "matmul", nullptr},
    // OpenBLAS SGEMM: matmul on the host, with the CPU backend's threads.
    {"openblas", nullptr, RunsOn::kReference, "matmul", nullptr},
    // Plain C++ loops: the other ops on the host, with the CPU backend's threads.
    {nullptr, nullptr, RunsOn::kReference, "mul sigmoid logreg_step", nullptr},
    // Each native API called directly: the floor of porta's round trip and replay on its devices.
    {"cuda-floor", "CUDA", RunsOn::kSameApi, "overhead", "round_trip round_trip_pinned replay"},
    {"opencl-floor", "OpenCL", RunsOn::kSameApi, "overhead",
     "round_trip round_trip_pinned replay replay_command_buffer"},
    {"vulkan-floor", "Vulkan", RunsOn::kSameApi, "overhead", "round_trip replay"},
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
    for (const auto& d : porta::cli::split_list(env, ':')) dirs.push_back(d);
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

bool runs_op(const PeerSpec& spec, const std::string& op) {
  if (!spec.ops) return true;
  std::istringstream words(spec.ops);
  for (std::string word; words >> word;)
    if (word == op) return true;
  return false;
}

bool runs_on(const PeerSpec& spec, RunsOn where, const DeviceInfo& info) {
  if (spec.runs_on != where) return false;
  switch (where) {
    case RunsOn::kSameApi:
      return spec.api && uses_api(info.api_version, spec.api);
    case RunsOn::kAnyGpu:
      return !cpu_type(info);
    case RunsOn::kReference:
      return reference(info);
  }
  return false;
}

}  // namespace

Peers::Peers(bool load, const Options& options) : options_(options) {
  for (const PeerSpec& spec : kCatalogue) {
    Peer peer;
    if (!spec.name) {
      peer.file = "built in";
      peer.table = host_loops_peer();
    } else if (load) {
      peer = load_peer(spec.name);
    }
    peer.spec = &spec;
    peers_.push_back(peer);
  }
}

// Opens `peer` on the device named by `hint` (reopening if it was open on
// another); false with peer.reason set when it cannot.
bool Peers::open(Peer& peer, const std::string& hint) {
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

std::optional<Peers::Result> Peers::run(Peer& peer, const std::string& hint, const std::string& op,
                                        const Dims& dims, uint32_t warmup, uint32_t runs) {
  if (!runs) runs = options_.runs;
  if (!warmup) warmup = options_.warmup;
  if (!open(peer, hint)) return std::nullopt;
  const std::string key = peer.file + "|" + peer.device + "|" + op + "|" + std::to_string(dims[0]) + "x" +
                          std::to_string(dims[1]) + "x" + std::to_string(dims[2]);
  auto found = cache_.find(key);
  if (found != cache_.end()) return found->second;
  std::vector<double> samples(runs);
  char library[256] = {}, error[1024] = {};
  const uint64_t d[3] = {dims[0], dims[1], dims[2]};
  int status = peer.table->time(op.c_str(), d, warmup, runs, samples.data(), library, sizeof library, error,
                                sizeof error);
  if (status == PORTA_BENCH_PEER_UNSUPPORTED) return std::nullopt;
  Result r;
  r.device = peer.device;
  r.library = library;
  if (status != 0)
    r.error = error;
  else
    r.timing = summarize(samples);
  cache_[key] = r;
  return r;
}

std::vector<Comparison> Peers::compare(const DeviceInfo& info, const Row& row) {
  std::vector<Comparison> out;
  if (!options_.peers) return out;
  for (RunsOn where : {RunsOn::kSameApi, RunsOn::kAnyGpu, RunsOn::kReference}) {
    // Host peers run with the CPU backend's thread count; device peers open the device by name.
    const std::string hint = where == RunsOn::kReference ? std::to_string(cpu_backend_threads()) : info.name;
    for (Peer& peer : peers_) {
      if (!runs_on(*peer.spec, where, info) || !runs_op(*peer.spec, row.op)) continue;
      auto r = run(peer, hint, row.op, row.dims);
      if (!r) continue;
      if (!r->error.empty())
        out.push_back({r->library + " (" + r->device + "): failed: " + r->error, 0, 0});
      else
        out.push_back({r->library + " (" + r->device + ")", r->timing.median_ms,
                       r->timing.median_ms / row.timing.median_ms});
    }
  }
  return out;
}

std::vector<Floor> Peers::overhead_floors(const DeviceInfo& info) {
  std::vector<Floor> out;
  if (!options_.peers) return out;
  for (Peer& peer : peers_) {
    const PeerSpec& spec = *peer.spec;
    if (!spec.floors || !runs_on(spec, RunsOn::kSameApi, info)) continue;
    if (!peer.table) {
      out.push_back({"", peer.file, 0, peer.reason});
      continue;
    }
    if (!open(peer, info.name)) {
      out.push_back({"", peer.file, 0, peer.reason});
      continue;
    }
    std::istringstream ops(spec.floors);
    for (std::string op; ops >> op;) {
      Floor floor;
      floor.figure = op.rfind("replay", 0) == 0 ? "replay" : "round trip";
      std::optional<Result> a, b;
      if (floor.figure == "round trip") {
        // As measure_overhead(): at least 100 runs after 10 warm-up runs.
        a = run(peer, info.name, op, {kRoundTripBytes, 1, 1}, 10, std::max<uint32_t>(options_.runs, 100));
      } else {
        a = run(peer, info.name, op, {1, 1, 1}, 3);
        b = run(peer, info.name, op, {kReplayDispatches, 1, 1}, 3);
      }
      if (!a) continue;  // the peer does not time this op
      floor.label = a->library + " (" + a->device + ")";
      if (!a->error.empty() || (b && !b->error.empty())) {
        floor.error = a->error.empty() ? b->error : a->error;
      } else if (b) {
        floor.us = (b->timing.median_ms - a->timing.median_ms) * 1e3 / (kReplayDispatches - 1);
      } else {
        floor.us = a->timing.median_ms * 1e3;
      }
      out.push_back(floor);
    }
  }
  return out;
}

}  // namespace porta::bench
