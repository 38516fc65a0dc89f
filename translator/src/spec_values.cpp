// Specialization-constant values as text: what a command line's --spec gives,
// read by the constant's declared type, and what a signature prints.
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "porta_translator/translator.hpp"

namespace porta::translator {
namespace {

uint64_t width_mask(uint32_t width) { return width >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * width)) - 1; }

// The IEEE half nearest to `v` (ties to even), or false when it is out of the
// half range: the largest half is 65504, and anything from 65520 on rounds up
// past it.
bool to_half(double v, uint16_t& out) {
  const uint16_t sign = std::signbit(v) ? 0x8000u : 0;
  const double a = std::fabs(v);
  if (std::isnan(v)) return out = sign | 0x7e00u, true;
  if (std::isinf(v)) return out = sign | 0x7c00u, true;
  if (a >= 65520.0) return false;
  if (a < std::ldexp(1.0, -14)) {  // subnormal (1024 rounds up to the smallest normal, and encodes it)
    out = static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(std::ldexp(a, 24))));
    return true;
  }
  int exponent;
  std::frexp(a, &exponent);  // a = f * 2^exponent, f in [0.5, 1)
  --exponent;
  double mantissa = std::nearbyint(std::ldexp(a, 10 - exponent));  // in [1024, 2048]
  if (mantissa == 2048) mantissa = 1024, ++exponent;
  out = static_cast<uint16_t>(sign | (uint32_t(exponent + 15) << 10) | (uint32_t(mantissa) - 1024));
  return true;
}

double from_half(uint16_t h) {
  const int exponent = (h >> 10) & 0x1f;
  const double mantissa = h & 0x3ff;
  const double v = exponent == 0    ? std::ldexp(mantissa, -24)
                   : exponent == 31 ? (mantissa ? NAN : INFINITY)
                                    : std::ldexp(1024 + mantissa, exponent - 25);
  return (h & 0x8000) ? -v : v;
}

bool spells_infinity_or_nan(const std::string& text) {
  std::string lower;
  for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.find("inf") != std::string::npos || lower.find("nan") != std::string::npos;
}

}  // namespace

std::string spec_type_name(const SpecConstant& spec) {
  const std::string bits = std::to_string(8 * spec.width);
  switch (spec.type) {
    case ScalarType::Bool:
      return "bool";
    case ScalarType::Int:
      return spec.width == 4 ? "int" : "int" + bits + "_t";
    case ScalarType::UInt:
      return spec.width == 4 ? "uint" : "uint" + bits + "_t";
    case ScalarType::Float:
      return spec.width == 4 ? "float" : spec.width == 8 ? "double" : "float" + bits + "_t";
  }
  return "?";
}

uint64_t parse_spec_value(const SpecConstant& spec, const std::string& text) {
  const std::string type = spec_type_name(spec);
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])))
    throw std::invalid_argument("'" + text + "' is not a " + type + " value");
  char* end = nullptr;
  errno = 0;
  switch (spec.type) {
    case ScalarType::Bool:
      if (text == "true" || text == "1") return 1;
      if (text == "false" || text == "0") return 0;
      throw std::invalid_argument("'" + text + "' is not a bool: give true, false, 1 or 0");
    case ScalarType::Int: {
      const long long v = std::strtoll(text.c_str(), &end, 0);
      if (*end) throw std::invalid_argument("'" + text + "' is not an integer");
      const int64_t high = static_cast<int64_t>(width_mask(spec.width) >> 1), low = -high - 1;
      if (errno == ERANGE || v < low || v > high)
        throw std::invalid_argument("'" + text + "' is out of the range of " + type + " [" +
                                    std::to_string(low) + ", " + std::to_string(high) + "]");
      return static_cast<uint64_t>(v) & width_mask(spec.width);
    }
    case ScalarType::UInt: {
      const unsigned long long v = std::strtoull(text.c_str(), &end, 0);
      if (*end) throw std::invalid_argument("'" + text + "' is not an integer");
      if (errno == ERANGE || text[0] == '-' || v > width_mask(spec.width))
        throw std::invalid_argument("'" + text + "' is out of the range of " + type + " [0, " +
                                    std::to_string(width_mask(spec.width)) + "]");
      return v;
    }
    case ScalarType::Float: {
      // Read at the type's own width where the C library can (no double rounding).
      double v;
      uint64_t bits = 0;
      if (spec.width == 4) {
        const float f = std::strtof(text.c_str(), &end);
        std::memcpy(&bits, &f, 4);
        v = f;
      } else {
        v = std::strtod(text.c_str(), &end);
        std::memcpy(&bits, &v, 8);
      }
      if (*end) throw std::invalid_argument("'" + text + "' is not a number");
      uint16_t half = 0;
      const bool fits = spec.width == 2 ? to_half(v, half) : !std::isinf(v) || spells_infinity_or_nan(text);
      if (!fits) throw std::invalid_argument("'" + text + "' is out of the range of " + type);
      return spec.width == 2 ? half : bits;
    }
  }
  throw std::invalid_argument("spec constant of unknown type");
}

std::string format_spec_value(const SpecConstant& spec, uint64_t bits) {
  char s[64];
  switch (spec.type) {
    case ScalarType::Bool:
      return bits ? "true" : "false";
    case ScalarType::Int: {
      const int shift = 64 - 8 * static_cast<int>(spec.width);
      return std::to_string(static_cast<int64_t>(bits << shift) >> shift);
    }
    case ScalarType::UInt:
      return std::to_string(bits);
    case ScalarType::Float: {
      double v;
      if (spec.width == 2) {
        v = from_half(static_cast<uint16_t>(bits));
      } else if (spec.width == 4) {
        float f;
        const uint32_t b = static_cast<uint32_t>(bits);
        std::memcpy(&f, &b, 4);
        v = f;
      } else {
        std::memcpy(&v, &bits, 8);
      }
      std::snprintf(s, sizeof s, "%.*g", spec.width == 8 ? 17 : 9, v);
      return s;
    }
  }
  return "?";
}

}  // namespace porta::translator
