// printf-style formatting into a std::string of exactly the formatted length,
// for every part of porta that builds messages (libporta, the plugins, the
// ops): one implementation, so no caller truncates or sizes a buffer itself.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <string>

namespace porta::common {

// `fmt` with `args`; `args` is consumed, as by vsnprintf. Measures first, then
// writes into a string of that size.
inline std::string vformat(const char* fmt, va_list args) {
  va_list copy;
  va_copy(copy, args);
  const int n = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  std::string out(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(out.data(), out.size() + 1, fmt, args);
  return out;
}

[[gnu::format(printf, 1, 2)]] inline std::string format(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string s = vformat(fmt, args);
  va_end(args);
  return s;
}

}  // namespace porta::common
