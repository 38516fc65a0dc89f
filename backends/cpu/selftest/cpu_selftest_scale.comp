#version 450
// Built into the CPU plugin while kernels/ provides no built-in kernels:
// exercises the glslc → porta-translate → plugin path and the text lookup.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
layout(push_constant) uniform Push { uint n; float a; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) y[i] = a * x[i];
}
