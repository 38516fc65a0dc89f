#version 450
// float64 to bfloat16, rounded once (convert_bf16.comp's float32 and int32
// conversions need no float64). Written with float16_t, which the build
// declares as SPV_KHR_bfloat16's bfloat16 (kernels/matmul/bfloat16_variant.py).
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { double x[]; };
layout(set = 0, binding = 1) writeonly buffer B { float16_t b[]; };
layout(push_constant) uniform Params { uint n; } p;

void main() {
  const uint g = gl_GlobalInvocationID.x;
  if (g < p.n) b[g] = float16_t(x[g]);
}
