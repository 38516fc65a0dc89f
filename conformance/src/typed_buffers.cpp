#include "typed_buffers.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>

namespace porta::conformance {
namespace {

using porta::translator::BlockLayout;
using porta::translator::LayoutField;
using porta::translator::ScalarType;

uint64_t load(const Bytes& b, uint64_t at, uint32_t width) {
  uint64_t v = 0;
  std::memcpy(&v, &b[at], width);  // little-endian hosts and devices
  return v;
}

void store(Bytes& b, uint64_t at, uint32_t width, uint64_t v) { std::memcpy(&b[at], &v, width); }

// IEEE half from a float that is exactly representable as a normal half.
uint16_t half_bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  if ((x & 0x7fffffffu) == 0) return static_cast<uint16_t>(sign);
  const int exponent = static_cast<int>((x >> 23) & 0xff) - 127 + 15;
  return static_cast<uint16_t>(sign | (uint32_t(exponent) << 10) | ((x >> 13) & 0x3ffu));
}

double half_value(uint16_t h) {
  const int exponent = (h >> 10) & 0x1f;
  const double mantissa = h & 0x3ff;
  double v;
  if (exponent == 0)
    v = std::ldexp(mantissa, -24);
  else if (exponent == 31)
    v = mantissa ? NAN : INFINITY;
  else
    v = std::ldexp(1024 + mantissa, exponent - 25);
  return (h & 0x8000) ? -v : v;
}

// A float of `width` bytes as a double, and whether it is NaN.
double float_value(uint64_t bits, uint32_t width) {
  if (width == 2) return half_value(static_cast<uint16_t>(bits));
  if (width == 4) {
    float f;
    const uint32_t b = static_cast<uint32_t>(bits);
    std::memcpy(&f, &b, 4);
    return f;
  }
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

// Position of a float's bits on the line of all floats of its width, so that
// neighbours differ by one (and +0, -0 are one apart).
int64_t ordered(uint64_t bits, uint32_t width) {
  const uint64_t sign = uint64_t(1) << (8 * width - 1);
  const int64_t magnitude = static_cast<int64_t>(bits & (sign - 1));
  return (bits & sign) ? -magnitude - 1 : magnitude;
}

// ulp of 32.0 in a float of `width` bytes: the absolute floor's unit.
double ulp_of_32(uint32_t width) {
  const int mantissa = width == 2 ? 10 : width == 4 ? 23 : 52;
  return std::ldexp(1.0, 5 - mantissa);
}

const char* type_name(ScalarType type, uint32_t width) {
  switch (type) {
    case ScalarType::Bool:
      return "bool";
    case ScalarType::Float:
      return width == 2 ? "float16" : width == 4 ? "float" : "double";
    case ScalarType::Int:
      return width == 1 ? "int8" : width == 2 ? "int16" : width == 4 ? "int" : "int64";
    case ScalarType::UInt:
      return width == 1 ? "uint8" : width == 2 ? "uint16" : width == 4 ? "uint" : "uint64";
  }
  return "?";
}

std::string value_text(uint64_t bits, ScalarType type, uint32_t width) {
  char s[64];
  switch (type) {
    case ScalarType::Float:
      std::snprintf(s, sizeof s, "%.*g", width == 8 ? 17 : 9, float_value(bits, width));
      break;
    case ScalarType::Int: {
      const int shift = 64 - 8 * static_cast<int>(width);
      std::snprintf(s, sizeof s, "%lld",
                    static_cast<long long>(static_cast<int64_t>(bits << shift) >> shift));
      break;
    }
    default:
      std::snprintf(s, sizeof s, "%llu", static_cast<unsigned long long>(bits));
  }
  return s;
}

// Every field of the buffer with its absolute offset and full path: the fixed
// part, then each runtime-array element that fits in `bytes`.
void for_each_field(
    const BlockLayout& layout, uint64_t bytes,
    const std::function<void(const LayoutField&, uint64_t, const std::string*, uint64_t)>& visit) {
  for (const LayoutField& f : layout.fields)
    if (f.offset + f.width <= bytes) visit(f, f.offset, nullptr, 0);
  if (!layout.has_runtime_array || layout.runtime_stride == 0 || bytes < layout.runtime_offset) return;
  const uint64_t count = (bytes - layout.runtime_offset) / layout.runtime_stride;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t base = layout.runtime_offset + i * layout.runtime_stride;
    for (const LayoutField& f : layout.element)
      if (base + f.offset + f.width <= bytes) visit(f, base + f.offset, &layout.runtime_name, i);
  }
}

// Whether a float `got` (of `width` bytes) is within the tolerance of `want`.
bool floats_agree(uint64_t got, uint64_t want, uint32_t width, const UlpTolerance& tolerance, double& ulps) {
  const double gv = float_value(got, width), wv = float_value(want, width);
  ulps = 0;
  if (std::isnan(gv) || std::isnan(wv)) return ulps = INFINITY, std::isnan(gv) && std::isnan(wv);
  ulps = std::fabs(static_cast<double>(ordered(got, width) - ordered(want, width)));
  return ulps <= tolerance.ulp || std::fabs(gv - wv) <= tolerance.ulp * ulp_of_32(width);
}

}  // namespace

