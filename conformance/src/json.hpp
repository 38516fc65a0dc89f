// porta-conformance's JSON (nlohmann-json, keys kept in the order written):
// the reports, and the lines its child processes write, one object per case.
// Numbers JSON cannot spell (NaN, infinities) travel as the strings "NaN",
// "Infinity" and "-Infinity".
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

namespace porta::conformance {

using Json = nlohmann::ordered_json;

inline Json json_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return v;
}

// The number at `key` (as json_number writes it); 0 when it is missing.
inline double number_at(const Json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end()) return 0;
  if (it->is_number()) return it->get<double>();
  if (it->is_string()) {
    const std::string& s = it->get_ref<const std::string&>();
    if (s == "NaN") return NAN;
    if (s == "Infinity") return INFINITY;
    if (s == "-Infinity") return -INFINITY;
  }
  return 0;
}

// The string at `key`; `fallback` when it is missing or not a string.
inline std::string text_at(const Json& j, const char* key, const std::string& fallback = "") {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

}  // namespace porta::conformance
