// Internal reflection helpers shared by reflect.cpp and the targets.
#pragma once

#include <spirv_cross.hpp>
#include <string>
#include <vector>

#include "porta_translator/translator.hpp"

namespace porta::translator {

// How porta's languages name a SPIR-V scalar type: GLSL, GLSL's prefix for
// vectors of it (nullptr where GLSL has none), OpenCL C (nullptr where it has
// none).
struct ScalarSpelling {
  spirv_cross::SPIRType::BaseType base;
  const char* glsl;
  const char* glsl_vector_prefix;
  const char* opencl;
};
// nullptr for a type that is no scalar (a struct, an image, ...).
const ScalarSpelling* scalar_spelling(spirv_cross::SPIRType::BaseType base);

// porta's type class of a scalar base type: Bool; Int and UInt of every width;
// Float for Half, Float and Double (and anything else: check scalar_spelling() first).
ScalarType scalar_type(spirv_cross::SPIRType::BaseType base);

// GLSL spelling of a type: "float", "uvec4", "float[4]", "Particle".
std::string glsl_type_name(const spirv_cross::Compiler& compiler, const spirv_cross::SPIRType& type);

// The module's scalar spec constants (those with a SpecId), by id, with their
// types, widths and defaults. Throws Error(UnsupportedFeature) for one of a
// type that is no number or bool.
std::vector<SpecConstant> spec_constants(const spirv_cross::Compiler& compiler);

}  // namespace porta::translator
