#include "number.hpp"

#include <charconv>
#include <cmath>
#include <limits>

namespace porta::data {

std::string parse_float(std::string_view field, float& out) {
  std::string_view digits = field;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  if (digits.empty() || (field.front() == '+' && (digits.front() == '+' || digits.front() == '-')))
    return "is not a number";
  double v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec == std::errc::result_out_of_range) return "is outside float32's range";
  if (ec != std::errc() || end != digits.data() + digits.size()) return "is not a number";
  if (!std::isfinite(v)) return "is not finite";
  if (std::fabs(v) > std::numeric_limits<float>::max()) return "is outside float32's range";
  out = static_cast<float>(v);
  return "";
}

std::string quoted(std::string_view field) {
  std::string s(1, '\'');
  s.append(field.substr(0, 40));
  if (field.size() > 40) s.append("...");
  s.push_back('\'');
  return s;
}

}  // namespace porta::data
