// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: the values atomicAdd returns for equal increments are a fixed set; their sum (and max) is order-free
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) buffer Counter { uint counter; uint sum_of_returned; uint max_returned; };

void main() {
  uint old = atomicAdd(counter, 2u);
  atomicAdd(sum_of_returned, old);
  atomicMax(max_returned, old);
}
