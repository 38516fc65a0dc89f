// porta-conformance: --groups 1,1,1 --buffer random:21:256 --buffer zeros:1024
// what: bvec results of vector comparisons: any, all, not, and mix() selecting by a bvec (OpSelect with a vector condition)
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { int a[]; };
layout(std430, binding = 1) writeonly buffer Out { float r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec3 v = vec3(a[i] >> 20, a[(i + 1u) % 64u] >> 20, a[(i + 2u) % 64u] >> 20);
  vec3 w = vec3(a[(i + 3u) % 64u] >> 20, 0.0, 1.0);
  bvec3 b = lessThan(v, w);
  vec3 m = mix(v, w, b);
  r[4u * i + 0u] = m.x + m.y * 2.0 + m.z * 4.0;
  r[4u * i + 1u] = float(any(b)) + float(all(b)) * 2.0 + float(any(not(b))) * 4.0;
  bvec2 e = equal(ivec2(v.xy), ivec2(w.xy));
  r[4u * i + 2u] = float(e.x) + float(e.y) * 2.0;
  r[4u * i + 3u] = b.x ? v.y : w.z;
}
