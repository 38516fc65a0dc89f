// porta-logreg's training loop: logistic regression on one device with
// porta::ops::logreg_step, a whole block of steps one recorded sequence; the
// host reads the losses once per block, never once per step.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "data.hpp"
#include "porta/porta.hpp"

namespace logreg_tool {

struct Result {
  std::string device;
  std::vector<float> w;
  float b = 0;
  float loss = 0;
  std::vector<std::pair<uint64_t, float>> losses;  // (iteration, loss)
  double ms_per_iteration = 0;
  bool ok = false;
  bool reference = false;  // trained on the reference device (porta's CPU backend)
  std::string error;
};

// What the caller adds to a training run: weights to start from (a loaded
// model; else zeros) and a function called after each block of steps with the
// iterations done and the latest loss (the progress line).
struct Hooks {
  const std::vector<float>* w0 = nullptr;
  float b0 = 0;
  std::function<void(uint64_t done, float loss)> on_block;
};

// Trains on `device`, from zero weights. A loss or weight that becomes
// non-finite is a failed Result (ok false, error says why); a device that
// fails throws porta::Error.
Result train(const porta::Device& device, const Data& data, porta_dtype dtype, uint64_t iterations, float lr,
             uint64_t report_every, bool verbose, const Hooks& hooks = {});
// The same on the device `selector` opens.
inline Result train(const std::string& selector, const Data& data, porta_dtype dtype, uint64_t iterations,
                    float lr, uint64_t report_every, bool verbose, const Hooks& hooks = {}) {
  return train(porta::open(selector), data, dtype, iterations, lr, report_every, verbose, hooks);
}

}  // namespace logreg_tool
