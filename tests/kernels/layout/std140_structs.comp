// porta-conformance: --groups 1,1,1 --inputs auto --elements 4
// what: a runtime array of std140 structs (vec3 then float, a float[2] with stride 16, a mat2 with stride 16) loaded and stored whole
#version 450
layout(local_size_x = 4) in;
struct Item { vec3 p; float w; float k[2]; mat2 m; };
layout(std140, binding = 0) readonly buffer Items { uint count; Item items[]; };
layout(std140, binding = 1) writeonly buffer OutItems { Item out_items[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  Item it = items[i];
  it.w += it.k[1] + float(count);
  it.p = it.p.zxy;
  it.m = it.m * 2.0;
  it.k[0] = it.m[1][0];
  out_items[i] = it;
}
