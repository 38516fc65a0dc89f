// What porta-logreg prints: one device's model, accuracy and speed, or every
// backend's result beside the reference device's, within the bound in
// kernels/logreg_step/bound.hpp.
#pragma once

#include <cstdint>

#include "data.hpp"
#include "model.hpp"
#include "options.hpp"
#include "train.hpp"

namespace logreg_tool {

// P(y = 1 | x_i) under the model `r`.
double predict(const Data& data, const Result& r, uint64_t i);
// The samples of `data` the model `r` classifies right (p >= 0.5 as class 1).
uint64_t correct_count(const Data& data, const Result& r);

// Trains on the one device `o.backend` selects on `parts.train` (already
// standardised with `standardization`), from `start` when given; prints the
// model, the training accuracy and the accuracy on `parts.test`; saves the
// model when asked. Returns the exit status.
int run_one(const Options& o, const Split& parts, const Standardization& standardization, const Model* start,
            uint64_t iterations, float lr, uint64_t report_every);
// porta-logreg predict: the probabilities and classes of the rows of --data
// under --load-model's model, as CSV. Returns the exit status.
int run_predict(const Options& o);
// Trains on every available backend and compares each with the reference; returns the exit status.
int run_all(const Data& data, porta_dtype dtype, uint64_t iterations, float lr, uint64_t report_every);

}  // namespace logreg_tool
