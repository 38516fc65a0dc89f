// CSV: RFC 4180 fields (quoted fields with "" for a quote, delimiters and
// line breaks inside quotes), the delimiter found on the first row (comma,
// semicolon, tab, else runs of blanks), CRLF or LF, lines starting with '#'
// and blank lines skipped, a header row detected (a first row with a field
// that is not a number) or forced. Every other field must be a finite number
// within float32's range.
#pragma once

#include <string>
#include <string_view>

#include "porta_data/table.hpp"

namespace porta::data {

// Parses `text` (the contents of `file`, which names it in errors).
Grid parse_csv(std::string_view text, const std::string& file, Header header);
Grid read_csv(const std::string& path, Header header);

}  // namespace porta::data
