#version 450
// Spec constants of each 32-bit type; K sizes the fixed array of the second
// block, so --layout shows the value reached the layout.
layout(local_size_x = 32) in;
layout(constant_id = 0) const float SCALE = 1.0;
layout(constant_id = 1) const int OFFSET = 0;
layout(constant_id = 2) const bool NEGATE = false;
layout(constant_id = 3) const uint K = 2;
layout(set = 0, binding = 0) buffer Data { float v[]; };
layout(set = 0, binding = 1) readonly buffer Weights { float weights[K]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = v[i] * SCALE + float(OFFSET) + weights[i % K];
  v[i] = NEGATE ? -x : x;
}
