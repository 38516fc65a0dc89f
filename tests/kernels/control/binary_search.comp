// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: binary search in a constant sorted array (a const array initialiser dynamically indexed) and an if/else-if chain
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { ivec2 y[]; };

const int SORTED[16] = int[16](1, 3, 4, 8, 11, 15, 19, 22, 27, 30, 36, 41, 47, 52, 58, 63);

void main() {
  uint i = gl_GlobalInvocationID.x;
  int key = x[i];
  int lo = 0, hi = 15;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (SORTED[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  int band;
  if (key < 8) band = 0;
  else if (key < 16) band = 1;
  else if (key < 32) band = 2;
  else if (key < 48) band = 3;
  else band = 4;
  y[i] = ivec2(lo * (SORTED[lo] == key ? 1 : -1), band);
}
