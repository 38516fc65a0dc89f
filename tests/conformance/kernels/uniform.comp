#version 450
// A uniform block (std140: the array's stride is 16 bytes) as an input.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) uniform Params { float gain; uint shift; float taps[4]; } u;
layout(set = 0, binding = 1) buffer Data { float v[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  v[i] = v[i] * u.gain + u.taps[(i + u.shift) % 4u];
}
