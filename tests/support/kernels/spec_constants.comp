#version 450
// Spec constants of three kinds: the work-group size (id 0, 1 when not
// given), a float (id 1) and an int (id 2), each used in arithmetic.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const float scale = 1.0;
layout(constant_id = 2) const int offset = 0;
layout(binding = 0) buffer Data { float v[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  v[i] = v[i] * scale + float(offset) + float(gl_WorkGroupSize.x);
}
