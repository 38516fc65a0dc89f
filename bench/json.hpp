// A small JSON writer for porta-bench's --json output: objects, arrays,
// strings, numbers and booleans, with commas placed as values are added.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace porta::bench {

class Json {
 public:
  Json& begin_object() { return open('{'); }
  Json& end_object() { return close('}'); }
  Json& begin_array() { return open('['); }
  Json& end_array() { return close(']'); }
  Json& key(const std::string& k) {
    separate();
    quote(k);
    out_ += ": ";
    after_key_ = true;
    return *this;
  }
  Json& value(const std::string& s) {
    separate();
    quote(s);
    return *this;
  }
  Json& value(const char* s) { return value(std::string(s)); }
  Json& value(bool b) {
    separate();
    out_ += b ? "true" : "false";
    return *this;
  }
  Json& value(double v) {
    separate();
    if (!std::isfinite(v)) {
      out_ += "null";
    } else {
      // Whole numbers (sizes, counts) exactly, the rest to 6 significant digits.
      char text[32];
      if (v == std::floor(v) && std::fabs(v) < 1e15)
        std::snprintf(text, sizeof text, "%.0f", v);
      else
        std::snprintf(text, sizeof text, "%.6g", v);
      out_ += text;
    }
    return *this;
  }
  const std::string& text() const { return out_; }

 private:
  Json& open(char c) {
    separate();
    out_ += c;
    first_.push_back(true);
    return *this;
  }
  Json& close(char c) {
    first_.pop_back();
    out_ += c;
    return *this;
  }
  // A comma before every element but the first of its container; none after a key.
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (first_.empty()) return;
    if (!first_.back()) out_ += ", ";
    first_.back() = false;
  }
  void quote(const std::string& s) {
    out_ += '"';
    for (unsigned char c : s) {
      if (c == '"' || c == '\\') {
        out_ += '\\';
        out_ += static_cast<char>(c);
      } else if (c < 0x20) {
        char esc[8];
        std::snprintf(esc, sizeof esc, "\\u%04x", c);
        out_ += esc;
      } else {
        out_ += static_cast<char>(c);
      }
    }
    out_ += '"';
  }

  std::string out_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

}  // namespace porta::bench
