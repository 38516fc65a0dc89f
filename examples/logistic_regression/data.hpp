// The samples porta-logreg trains on: the classic example, generated
// separable data, or a data file (tools/data reads CSV, NPY and LIBSVM);
// checked before anything is trained, split into training and test rows, and
// standardised with the training rows' statistics.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "porta_data/rows.hpp"
#include "porta_data/table.hpp"

namespace logreg_tool {

// Rows that stay in their file (--data FILE with --device-memory): read a
// range at a time (porta_data/rows.hpp) and standardised as they are read.
struct FileRows {
  std::shared_ptr<const porta::data::RowFile> file;
  std::vector<uint64_t> rows;    // the file's rows of this part, in file order; empty: all of them
  std::vector<float> mean, std;  // the standardisation applied when read; empty: none
  // Rows [first, first + count) of this part into x (count x d) and y. Thread-safe.
  void read(uint64_t first, uint64_t count, float* x, float* y) const;
};

struct Data {
  uint64_t m = 0, d = 0;
  std::vector<float> x;  // m x d, row-major (empty when the rows stay in their file)
  std::vector<float> y;  // m (empty: rows to predict, without labels)
  std::string name;
  std::vector<std::string> feature_names;  // from a CSV header; else empty
  std::shared_ptr<FileRows> file_rows;     // set: the rows stay in their file
  bool streamed() const { return file_rows != nullptr; }
};

// Calls fn(x, y, first, count) for the rows in order, a range at a time
// (rows in memory: one range; rows in a file: ranges of `chunk` rows).
void for_each_rows(
    const Data& data,
    const std::function<void(const float* x, const float* y, uint64_t first, uint64_t count)>& fn,
    uint64_t chunk = 1 << 16);
// The rows in host memory (for a few rows to print).
Data in_memory(const Data& data);

// 5 samples of 2 features: y is the second feature, so the data are separable.
Data classic();
// Separable data: features ~ N(0, 1), label = [x . w* + b* > 0] for a random
// hyperplane (w*, b*).
Data generated(uint64_t m, uint64_t dim, uint64_t seed);
// A data file read as `options` say; throws porta::data::Error.
Data load(const std::string& path, const porta::data::ReadOptions& options);
// The same rows left in the file: checked by a first pass over it (every
// value and label; CSV and LIBSVM rows converted into a row cache as `cache`
// says), then read a range at a time when needed.
Data open_rows(const std::string& path, const porta::data::ReadOptions& options,
               const porta::data::RowCacheOptions& cache = {});
// Throws std::runtime_error naming the first sample that cannot be trained on.
void check_data(const Data& d);

// Rows held out of training: a `fraction` of them (at least one, and at least
// one left to train on), chosen by a Fisher-Yates shuffle seeded with `seed`
// so that the split is the same on every machine. Each part keeps the rows'
// order in the file.
struct Split {
  Data train, test;
};
Split split(Data data, double fraction, uint64_t seed);

// Each feature's mean and standard deviation (a constant feature: 1), taken on
// the training rows and applied as (x - mean) / std to every row that meets
// the model, in training and in prediction alike. Rows in a file take two
// passes over their training rows (the means, then the deviations), the same
// sums in the same order as rows in memory: the same standardisation, bit
// for bit, applied as the rows are read.
struct Standardization {
  std::vector<float> mean, std;
  bool empty() const { return mean.empty(); }
  static Standardization fit(const Data& data);
  void apply(Data& data) const;
};

}  // namespace logreg_tool
