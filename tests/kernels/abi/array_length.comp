// porta-conformance: --groups 2,1,1 --inputs auto --elements 100
// what: .length() of a runtime array after a fixed header (OpArrayLength from the buffer's size); the dispatch is larger than the array
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In {
  vec2 header;
  float x[];
};
layout(binding = 1) buffer Out { float y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint n = uint(x.length());
  if (i >= n || i >= uint(y.length())) return;
  y[i] = x[n - 1u - i] + header.x + float(n);
}
