// LIBSVM / SVMlight: one sample a line, "label index:value index:value ...",
// indices 1-based and increasing, absent ones zero; '#' starts a comment. The
// label is 0, 1, -1 (read as 0) or +1 (read as 1).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "porta_data/table.hpp"

namespace porta::data {

struct LibsvmOptions {
  uint64_t features = 0;  // 0: the largest index in the file; else an index above it is an error
  // The dense table may hold at most this many values (rows x features): a
  // stray huge index is refused rather than allocated.
  uint64_t max_values = uint64_t{1} << 32;
};

Table parse_libsvm(std::string_view text, const std::string& file, const LibsvmOptions& options);
Table read_libsvm(const std::string& path, const LibsvmOptions& options);

// What a first pass over a LIBSVM text finds, for reading its rows a range at
// a time later (porta_data/rows.hpp): the feature count and where each sample
// line begins (byte offset and line). Every value is checked on the way.
struct LibsvmShape {
  uint64_t features = 0;
  std::vector<uint64_t> offsets, lines;
  uint64_t rows() const { return offsets.size(); }
};
// One nonzero value of a row: its index (1-based) and value.
struct LibsvmValue {
  uint64_t index;
  float value;
};
// The first pass; `each` (if set) is handed every row's label and nonzero
// values, in order, as they are checked.
LibsvmShape index_libsvm(
    std::string_view text, const std::string& file, const LibsvmOptions& options,
    const std::function<void(float label, const std::vector<LibsvmValue>& values)>& each = {});
// A first pass for several processes that each read a part of the rows (MPI
// ranks): where every sample line begins, found by a scan that parses no
// values; then check_libsvm_rows checks rows [first, first + count) as
// index_libsvm does and sets shape.features to the feature count asked for,
// else the largest index of those rows (the processes agree on the largest).
LibsvmShape locate_libsvm(std::string_view text, const std::string& file);
void check_libsvm_rows(
    std::string_view text, const std::string& file, const LibsvmOptions& options, LibsvmShape& shape,
    uint64_t first, uint64_t count,
    const std::function<void(float label, const std::vector<LibsvmValue>& values)>& each = {});
// Rows [first, first + count) of `text` (indexed into `shape`): x (count x
// shape.features, dense) and the labels y.
void parse_libsvm_rows(std::string_view text, const std::string& file, const LibsvmShape& shape,
                       uint64_t first, uint64_t count, float* x, float* y);

}  // namespace porta::data
