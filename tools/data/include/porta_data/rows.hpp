// A data file read a range of rows at a time, for training on data that do
// not fit in memory (porta-logreg --device-memory), which reads every row on
// every pass. CSV and LIBSVM text is memory-mapped and parsed once, by a
// first pass that checks every value and label and converts the rows into a
// row cache (porta_data/row_cache.hpp: float32 rows in host memory up to a
// budget, else in a mapped temporary file); later reads copy from the cache.
// When the cache cannot be written, the first pass notes where each row
// begins instead and reads parse the text a range at a time. NPY is mapped:
// float32 in C order is read in place; any other NPY (float64, integers,
// Fortran order) is converted once, by the first pass, into the row cache
// (without one: a range at a time on every read). Errors name the file and
// the place, as read_table's do.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "porta_data/csv.hpp"
#include "porta_data/file.hpp"
#include "porta_data/libsvm.hpp"
#include "porta_data/npy.hpp"
#include "porta_data/row_cache.hpp"
#include "porta_data/table.hpp"

namespace porta::data {

// A part of a file's rows: [first, first + count).
struct RowRange {
  uint64_t first = 0, count = 0;
};
// Chooses the part one process reads from the file's row count (MPI ranks:
// each its own).
using ChoosePart = std::function<RowRange(uint64_t rows)>;

class RowFile {
 public:
  // The first pass: the file (with its labels) read as `options` say, every
  // value and label checked; CSV, LIBSVM and NPY rows that are not float32
  // in C order cached as `cache` says. The rows must have labels. With
  // `part`, only the rows it chooses are parsed, checked and cached (CSV and
  // LIBSVM: where every row begins is found first, by a scan that parses no
  // values); read() reads those alone.
  RowFile(const std::string& path, const ReadOptions& options, const RowCacheOptions& cache = {},
          const ChoosePart& part = {});

  const std::string& file() const { return path_; }
  Format format() const { return format_; }
  uint64_t rows() const { return rows_; }  // the whole file's
  uint64_t features() const { return features_; }
  // The part this reads: every row, unless a part was chosen.
  RowRange part() const { return {first_, count_}; }
  // LIBSVM rows read in parts without a feature count given: the largest
  // index of every part (the processes agree on it), not less than this
  // part's. Throws Error for anything else.
  void widen(uint64_t features);
  const std::vector<std::string>& feature_names() const { return names_; }

  // Whether the rows are read from the row cache, and from its file.
  bool cached() const { return cache_ != nullptr; }
  // NPY float32 in C order: the rows are read from the file's mapping as they are.
  bool mapped() const { return npy_ && npy_->mapped_f32(); }
  bool cached_in_file() const { return cache_ && cache_->in_file(); }
  std::string cache_folder() const { return cache_ ? cache_->folder() : std::string(); }

  // Rows [first, first + count): the features into x (count x features(),
  // row-major) and the labels into y. Thread-safe. Throws Error, also when
  // the file changed since the first pass and is read from the file (cached
  // rows are the first pass's; a file replaced by rename is read as it was:
  // its mapping keeps the old contents).
  void read(uint64_t first, uint64_t count, float* x, float* y) const;

 private:
  // Takes the part `part` chooses of a file of `rows` rows (none: every row).
  void choose(const ChoosePart& part, uint64_t rows);
  // Splits a grid of rows into x and y as the options say.
  void take(Grid grid, float* x, float* y) const;
  // read() from the row cache.
  void read_cached(uint64_t first, uint64_t count, float* x, float* y) const;
  // read() from the file: parsed or converted.
  void read_source(uint64_t first, uint64_t count, float* x, float* y) const;

  std::string path_;
  ReadOptions options_;
  Format format_;
  uint64_t rows_ = 0, features_ = 0;
  uint64_t first_ = 0, count_ = 0;  // the part read
  std::vector<std::string> names_;
  MappedFile text_;  // CSV, LIBSVM
  CsvShape csv_;
  LibsvmShape libsvm_;
  std::unique_ptr<NpyFile> npy_, npy_labels_;
  bool checked_ = false;  // the first pass is done
  // Once cached: the cache, and each row's label. CSV and NPY rows are
  // features() floats each; LIBSVM rows their nonzero values as (index,
  // value) pairs, row i's from pair entries_[i] to entries_[i + 1].
  std::unique_ptr<RowCache> cache_;
  std::vector<float> labels_;
  std::vector<uint64_t> entries_;
};

}  // namespace porta::data
