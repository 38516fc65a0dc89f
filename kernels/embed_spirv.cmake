# Writes OUTPUT, a C++ file holding each SPIR-V module of INPUTS (a list of
# .spv files) as a uint32_t array, and the table porta::ops::kEmbeddedSpirv
# (common/embedded_spirv.hpp) naming them by file name. Run with cmake -P.
set(arrays "")
set(rows "")
set(count 0)
foreach(spv ${INPUTS})
  get_filename_component(name ${spv} NAME_WE)
  string(MAKE_C_IDENTIFIER ${name} id)
  file(READ ${spv} hex HEX)
  string(LENGTH "${hex}" length)
  math(EXPR rem "${length} % 8")
  if(length EQUAL 0 OR NOT rem EQUAL 0)
    message(FATAL_ERROR "${spv}: not a SPIR-V module (${length} hex digits)")
  endif()
  # SPIR-V words are little-endian in the file: bytes b0 b1 b2 b3 -> 0xb3b2b1b0.
  string(REGEX REPLACE "([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])"
         "0x\\4\\3\\2\\1u," words "${hex}")
  string(REGEX REPLACE "((0x[0-9a-f]+u,){8})" "\\1\n    " words "${words}")
  string(APPEND arrays "const uint32_t k_${id}[] = {\n    ${words}};\n")
  string(APPEND rows "    {\"${name}\", k_${id}, sizeof k_${id} / sizeof k_${id}[0]},\n")
  math(EXPR count "${count} + 1")
endforeach()
file(WRITE ${OUTPUT}.tmp
"// Generated from kernels/*/*.comp by kernels/embed_spirv.cmake; do not edit.
#include \"common/embedded_spirv.hpp\"

namespace porta::ops {
namespace {
${arrays}}  // namespace

const EmbeddedSpirv kEmbeddedSpirv[] = {
${rows}};
const size_t kEmbeddedSpirvCount = ${count};

}  // namespace porta::ops
")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
