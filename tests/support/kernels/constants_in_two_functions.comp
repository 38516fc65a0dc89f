#version 450
// Three constants called `group`, in two functions and main, each computed
// from spec constants (work-group size x, id 0; SCALE, id 1). With x = 4 and
// SCALE = 5 every element becomes 8 + 20 * 100 + 9 * 10000.
layout(local_size_x = 8, local_size_x_id = 0) in;
layout(constant_id = 1) const uint SCALE = 3;
layout(binding = 0) buffer Data { uint v[]; };
uint first() { const uint group = gl_WorkGroupSize.x * 2u; return group; }
uint second() { const uint group = gl_WorkGroupSize.x * SCALE; return group; }
void main() {
  const uint group = gl_WorkGroupSize.x + SCALE;
  v[gl_GlobalInvocationID.x] = first() + second() * 100u + group * 10000u;
}
