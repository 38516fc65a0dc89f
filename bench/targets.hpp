// The goals, each a row judged from this run: what, the peer, the
// measured figure (from medians), the target, and ok / MISS / not run / not
// built / n/a with the reason. GPU goals are judged per GPU of each native
// API (DeviceInfo::api_version), CPU goals on the reference device; which
// goal applies where is data in targets.cpp, never a backend's name.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bench.hpp"

namespace porta::bench {

// Figures a peer measured outside porta-bench on the same machine in the
// same run (bench/gpu/torch_compare.py --json: PyTorch on the GPU), read by
// --peer-results: what the energy and round-trip goals compare with.
struct ExternalPeer {
  struct Result {
    std::string op;  // porta-bench's op name ("matmul_f16")
    Dims dims{};
    double median_ms = 0;
    double joules_per_unit = 0;  // J/GFLOP or J/GB; 0: no figure
    std::string energy_reason;
  };
  std::string file;          // empty: none given
  std::string name;          // "PyTorch 2.11.0 on NVIDIA H100 80GB HBM3"
  std::string device;        // the GPU's name
  double round_trip_us = 0;  // a tiny op: upload, op, read back
  std::vector<Result> results;
  std::string error;  // why the file could not be read
};

// Reads --peer-results; an unreadable file is an ExternalPeer with `error`.
ExternalPeer load_external_peer(const std::string& path);

struct Target {
  std::string group;  // "GPU" or "CPU"
  std::string what, peer, measured, target, status, detail;
};

std::vector<Target> judge_targets(const RunResults& run, const ExternalPeer& external);

void print_targets(const std::vector<Target>& targets, FILE* out);

// The targets as a markdown table, headed by the machine, the run and its devices.
std::string targets_markdown(const RunResults& run, const ExternalPeer& external,
                             const std::vector<Target>& targets);

}  // namespace porta::bench
