// The peers porta's figures are set beside: libraries loaded at run time
// (peer.h) and the plain C++ loops built in, each declared once in a
// catalogue with where it runs, so a row of the table is matched with its
// peers by the device's properties, never by a backend's name.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "options.hpp"
#include "peer.h"
#include "porta/porta.hpp"
#include "results.hpp"

namespace porta::bench {

// Which rows a peer is compared with.
enum class RunsOn {
  kSameApi,    // devices reached through the peer's own native API (CLBlast: OpenCL devices)
  kAnyGpu,     // every GPU; the peer opens the one of the same name, if it can (cuBLAS on NVIDIA GPUs)
  kReference,  // the reference device, porta's CPU backend: host code with its thread count
};

struct PeerSpec {
  const char* name;  // the library is peer-NAME.so; nullptr: the C++ loops built into porta-bench
  const char* api;   // the native API it calls, as DeviceInfo::api_version starts; nullptr: host code
  RunsOn runs_on;
  const char* ops;     // the ops it is compared on, separated by blanks; nullptr: every op
  const char* floors;  // its ops timed beside porta's dispatch overhead (round_trip*, replay*)
};

struct Peer {
  const PeerSpec* spec = nullptr;
  std::string file;  // library file, or "built in"
  const porta_bench_peer* table = nullptr;
  std::string reason;  // why it is unavailable
  std::string opened;  // the hint it is open with
  std::string device;  // the device it reported
  bool open_failed = false;
};

class Peers {
 public:
  // Loads every library peer (unless `load` is false) and the built-in loops.
  Peers(bool load, const Options& options);

  // The comparisons for `row`, measured on `info` (the reference device when
  // `reference`): its API's peers first, then the GPU-wide ones, then the
  // host's; a peer's timings are measured once per device, op and size.
  std::vector<Comparison> compare(const DeviceInfo& info, const Row& row);

  // The floors of porta's dispatch overhead on `info`'s device: each floor
  // peer of its native API times its round_trip* and replay* ops there, the
  // same way measure_overhead() times porta's.
  std::vector<Floor> overhead_floors(const DeviceInfo& info);

  const std::vector<Peer>& all() const { return peers_; }

 private:
  struct Result {
    std::string library;  // what was timed
    std::string device;
    Timing timing;
    std::string error;
  };
  bool open(Peer& peer, const std::string& hint);
  std::optional<Result> run(Peer& peer, const std::string& hint, const std::string& op, const Dims& dims,
                            uint32_t warmup = 0, uint32_t runs = 0);

  const Options& options_;
  std::vector<Peer> peers_;
  std::map<std::string, Result> cache_;
};

}  // namespace porta::bench
