// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: an explicit stack in a private array replaces recursion (sum of a implicit binary tree's nodes reachable under a value limit)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uvec2 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint limit = x[i] * 4u + 8u;
  uint stack[16];
  int top = 0;
  stack[0] = 1u;
  uint visited = 0u, sum = 0u;
  while (top >= 0) {
    uint node = stack[top--];
    visited++;
    sum += node;
    for (uint child = 2u * node; child <= 2u * node + 1u; ++child)
      if (child <= limit && top < 15) stack[++top] = child;
  }
  y[i] = uvec2(visited, sum);
}
