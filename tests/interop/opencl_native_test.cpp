// porta/interop.h with OpenCL objects a framework made itself: a cl_mem and
// a command queue of porta's cl_context used in place, its events waited for
// and user events signalled in queue order, the work a stream destroyed
// before the framework's event leaves behind, and the same objects of another
// context refused. Runs on the OpenCL device porta opens (PoCL here).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "left_work.hpp"
#include "porta/interop.hpp"
#include "porta/robust.h"

namespace {

struct OpenClDevice : ::testing::Test {
  void SetUp() override {
    bool available = false;
    for (const auto& b : porta::backends()) available |= b.name == "opencl" && b.available;
    if (!available) GTEST_SKIP() << "no OpenCL device here";
    dev = porta::open("opencl");
    nd = porta::native(dev);
    context = static_cast<cl_context>(nd.cl_context);
    device = static_cast<cl_device_id>(nd.cl_device);
  }
  cl_command_queue queue() {
    cl_int st = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueue(context, device, 0, &st);
    EXPECT_EQ(st, CL_SUCCESS);
    return q;
  }
  porta::Device dev;
  porta_native_device nd{};
  cl_context context = nullptr;
  cl_device_id device = nullptr;
};

cl_uint references(cl_mem mem) {
  cl_uint n = 0;
  clGetMemObjectInfo(mem, CL_MEM_REFERENCE_COUNT, sizeof n, &n, nullptr);
  return n;
}

TEST_F(OpenClDevice, ClMemIsUsedInPlaceAndStaysTheCallers) {
  std::vector<float> host(64);
  for (size_t i = 0; i < host.size(); ++i) host[i] = float(i);
  cl_int st = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 256, host.data(), &st);
  ASSERT_EQ(st, CL_SUCCESS);
  {
    porta_native_memory m{};
    m.kind = PORTA_NATIVE_MEMORY_CL_MEM;
    m.cl_mem = mem;
    m.bytes = 256;
    porta::Buffer b = porta::import_native(dev, m);
    EXPECT_EQ(porta::native(b).cl_mem, static_cast<void*>(mem));
    porta::Stream s = dev.stream();
    porta::ops::scale(s, porta::Tensor(b, {64}), 3.0f, porta::Tensor(b, {64}));
    s.sync();
  }
  EXPECT_EQ(references(mem), 1u) << "porta released its own reference only";
  cl_command_queue q = queue();
  std::vector<float> back(64);
  ASSERT_EQ(clEnqueueReadBuffer(q, mem, CL_TRUE, 0, 256, back.data(), 0, nullptr, nullptr), CL_SUCCESS);
  for (size_t i = 0; i < back.size(); ++i) EXPECT_EQ(back[i], 3.0f * float(i)) << i;
  clReleaseCommandQueue(q);
  clReleaseMemObject(mem);
}

TEST_F(OpenClDevice, ObjectsOfAnotherContextAreRefused) {
  cl_int st = CL_SUCCESS;
  cl_context other = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &st);
  ASSERT_EQ(st, CL_SUCCESS);
  cl_mem mem = clCreateBuffer(other, CL_MEM_READ_WRITE, 256, nullptr, &st);
  porta_native_memory m{};
  m.struct_size = sizeof m;
  m.kind = PORTA_NATIVE_MEMORY_CL_MEM;
  m.cl_mem = mem;
  m.bytes = 256;
  porta_buffer b = nullptr;
  EXPECT_EQ(porta_buffer_import_native(dev.handle(), &m, &b), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(porta_last_error()).find("another cl_context"), std::string::npos)
      << porta_last_error();
  cl_command_queue q = clCreateCommandQueue(other, device, 0, &st);
  porta_stream s = nullptr;
  EXPECT_EQ(porta_stream_wrap_native(dev.handle(), q, &s), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(porta_last_error()).find("another cl_context"), std::string::npos)
      << porta_last_error();
  m.bytes = 512;  // larger than the cl_mem, in porta's own context
  cl_mem own = clCreateBuffer(context, CL_MEM_READ_WRITE, 256, nullptr, &st);
  m.cl_mem = own;
  EXPECT_EQ(porta_buffer_import_native(dev.handle(), &m, &b), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(porta_last_error()).find("512 bytes of a cl_mem of 256 bytes"), std::string::npos)
      << porta_last_error();
  clReleaseMemObject(own);
  clReleaseCommandQueue(q);
  clReleaseMemObject(mem);
  clReleaseContext(other);
}

