#version 450
// out[i] = i * step, for porta-run's file test.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint v[]; } o;
layout(push_constant) uniform Push { uint step; } p;
void main() { o.v[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * p.step; }
