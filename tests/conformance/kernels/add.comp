#version 450
// dst[i] = src[i] + add: porta-run's buffer inputs, read back byte for byte.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) readonly buffer Src { uint v[]; } src;
layout(set = 0, binding = 1) writeonly buffer Dst { uint v[]; } dst;
layout(push_constant) uniform Push { uint add; } p;
void main() { dst.v[gl_GlobalInvocationID.x] = src.v[gl_GlobalInvocationID.x] + p.add; }
