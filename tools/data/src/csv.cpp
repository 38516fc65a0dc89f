#include "porta_data/csv.hpp"

#include <cstring>
#include <functional>
#include <optional>

#include "number.hpp"
#include "porta_data/file.hpp"

namespace porta::data {
namespace {

// Blanks: the delimiter when a row has no comma, semicolon or tab.
constexpr char kBlanks = ' ';

struct Field {
  std::string text;
  uint64_t line = 0, column = 0;
};

class Reader {
 public:
  Reader(std::string_view text, const std::string& file) : text_(text), file_(file) {}
  // From a record that an earlier reading found at `pos` on `line`, with its delimiter.
  Reader(std::string_view text, const std::string& file, size_t pos, uint64_t line, char delimiter)
      : text_(text), file_(file), pos_(pos), line_start_(pos), line_(line), delimiter_(delimiter) {}

  // The next record's fields, or nothing at the end. Skips blank lines and
  // lines whose first non-blank character is '#'.
  std::optional<std::vector<Field>> next() {
    while (pos_ < text_.size()) {
      const size_t start = pos_;
      size_t p = start;
      while (p < text_.size() && (text_[p] == ' ' || text_[p] == '\t' || text_[p] == '\r')) ++p;
      if (p == text_.size() || text_[p] == '\n' || text_[p] == '#') {
        skip_line();
        continue;
      }
      if (!delimiter_) delimiter_ = detect(start);
      record_start_ = start;
      return record();
    }
    return std::nullopt;
  }

  uint64_t line() const { return line_; }
  // Where reading stands: after the record next() returned last.
  size_t position() const { return pos_; }
  // Where the record next() returned last begins, and the delimiter.
  size_t record_start() const { return record_start_; }
  char delimiter() const { return delimiter_; }

 private:
  char detect(size_t start) const {
    bool quoted = false, semicolon = false, tab = false;
    for (size_t p = start; p < text_.size() && (quoted || text_[p] != '\n'); ++p) {
      const char c = text_[p];
      if (c == '"') quoted = !quoted;
      if (quoted) continue;
      if (c == ',') return ',';
      semicolon = semicolon || c == ';';
      tab = tab || c == '\t';
    }
    return semicolon ? ';' : tab ? '\t' : kBlanks;
  }

  void skip_line() {
    while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    if (pos_ < text_.size()) {
      ++pos_;
      ++line_;
      line_start_ = pos_;
    }
  }

  bool at_end_of_record() const { return pos_ >= text_.size() || text_[pos_] == '\n'; }
  bool is_blank(char c) const { return c == ' ' || c == '\r' || (c == '\t' && delimiter_ != '\t'); }
  uint64_t column() const { return pos_ - line_start_ + 1; }

  std::vector<Field> record() {
    std::vector<Field> fields;
    for (;;) {
      while (pos_ < text_.size() && is_blank(text_[pos_])) ++pos_;
      if (delimiter_ == kBlanks && at_end_of_record()) break;  // trailing blanks make no field
      fields.push_back(field());
      while (pos_ < text_.size() && is_blank(text_[pos_])) ++pos_;
      if (at_end_of_record()) break;
      if (delimiter_ != kBlanks) {
        if (text_[pos_] != delimiter_)
          fail(file_, line_, column(),
               std::string("found '") + text_[pos_] + "' after a quoted field; expected the delimiter '" +
                   (delimiter_ == '\t' ? std::string("\\t") : std::string(1, delimiter_)) +
                   "' or the end of the row");
        ++pos_;  // a delimiter at the end of the row leaves one empty field after it
      }
    }
    skip_line();
    return fields;
  }

  Field field() {
    Field f{"", line_, column()};
    if (at_end_of_record()) return f;
    if (text_[pos_] == '"') {
      ++pos_;
      for (;;) {
        if (pos_ >= text_.size())
          fail(file_, f.line, f.column, "the quoted field never ends; expected a closing '\"'");
        const char c = text_[pos_++];
        if (c == '"') {
          if (pos_ < text_.size() && text_[pos_] == '"') {
            f.text += '"';
            ++pos_;
            continue;
          }
          break;
        }
        if (c == '\n') {
          ++line_;
          line_start_ = pos_;
        }
        f.text += c;
      }
      return f;
    }
    const size_t start = pos_;
    while (
        pos_ < text_.size() && text_[pos_] != '\n' &&
        (delimiter_ == kBlanks ? !(text_[pos_] == ' ' || text_[pos_] == '\t') : text_[pos_] != delimiter_)) {
      if (text_[pos_] == '"')
        fail(file_, line_, column(), "a quote inside an unquoted field; expected the whole field in quotes");
      ++pos_;
    }
    size_t end = pos_;
    while (end > start && (text_[end - 1] == ' ' || text_[end - 1] == '\r' || text_[end - 1] == '\t')) --end;
    f.text.assign(text_.substr(start, end - start));
    return f;
  }

