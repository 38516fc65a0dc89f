#include <cstdio>
#include <vector>

#include <porta/porta.hpp>

int main() {
  try {
    porta::Device dev = porta::open("cpu");
    std::vector<float> v = {1, 2, 3, 4, 5, 6, 7, 8};
    porta::Buffer b = dev.upload(v);
    porta::Kernel k = dev.kernel(porta::glsl(R"(#version 450
layout(local_size_x = 8) in;
layout(binding = 0) buffer D { float v[]; };
void main() { v[gl_GlobalInvocationID.x] = v[gl_GlobalInvocationID.x] * v[gl_GlobalInvocationID.x]; })"));
    porta::Stream s = dev.stream();
    s.dispatch(k, {1}, {b});
    s.read(b, v);
    s.sync();
    for (int i = 0; i < 8; ++i)
      if (v[i] != float((i + 1) * (i + 1))) {
        std::fprintf(stderr, "consumer: wrong result at %d: %g\n", i, v[i]);
        return 1;
      }
    std::printf("consumer: porta %s on %s: ok\n", porta_version(), dev.name().c_str());
    return 0;
  } catch (const porta::Error& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
}