Expectation parse_expectation(const std::string& text) {
  const size_t eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw std::invalid_argument("--expect '" + text + "' is not NAME=VALUE");
  Expectation e{text, text.substr(0, eq), text.substr(eq + 1), 0};
  const std::string& value = e.value_text;
  char* end = nullptr;
  e.value = value == "true" ? 1 : value == "false" ? 0 : std::strtod(value.c_str(), &end);
  if (end && *end) throw std::invalid_argument("--expect '" + text + "': '" + value + "' is not a number");
  return e;
}

Difference check_expected(const BlockLayout& layout, const Bytes& got, const Expectation& expected,
                          const UlpTolerance& tolerance, const std::string& where, size_t max_lines) {
  Difference d;
  const std::string& name = expected.name;
  for_each_field(
      layout, got.size(), [&](const LayoutField& f, uint64_t at, const std::string* array, uint64_t i) {
        const std::string path = array ? *array + "[" + std::to_string(i) + "]" + f.path : f.path;
        if (path.compare(0, name.size(), name) != 0 ||
            (path.size() > name.size() && path[name.size()] != '[' && path[name.size()] != '.'))
          return;
        ++d.checked;
        const uint64_t g = load(got, at, f.width);
        double ulps = 0;
        bool holds = false;
        switch (f.type) {
          case ScalarType::Bool:
            holds = (g != 0) == (expected.value != 0);
            break;
          case ScalarType::Int: {
            const int shift = 64 - 8 * static_cast<int>(f.width);
            const int64_t v = static_cast<int64_t>(g << shift) >> shift;
            char* end = nullptr;
            errno = 0;
            const long long want = std::strtoll(expected.value_text.c_str(), &end, 0);
            holds = *end || errno ? static_cast<double>(v) == expected.value : v == want;
            break;
          }
          case ScalarType::UInt: {
            char* end = nullptr;
            errno = 0;
            const unsigned long long want = std::strtoull(expected.value_text.c_str(), &end, 0);
            holds = *end || errno || expected.value_text[0] == '-' ? static_cast<double>(g) == expected.value
                                                                   : g == want;
            break;
          }
          case ScalarType::Float: {
            uint64_t want = 0;
            if (f.width == 2) {
              want = half_bits(static_cast<float>(expected.value));
            } else if (f.width == 4) {
              const float v = static_cast<float>(expected.value);
              std::memcpy(&want, &v, 4);
            } else {
              std::memcpy(&want, &expected.value, 8);
            }
            holds = floats_agree(g, want, f.width, tolerance, ulps);
            break;
          }
        }
        if (holds) return;
        ++d.count;
        if (d.lines.size() < max_lines)
          d.lines.push_back(where + " byte " + std::to_string(at) + " " + path + " (" +
                            type_name(f.type, f.width) + "): " + value_text(g, f.type, f.width) +
                            ", expected " + expected.text);
      });
  return d;
}

