// The per-dispatch watchdog (porta/robust.h) on the backend under test
// (PORTA_TEST_BACKEND), with PORTA_TIMEOUT=1 from ctest: a kernel that never
// ends is an error within a few seconds that names it; afterwards the CPU
// backend's device works on (PORTA_ERROR_TIMEOUT), any other is lost and
// every later call on it says so (PORTA_ERROR_DEVICE_LOST).
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "porta/porta.hpp"
#include "porta/robust.h"
#include "support/backend_under_test.hpp"

namespace {

using porta::test::backend_under_test;
using Clock = std::chrono::steady_clock;

// Spins until someone sets `flag`, which nobody does. lavapipe ends every
// invocation after 65535 loop iterations (gallivm's limit), so no loop hangs
// it; 65535 groups of such invocations still take hours there.
const char* kSpin = R"(#version 450
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { uint flag; uint count; };
void main() {
  while (atomicAdd(flag, 0u) == 0u) {
    atomicAdd(count, 1u);
  }
})";

const char* kDouble = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { float x[]; };
void main() { x[gl_GlobalInvocationID.x] *= 2.0; })";

TEST(Watchdog, EndlessKernelIsAnErrorNamingIt) {
  porta::Device device = porta::open(backend_under_test());
  const std::string backend = device.backend();  // before: a lost device answers nothing
  double limit = 0;
  porta::detail::check(porta_device_get_robustness(device.handle(), nullptr, &limit));
  ASSERT_EQ(limit, 1.0) << "run with PORTA_TIMEOUT=1";
  porta::Kernel spin = device.kernel(porta::glsl(kSpin, "spin_forever"));
  porta::Kernel twice = device.kernel(porta::glsl(kDouble, "double_it"));
  porta::Buffer b = device.buffer(64), x = device.buffer(256 * 4);
  porta::Stream s = device.stream();
  s.fill(b, 0u);
  s.sync();
  const Clock::time_point start = Clock::now();
  porta_status status = PORTA_SUCCESS;
  std::string message;
  try {
    s.dispatch(spin, {65535, 1, 1}, {b});
    s.sync();
  } catch (const porta::Error& e) {
    status = e.status();
    message = e.what();
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf("%s after %.2f s: %s\n", porta_status_name(status), seconds, message.c_str());
  EXPECT_LT(seconds, 10.0);
  EXPECT_NE(message.find("spin_forever"), std::string::npos) << message;
  if (backend == "cpu") {
    ASSERT_EQ(status, PORTA_ERROR_TIMEOUT) << message;
    // The device works on: the same stream, new work, right results.
    std::vector<float> host(256);
    for (size_t i = 0; i < host.size(); ++i) host[i] = float(i);
    s.write(x, host);
    s.dispatch(twice, {4, 1, 1}, {x});
    std::vector<float> back(256);
    s.read(x, back);
    s.sync();
    for (size_t i = 0; i < back.size(); ++i) ASSERT_EQ(back[i], 2.0f * float(i));
    return;
  }
  ASSERT_EQ(status, PORTA_ERROR_DEVICE_LOST) << message;
  // Every later call on the device says it is lost, and why.
  auto expect_lost = [](const char* what, const std::function<void()>& call) {
    try {
      call();
      ADD_FAILURE() << what << " succeeded on a lost device";
    } catch (const porta::Error& e) {
      EXPECT_EQ(e.status(), PORTA_ERROR_DEVICE_LOST) << what << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find("spin_forever"), std::string::npos) << what << ": " << e.what();
    }
  };
  expect_lost("info", [&] { (void)device.backend(); });
  expect_lost("buffer", [&] { device.buffer(64); });
  expect_lost("kernel", [&] { device.kernel(porta::glsl(kDouble, "double_again")); });
  expect_lost("stream", [&] { device.stream(); });
  expect_lost("dispatch", [&] { s.dispatch(twice, {1, 1, 1}, {x}); });
  expect_lost("sync", [&] { s.sync(); });
  expect_lost("read", [&] {
    std::vector<float> back(4);
    x.read(back);
  });
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  porta::test::skip_process_if_unavailable();
  return RUN_ALL_TESTS();
}