  std::string_view text_;
  const std::string& file_;
  size_t pos_ = 0, line_start_ = 0, record_start_ = 0;
  uint64_t line_ = 1;
  char delimiter_ = 0;
};

std::string column_name(const Grid& g, size_t c) {
  std::string s = "column " + std::to_string(c + 1);
  if (c < g.names.size()) s += " ('" + g.names[c] + "')";
  return s;
}

void append_numbers(Grid& g, const std::vector<Field>& fields) {
  for (size_t c = 0; c < fields.size(); ++c) {
    const Field& f = fields[c];
    float v = 0;
    if (f.text.empty())
      fail(g.file, f.line, f.column, "an empty field; expected a number in " + column_name(g, c));
    const std::string wrong = parse_float(f.text, v);
    if (!wrong.empty())
      fail(g.file, f.line, f.column,
           quoted(f.text) + " " + wrong + "; expected a finite number in " + column_name(g, c));
    g.values.push_back(v);
  }
}

bool all_numbers(const std::vector<Field>& fields) {
  for (const Field& f : fields) {
    float v = 0;
    if (f.text.empty() || parse_float(f.text, v) == "is not a number") return false;
  }
  return true;
}

}  // namespace

namespace {

// The first record of `text`: the header's names (when it is one), the
// column count, the delimiter and the first record's line into `shape`;
// returns the first record when it is a row.
std::optional<std::vector<Field>> read_head(Reader& reader, const std::string& file, Header header,
                                            CsvShape& shape) {
  std::optional<std::vector<Field>> first = reader.next();
  if (!first)
    fail(file, 0, 0, "holds no rows (empty, or only comments and blank lines); expected CSV rows of numbers");
  const bool has_header = header == Header::yes || (header == Header::detect && !all_numbers(*first));
  shape.cols = first->size();
  shape.delimiter = reader.delimiter();
  shape.head_line = first->front().line;
  if (!has_header) return first;
  for (const Field& f : *first) shape.names.push_back(f.text);
  return std::nullopt;
}

// A row of another field count than the first record's.
void check_field_count(const std::string& file, const CsvShape& shape, const std::vector<Field>& row) {
  if (row.size() == shape.cols) return;
  const Field& at = row.size() > shape.cols ? row[shape.cols] : row.back();
  fail(file, at.line, row.size() > shape.cols ? at.column : 0,
       std::to_string(row.size()) + " fields; expected " + std::to_string(shape.cols) + " as on line " +
           std::to_string(shape.head_line));
}

// Every record of `text`: the header's names (when there is one) into
// `shape`, then each row, checked to have the first record's field count,
// handed to on_row(fields) with the reader standing at it.
template <class OnRow>
void walk(std::string_view text, const std::string& file, Header header, CsvShape& shape, OnRow on_row) {
  Reader reader(text, file);
  if (std::optional<std::vector<Field>> first = read_head(reader, file, header, shape))
    on_row(*first, reader);
  while (std::optional<std::vector<Field>> row = reader.next()) {
    check_field_count(file, shape, *row);
    on_row(*row, reader);
  }
}

// The rows of a record: its values checked, handed to `check` (index_csv).
void check_row(Grid& row, const CsvShape& shape, const std::vector<Field>& fields, uint64_t index,
               const std::function<void(Grid& row)>& check) {
  row.cols = fields.size();
  if (row.names.empty()) row.names = shape.names;
  row.values.clear();
  append_numbers(row, fields);
  row.lines.assign(1, fields.front().line);
  row.rows = 1;
  row.first_row = index;
  check(row);
}

}  // namespace

Grid parse_csv(std::string_view text, const std::string& file, Header header) {
  Grid g;
  g.file = file;
  CsvShape shape;
  walk(text, file, header, shape, [&](const std::vector<Field>& fields, const Reader&) {
    if (g.names.size() != shape.names.size()) g.names = shape.names;  // errors name the column
    append_numbers(g, fields);
    g.lines.push_back(fields.front().line);
    ++g.rows;
  });
  g.cols = shape.cols;
  if (g.rows == 0) fail(file, 0, 0, "has a header row but no data rows; expected rows of numbers after it");
  return g;
}

CsvShape index_csv(std::string_view text, const std::string& file, Header header,
                   const std::function<void(Grid& row)>& check) {
  CsvShape shape;
  Grid row;
  row.file = file;
  walk(text, file, header, shape, [&](const std::vector<Field>& fields, const Reader& reader) {
    check_row(row, shape, fields, shape.offsets.size(), check);
    shape.offsets.push_back(reader.record_start());
    shape.lines.push_back(fields.front().line);
  });
  if (shape.offsets.empty())
    fail(file, 0, 0, "has a header row but no data rows; expected rows of numbers after it");
  return shape;
}

CsvShape locate_csv(std::string_view text, const std::string& file, Header header) {
  CsvShape shape;
  Reader reader(text, file);
  if (read_head(reader, file, header, shape)) {
    shape.offsets.push_back(reader.record_start());
    shape.lines.push_back(shape.head_line);
  }
  // Records begin as Reader::next finds them: blanks, then anything but a
  // line end or '#'. A record ends at a line end outside quotes; every quote
  // toggles quoting, which follows the parser's quoted fields ("" inside one
  // toggles twice) in every file it accepts.
  const size_t n = text.size();
  uint64_t line = reader.line();
  for (size_t pos = reader.position(); pos < n;) {
    size_t p = pos;
    while (p < n && (text[p] == ' ' || text[p] == '\t' || text[p] == '\r')) ++p;
    if (p == n) break;
    if (text[p] != '\n' && text[p] != '#') {
      shape.offsets.push_back(pos);
      shape.lines.push_back(line);
      for (bool quoted = false; p < n && (quoted || text[p] != '\n'); ++p) {
        if (text[p] == '"') quoted = !quoted;
        line += text[p] == '\n';
      }
    } else {
      const void* end = std::memchr(text.data() + p, '\n', n - p);
      p = end ? static_cast<size_t>(static_cast<const char*>(end) - text.data()) : n;
    }
    line += p < n;
    pos = p + 1;
  }
  if (shape.offsets.empty())
    fail(file, 0, 0, "has a header row but no data rows; expected rows of numbers after it");
  return shape;
}

void check_csv_rows(std::string_view text, const std::string& file, const CsvShape& shape, uint64_t first,
                    uint64_t count, const std::function<void(Grid& row)>& check) {
  if (count == 0) return;
  Reader reader(text, file, shape.offsets.at(first), shape.lines.at(first), shape.delimiter);
  Grid row;
  row.file = file;
  // Each row where locate_csv found it, and the next where it found the next:
  // the parser's rows are the scan's, so that the processes' parts cover
  // every row once.
  auto elsewhere = [&](uint64_t i) {
    fail(file, shape.lines[i], 0,
         "the parser finds the rows here elsewhere than the scan for where rows begin did; expected "
         "quoted fields that end (a quote inside an unquoted field?)");
  };
  for (uint64_t i = first; i < first + count; ++i) {
    std::optional<std::vector<Field>> fields = reader.next();
    if (!fields || reader.record_start() != shape.offsets[i]) elsewhere(i);
    check_field_count(file, shape, *fields);
    check_row(row, shape, *fields, i, check);
  }
  const uint64_t next = first + count;
  const std::optional<std::vector<Field>> after = reader.next();
  if (next < shape.rows() ? !after || reader.record_start() != shape.offsets[next] : after.has_value())
    elsewhere(next - 1);
}

Grid parse_csv_rows(std::string_view text, const std::string& file, const CsvShape& shape, uint64_t first,
                    uint64_t count) {
  Grid g;
  g.file = file;
  g.cols = shape.cols;
  g.names = shape.names;
  g.first_row = first;
  if (count == 0) return g;
  Reader reader(text, file, shape.offsets.at(first), shape.lines.at(first), shape.delimiter);
  for (uint64_t i = 0; i < count; ++i) {
    std::optional<std::vector<Field>> row = reader.next();
    if (!row || row->size() != shape.cols)
      fail(file, shape.lines[first + i], 0,
           "this row is not the one first read there; expected " + std::to_string(shape.cols) + " fields");
    append_numbers(g, *row);
    g.lines.push_back(row->front().line);
    ++g.rows;
  }
  return g;
}

Grid read_csv(const std::string& path, Header header) { return parse_csv(read_file(path), path, header); }

}  // namespace porta::data
