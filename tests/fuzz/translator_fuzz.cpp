// Fuzz entry point for the kernel front end and translator (translator/):
// the input is a SPIR-V module (PORTA_FUZZ_INPUT 0) or GLSL compute source
// (1), taken through what libporta's kernel creation does with it
// (api/src/kernel_builder.cpp): compile, prepare (validate, lower, optimise),
// reflect, resolve the work-group size, and translate for every target.
// A refusal is porta::translator::Error; any other exception, crash or
// sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "porta_translator/translator.hpp"

namespace tr = porta::translator;

namespace {

void translate_for_every_target(const std::vector<uint32_t>& prepared, const tr::KernelSignature& sig) {
  for (const tr::TargetInfo& target : tr::targets()) {
    for (uint32_t subgroup_size : {0u, 1u}) {
      try {
        const tr::Translation t = tr::translate(prepared, {target.target, {}, subgroup_size});
        if (t.source.empty() || t.entry_point.empty()) __builtin_trap();  // a translation with nothing in it
      } catch (const tr::Error&) {
      }
    }
  }
  uint32_t size[3];
  tr::resolve_local_size(sig, {}, size);
  (void)tr::describe(sig);
}

void exercise(const std::vector<uint32_t>& words) {
  (void)tr::entry_points(words);
  const std::vector<uint32_t> prepared = tr::prepare(words);
  const tr::KernelSignature sig = tr::reflect(prepared);
  if (words != prepared) (void)tr::reflect(words);
  try {
    (void)tr::reflect_layout(prepared);
  } catch (const tr::Error&) {
  }
  translate_for_every_target(prepared, sig);
  try {
    (void)tr::prepare(words, {true, tr::Target::OpenCL});  // the readable form, no optimiser
  } catch (const tr::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1u << 16)) return 0;  // larger inputs only slow the search
  try {
#if PORTA_FUZZ_INPUT == 0
    exercise(tr::spirv_from_bytes(data, size));
#else
    exercise(tr::compile_glsl(std::string(reinterpret_cast<const char*>(data), size), "fuzz"));
#endif
  } catch (const tr::Error&) {
  }
  return 0;
}
