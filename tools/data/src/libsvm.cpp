#include "porta_data/libsvm.hpp"

#include <charconv>

#include "number.hpp"
#include "porta_data/file.hpp"

namespace porta::data {
namespace {

struct Entry {
  uint64_t row, index;  // index 1-based
  float value;
};

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

}  // namespace

Table parse_libsvm(std::string_view text, const std::string& file, const LibsvmOptions& options) {
  Table t;
  t.file = file;
  std::vector<Entry> entries;
  uint64_t max_index = 0, line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    ++line_no;
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
      if (v != 0) entries.push_back({t.rows, index, v});
    }
    t.y.push_back(*y);
    ++t.rows;
  }
  if (t.rows == 0)
    fail(file, 0, 0, "holds no rows (empty, or only comments and blank lines); expected LIBSVM rows");
  t.features = options.features ? options.features : max_index;
  if (t.features == 0) fail(file, 0, 0, "no row has a feature; expected index:value pairs (or --features)");
  if (t.features > options.max_values / t.rows)
    fail(file, 0, 0,
         std::to_string(t.rows) + " rows x " + std::to_string(t.features) +
             " features are more values than a dense table may hold here (" +
             std::to_string(options.max_values) + "); is an index wrong?");
  t.x.assign(t.rows * t.features, 0.0f);
  for (const Entry& e : entries) t.x[e.row * t.features + e.index - 1] = e.value;
  return t;
}

Table read_libsvm(const std::string& path, const LibsvmOptions& options) {
  return parse_libsvm(read_file(path), path, options);
}

}  // namespace porta::data