std::string buffer_label(const BlockLayout& layout, size_t parameter) {
  std::string s = "buffer " + std::to_string(parameter) + " (set " + std::to_string(layout.set) +
                  ", binding " + std::to_string(layout.binding);
  if (layout.array_index) s += ", element " + std::to_string(layout.array_index);
  if (!layout.name.empty()) s += ", '" + layout.name + "'";
  return s + (layout.uniform ? ", uniform)" : ")");
}

Bytes fill_block(const BlockLayout& layout, uint64_t elements, std::mt19937_64& rng) {
  Bytes out(std::max<uint64_t>(layout.size_for(elements), 4), 0);
  for_each_field(layout, out.size(), [&](const LayoutField& f, uint64_t at, const std::string*, uint64_t) {
    const uint64_t r = rng();
    switch (f.type) {
      case ScalarType::Bool:
        store(out, at, f.width, r & 1);
        break;
      case ScalarType::Int:
      case ScalarType::UInt:
        store(out, at, f.width, r % 64);
        break;
      case ScalarType::Float: {
        // k / 256 for k in [-512, 512]: exact in every float width, at most
        // 10 significant bits, so products and short sums stay exact too.
        const float v = static_cast<float>(static_cast<int64_t>(r % 1025) - 512) / 256.0f;
        if (f.width == 2) {
          store(out, at, 2, half_bits(v));
        } else if (f.width == 4) {
          uint32_t b;
          std::memcpy(&b, &v, 4);
          store(out, at, 4, b);
        } else {
          const double d = v;
          uint64_t b;
          std::memcpy(&b, &d, 8);
          store(out, at, 8, b);
        }
        break;
      }
    }
  });
  return out;
}

Difference compare_block(const BlockLayout& layout, const Bytes& got, const Bytes& want,
                         const UlpTolerance& tolerance, const std::string& where,
                         const std::string& reference, size_t max_lines) {
  Difference d;
  if (got == want) return d;
  if (got.size() != want.size()) {
    d.count = 1;
    d.lines.push_back(where + ": " + std::to_string(got.size()) + " bytes, " + std::to_string(want.size()) +
                      " on " + reference);
    return d;
  }
  std::vector<bool> typed(got.size(), false);
  auto report = [&](const std::string& line) {
    ++d.count;
    if (d.lines.size() < max_lines) d.lines.push_back(line);
  };
  for_each_field(layout, got.size(),
                 [&](const LayoutField& f, uint64_t at, const std::string* array, uint64_t i) {
                   for (uint32_t k = 0; k < f.width; ++k) typed[at + k] = true;
                   const uint64_t g = load(got, at, f.width), w = load(want, at, f.width);
                   if (g == w) return;
                   double ulps = 0;
                   if (f.type == ScalarType::Float) {
                     const bool agree = floats_agree(g, w, f.width, tolerance, ulps);  // any NaN is a NaN
                     if (std::isfinite(ulps)) d.worst_ulp = std::max(d.worst_ulp, ulps);
                     if (agree) return;
                     d.worst_ulp = std::max(d.worst_ulp, ulps);
                   } else if (f.type == ScalarType::Bool && (g != 0) == (w != 0)) {
                     return;  // true is any non-zero word
                   }
                   const std::string path = array ? *array + "[" + std::to_string(i) + "]" + f.path : f.path;
                   std::string line = where + " byte " + std::to_string(at) + " " + path + " (" +
                                      type_name(f.type, f.width) + "): " + value_text(g, f.type, f.width) +
                                      ", " + reference + " " + value_text(w, f.type, f.width);
                   if (f.type == ScalarType::Float) {
                     char t[64];
                     std::snprintf(t, sizeof t, " (%.3g ulp > %g)", ulps, tolerance.ulp);
                     line += t;
                   }
                   report(line);
                 });
  // Padding, and bytes past the last whole element: bit for bit.
  for (uint64_t at = 0; at < got.size(); ++at) {
    if (typed[at] || got[at] == want[at]) continue;
    char t[96];
    std::snprintf(t, sizeof t, " byte %llu (padding): 0x%02x, %s 0x%02x", static_cast<unsigned long long>(at),
                  got[at], reference.c_str(), want[at]);
    report(where + t);
  }
  return d;
}

}  // namespace porta::conformance
