// The samples porta-logreg trains on: the classic example, generated
// separable data, or a data file (tools/data reads CSV, NPY and LIBSVM);
// checked before anything is trained, split into training and test rows, and
// standardised with the training rows' statistics.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "porta_data/table.hpp"

namespace logreg_tool {

struct Data {
  uint64_t m = 0, d = 0;
  std::vector<float> x;  // m x d, row-major
  std::vector<float> y;  // m (empty: rows to predict, without labels)
  std::string name;
  std::vector<std::string> feature_names;  // from a CSV header; else empty
};

// 5 samples of 2 features: y is the second feature, so the data are separable.
Data classic();
// Separable data: features ~ N(0, 1), label = [x . w* + b* > 0] for a random
// hyperplane (w*, b*).
Data generated(uint64_t m, uint64_t dim, uint64_t seed);
// A data file read as `options` say; throws porta::data::Error.
Data load(const std::string& path, const porta::data::ReadOptions& options);
// Throws std::runtime_error naming the first sample that cannot be trained on.
void check_data(const Data& d);

// Rows held out of training: a `fraction` of them (at least one, and at least
// one left to train on), chosen by a Fisher-Yates shuffle seeded with `seed`
// so that the split is the same on every machine. Each part keeps the rows'
// order in the file.
struct Split {
  Data train, test;
};
Split split(const Data& data, double fraction, uint64_t seed);

// Each feature's mean and standard deviation (a constant feature: 1), taken on
// the training rows and applied as (x - mean) / std to every row that meets
// the model, in training and in prediction alike.
struct Standardization {
  std::vector<float> mean, std;
  bool empty() const { return mean.empty(); }
  static Standardization fit(const Data& data);
  void apply(Data& data) const;
};

}  // namespace logreg_tool
