// What porta-run and porta-conformance --kernel share: reading a kernel (GLSL
// or SPIR-V) from a file, the command-line spelling of buffers, push
// constants and groups, and how a porta::Error is shown. Bad input throws
// UsageError with a message that says what was expected.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "porta/porta.hpp"
#include "porta_cli.hpp"

namespace porta::conformance {

// Bad arguments: exit status 2.
using UsageError = porta::cli::UsageError;

// A .spv file (or any file starting with the SPIR-V magic number) is SPIR-V;
// anything else is GLSL compute source.
porta::KernelSource load_kernel(const std::string& path);

// A buffer's initial contents:
//   BYTES               BYTES bytes of the unwritten-NaN pattern 0x7f80dead
//   zeros:BYTES         zeros
//   random:SEED:BYTES   seeded random bytes
//   pattern:HEX32:BYTES a repeated 32-bit pattern
//   file:PATH           the file's bytes
// BYTES takes the suffixes k, M, G (powers of 1024).
struct BufferSpec {
  std::string text;
  std::vector<uint8_t> contents() const;
  uint64_t bytes = 0;
  enum class Kind { kMarker, kZeros, kRandom, kPattern, kFile } kind = Kind::kMarker;
  uint64_t seed = 0;
  uint32_t pattern = 0;
  std::string path;
};
BufferSpec parse_buffer(const std::string& text);

// Push-constant bytes, appended in order:
//   hex:0011AABB or 0x0011AABB   the bytes as written
//   f32:1.5,2 or u32:7,8 or i32:-1,3   little-endian 4-byte values
//   1.5,2,3                     floats
void append_push(const std::string& text, std::vector<uint8_t>& push);

// "X", "X,Y" or "X,Y,Z" work-groups.
porta::Groups parse_groups(const std::string& text);

// An unsigned integer with optional k/M/G suffix; `what` names it in errors.
uint64_t parse_size(const std::string& text, const std::string& what);

// "STATUS_NAME: cause", the status named once: errors that came through the
// C API already start with it, those porta.hpp makes itself do not.
std::string error_text(const porta::Error& e);

std::vector<uint8_t> read_file(const std::string& path);
void write_file(const std::string& path, const std::vector<uint8_t>& bytes);

}  // namespace porta::conformance
