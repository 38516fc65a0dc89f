// A small JSON value: enough to write porta-conformance's reports and to read
// back the results its child processes write (one JSON object per line).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace porta::conformance {

class Json {
 public:
  enum class Type { Null, Bool, Number, String, Array, Object };

  Json() = default;
  Json(bool b) : type_(Type::Bool), bool_(b) {}
  Json(double n) : type_(Type::Number), number_(n) {}
  Json(int n) : Json(static_cast<double>(n)) {}
  Json(uint64_t n) : Json(static_cast<double>(n)) {}
  Json(const char* s) : type_(Type::String), string_(s) {}
  Json(std::string s) : type_(Type::String), string_(std::move(s)) {}
  static Json array() {
    Json j;
    j.type_ = Type::Array;
    return j;
  }
  static Json object() {
    Json j;
    j.type_ = Type::Object;
    return j;
  }

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::Null; }

  // Object access; a missing key reads as null.
  Json& operator[](const std::string& key);
  const Json& at(const std::string& key) const;
  bool has(const std::string& key) const { return type_ == Type::Object && object_.count(key) > 0; }
  const std::vector<std::pair<std::string, Json>>& items() const { return ordered_; }

  void push_back(Json value) { array_.push_back(std::move(value)); }
  const std::vector<Json>& elements() const { return array_; }

  std::string str(const std::string& fallback = "") const { return type_ == Type::String ? string_ : fallback; }
  double num(double fallback = 0) const { return type_ == Type::Number ? number_ : fallback; }
  bool boolean(bool fallback = false) const { return type_ == Type::Bool ? bool_ : fallback; }

  // Compact text on one line (NaN and infinities are written as strings).
  std::string dump() const;
  // Parses one JSON value; throws std::runtime_error with the position on bad text.
  static Json parse(const std::string& text);

 private:
  Type type_ = Type::Null;
  bool bool_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<Json> array_;
  std::map<std::string, size_t> object_;            // key → index in ordered_
  std::vector<std::pair<std::string, Json>> ordered_;  // keys in insertion order
};

// `s` quoted and escaped as a JSON string.
std::string json_quote(const std::string& s);

}  // namespace porta::conformance
