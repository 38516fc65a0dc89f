// NPY (numpy.save): versions 1 to 3, little-endian float32, float64, integer
// and bool arrays, C or Fortran order, 1-D or 2-D. The file is memory-mapped;
// rows are converted to float32 on request, a range at a time, so that a
// reader can stream a file larger than memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "porta_data/file.hpp"
#include "porta_data/floats.hpp"
#include "porta_data/table.hpp"

namespace porta::data {

// The header's dictionary, checked against the file's size.
struct NpyHeader {
  char kind = 'f';       // 'f' float, 'i' signed, 'u' unsigned, 'b' bool
  size_t item_size = 4;  // bytes per element
  bool fortran_order = false;
  std::vector<uint64_t> shape;
  size_t data_offset = 0;  // where the elements begin
  std::string descr;
  uint64_t rows() const { return shape.empty() ? 1 : shape[0]; }
  uint64_t cols() const { return shape.size() < 2 ? 1 : shape[1]; }
};

// Parses the header at the start of `bytes` (a whole file named `file`) and
// checks that the elements it describes fill the rest exactly. Throws Error.
NpyHeader parse_npy_header(std::string_view bytes, const std::string& file);

class NpyFile {
 public:
  explicit NpyFile(const std::string& path);
  // A file already in memory (tests, fuzzing): `bytes` must outlive the object.
  NpyFile(std::string_view bytes, const std::string& file);

  const NpyHeader& header() const { return header_; }
  uint64_t rows() const { return header_.rows(); }
  uint64_t cols() const { return header_.cols(); }
  const std::string& file() const { return file_; }

  // Rows [first, first + count) as float32, row-major, into out (count x
  // cols()). Throws Error for a value that is not finite or not within
  // float32's range (naming row and column), for a range past the end, and
  // when the file changed since it was opened.
  void read_rows(uint64_t first, uint64_t count, float* out) const;
  // The elements in place when they are float32, little-endian, C order
  // (rows x cols, row-major); nullptr otherwise. Unchecked: the caller checks
  // finiteness, or uses read_rows.
  const float* mapped_f32() const;
  // Throws Error when the file changed since it was opened.
  void check_unchanged() const { mapping_.check_unchanged(); }

 private:
  std::string file_;
  MappedFile mapping_;
  std::string_view bytes_;
  NpyHeader header_;
};

// Every element of a 1-D or 2-D array as rows x columns (1-D: one column).
Grid grid_of(const NpyFile& file);

// Labels in a file of their own: `features` 2-D, `labels` one column of as
// many rows; and labels y (rows [first, first + count) of `labels`) 0 or 1.
void check_labels_file(const NpyFile& features, const NpyFile& labels);
void check_labels(const NpyFile& labels, uint64_t first, uint64_t count, const float* y);

// Features from `features_path` (2-D) and labels from `labels_path` (1-D or
// one column; empty: the column `label` of the features file, a 0-based index
// or empty for the last). labels false: every column a feature, no labels.
// An NPY file of float32 in C order read in place, for training in memory:
// the features stay in the file's private mapping (MappedFile::copy_on_write;
// the label column `label` is split out by moving each row's features down
// over it, which makes the pages written the process's own; a labels file's
// features are not written at all), every value and label checked as
// read_table checks them, with its messages. Nothing for any other NPY file
// (float64, integers, Fortran order, a 1-D array): read_table converts those.
struct NpyInPlace {
  uint64_t rows = 0, features = 0;
  Floats x;  // rows x features
  std::vector<float> y;
};
std::optional<NpyInPlace> read_npy_in_place(const std::string& features_path, const std::string& labels_path,
                                            const std::string& label = "");

Table read_npy(const std::string& features_path, const std::string& labels_path, bool labels,
               const std::string& label = "");
Table parse_npy(std::string_view bytes, const std::string& file, bool labels);

}  // namespace porta::data
