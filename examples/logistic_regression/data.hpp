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

#include "porta_data/floats.hpp"
#include "porta_data/rows.hpp"
#include "porta_data/table.hpp"

namespace logreg_tool {

// Rows that stay in their file (--data FILE with --device-memory): read a
// range at a time (porta_data/rows.hpp) and standardised as they are read.
struct FileRows {
  std::shared_ptr<const porta::data::RowFile> file;
  std::vector<uint64_t> rows;    // the file's rows of this part, in file order; empty: all of them
  std::vector<float> mean, std;  // the standardisation applied when read; empty: none
  // The rows this process reads, [own_first, own_first + own_count) of the
  // part's: all of them, unless several processes share the file (Share).
  uint64_t own_first = 0, own_count = 0;
  // Several processes: adds every process's `count` values (sums over its own
  // rows) in rank order, on every process. Empty: one process.
  std::function<void(double* values, int count)> sum;
  // Rows [first, first + count) of this part into x (count x d) and y. Thread-safe.
  void read(uint64_t first, uint64_t count, float* x, float* y) const;
};

struct Data {
  uint64_t m = 0, d = 0;
  // m x d, row-major (empty when the rows stay in their file); an NPY file's
  // float32 rows in place in its mapping (porta_data/floats.hpp), no copy.
  porta::data::Floats x;
  std::vector<float> y;  // m (empty: rows to predict, without labels)
  std::string name;
  std::vector<std::string> feature_names;  // from a CSV header; else empty
  std::shared_ptr<FileRows> file_rows;     // set: the rows stay in their file
  bool streamed() const { return file_rows != nullptr; }
};

// Calls fn(x, y, first, count) for the rows in order, a range at a time
// (rows in memory: one range; rows in a file: ranges of `chunk` rows, this
// process's own rows only).
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
// A data file read as `options` say (NPY float32 in C order: in place, in its
// mapping); throws porta::data::Error.
Data load(const std::string& path, const porta::data::ReadOptions& options);
// Several processes (MPI ranks) training on one file's rows: each reads,
// checks and caches only its own part, the rows of its share of the training
// rows (split() with `test_fraction` and `seed`, the rows divided over the
// ranks in order as train_parallel divides them) and the held-out rows among
// them; sums over rows (the standardisation, the accuracies) are added over
// the processes.
struct Share {
  int rank = 0, size = 1;
  double test_fraction = 0;
  uint64_t seed = 1;
  // Every process's `count` values added in rank order, on every process.
  std::function<void(double* values, int count)> sum;
  // The largest of every process's `value`, on every process.
  std::function<uint64_t(uint64_t value)> max;
};

// The same rows left in the file: checked by a first pass over it (every
// value and label; rows converted into a row cache as `cache` says), then
// read a range at a time when needed; with several processes, this one's
// part of them (Share).
Data open_rows(const std::string& path, const porta::data::ReadOptions& options,
               const porta::data::RowCacheOptions& cache = {}, const Share& share = {});
// Adds `count` values over the processes that share `data`'s file (Share):
// nothing to do for one process.
void sum_over_processes(const Data& data, double* values, int count);
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
// for bit, applied as the rows are read. Processes that share a file add
// their own rows' sums in rank order (the same to rounding).
struct Standardization {
  std::vector<float> mean, std;
  bool empty() const { return mean.empty(); }
  static Standardization fit(const Data& data);
  void apply(Data& data) const;
};

}  // namespace logreg_tool
