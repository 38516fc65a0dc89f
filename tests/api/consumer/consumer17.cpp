// A C++17 framework's use of porta.hpp: built with -std=c++17 -pedantic
// against the installed headers, so porta.hpp must need nothing newer.
#include <array>
#include <cstdio>
#include <cstring>
#include <porta/porta.hpp>
#include <string>
#include <vector>

#if __cplusplus != 201703L
#error "this consumer must be compiled as C++17"
#endif

static_assert(PORTA_VERSION_MAJOR >= 0 && PORTA_VERSION_MINOR >= 0 && PORTA_VERSION_PATCH >= 0);
static_assert(PORTA_VERSION ==
              PORTA_MAKE_VERSION(PORTA_VERSION_MAJOR, PORTA_VERSION_MINOR, PORTA_VERSION_PATCH));

namespace {

struct Push {
  float factor;
};

int check(bool ok, const char* what) {
  if (!ok) std::fprintf(stderr, "consumer17: %s\n", what);
  return ok ? 0 : 1;
}

}  // namespace

int main() {
  int failures = 0;
  failures +=
      check(std::string(porta_version()) == PORTA_VERSION_STRING, "porta_version() != PORTA_VERSION_STRING");
  try {
    porta::Device dev = porta::open("cpu");
    failures += check(!dev.name().empty() && dev.info().name == dev.name(), "device info");

    // Host memory as std::vector, std::array, a C array and porta::Span.
    std::vector<float> v = {1, 2, 3, 4, 5, 6, 7, 8};
    porta::Buffer a = dev.upload(v);
    std::array<float, 4> tail = {50, 60, 70, 80};
    a.write(porta::Span<const float>(tail), 4 * sizeof(float));
    float head[2] = {10, 20};
    a.write(porta::Span(head));

    porta::Kernel k = dev.kernel(porta::glsl(R"(#version 450
layout(local_size_x = 1) in;
layout(binding = 0) buffer Data { float v[]; };
layout(push_constant) uniform Push { float factor; };
void main() { v[gl_GlobalInvocationID.x] *= factor; })",
                                             "scale"));
    porta::Stream s = dev.stream();
    s.dispatch(k, {8}, {a}, Push{2.0f});
    std::vector<porta::Buffer> buffers{a};
    const Push half{0.5f};
    s.dispatch_bytes(k, {8}, buffers, &half, sizeof half);
    s.dispatch(k, {8}, {a}, Push{3.0f});
    std::vector<float> out(8);
    s.read(a, out);
    s.sync();
    const float want[8] = {30, 60, 9, 12, 150, 180, 210, 240};
    for (int i = 0; i < 8; ++i)
      failures += check(out[i] == want[i], ("wrong result at " + std::to_string(i)).c_str());

    float first[2] = {};
    a.read(porta::Span<float>(first, 2));
    failures += check(first[0] == 30 && first[1] == 60, "Buffer::read into a porta::Span");

    // An op over a tensor view given by C arrays.
    const uint64_t shape[2] = {2, 4};
    const int64_t strides[2] = {4, 1};
    porta::ops::fill(s, porta::Tensor(a, shape, strides), 1.5f);
    s.sync();
    for (float x : a.to_vector<float>()) failures += check(x == 1.5f, "ops::fill");

    std::printf("consumer17: porta %s (headers %d.%d.%d) on %s: %s\n", porta_version(), PORTA_VERSION_MAJOR,
                PORTA_VERSION_MINOR, PORTA_VERSION_PATCH, dev.name().c_str(), failures ? "FAILED" : "ok");
  } catch (const porta::Error& e) {
    std::fprintf(stderr, "consumer17: %s\n", e.what());
    return 1;
  }
  return failures ? 1 : 0;
}
