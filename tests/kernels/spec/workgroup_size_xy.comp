// porta-conformance: --groups 2,4,1 --inputs auto --elements 256 --spec 0=16 --spec 1=2
// what: a two-dimensional work-group size from two specialization constants (x and y ids) with a 2D dispatch
#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };

void main() {
  uvec3 g = gl_GlobalInvocationID;
  uint width = gl_NumWorkGroups.x * gl_WorkGroupSize.x;  // 32
  uint i = g.y * width + g.x;
  y[i] = x[i] + float(gl_LocalInvocationIndex) * 0.5 + float(g.y);
}
