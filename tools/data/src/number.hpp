// One number of a text data file, parsed strictly: the whole field, a
// leading '+' allowed, finite, within float32's range.
#pragma once

#include <string>
#include <string_view>

namespace porta::data {

// Parses `field` into `out`. Returns "" on success, else what is wrong
// ("is not a number", "is not finite", "is outside float32's range").
std::string parse_float(std::string_view field, float& out);

// `field` in quotes for a message, cut after 40 characters.
std::string quoted(std::string_view field);

}  // namespace porta::data
