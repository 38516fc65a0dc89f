#include "kernel_io.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

namespace porta::conformance {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

template <class T>
void append_value(std::vector<uint8_t>& out, T v) {
  uint8_t b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  out.insert(out.end(), b, b + sizeof(T));
}

}  // namespace

std::string error_text(const porta::Error& e) {
  const std::string name = porta_status_name(e.status());
  const std::string what = e.what();
  return what.rfind(name, 0) == 0 ? what : name + ": " + what;
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read '" + path + "': " + std::strerror(errno));
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
  try {
    porta::cli::write_output(path, std::string(bytes.begin(), bytes.end()));
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

porta::KernelSource load_kernel(const std::string& path) {
  std::vector<uint8_t> bytes = read_file(path);
  const std::string name = path.substr(path.find_last_of('/') + 1);
  const bool spv_name = path.size() > 4 && path.compare(path.size() - 4, 4, ".spv") == 0;
  const bool magic =
      bytes.size() >= 4 && bytes[0] == 0x03 && bytes[1] == 0x02 && bytes[2] == 0x23 && bytes[3] == 0x07;
  if (spv_name || magic) {
    if (bytes.size() % 4 != 0 || bytes.size() < 20)
      throw UsageError("'" + path + "' is not SPIR-V: " + std::to_string(bytes.size()) +
                       " bytes is not a whole number of 4-byte words with a 5-word header");
    if (!magic)
      throw UsageError("'" + path + "' is not SPIR-V: it does not start with the magic number 0x07230203");
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), bytes.size());
    return porta::spirv(std::move(words), name);
  }
  if (bytes.empty()) throw UsageError("'" + path + "' is empty; expected GLSL compute source or SPIR-V");
  return porta::glsl(std::string(bytes.begin(), bytes.end()), name);
}

uint64_t parse_size(const std::string& text, const std::string& what) {
  if (text.empty() || text[0] < '0' || text[0] > '9')
    throw UsageError(what + " '" + text + "' is not a number");
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(text.c_str(), &end, 0);
  if (errno) throw UsageError(what + " '" + text + "' is out of range");
  std::string suffix(end);
  uint64_t scale = 1;
  if (suffix == "k" || suffix == "K")
    scale = 1ull << 10;
  else if (suffix == "M")
    scale = 1ull << 20;
  else if (suffix == "G")
    scale = 1ull << 30;
  else if (!suffix.empty())
    throw UsageError(what + " '" + text + "' has an unknown suffix '" + suffix + "' (use k, M or G)");
  return v * scale;
}

