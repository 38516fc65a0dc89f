// The Vulkan floor's empty kernel (vulkan_floor.cpp), as porta-bench's overhead benchmark's.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float data[]; };
void main() {}
