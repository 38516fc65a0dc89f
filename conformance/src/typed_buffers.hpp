// A kernel's buffers as typed values: --inputs auto fills every scalar of a
// block by its declared type, and results are compared member by member (floats
// within ulps, integers and bools exactly, padding bit for bit), a difference
// named by buffer, byte offset, member path, type and both values.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "porta_translator/translator.hpp"

namespace porta::conformance {

using Bytes = std::vector<uint8_t>;

// A block's bytes for `elements` runtime-array elements, every scalar drawn
// from `rng` by its type: floats in [-2, 2] (never denormal), integers in
// [0, 64) (valid indices of small arrays, no overflow in a few operations),
// bools 0 or 1; padding zero.
Bytes fill_block(const porta::translator::BlockLayout& layout, uint64_t elements, std::mt19937_64& rng);

struct UlpTolerance {
  double ulp = 4;  // floats (of their own width) within this many ulps, or within
                   // ulp ulps of 32.0 of each other anywhere (cancellation near zero)
};

// How one buffer differs from the reference.
struct Difference {
  uint64_t checked = 0;            // scalars compared (check_expected)
  uint64_t count = 0;              // scalars (or padding bytes) that differ
  double worst_ulp = 0;            // the float furthest apart, in ulps
  std::vector<std::string> lines;  // the first few, each naming byte, member, type and both values
};

// Compares `got` with `want` (the same size) as typed by `layout`; `where`
// names the buffer, `reference` the device `want` came from.
Difference compare_block(const porta::translator::BlockLayout& layout, const Bytes& got, const Bytes& want,
                         const UlpTolerance& tolerance, const std::string& where,
                         const std::string& reference, size_t max_lines = 8);

// A kernel's own expected value (--expect NAME=VALUE): every scalar whose
// member path is NAME or lies inside it (NAME[3], NAME.x, NAME[2].y) holds VALUE.
struct Expectation {
  std::string text;  // "NAME=VALUE", for messages
  std::string name;
  std::string value_text;  // integers compare exactly, all 64 bits, when it spells one
  double value = 0;
};
// Parses NAME=VALUE (throws std::invalid_argument saying what is wrong).
Expectation parse_expectation(const std::string& text);
// Checks `got` (a buffer of `layout`) against `expected`: integers and bools
// exactly, floats within the tolerance; `checked` counts the scalars inside NAME.
Difference check_expected(const porta::translator::BlockLayout& layout, const Bytes& got,
                          const Expectation& expected, const UlpTolerance& tolerance,
                          const std::string& where, size_t max_lines = 8);

// "buffer 1 (set 0, binding 1, 'Out')".
std::string buffer_label(const porta::translator::BlockLayout& layout, size_t parameter);

}  // namespace porta::conformance
