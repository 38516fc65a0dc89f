// o = a · b, elementwise, with the kernel written once in GLSL and run on
// whichever device PORTA_BACKEND / PORTA_DEVICE (or --backend) selects.
#include <cstdio>
#include <string>
#include <vector>

#include "porta/porta.hpp"
#include "porta_cli.hpp"

namespace {

const char kDescription[] =
    "o = a * b, elementwise, with the kernel written once in GLSL, on the device that\n"
    "--backend (else PORTA_BACKEND / PORTA_DEVICE) selects.";

const char* kShader = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer InA { float a[]; };
layout(set = 0, binding = 1) readonly buffer InB { float b[]; };
layout(set = 0, binding = 2) writeonly buffer Out { float o[]; };
layout(push_constant) uniform Params { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) o[i] = a[i] * b[i];
}
)";

void print(const char* label, const std::vector<float>& v) {
  std::printf("%s {", label);
  for (size_t i = 0; i < v.size(); ++i) std::printf("%s%g", i ? ", " : "", v[i]);
  std::printf("}\n");
}

}  // namespace

int main(int argc, char** argv) {
  porta::cli::Command command("porta-array-multiplication", kDescription, porta_version());
  command.footer("Exit status: 0 the result is right, 1 it is wrong or the device failed, 2 bad arguments.");
  std::string selector;
  command.app()
      .add_option("--backend", selector, "a device selector: cpu, vulkan, opencl:1, cuda:NAME...")
      ->type_name("SELECTOR");
  // A failure of porta's is reported as "porta-array-multiplication: ..." (exit 1).
  return command.run(argc, argv, [&] {
    porta::Device device = porta::open(selector);
    std::printf("device: %s:%u %s\n", device.info().backend, device.info().index, device.info().name);

    const std::vector<float> a = {2, 4, 6, 8, 10};
    const std::vector<float> b = {1, 2, 3, 4, 5};
    const uint32_t n = static_cast<uint32_t>(a.size());
    porta::Buffer in_a = device.upload(a);
    porta::Buffer in_b = device.upload(b);
    porta::Buffer out = device.buffer(n * sizeof(float));

    porta::Kernel kernel = device.kernel(porta::glsl(kShader, "array_multiplication"));
    porta::Stream stream = device.stream();
    const uint32_t groups = (n + 63) / 64;
    stream.dispatch(kernel, {groups, 1, 1}, {in_a, in_b, out}, n);
    std::vector<float> o(n);
    stream.read(out, o);
    stream.sync();

    print("a =", a);
    print("b =", b);
    print("o =", o);
    for (uint32_t i = 0; i < n; ++i)
      if (o[i] != a[i] * b[i]) {
        std::fprintf(stderr, "wrong result at %u: %g, expected %g\n", i, o[i], a[i] * b[i]);
        return 1;
      }
    return 0;
  });
}
