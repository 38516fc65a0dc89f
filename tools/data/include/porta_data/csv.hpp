// CSV: RFC 4180 fields (quoted fields with "" for a quote, delimiters and
// line breaks inside quotes), the delimiter found on the first row (comma,
// semicolon, tab, else runs of blanks), CRLF or LF, lines starting with '#'
// and blank lines skipped, a header row detected (a first row with a field
// that is not a number) or forced. Every other field must be a finite number
// within float32's range.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "porta_data/table.hpp"

namespace porta::data {

// Parses `text` (the contents of `file`, which names it in errors).
Grid parse_csv(std::string_view text, const std::string& file, Header header);
Grid read_csv(const std::string& path, Header header);

// What a first pass over a CSV text finds, for reading its rows a range at a
// time later (porta_data/rows.hpp): the columns, the header's names, the
// delimiter, and where each data row begins (byte offset and line).
struct CsvShape {
  uint64_t cols = 0;
  std::vector<std::string> names;
  char delimiter = 0;
  std::vector<uint64_t> offsets, lines;
  uint64_t head_line = 0;  // the first record's (the header's, or the first row's)
  uint64_t rows() const { return offsets.size(); }
};
// The first pass: every value is parsed and each row is handed to `check`
// (one row, its line and row index set) before it counts, so that a bad value
// or label is refused, naming line and column, before anything is trained.
CsvShape index_csv(std::string_view text, const std::string& file, Header header,
                   const std::function<void(Grid& row)>& check);
// A first pass for several processes that each read a part of the rows (MPI
// ranks): the first record (the header, the columns, the delimiter) parsed,
// and where every row begins found by a scan that parses no values; then
// check_csv_rows parses and checks a part of them, as index_csv does, and
// refuses a file whose rows the parser finds elsewhere than the scan did.
CsvShape locate_csv(std::string_view text, const std::string& file, Header header);
void check_csv_rows(std::string_view text, const std::string& file, const CsvShape& shape, uint64_t first,
                    uint64_t count, const std::function<void(Grid& row)>& check);
// Rows [first, first + count) of `text`, which index_csv read into `shape`.
Grid parse_csv_rows(std::string_view text, const std::string& file, const CsvShape& shape, uint64_t first,
                    uint64_t count);

}  // namespace porta::data
