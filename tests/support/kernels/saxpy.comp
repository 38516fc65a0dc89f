#version 450
// y = alpha * x + y over n elements, buffers at bindings 1, 4 and 7, n and
// alpha as push constants; items past n return early.
layout(local_size_x = 64) in;
layout(set = 0, binding = 1) readonly buffer XValues { float x[]; } xs;
layout(set = 0, binding = 4) readonly buffer YValues { float y[]; };
layout(set = 0, binding = 7) writeonly buffer Result { float data[]; } result;
layout(push_constant) uniform Params { uint n; float alpha; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= p.n) return;
  result.data[i] = p.alpha * xs.x[i] + y[i];
}
