// What porta-logreg prints: one device's model, accuracy and speed, or every
// backend's result beside the reference device's, within the bound in
// kernels/logreg_step/bound.hpp.
#pragma once

#include <cstdint>

#include "data.hpp"
#include "options.hpp"
#include "train.hpp"

namespace logreg_tool {

// P(y = 1 | x_i) under the model `r`.
double predict(const Data& data, const Result& r, uint64_t i);
// The samples of `data` the model `r` classifies right (p >= 0.5 as class 1).
uint64_t correct_count(const Data& data, const Result& r);

// Trains on the one device `o.backend` selects and prints the model; returns the exit status.
int run_one(const Options& o, const Data& data, uint64_t iterations, float lr, uint64_t report_every);
// Trains on every available backend and compares each with the reference; returns the exit status.
int run_all(const Data& data, porta_dtype dtype, uint64_t iterations, float lr, uint64_t report_every);

}  // namespace logreg_tool
