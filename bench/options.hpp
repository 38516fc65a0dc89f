// porta-bench's options, as main.cpp reads them from the command line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace porta::bench {

struct LogregSize {
  uint64_t m, d;
};

struct Options {
  std::vector<std::string> backends;  // empty: all
  std::vector<std::string> ops = {"mul",         "sigmoid",         "matmul",           "matmul_tf32",
                                  "matmul_f16",  "matmul_bf16",     "logreg_step",      "logreg_step_f16",
                                  "logreg_step_bf16", "logreg_step_int8", "overhead"};
  std::vector<uint64_t> elementwise, matmul;  // empty: per device class
  std::vector<LogregSize> logreg;
  uint32_t runs = 10, warmup = 2;
  double energy_seconds = 1.0;  // per energy sample (energy.hpp); 0: no energy figures
  uint32_t energy_samples = 3;
  bool peers = true;
  bool gpu_only = false;     // leave CPU-type devices out
  bool robust_cost = false;  // each device again with bounds checks the other way (porta/robust.h)
  std::string sweep_source;  // matmul.comp: time tile choices instead of the ops
  std::string json;          // "-": standard output
  std::string targets;       // the targets as markdown to this file
  std::string peer_results;  // figures of an outside peer (torch_compare.py --json) for the targets
  std::string command;
};

}  // namespace porta::bench
