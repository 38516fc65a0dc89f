// porta-round-trips BACKEND N: N round trips of porta-bench's overhead
// benchmark (256 bytes up, one dispatch adding one to them, 256 bytes back,
// sync) on the backend's first device, untimed, after 20 more that warm up:
// a fixed workload for counting the host instructions porta spends per round
// trip. Under `valgrind --tool=callgrind --collect-atstart=no` only the N
// round trips are counted (bench/round_trip_instructions.py does this).
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "porta/porta.hpp"

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_TOGGLE_COLLECT
#endif

int main(int argc, char** argv) {
  if (argc != 3 || std::atoi(argv[2]) <= 0) {
    std::fprintf(stderr,
                 "usage: porta-round-trips BACKEND N (N round trips on the backend's first device)\n");
    return 2;
  }
  try {
    porta::Device device = porta::open(argv[1]);
    porta::Kernel add_one =
        device.kernel(porta::glsl("#version 450\n"
                                  "layout(local_size_x = 64) in;\n"
                                  "layout(set = 0, binding = 0) buffer Data { float data[]; };\n"
                                  "void main() { data[gl_GlobalInvocationID.x] += 1.0; }\n",
                                  "add_one"));
    porta::Buffer data = device.buffer(256);
    porta::Stream stream = device.stream();
    std::vector<float> in(64), out(64);
    const int warm = 20, n = std::atoi(argv[2]);
    for (int i = 0; i < warm + n; ++i) {
      if (i == warm) CALLGRIND_TOGGLE_COLLECT;
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
    CALLGRIND_TOGGLE_COLLECT;
    std::printf("%d round trips on %s (%s)\n", n, device.info().name, argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "porta-round-trips: %s\n", e.what());
    return 1;
  }
  return 0;
}
