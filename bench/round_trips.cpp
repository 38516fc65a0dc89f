// porta-round-trips BACKEND N: N round trips of porta-bench's overhead
// benchmark (256 bytes up, one dispatch adding one to them, 256 bytes back,
// sync) on the backend's first device, untimed: a fixed workload for counting
// the host instructions porta itself spends per round trip, e.g.
//   valgrind --tool=callgrind porta-round-trips opencl 200   (and again with 100)
// then the difference of the two counts, per object file, over 100.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "porta/porta.hpp"

int main(int argc, char** argv) {
  if (argc != 3 || std::atoi(argv[2]) <= 0) {
    std::fprintf(stderr, "usage: porta-round-trips BACKEND N (N round trips on the backend's first device)\n");
    return 2;
  }
  try {
    porta::Device device = porta::open(argv[1]);
    porta::Kernel add_one = device.kernel(porta::glsl(
        "#version 450\n"
        "layout(local_size_x = 64) in;\n"
        "layout(set = 0, binding = 0) buffer Data { float data[]; };\n"
        "void main() { data[gl_GlobalInvocationID.x] += 1.0; }\n",
        "add_one"));
    porta::Buffer data = device.buffer(256);
    porta::Stream stream = device.stream();
    std::vector<float> in(64), out(64);
    const int n = std::atoi(argv[2]);
    for (int i = 0; i < n; ++i) {
      std::fill(in.begin(), in.end(), float(i));
      stream.write(data, in);
      stream.dispatch(add_one, {1, 1, 1}, {data});
      stream.read(data, out);
      stream.sync();
      if (out[0] != float(i) + 1 || out[63] != float(i) + 1) {
        std::fprintf(stderr, "round trip %d read back %g\n", i, double(out[0]));
        return 1;
      }
    }
    std::printf("%d round trips on %s (%s)\n", n, device.info().name, argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "porta-round-trips: %s\n", e.what());
    return 1;
  }
  return 0;
}
