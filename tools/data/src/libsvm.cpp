#include "porta_data/libsvm.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

#include "number.hpp"
#include "porta_data/file.hpp"

namespace porta::data {
namespace {

struct Entry {
  uint64_t row;
  LibsvmValue at;
};

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

}  // namespace

namespace {

// Every sample line of `text` (whose first line is line `line_no` + 1 of
// `file`), checked, handed to on_row(label, its nonzero values, line, offset);
// returns the largest index seen.
template <class OnRow>
uint64_t walk(std::string_view text, const std::string& file, const LibsvmOptions& options, uint64_t line_no,
              OnRow on_row) {
  std::vector<LibsvmValue> entries;
  uint64_t max_index = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    ++line_no;
    const size_t offset = pos;
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (const size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    size_t p = 0;
    auto column = [&] { return static_cast<uint64_t>(p + 1); };
    auto token = [&] {
      while (p < line.size() && blank(line[p])) ++p;
      const size_t s = p;
      while (p < line.size() && !blank(line[p])) ++p;
      return line.substr(s, p - s);
    };
    std::string_view label = token();
    if (label.empty()) continue;  // a blank or comment line
    const uint64_t label_column = column() - label.size();
    float v = 0;
    const std::string wrong = parse_float(label, v);
    const std::optional<float> y = wrong.empty() ? label_of(v, true) : std::nullopt;
    if (!y)
      fail(file, line_no, label_column,
           "the label " + quoted(label) + " " + (wrong.empty() ? "is not a class" : wrong) +
               "; expected 0, 1, -1 or +1");
    uint64_t previous = 0;
    entries.clear();
    for (std::string_view pair = token(); !pair.empty(); pair = token()) {
      const uint64_t at = column() - pair.size();
      const size_t colon = pair.find(':');
      if (colon == std::string_view::npos)
        fail(file, line_no, at, quoted(pair) + " has no ':'; expected index:value");
      const std::string_view idx = pair.substr(0, colon), val = pair.substr(colon + 1);
      if (idx == "qid") fail(file, line_no, at, "qid (ranking data) is not supported; expected index:value");
      uint64_t index = 0;
      const auto [iend, ec] = std::from_chars(idx.data(), idx.data() + idx.size(), index);
      if (idx.empty() || ec != std::errc() || iend != idx.data() + idx.size())
        fail(file, line_no, at, "the index " + quoted(idx) + " is not a whole number; expected index:value");
      if (index == 0)
        fail(file, line_no, at,
             "index 0; LIBSVM indices start at 1 (a file written 0-based cannot be read as such)");
      if (index <= previous)
        fail(file, line_no, at,
             "index " + std::to_string(index) + " after index " + std::to_string(previous) +
                 "; expected increasing indices");
      if (options.features && index > options.features)
        fail(file, line_no, at,
             "index " + std::to_string(index) + " is past the " + std::to_string(options.features) +
                 " features asked for (--features)");
      const std::string bad = parse_float(val, v);
      if (!bad.empty())
        fail(file, line_no, at + colon + 1,
             "the value " + quoted(val) + " " + bad + "; expected a finite number");
      previous = index;
      max_index = std::max(max_index, index);
      if (v != 0) entries.push_back({index, v});
    }
    on_row(*y, entries, line_no, offset);
  }
  return max_index;
}

// The feature count: asked for, else the largest index; checked.
uint64_t feature_count(const std::string& file, uint64_t rows, uint64_t max_index,
                       const LibsvmOptions& options) {
  if (rows == 0)
    fail(file, 0, 0, "holds no rows (empty, or only comments and blank lines); expected LIBSVM rows");
  const uint64_t features = options.features ? options.features : max_index;
  if (features == 0) fail(file, 0, 0, "no row has a feature; expected index:value pairs (or --features)");
  if (features > options.max_values / rows)
    fail(file, 0, 0,
         std::to_string(rows) + " rows x " + std::to_string(features) +
             " features are more values than a dense table may hold here (" +
             std::to_string(options.max_values) + "); is an index wrong?");
  return features;
}

}  // namespace

Table parse_libsvm(std::string_view text, const std::string& file, const LibsvmOptions& options) {
  Table t;
  t.file = file;
  std::vector<Entry> entries;
  const uint64_t max_index =
      walk(text, file, options, 0, [&](float y, const std::vector<LibsvmValue>& row, uint64_t, size_t) {
        for (const LibsvmValue& e : row) entries.push_back({t.rows, e});
        t.y.push_back(y);
        ++t.rows;
      });
  t.features = feature_count(file, t.rows, max_index, options);
  t.x.assign(t.rows * t.features, 0.0f);
  for (const Entry& e : entries) t.x[e.row * t.features + e.at.index - 1] = e.at.value;
  return t;
}

LibsvmShape index_libsvm(
    std::string_view text, const std::string& file, const LibsvmOptions& options,
    const std::function<void(float label, const std::vector<LibsvmValue>& values)>& each) {
  LibsvmShape shape;
  const uint64_t max_index =
      walk(text, file, options, 0,
           [&](float y, const std::vector<LibsvmValue>& row, uint64_t line, size_t offset) {
             if (each) each(y, row);
             shape.offsets.push_back(offset);
             shape.lines.push_back(line);
           });
  LibsvmOptions o = options;
  o.max_values = ~uint64_t{0};  // read a range at a time: never held whole
  shape.features = feature_count(file, shape.rows(), max_index, o);
  return shape;
}

void parse_libsvm_rows(std::string_view text, const std::string& file, const LibsvmShape& shape,
                       uint64_t first, uint64_t count, float* x, float* y) {
  if (count == 0) return;
  const size_t begin = shape.offsets.at(first);
  const size_t end = first + count < shape.rows() ? shape.offsets[first + count] : text.size();
  LibsvmOptions o;
  o.features = shape.features;
  std::fill(x, x + count * shape.features, 0.0f);
  uint64_t row = 0;
  walk(text.substr(begin, end - begin), file, o, shape.lines[first] - 1,
       [&](float label, const std::vector<LibsvmValue>& entries, uint64_t line, size_t) {
         if (row == count || line != shape.lines[first + row])
           fail(file, line, 0, "this row is not the one first read there; the file changed?");
         for (const LibsvmValue& e : entries) x[row * shape.features + e.index - 1] = e.value;
         y[row++] = label;
       });
  if (row != count) fail(file, shape.lines[first], 0, "fewer rows than first read there; the file changed?");
}

LibsvmShape locate_libsvm(std::string_view text, const std::string& file) {
  LibsvmShape shape;
  // A sample line has a token before any '#' (walk's rule).
  uint64_t line = 0;
  for (size_t pos = 0; pos < text.size();) {
    ++line;
    size_t p = pos;
    while (p < text.size() && blank(text[p])) ++p;
    if (p < text.size() && text[p] != '\n' && text[p] != '#') {
      shape.offsets.push_back(pos);
      shape.lines.push_back(line);
    }
    const size_t end = text.find('\n', p);
    pos = end == std::string_view::npos ? text.size() : end + 1;
  }
  if (shape.rows() == 0)
    fail(file, 0, 0, "holds no rows (empty, or only comments and blank lines); expected LIBSVM rows");
  return shape;
}

void check_libsvm_rows(std::string_view text, const std::string& file, const LibsvmOptions& options,
                       LibsvmShape& shape, uint64_t first, uint64_t count,
                       const std::function<void(float label, const std::vector<LibsvmValue>& values)>& each) {
  uint64_t max_index = 0;
  if (count) {
    const size_t begin = shape.offsets.at(first);
    const size_t end = first + count < shape.rows() ? shape.offsets.at(first + count) : text.size();
    uint64_t row = 0;
    max_index = walk(text.substr(begin, end - begin), file, options, shape.lines[first] - 1,
                     [&](float label, const std::vector<LibsvmValue>& values, uint64_t line, size_t) {
                       if (row == count || line != shape.lines[first + row])
                         fail(file, line, 0, "this row is not the one the scan found there");
                       if (each) each(label, values);
                       ++row;
                     });
    if (row != count) fail(file, shape.lines[first], 0, "fewer rows than the scan found there");
  }
  shape.features = options.features ? options.features : max_index;
}

Table read_libsvm(const std::string& path, const LibsvmOptions& options) {
  return parse_libsvm(read_file(path), path, options);
}

}  // namespace porta::data
