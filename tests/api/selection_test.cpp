// Device selection: PORTA_BACKEND / PORTA_DEVICE in each form, API selectors,
// and the default order.
#include <algorithm>
#include <cstdlib>

#include "test_support.hpp"

namespace {

struct Env {
  Env(const char* backend, const char* device) {
    set("PORTA_BACKEND", backend);
    set("PORTA_DEVICE", device);
  }
  ~Env() {
    unsetenv("PORTA_BACKEND");
    unsetenv("PORTA_DEVICE");
  }
  static void set(const char* name, const char* value) {
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
};

void expect_open_error(const std::string& selector, porta_status want,
                       std::initializer_list<std::string> needles) {
  try {
    porta::open(selector);
    ADD_FAILURE() << "opened a device; expected " << porta_status_name(want);
  } catch (const porta::Error& e) {
    EXPECT_EQ(e.status(), want) << e.what();
    for (const auto& n : needles) EXPECT_NE(std::string(e.what()).find(n), std::string::npos) << e.what();
  }
}

bool available(const std::string& name) {
  for (const auto& b : porta::backends())
    if (b.name == name) return b.available;
  return false;
}

TEST(Selection, BackendByEnvironment) {
  Env env("cpu", nullptr);
  EXPECT_EQ(porta::open().backend(), "cpu");
}

TEST(Selection, DeviceIndexAndNameSubstring) {
  {
    Env env("cpu", "0");
    EXPECT_EQ(porta::open().info().index, 0u);
  }
  {
    std::string name = porta::open("cpu").name();
    std::string part = name.substr(0, 5);
    Env env("cpu", part.c_str());
    EXPECT_EQ(porta::open().name(), name);
  }
}

TEST(Selection, DeviceOutOfRange) {
  Env env("cpu", "7");
  expect_open_error("", PORTA_ERROR_NOT_FOUND,
                    {"PORTA_DEVICE: device 7 is out of range", "backend cpu has 1 device"});
}

TEST(Selection, DeviceNameThatMatchesNothing) {
  Env env("cpu", "no-such-gpu");
  expect_open_error("", PORTA_ERROR_NOT_FOUND, {"'no-such-gpu' matches no device"});
}

TEST(Selection, UnknownBackendNamesWhatIsAvailable) {
  Env env("nonesuch", nullptr);
  expect_open_error("", PORTA_ERROR_NOT_FOUND, {"unknown backend 'nonesuch'", "cpu (1 device)"});
}

TEST(Selection, OrderedListFallsBackOnlyToWhatItNames) {
  {
    Env env("nonesuch,cpu", nullptr);
    EXPECT_EQ(porta::open().backend(), "cpu");
  }
  if (!available("cuda")) {
    Env env("cuda", nullptr);
    expect_open_error("", PORTA_ERROR_UNAVAILABLE, {"cuda"});
    Env list("cuda,cpu", nullptr);
    EXPECT_EQ(porta::open().backend(), "cpu");
  }
}

TEST(Selection, ApiSelectorsOverrideTheEnvironment) {
  Env env("nonesuch", nullptr);
  EXPECT_EQ(porta::open("cpu:0").backend(), "cpu");
  EXPECT_EQ(porta::open("cpu").backend(), "cpu");
  expect_open_error("cpu:3", PORTA_ERROR_NOT_FOUND, {"out of range"});
  expect_open_error("cpu,", PORTA_ERROR_INVALID_ARGUMENT, {"empty entry"});
}

TEST(Selection, DefaultOrderPutsGpusFirstAndPortaCpuLast) {
  auto devices = porta::devices();
  ASSERT_FALSE(devices.empty());
  // The documented order of device types, best first.
  const std::vector<porta_device_type> order = {PORTA_DEVICE_DISCRETE_GPU, PORTA_DEVICE_INTEGRATED_GPU,
                                                PORTA_DEVICE_VIRTUAL_GPU, PORTA_DEVICE_OTHER,
                                                PORTA_DEVICE_CPU};
  auto rank = [&](porta_device_type t) { return std::find(order.begin(), order.end(), t) - order.begin(); };
  for (size_t i = 1; i < devices.size(); ++i) {
    EXPECT_LE(rank(devices[i - 1].type), rank(devices[i].type));
    if (devices[i - 1].type == devices[i].type) {
      EXPECT_LE(devices[i - 1].priority, devices[i].priority);
    }
  }
  EXPECT_EQ(std::string(devices.back().backend), "cpu");
  EXPECT_TRUE(devices.back().flags & PORTA_DEVICE_FLAG_REFERENCE);
  Env env(nullptr, nullptr);
  porta::Device best = porta::open();
  EXPECT_EQ(best.backend(), std::string(devices.front().backend));
  EXPECT_EQ(best.name(), std::string(devices.front().name));
}

}  // namespace
