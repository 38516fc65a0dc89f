// A data file read a range of rows at a time, for training on data that do
// not fit in memory (porta-logreg --device-memory): CSV and LIBSVM text is
// memory-mapped and indexed by a first pass (every value checked, and where
// each row begins noted), then parsed a range at a time; NPY is mapped and
// converted a range at a time. Only the index (a few bytes a row) is held.
// Errors name the file and the place, as read_table's do.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "porta_data/csv.hpp"
#include "porta_data/file.hpp"
#include "porta_data/libsvm.hpp"
#include "porta_data/npy.hpp"
#include "porta_data/table.hpp"

namespace porta::data {

class RowFile {
 public:
  // The first pass: the file (with its labels) read as `options` say, every
  // value and label checked. The rows must have labels.
  RowFile(const std::string& path, const ReadOptions& options);

  const std::string& file() const { return path_; }
  uint64_t rows() const { return rows_; }
  uint64_t features() const { return features_; }
  const std::vector<std::string>& feature_names() const { return names_; }

  // Rows [first, first + count): the features into x (count x features(),
  // row-major) and the labels into y. Thread-safe. Throws Error, also when
  // the file changed since the first pass (a file replaced by rename is read
  // as it was: its mapping keeps the old contents).
  void read(uint64_t first, uint64_t count, float* x, float* y) const;

 private:
  // Splits a grid of rows into x and y as the options say.
  void take(Grid grid, float* x, float* y) const;

  std::string path_;
  ReadOptions options_;
  Format format_;
  uint64_t rows_ = 0, features_ = 0;
  std::vector<std::string> names_;
  MappedFile text_;  // CSV, LIBSVM
  CsvShape csv_;
  LibsvmShape libsvm_;
  std::unique_ptr<NpyFile> npy_, npy_labels_;
  bool checked_ = false;  // the first pass is done
};

}  // namespace porta::data