TEST_F(OpenClDevice, WrappedQueueRunsInOrderWithTheFrameworksEvents) {
  cl_command_queue q = queue();
  cl_int st = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(context, &st);
  ASSERT_EQ(st, CL_SUCCESS);
  cl_event done = clCreateUserEvent(context, &st);
  std::vector<float> ones(256, 1.0f), got(256, 0.0f);
  {
    porta::Stream s = porta::wrap_stream(dev, q);
    EXPECT_EQ(porta::native(s), static_cast<void*>(q));
    porta::Buffer b = dev.buffer(1024);
    porta::wait_native_event(s, gate);  // the framework's work porta must follow
    s.write(b, ones);
    porta::ops::scale(s, porta::Tensor(b, {256}), 5.0f, porta::Tensor(b, {256}));
    s.read(b, got);
    porta::signal_native_event(s, done);  // porta's work the framework follows
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cl_int state = 0;
    clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, nullptr);
    EXPECT_NE(state, CL_COMPLETE) << "porta's work ran before the framework's event";
    EXPECT_EQ(got[0], 0.0f);
    clSetUserEventStatus(gate, CL_COMPLETE);
    ASSERT_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
    s.sync();
    EXPECT_EQ(got[0], 5.0f);
    EXPECT_EQ(got[255], 5.0f);
  }
  // The wrapped queue stays the caller's: porta's references go with the
  // stream. A reference count is a snapshot ("immediately stale", says the
  // OpenCL spec): the runtime frees porta's finished signal marker, which
  // holds the queue, on its own thread after completing the framework's
  // event (PoCL releases its reference once the event's callbacks return),
  // so the count is read until it settles rather than once.
  const auto settled = [&] {
    cl_uint n = 0;
    for (int i = 0; i < 5000; ++i) {
      clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof n, &n, nullptr);
      if (n == 1) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return n;
  };
  EXPECT_EQ(settled(), 1u) << "porta kept a reference to the wrapped queue";
  // Only user events can be signalled.
  porta::Stream own = dev.stream();
  cl_event marker = nullptr;
  clEnqueueMarkerWithWaitList(q, 0, nullptr, &marker);
  clFinish(q);
  EXPECT_EQ(porta_stream_signal_native_event(own.handle(), marker), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(porta_last_error()).find("only a user event"), std::string::npos)
      << porta_last_error();
  clReleaseEvent(marker);
  clReleaseEvent(gate);
  clReleaseEvent(done);
  clReleaseCommandQueue(q);
}

TEST_F(OpenClDevice, HostMemoryThroughUseHostPtr) {
  alignas(4096) static float data[1024];
  for (int i = 0; i < 1024; ++i) data[i] = float(i);
  porta::Buffer b = porta::import_host(dev, data, sizeof data);
  const porta_native_memory m = porta::native(b);
  EXPECT_EQ(m.kind, PORTA_NATIVE_MEMORY_CL_MEM);
  EXPECT_EQ(m.host_pointer, static_cast<void*>(data));
  cl_mem_flags flags = 0;
  clGetMemObjectInfo(static_cast<cl_mem>(m.cl_mem), CL_MEM_FLAGS, sizeof flags, &flags, nullptr);
  EXPECT_TRUE(flags & CL_MEM_USE_HOST_PTR);
}

// The stream's destruction does not wait for the framework's event (before,
// it waited in clFinish for as long as the event stayed incomplete); the
// memory the left work uses is released only after that work has run.
TEST_F(OpenClDevice, LeftWorkDoesNotHoldUpStreamDestroy) {
  cl_int st = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(context, &st);
  ASSERT_EQ(st, CL_SUCCESS);
  left_work::check_left_work(
      dev, [&](porta::Stream& s) { porta::wait_native_event(s, gate); },
      [&] { ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS); });
  clReleaseEvent(gate);
}

// Closing a device whose left work waits for a user event that is still
// incomplete: porta does not complete a framework's event, so the close
// waits its bounded time (the device's limit, 0.5 s here), says what the
// work waits for, and leaves the device open rather than release its queue
// under that work.
TEST(OpenClClose, AtCloseAnIncompleteEventIsReportedAndLeft) {
  using namespace left_work;
  bool available = false;
  for (const auto& b : porta::backends()) available |= b.name == "opencl" && b.available;
  if (!available) GTEST_SKIP() << "no OpenCL device here";
  porta::Device own = porta::open("opencl", porta::DeviceOptions{PORTA_ROBUST_DEFAULT, 0.5});
  cl_int st = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(static_cast<cl_context>(porta::native(own).cl_context), &st);
  ASSERT_EQ(st, CL_SUCCESS);
  ReleasedMemory memory(256);
  memory.leaked = true;  // porta's left device holds it for good
  double took = 0;
  const std::string said = close_with_left_work(
      own, memory, [&](porta::Stream& s) { porta::wait_native_event(s, gate); }, took);
  expect_left_open(took, said, memory);
  EXPECT_NE(said.find("cl_event"), std::string::npos) << said;
  EXPECT_NE(said.find("a buffer of 1024 bytes"), std::string::npos) << said;
  // The framework comes at last: the left queue runs the work.
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  expect_left_work_runs(memory);
  clReleaseEvent(gate);
}

}  // namespace
