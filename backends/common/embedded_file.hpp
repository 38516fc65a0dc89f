// A file carried inside a plugin (translator/embed_files.cmake writes the
// tables of them): the translator's runtime headers that generated code
// includes, so that a run-time compile needs no source tree.
#pragma once

#include <cstddef>

namespace porta::plugin {

struct EmbeddedFile {
  const char* name;
  const char* data;  // NUL-terminated
  size_t size;       // without the NUL
};

}  // namespace porta::plugin
