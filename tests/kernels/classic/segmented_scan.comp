// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: segmented inclusive scan (segments start where the flag bit is set; Hillis-Steele on (flag, value) pairs)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };

shared uint val[64];
shared uint flag[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  val[l] = x[i];
  flag[l] = uint(l == 0u || x[i] % 7u == 0u);
  barrier();
  for (uint off = 1u; off < 64u; off <<= 1) {
    uint v = val[l], f = flag[l];
    if (l >= off && f == 0u) {
      v += val[l - off];
      f = flag[l - off];
    }
    barrier();
    val[l] = v;
    flag[l] = f;
    barrier();
  }
  y[i] = val[l];
}
