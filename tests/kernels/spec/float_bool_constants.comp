// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --spec 1=0.5 --spec 2=true --spec 3=4294967295
// what: float, bool and uint specialization constants set from the command line select and scale the computation
#version 450
layout(local_size_x = 64) in;

layout(constant_id = 1) const float SCALE = 2.0;
layout(constant_id = 2) const bool NEGATE = false;
layout(constant_id = 3) const uint MASK = 0xFFu;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) readonly buffer Bits { uint bits[]; };
layout(binding = 2) writeonly buffer Out { float y[]; };
layout(binding = 3) writeonly buffer OutU { uint z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  float v = x[i] * SCALE;
  y[i] = NEGATE ? -v : v;
  z[i] = (bits[i] * 0x01010101u) & MASK;
}
