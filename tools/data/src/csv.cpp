#include "porta_data/csv.hpp"

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
      return record();
    }
    return std::nullopt;
  }

  uint64_t line() const { return line_; }

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
  size_t pos_ = 0, line_start_ = 0;
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

Grid parse_csv(std::string_view text, const std::string& file, Header header) {
  Grid g;
  g.file = file;
  Reader reader(text, file);
  std::optional<std::vector<Field>> first = reader.next();
  if (!first)
    fail(file, 0, 0, "holds no rows (empty, or only comments and blank lines); expected CSV rows of numbers");
  const bool has_header = header == Header::yes || (header == Header::detect && !all_numbers(*first));
  g.cols = first->size();
  const uint64_t first_line = first->front().line;
  if (has_header) {
    for (const Field& f : *first) g.names.push_back(f.text);
  } else {
    append_numbers(g, *first);
    g.lines.push_back(first_line);
    ++g.rows;
  }
  while (std::optional<std::vector<Field>> row = reader.next()) {
    if (row->size() != g.cols) {
      const Field& at = row->size() > g.cols ? (*row)[g.cols] : row->back();
      fail(file, at.line, row->size() > g.cols ? at.column : 0,
           std::to_string(row->size()) + " fields; expected " + std::to_string(g.cols) + " as on line " +
               std::to_string(first_line));
    }
    append_numbers(g, *row);
    g.lines.push_back(row->front().line);
    ++g.rows;
  }
  if (g.rows == 0) fail(file, 0, 0, "has a header row but no data rows; expected rows of numbers after it");
  return g;
}

Grid read_csv(const std::string& path, Header header) { return parse_csv(read_file(path), path, header); }

}  // namespace porta::data
