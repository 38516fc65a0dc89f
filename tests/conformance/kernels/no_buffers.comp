#version 450
// No buffers, no push constants: the kernel runs and writes nothing anyone sees.
layout(local_size_x = 8) in;
shared uint s[8];
void main() {
  s[gl_LocalInvocationID.x] = gl_LocalInvocationID.x * 3u;
  barrier();
}
