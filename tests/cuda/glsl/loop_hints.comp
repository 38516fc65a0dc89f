#version 450
// GLSL's control-flow attributes on loops and selections: the translated
// source must carry the loop hints in the target's spelling (or none) and
// build without a warning.
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint TERMS = 4;
layout(set = 0, binding = 0) buffer Data { float v[]; };
layout(push_constant) uniform Push {
  uint n;
};
void main() {
  const uint i = gl_GlobalInvocationID.x;
  float sum = 0.0;
  [[unroll]] for (uint t = 0u; t < TERMS; ++t) sum += v[i * TERMS + t];
  [[dont_unroll]] for (uint t = 0u; t < n; ++t) sum *= 0.5;
  [[flatten]] if (sum > 1.0) sum = 1.0;
  [[dont_flatten]] if (sum < -1.0) sum = -1.0;
  v[i] = sum;
}
