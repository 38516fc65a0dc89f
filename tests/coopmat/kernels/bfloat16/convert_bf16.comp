#version 450
// bfloat16 scalars and vectors without matrices: float32 and int32 to
// bfloat16 and back, and a dot product of two bfloat16 vectors. Written with
// float16_t, which the build declares as SPV_KHR_bfloat16's bfloat16
// (kernels/matmul/bfloat16_variant.py).
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) readonly buffer I { int i[]; };
layout(set = 0, binding = 2) writeonly buffer B { float16_t b[]; };  // bfloat16(x)
layout(set = 0, binding = 3) writeonly buffer Y { float y[]; };      // float(bfloat16(x))
layout(set = 0, binding = 4) writeonly buffer J { float16_t j[]; };  // bfloat16(i)
layout(set = 0, binding = 5) writeonly buffer D { float d[]; };      // float(dot(v, w)), int(bfloat16(x))
layout(push_constant) uniform Params { uint n; } p;

void main() {
  const uint g = gl_GlobalInvocationID.x;
  if (g >= p.n) return;
  const uint next = (g + 1) % p.n;
  const float16_t h = float16_t(x[g]);
  b[g] = h;
  y[g] = float(h);
  j[g] = float16_t(i[g]);
  const f16vec2 v = f16vec2(vec2(x[g], x[next]));
  const f16vec2 w = f16vec2(ivec2(i[g], 3));
  d[2 * g] = float(dot(v, w));
  d[2 * g + 1] = float(int(h));
}
