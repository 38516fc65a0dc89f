// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: a switch inside a loop where cases continue the loop, break the switch, or break the loop through a flag
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint state = x[i], out_value = 0u;
  bool done = false;
  for (uint step = 0u; step < 32u && !done; ++step) {
    switch (state % 4u) {
      case 0u:
        state = state / 2u + 5u;
        continue;
      case 1u:
        out_value += step;
        break;
      case 2u:
        if (out_value > 100u) done = true;
        out_value += 7u;
        break;
      default:
        out_value ^= state;
        break;
    }
    state = state * 5u + 1u;
  }
  y[i] = out_value * 4u + uint(done);
}
