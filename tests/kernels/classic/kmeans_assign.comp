// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: k-means assignment step: nearest of 8 centroids by squared distance (exact on 1/8 steps, ties to the lower index) and per-cluster counts
#version 450
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer Points { vec2 pts[]; };
layout(std430, binding = 1) readonly buffer Centroids { vec2 centroids[8]; };
layout(std430, binding = 2) writeonly buffer Assign { uint assign[]; };
layout(std430, binding = 3) buffer Counts { uint counts[8]; };

vec2 q8(vec2 v) { return floor(v * 8.0) * 0.125; }  // exact squared distances

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec2 p = q8(pts[i]);
  uint best = 0u;
  float best_d = 1e30;
  for (uint c = 0u; c < 8u; ++c) {
    vec2 d = p - q8(centroids[c]);
    float dist = dot(d, d);
    if (dist < best_d) {
      best_d = dist;
      best = c;
    }
  }
  assign[i] = best;
  atomicAdd(counts[best], 1u);
}
