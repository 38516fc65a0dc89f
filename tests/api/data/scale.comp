#version 450
layout(local_size_x = 1) in;
layout(binding = 0) buffer Data { float v[]; };
layout(push_constant) uniform Push { float factor; };
void main() { v[gl_GlobalInvocationID.x] *= factor; }
