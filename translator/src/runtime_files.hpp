// The translator's runtime files (translator/runtime/) whose text it copies
// into translations, embedded at build time by translator/embed_files.cmake.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace porta::translator::detail {

struct EmbeddedFile {
  const char* name;  // the file name, "porta_opencl.cl"
  const char* data;
  size_t size;
};
extern const EmbeddedFile kRuntimeFiles[];
extern const size_t kRuntimeFileCount;

// {KEY} → value, for the placeholders of a section.
using Substitutions = std::vector<std::pair<std::string, std::string>>;

// Section `section` of runtime file `file`: the lines after its
// "//@section NAME" line up to the next such line, without trailing blank
// lines, each {KEY} of `substitutions` replaced. Throws Error(Internal) when
// the file or section does not exist or a placeholder is left.
std::vector<std::string> runtime_section(std::string_view file, std::string_view section,
                                         const Substitutions& substitutions = {});

}  // namespace porta::translator::detail