BufferSpec parse_buffer(const std::string& text) {
  BufferSpec b;
  b.text = text;
  const std::vector<std::string> parts = split(text, ':');
  const std::string help =
      " (expected BYTES, zeros:BYTES, random:SEED:BYTES, pattern:HEX32:BYTES or file:PATH)";
  if (parts[0] == "file") {
    if (parts.size() < 2 || text.size() <= 5) throw UsageError("buffer '" + text + "' names no file" + help);
    b.kind = BufferSpec::Kind::kFile;
    b.path = text.substr(5);
    b.bytes = read_file(b.path).size();
    if (b.bytes == 0)
      throw UsageError("buffer file '" + b.path + "' is empty; a buffer needs at least 1 byte");
    return b;
  }
  if (parts.size() == 1) {
    b.bytes = parse_size(parts[0], "buffer size");
  } else if (parts[0] == "zeros" && parts.size() == 2) {
    b.kind = BufferSpec::Kind::kZeros;
    b.bytes = parse_size(parts[1], "buffer size");
  } else if (parts[0] == "random" && parts.size() == 3) {
    b.kind = BufferSpec::Kind::kRandom;
    b.seed = parse_size(parts[1], "random seed");
    b.bytes = parse_size(parts[2], "buffer size");
  } else if (parts[0] == "pattern" && parts.size() == 3) {
    b.kind = BufferSpec::Kind::kPattern;
    // strtoul alone would read "zz" as 0 and cut a longer number silently.
    std::string digits = parts[1];
    if (starts_with(digits, "0x") || starts_with(digits, "0X")) digits = digits.substr(2);
    if (digits.empty() || digits.size() > 8 ||
        digits.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
      throw UsageError("buffer '" + text + "': the pattern '" + parts[1] +
                       "' is not a 32-bit hex number (1 to 8 hex digits)");
    b.pattern = static_cast<uint32_t>(std::strtoul(digits.c_str(), nullptr, 16));
    b.bytes = parse_size(parts[2], "buffer size");
  } else {
    throw UsageError("buffer '" + text + "' is not understood" + help);
  }
  if (b.bytes == 0) throw UsageError("buffer '" + text + "' has 0 bytes; a buffer needs at least 1 byte");
  return b;
}

std::vector<uint8_t> BufferSpec::contents() const {
  std::vector<uint8_t> out(bytes);
  auto repeat = [&](uint32_t word) {
    for (uint64_t i = 0; i < bytes; ++i) out[i] = static_cast<uint8_t>(word >> (8 * (i % 4)));
  };
  switch (kind) {
    case Kind::kMarker:
      repeat(0x7f80deadu);
      break;
    case Kind::kZeros:
      break;
    case Kind::kPattern:
      repeat(pattern);
      break;
    case Kind::kRandom: {
      std::mt19937_64 rng(seed);
      for (uint64_t i = 0; i < bytes; i += 8) {
        uint64_t v = rng();
        for (uint64_t j = 0; j < 8 && i + j < bytes; ++j) out[i + j] = static_cast<uint8_t>(v >> (8 * j));
      }
      break;
    }
    case Kind::kFile:
      out = read_file(path);
      break;
  }
  return out;
}

void append_push(const std::string& text, std::vector<uint8_t>& push) {
  std::string body = text;
  std::string type = "f32";
  if (starts_with(text, "0x") || starts_with(text, "0X")) {
    type = "hex";
    body = text.substr(2);
  } else if (size_t colon = text.find(':'); colon != std::string::npos) {
    type = text.substr(0, colon);
    body = text.substr(colon + 1);
  }
  if (body.empty()) throw UsageError("push constants '" + text + "' hold no values");
  if (type == "hex") {
    if (body.size() % 2)
      throw UsageError("push constants '" + text + "': an odd number of hex digits (two per byte)");
    for (size_t i = 0; i < body.size(); i += 2) {
      char* end = nullptr;
      const std::string pair = body.substr(i, 2);
      unsigned long v = std::strtoul(pair.c_str(), &end, 16);
      if (*end) throw UsageError("push constants '" + text + "': '" + pair + "' is not a hex byte");
      push.push_back(static_cast<uint8_t>(v));
    }
    return;
  }
  if (type != "f32" && type != "u32" && type != "i32")
    throw UsageError("push constants '" + text + "': unknown type '" + type + "' (use hex, f32, u32 or i32)");
  for (const std::string& item : split(body, ',')) {
    char* end = nullptr;
    errno = 0;
    if (type == "f32") {
      float v = std::strtof(item.c_str(), &end);
      if (item.empty() || *end)
        throw UsageError("push constants '" + text + "': '" + item + "' is not a number");
      append_value(push, v);
    } else if (type == "u32") {
      unsigned long long v = std::strtoull(item.c_str(), &end, 0);
      if (item.empty() || *end || item[0] == '-' || v > 0xffffffffull || errno)
        throw UsageError("push constants '" + text + "': '" + item + "' is not a 32-bit unsigned integer");
      append_value(push, static_cast<uint32_t>(v));
    } else {
      long long v = std::strtoll(item.c_str(), &end, 0);
      if (item.empty() || *end || v < INT32_MIN || v > INT32_MAX || errno)
        throw UsageError("push constants '" + text + "': '" + item + "' is not a 32-bit signed integer");
      append_value(push, static_cast<int32_t>(v));
    }
  }
}

porta::Groups parse_groups(const std::string& text) {
  const std::vector<std::string> parts = split(text, ',');
  if (parts.size() > 3) throw UsageError("groups '" + text + "': at most three counts X,Y,Z");
  uint32_t g[3] = {1, 1, 1};
  for (size_t i = 0; i < parts.size(); ++i) {
    const uint64_t v = parse_size(parts[i], "group count");
    if (v == 0 || v > 0xffffffffull)
      throw UsageError("groups '" + text + "': each count must be 1 .. 2^32-1");
    g[i] = static_cast<uint32_t>(v);
  }
  return {g[0], g[1], g[2]};
}

}  // namespace porta::conformance
