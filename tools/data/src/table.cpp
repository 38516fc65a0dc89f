#include "porta_data/table.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>

#include "porta_data/csv.hpp"
#include "porta_data/libsvm.hpp"
#include "porta_data/npy.hpp"

namespace porta::data {

void fail(const std::string& file, uint64_t line, uint64_t column, const std::string& what) {
  std::string where = file;
  if (line) where += ":" + std::to_string(line);
  if (line && column) where += ":" + std::to_string(column);
  throw Error(where + ": " + what);
}

std::optional<float> label_of(double v, bool plus_minus_one) {
  if (v == 0 || v == 1) return static_cast<float>(v);
  if (plus_minus_one && v == -1) return 0.0f;
  return std::nullopt;
}

namespace {

// The column `label` names in `grid`: a header name first, else a 0-based index.
uint64_t label_column(const Grid& grid, const std::string& label) {
  if (label.empty()) return grid.cols - 1;
  const auto named = std::find(grid.names.begin(), grid.names.end(), label);
  if (named != grid.names.end()) return static_cast<uint64_t>(named - grid.names.begin());
  uint64_t index = 0;
  const auto [end, ec] = std::from_chars(label.data(), label.data() + label.size(), index);
  if (ec != std::errc() || end != label.data() + label.size()) {
    std::string names;
    for (const auto& n : grid.names) names += (names.empty() ? "'" : ", '") + n + "'";
    fail(grid.file, 0, 0,
         "no label column '" + label + "'; expected " +
             (grid.names.empty() ? std::string("a 0-based column index (the file has no header row)")
                                 : "one of the header's names (" + names + ") or a 0-based column index"));
  }
  if (index >= grid.cols)
    fail(grid.file, 0, 0,
         "label column " + label + " does not exist; the rows have " + std::to_string(grid.cols) +
             " columns (0 to " + std::to_string(grid.cols - 1) + ")");
  return index;
}

}  // namespace

std::vector<float> pull_labels(float* values, const Grid& grid, const std::string& label) {
  if (grid.cols < 2)
    fail(grid.file, 0, 0,
         "rows have " + std::to_string(grid.cols) + " column; expected at least one feature and a label");
  const uint64_t c = label_column(grid, label), features = grid.cols - 1;
  std::vector<float> y;
  y.reserve(grid.rows);
  // The features move down in place, row by row (a row's features never
  // land past where the row was read): no second copy of gigabytes.
  for (uint64_t i = 0; i < grid.rows; ++i) {
    const float* row = values + i * grid.cols;
    const std::optional<float> label_value = label_of(row[c], false);
    if (!label_value) {
      const std::string what = "the label is " + std::to_string(row[c]) + "; expected 0 or 1";
      if (grid.lines.empty())
        fail(grid.file, 0, 0,
             "row " + std::to_string(grid.first_row + i) + ", column " + std::to_string(c) + ": " + what);
      fail(grid.file, grid.lines[i], 0, "column " + std::to_string(c + 1) + ": " + what);
    }
    y.push_back(*label_value);
    float* to = values + i * features;
    std::memmove(to, row, c * sizeof(float));
    std::memmove(to + c, row + c + 1, (grid.cols - c - 1) * sizeof(float));
  }
  return y;
}

Table take_label(Grid grid, const std::string& label) {
  Table t;
  t.file = grid.file;
  t.rows = grid.rows;
  t.y = pull_labels(grid.values.data(), grid, label);
  t.features = grid.cols - 1;
  grid.values.resize(t.rows * t.features);
  t.x = std::move(grid.values);
  if (!grid.names.empty()) {
    const uint64_t c = label_column(grid, label);
    t.feature_names = std::move(grid.names);
    t.feature_names.erase(t.feature_names.begin() + static_cast<ptrdiff_t>(c));
  }
  return t;
}

Table without_label(Grid grid) {
  Table t;
  t.file = std::move(grid.file);
  t.rows = grid.rows;
  t.features = grid.cols;
  t.x = std::move(grid.values);
  t.feature_names = std::move(grid.names);
  return t;
}

std::optional<Format> format_from_name(std::string_view name) {
  if (name == "csv") return Format::csv;
  if (name == "npy") return Format::npy;
  if (name == "libsvm" || name == "svm") return Format::libsvm;
  return std::nullopt;
}

const char* format_name(Format format) {
  switch (format) {
    case Format::csv:
      return "csv";
    case Format::npy:
      return "npy";
    case Format::libsvm:
      return "libsvm";
  }
  return "?";
}

Format format_of_path(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  std::string ext =
      dot == std::string::npos || (slash != std::string::npos && dot < slash) ? "" : path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == "csv" || ext == "tsv" || ext == "txt") return Format::csv;
  if (ext == "npy") return Format::npy;
  if (ext == "svm" || ext == "libsvm") return Format::libsvm;
  fail(path, 0, 0,
       "cannot tell the format from the extension '" + ext +
           "'; expected .csv, .tsv, .txt, .npy, .svm or .libsvm, or say it with --format csv|npy|libsvm");
}

Table split_grid(Grid grid, const ReadOptions& options) {
  bool labels = options.labels == ReadOptions::Labels::yes;
  if (options.labels == ReadOptions::Labels::by_count) {
    if (grid.cols == options.features + 1 || !options.label.empty()) {
      labels = true;
    } else if (grid.cols != options.features) {
      fail(grid.file, 0, 0,
           "rows of " + std::to_string(grid.cols) + " columns; expected " + std::to_string(options.features) +
               " features (the model's), or " + std::to_string(options.features + 1) +
               " with a label column");
    }
  }
  return labels ? take_label(std::move(grid), options.label) : without_label(std::move(grid));
}

Table read_table(const std::string& path, const ReadOptions& options) {
  const Format format = options.format ? *options.format : format_of_path(path);
  if (!options.labels_path.empty() && format != Format::npy)
    fail(options.labels_path, 0, 0,
         "a labels file goes with NPY features only; this data file is " + std::string(format_name(format)));
  switch (format) {
    case Format::csv:
      return split_grid(read_csv(path, options.header), options);
    case Format::npy:
      if (!options.labels_path.empty()) return read_npy(path, options.labels_path, true);
      return split_grid(grid_of(NpyFile(path)), options);
    case Format::libsvm: {
      LibsvmOptions o;
      o.features = options.features;
      return read_libsvm(path, o);
    }
  }
  fail(path, 0, 0, "unknown format");
}

}  // namespace porta::data
