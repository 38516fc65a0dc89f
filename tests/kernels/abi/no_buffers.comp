// porta-conformance: --groups 2,1,1
// what: a kernel with no buffers at all runs (shared memory and barriers only); reported as ran
#version 450
layout(local_size_x = 64) in;

shared uint scratch[64];

void main() {
  uint l = gl_LocalInvocationID.x;
  scratch[l] = l * l;
  barrier();
  uint v = scratch[63u - l];
  barrier();
  scratch[l] = v + 1u;
}
