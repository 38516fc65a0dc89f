#include "json.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace porta::conformance {

Json& Json::operator[](const std::string& key) {
  if (type_ == Type::Null) type_ = Type::Object;
  auto it = object_.find(key);
  if (it != object_.end()) return ordered_[it->second].second;
  object_[key] = ordered_.size();
  ordered_.emplace_back(key, Json());
  return ordered_.back().second;
}

const Json& Json::at(const std::string& key) const {
  static const Json null;
  if (type_ != Type::Object) return null;
  auto it = object_.find(key);
  return it == object_.end() ? null : ordered_[it->second].second;
}

std::string json_quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string Json::dump() const {
  switch (type_) {
    case Type::Null: return "null";
    case Type::Bool: return bool_ ? "true" : "false";
    case Type::Number: {
      if (std::isnan(number_)) return "\"NaN\"";
      if (std::isinf(number_)) return number_ > 0 ? "\"Infinity\"" : "\"-Infinity\"";
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", number_);
      return buf;
    }
    case Type::String: return json_quote(string_);
    case Type::Array: {
      std::string out = "[";
      for (size_t i = 0; i < array_.size(); ++i) {
        if (i) out += ',';
        out += array_[i].dump();
      }
      return out + "]";
    }
    case Type::Object: {
      std::string out = "{";
      for (size_t i = 0; i < ordered_.size(); ++i) {
        if (i) out += ',';
        out += json_quote(ordered_[i].first);
        out += ':';
        out += ordered_[i].second.dump();
      }
      return out + "}";
    }
  }
  return "null";
}

namespace {

struct Parser {
  const std::string& text;
  size_t pos = 0;

  [[noreturn]] void fail(const char* what) const {
    throw std::runtime_error(std::string("bad JSON at offset ") + std::to_string(pos) + ": " + what);
  }
  void skip_space() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\n' || text[pos] == '\r' || text[pos] == '\t'))
      ++pos;
  }
  bool consume(const char* word) {
    size_t n = std::char_traits<char>::length(word);
    if (text.compare(pos, n, word) != 0) return false;
    pos += n;
    return true;
  }
  std::string string() {
    if (text[pos] != '"') fail("expected a string");
    ++pos;
    std::string out;
    while (pos < text.size() && text[pos] != '"') {
      char c = text[pos++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos >= text.size()) fail("unterminated escape");
      char e = text[pos++];
      switch (e) {
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          if (pos + 4 > text.size()) fail("short \\u escape");
          unsigned code = static_cast<unsigned>(std::strtoul(text.substr(pos, 4).c_str(), nullptr, 16));
          pos += 4;
          // Only what json_quote writes (control characters) and the BMP as UTF-8.
          if (code < 0x80) {
            out += static_cast<char>(code);
          } else if (code < 0x800) {
            out += static_cast<char>(0xc0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3f));
          } else {
            out += static_cast<char>(0xe0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
            out += static_cast<char>(0x80 | (code & 0x3f));
          }
          break;
        }
        default: out += e;
      }
    }
    if (pos >= text.size()) fail("unterminated string");
    ++pos;
    return out;
  }
  Json value() {
    skip_space();
    if (pos >= text.size()) fail("unexpected end");
    char c = text[pos];
    if (c == '{') {
      ++pos;
      Json obj = Json::object();
      skip_space();
      if (pos < text.size() && text[pos] == '}') {
        ++pos;
        return obj;
      }
      for (;;) {
        skip_space();
        std::string key = string();
        skip_space();
        if (pos >= text.size() || text[pos] != ':') fail("expected ':'");
        ++pos;
        obj[key] = value();
        skip_space();
        if (pos < text.size() && text[pos] == ',') {
          ++pos;
          continue;
        }
        if (pos < text.size() && text[pos] == '}') {
          ++pos;
          return obj;
        }
        fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      ++pos;
      Json arr = Json::array();
      skip_space();
      if (pos < text.size() && text[pos] == ']') {
        ++pos;
        return arr;
      }
      for (;;) {
        arr.push_back(value());
        skip_space();
        if (pos < text.size() && text[pos] == ',') {
          ++pos;
          continue;
        }
        if (pos < text.size() && text[pos] == ']') {
          ++pos;
          return arr;
        }
        fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      std::string s = string();
      // Numbers JSON cannot spell are written as these strings by dump().
      if (s == "NaN") return Json(NAN);
      if (s == "Infinity") return Json(INFINITY);
      if (s == "-Infinity") return Json(-INFINITY);
      return Json(s);
    }
    if (consume("true")) return Json(true);
    if (consume("false")) return Json(false);
    if (consume("null")) return Json();
    const char* begin = text.c_str() + pos;
    char* end = nullptr;
    double n = std::strtod(begin, &end);
    if (end == begin) fail("unexpected character");
    pos += static_cast<size_t>(end - begin);
    return Json(n);
  }
};

}  // namespace

Json Json::parse(const std::string& text) {
  Parser p{text};
  Json v = p.value();
  p.skip_space();
  if (p.pos != text.size()) p.fail("trailing characters");
  return v;
}

}  // namespace porta::conformance
