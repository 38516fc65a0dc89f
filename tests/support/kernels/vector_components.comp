#version 450
// Each work-item writes its own component of a shared vec4 (by a constant
// and by a computed component) and of a buffer's vec4: in SPIR-V each
// component is a memory location of its own, so no item's store may
// overwrite another's.
layout(local_size_x = 256) in;
layout(binding = 0) buffer Out { float o[]; };
layout(binding = 1) buffer Vectors { vec4 v[]; };
shared vec4 by_constant[64];
shared vec4 by_index[64];
void main() {
  const uint i = gl_LocalInvocationID.x;
  const uint c = i % 4u;
  if (c == 0u) by_constant[i / 4u].x = float(i);
  else if (c == 1u) by_constant[i / 4u].y = float(i);
  else if (c == 2u) by_constant[i / 4u].z = float(i);
  else by_constant[i / 4u].w = float(i);
  by_index[i / 4u][c] = float(2u * i);
  if (c == 3u) v[gl_GlobalInvocationID.x / 4u].w = float(3u * gl_GlobalInvocationID.x);
  else v[gl_GlobalInvocationID.x / 4u][c] = float(3u * gl_GlobalInvocationID.x);
  barrier();
  o[gl_GlobalInvocationID.x] = by_constant[i / 4u][c] + 1000.0 * by_index[i / 4u][c];
}
