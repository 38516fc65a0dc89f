// porta's data files for training: CSV, NPY and LIBSVM read into one dense
// row-major float32 table of features plus a 0/1 label per row. Every refusal
// is an Error that names the file, the place (line and column, or row and
// column for binary files) and what was expected; nothing is truncated or
// converted silently (a value outside float32's range or not finite is an error).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace porta::data {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "FILE:LINE:COLUMN: what" (line and column 1-based; 0 leaves them out).
[[noreturn]] void fail(const std::string& file, uint64_t line, uint64_t column, const std::string& what);

// Numbers read from a file before a label column is chosen: rows x cols,
// row-major. `names` are the header's column names (CSV with a header) and
// `lines` the line each row began on (text formats), both empty otherwise.
struct Grid {
  std::string file;
  uint64_t rows = 0, cols = 0;
  std::vector<float> values;
  std::vector<std::string> names;
  std::vector<uint64_t> lines;
  uint64_t first_row = 0;  // the file's row index of the grid's first row (binary formats' messages)
};

// Features (rows x features, row-major) and, when the file has them, labels
// (0 or 1, one per row).
struct Table {
  std::string file;
  uint64_t rows = 0, features = 0;
  std::vector<float> x;
  std::vector<float> y;  // empty: the file had no labels
  std::vector<std::string> feature_names;
  bool has_labels() const { return !y.empty(); }
};

// The label 0 or 1 that `v` stands for: 0 and 1, and with `plus_minus_one`
// also -1 (0) and +1 (1); nothing for anything else.
std::optional<float> label_of(double v, bool plus_minus_one);

// Splits `grid` into features and the label column `label`: a header name, a
// 0-based index, or empty for the last column. Throws Error for a column that
// does not exist or a label that is not 0 or 1 (naming line and column).
Table take_label(Grid grid, const std::string& label);
// take_label's work on `values` (grid.rows x grid.cols, row-major, in place):
// each row's features moved down over the label column, the labels returned
// (the values hold rows x (cols - 1) features after it). Refuses as take_label does.
std::vector<float> pull_labels(float* values, const Grid& grid, const std::string& label);
// Every column a feature; no labels.
Table without_label(Grid grid);

enum class Format { csv, npy, libsvm };
// "csv", "npy", "libsvm" (also "svm"); nothing otherwise.
std::optional<Format> format_from_name(std::string_view name);
// By extension: .csv .tsv .txt -> csv, .npy -> npy, .svm .libsvm -> libsvm;
// throws Error for anything else (saying --format chooses).
Format format_of_path(const std::string& path);
const char* format_name(Format format);

enum class Header { detect, yes, no };

struct ReadOptions {
  std::optional<Format> format;    // unset: by extension
  std::string labels_path;         // NPY: the labels in a file of their own
  std::string label;               // CSV: the label column (name or 0-based index); empty: the last
  Header header = Header::detect;  // CSV
  uint64_t features = 0;           // LIBSVM: the feature count; 0: the largest index
  // Whether a CSV or NPY file has a label column: yes; no (features only); or
  // by_count, for rows to predict with a model of `features` features: that
  // many columns are features only, one more has a label. LIBSVM rows always
  // start with a label; a labels file (labels_path) always has them.
  enum class Labels { yes, no, by_count } labels = Labels::yes;
};

// Splits `grid` into features and labels as `options` say (labels, label, features).
Table split_grid(Grid grid, const ReadOptions& options);

// Reads `path` as ReadOptions says. Throws Error.
Table read_table(const std::string& path, const ReadOptions& options);

}  // namespace porta::data
