// Internal reflection helpers shared by reflect.cpp and the targets.
#pragma once

#include <spirv_cross.hpp>
#include <string>

namespace porta::translator {

// GLSL spelling of a type: "float", "uvec4", "float[4]", "Particle".
std::string glsl_type_name(const spirv_cross::Compiler& compiler, const spirv_cross::SPIRType& type);

}  // namespace porta::translator
