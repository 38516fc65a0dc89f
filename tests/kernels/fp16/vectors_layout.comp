// porta-conformance: --groups 2,1,1 --inputs auto --elements 128 --spec 0=0.333 --tolerance-ulp 0
// porta-requires: fp16 storage-16bit
// what: f16vec2/f16vec3/f16vec4 in std430 structs beside float and float16_t members (offsets 0, 4, 8, 16, 22), swizzles, vector * scalar, dot, min/max/clamp/mix on half vectors, a float16_t spec constant (0.333 rounds to 0.33300781): bit-exact
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(constant_id = 0) const float16_t kScale = float16_t(0.5);

struct Item {
  f16vec2 p;      // offset 0
  float weight;   // offset 4
  f16vec4 q;      // offset 8
  f16vec3 r;      // offset 16
  float16_t t;    // offset 22
};
layout(std430, binding = 0) readonly buffer In { Item items[]; };
layout(std430, binding = 1) writeonly buffer Out { Item outs[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  Item it = items[i];
  Item o;
  o.p = it.p.yx * kScale + f16vec2(it.t);
  o.weight = float(dot(it.q, f16vec4(float16_t(0.5), float16_t(0.25), float16_t(-1.0), float16_t(2.0))));
  o.q = clamp(it.q * float16_t(3.0), f16vec4(-2.0), f16vec4(float16_t(2.5))) + f16vec4(it.r, it.t);
  o.r = mix(it.r, it.q.wzy, f16vec3(float16_t(0.25)));
  o.t = max(it.t, min(it.p.x, it.p.y)) - float16_t(it.weight);
  outs[i] = o;
}
