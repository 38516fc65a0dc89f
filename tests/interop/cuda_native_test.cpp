// porta/interop.h with CUDA objects a framework made itself, as PyTorch and
// CuPy make them: device memory of the primary context used in place and
// exported back as kDLCUDA with the same pointer, host memory registered, a
// CUstream wrapped, CUevents waited for and recorded, and the work a stream
// destroyed before the framework's event left behind. Needs a CUDA device:
// skipped (with the reason) elsewhere. The driver is loaded like the plugin
// loads it, so this builds wherever the CUDA headers are.
#include <cuda.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "left_work.hpp"
#include "porta/interop.hpp"

namespace {

#define PORTA_STR2(x) #x
#define PORTA_STR(x) PORTA_STR2(x)  // the versioned symbol cuda.h maps the name to

struct Cuda {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  template <class Fn>
  Fn get(const char* name) {
    return reinterpret_cast<Fn>(dlsym(lib, name));
  }
#define PORTA_CU(fn) decltype(&::fn) fn = get<decltype(&::fn)>(PORTA_STR(fn));
  PORTA_CU(cuCtxPushCurrent)
  PORTA_CU(cuCtxPopCurrent)
  PORTA_CU(cuMemAlloc)
  PORTA_CU(cuMemFree)
  PORTA_CU(cuMemcpyHtoD)
  PORTA_CU(cuMemcpyDtoH)
  PORTA_CU(cuStreamCreate)
  PORTA_CU(cuStreamDestroy)
  PORTA_CU(cuStreamSynchronize)
  PORTA_CU(cuEventCreate)
  PORTA_CU(cuEventDestroy)
  PORTA_CU(cuEventRecord)
  PORTA_CU(cuEventSynchronize)
  PORTA_CU(cuEventQuery)
  PORTA_CU(cuMemHostAlloc)
  PORTA_CU(cuMemFreeHost)
  PORTA_CU(cuMemHostGetDevicePointer)
  PORTA_CU(cuStreamWaitValue32)
#undef PORTA_CU
};

struct CudaDevice : ::testing::Test {
  void SetUp() override {
    bool available = false;
    std::string reason;
    for (const auto& b : porta::backends())
      if (b.name == "cuda") {
        available = b.available;
        reason = b.reason;
      }
    if (!available) GTEST_SKIP() << "no CUDA device here: " << reason;
    dev = porta::open("cuda");
    nd = porta::native(dev);
    ASSERT_NE(nd.cuda_context, nullptr);
    ASSERT_EQ(cu.cuCtxPushCurrent(static_cast<CUcontext>(nd.cuda_context)), CUDA_SUCCESS);
  }
  void TearDown() override {
    CUcontext popped = nullptr;
    if (nd.cuda_context) cu.cuCtxPopCurrent(&popped);
  }
  Cuda cu;
  porta::Device dev;
  porta_native_device nd{};
};

TEST_F(CudaDevice, DevicePointerIsUsedInPlaceAndExportedBack) {
  const size_t n = 1 << 16;
  std::vector<float> host(n);
  for (size_t i = 0; i < n; ++i) host[i] = float(i % 1000);
  CUdeviceptr ptr = 0;
  ASSERT_EQ(cu.cuMemAlloc(&ptr, n * 4), CUDA_SUCCESS);
  ASSERT_EQ(cu.cuMemcpyHtoD(ptr, host.data(), n * 4), CUDA_SUCCESS);
  {
    porta_native_memory m{};
    m.kind = PORTA_NATIVE_MEMORY_CUDA_POINTER;
    m.cuda_pointer = ptr;
    m.bytes = n * 4;
    porta::Buffer b = porta::import_native(dev, m);
    porta::Stream s = dev.stream();
    porta::ops::scale(s, porta::Tensor(b, {n}), 2.0f, porta::Tensor(b, {n}));
    s.sync();
    DLManagedTensor* t = porta::to_dlpack(porta::Tensor(b, {n}));
    EXPECT_EQ(t->dl_tensor.device.device_type, kDLCUDA);
    EXPECT_EQ(t->dl_tensor.device.device_id, nd.cuda_device);
    EXPECT_EQ(reinterpret_cast<CUdeviceptr>(t->dl_tensor.data), ptr) << "a copy, not the same memory";
    t->deleter(t);
  }
  std::vector<float> back(n);
  ASSERT_EQ(cu.cuMemcpyDtoH(back.data(), ptr, n * 4), CUDA_SUCCESS);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(back[i], 2.0f * host[i]) << i;
  EXPECT_EQ(cu.cuMemFree(ptr), CUDA_SUCCESS) << "porta must not have freed the caller's memory";
}

// A CUDA pointer may start anywhere its type allows: 4 bytes past a 16-byte
// boundary, the vec4 arrays of mul_vec4.comp are off the 16 bytes that the
// translation's whole-vector loads and stores need, and must move component
// by component there (the kernel's entry point finds the buffers' starts off
// and runs the work item's instance that tests them, porta_cuda.h's
// porta_load_wide).
TEST_F(CudaDevice, VectorKernelsRunOnMemoryOffSixteenBytes) {
  const size_t n = 4096 + 3;
  std::vector<float> host(n + 1);
  for (size_t i = 0; i <= n; ++i) host[i] = float(i % 97) - 40.0f;
  CUdeviceptr ptr = 0, out = 0;
  ASSERT_EQ(cu.cuMemAlloc(&ptr, (n + 1) * 4), CUDA_SUCCESS);
  ASSERT_EQ(cu.cuMemAlloc(&out, (n + 1) * 4), CUDA_SUCCESS);
  ASSERT_EQ(cu.cuMemcpyHtoD(ptr, host.data(), (n + 1) * 4), CUDA_SUCCESS);
  {
    porta_native_memory in{}, to{};
    in.kind = to.kind = PORTA_NATIVE_MEMORY_CUDA_POINTER;
    in.cuda_pointer = ptr + 4;
    to.cuda_pointer = out + 4;
    in.bytes = to.bytes = n * 4;
    porta::Buffer a = porta::import_native(dev, in);
    porta::Buffer o = porta::import_native(dev, to);
    porta::Stream s = dev.stream();
    porta::ops::mul(s, porta::Tensor(a, {n}), porta::Tensor(a, {n}), porta::Tensor(o, {n}));
    s.sync();
  }
  std::vector<float> back(n);
  ASSERT_EQ(cu.cuMemcpyDtoH(back.data(), out + 4, n * 4), CUDA_SUCCESS);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(back[i], host[i + 1] * host[i + 1]) << i;
  EXPECT_EQ(cu.cuMemFree(ptr), CUDA_SUCCESS);
  EXPECT_EQ(cu.cuMemFree(out), CUDA_SUCCESS);
}

TEST_F(CudaDevice, DlpackOfCudaMemoryIsImportedWithoutACopy) {
  CUdeviceptr ptr = 0;
  ASSERT_EQ(cu.cuMemAlloc(&ptr, 4096), CUDA_SUCCESS);
  struct Owned {
    DLManagedTensor managed{};
    int64_t shape[1] = {1024};
    bool* deleted;
  };
  bool deleted = false;
  auto* o = new Owned;
  o->deleted = &deleted;
  o->managed.dl_tensor = {
      reinterpret_cast<void*>(ptr), {kDLCUDA, nd.cuda_device}, 1, {kDLFloat, 32, 1}, o->shape, nullptr, 0};
  o->managed.manager_ctx = o;
  o->managed.deleter = [](DLManagedTensor* self) {
    auto* me = static_cast<Owned*>(self->manager_ctx);
    *me->deleted = true;
    delete me;
  };
  {
    porta::Tensor view = porta::from_dlpack(dev, &o->managed);
    EXPECT_EQ(porta::native(view.buffer()).cuda_pointer, ptr);
    porta::Stream s = dev.stream();
    porta::ops::fill(s, view, 1.5f);
    s.sync();
  }
  EXPECT_TRUE(deleted);
  std::vector<float> back(1024);
  cu.cuMemcpyDtoH(back.data(), ptr, 4096);
  EXPECT_EQ(back[1023], 1.5f);
  cu.cuMemFree(ptr);
}

TEST_F(CudaDevice, HostMemoryIsRegistered) {
  const size_t n = 4096;
  void* mem = std::aligned_alloc(4096, n * 4);
  for (size_t i = 0; i < n; ++i) static_cast<float*>(mem)[i] = float(i);
  {
    porta::Buffer b = porta::import_host(dev, mem, n * 4);
    porta::Stream s = dev.stream();
    porta::ops::scale(s, porta::Tensor(b, {n}), -1.0f, porta::Tensor(b, {n}));
    s.sync();
  }
  EXPECT_EQ(static_cast<float*>(mem)[4095], -4095.0f);
  std::free(mem);
}

TEST_F(CudaDevice, WrappedStreamFollowsAndSignalsEvents) {
  CUstream theirs = nullptr;
  ASSERT_EQ(cu.cuStreamCreate(&theirs, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  CUevent before = nullptr, after = nullptr;
  cu.cuEventCreate(&before, CU_EVENT_DISABLE_TIMING);
  cu.cuEventCreate(&after, CU_EVENT_DISABLE_TIMING);
  std::vector<float> got(256);
  {
    porta::Stream s = porta::wrap_stream(dev, theirs);
    EXPECT_EQ(porta::native(s), static_cast<void*>(theirs));
    porta::Stream other = dev.stream();
    porta::Buffer b = dev.buffer(1024);
    cu.cuEventRecord(before, theirs);
    porta::wait_native_event(other, before);
    porta::ops::fill(other, porta::Tensor(b, {256}), 4.0f);
    porta::signal_native_event(other, after);
    porta::wait_native_event(s, after);
    s.read(b, got);
    s.sync();
    EXPECT_EQ(got[255], 4.0f);
  }
  EXPECT_EQ(cu.cuStreamSynchronize(theirs), CUDA_SUCCESS) << "the wrapped stream stays the caller's";
  EXPECT_EQ(cu.cuEventQuery(after), CUDA_SUCCESS);
  cu.cuEventDestroy(before);
  cu.cuEventDestroy(after);
  cu.cuStreamDestroy(theirs);
}

TEST_F(CudaDevice, PointersPortaCannotUseAreRefused) {
  porta_native_memory m{};
  m.struct_size = sizeof m;
  m.kind = PORTA_NATIVE_MEMORY_CUDA_POINTER;
  std::vector<float> host(16);
  m.cuda_pointer = reinterpret_cast<uint64_t>(host.data());  // not CUDA memory
  m.bytes = 64;
  porta_buffer b = nullptr;
  EXPECT_NE(porta_buffer_import_native(dev.handle(), &m, &b), PORTA_SUCCESS);
  EXPECT_NE(std::string(porta_last_error()).find("not a CUDA pointer"), std::string::npos)
      << porta_last_error();
  CUdeviceptr ptr = 0;
  cu.cuMemAlloc(&ptr, 256);
  m.cuda_pointer = ptr;
  m.bytes = 512;
  EXPECT_EQ(porta_buffer_import_native(dev.handle(), &m, &b), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(porta_last_error()).find("past the end of its allocation"), std::string::npos)
      << porta_last_error();
  cu.cuMemFree(ptr);
}

// The stream's destruction does not wait for the framework's event (a
// CUevent whose work waits on a flag in host memory, as a framework's
// stream may wait on another process or device); the memory the left work
// uses is released only after that work has run.
//
// While the framework's stream waits, CUDA may make any call that loads a
// module or allocates memory wait for the device's work too (its implicit
// synchronisation), and that work could then never finish: the flag is set
// only after the destroy returns. So the kernel the left work runs is loaded
// first, the framework's stream starts waiting only inside `wait`, after the
// memory and stream are made, and a guard sets the flag after 10 s, so that
// a call that waits anyway fails the test on its times instead of hanging it.
TEST_F(CudaDevice, LeftWorkDoesNotHoldUpStreamDestroy) {
  {
    std::vector<float> ones(256, 1.0f);
    porta::Buffer warm = dev.upload(ones);
    porta::Stream s = dev.stream();
    porta::ops::scale(s, porta::Tensor(warm, {256}), 2.0f, porta::Tensor(warm, {256}));
    s.sync();
  }
  CUstream theirs = nullptr;
  ASSERT_EQ(cu.cuStreamCreate(&theirs, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  void* flag_memory = nullptr;
  ASSERT_EQ(cu.cuMemHostAlloc(&flag_memory, 4096, CU_MEMHOSTALLOC_DEVICEMAP), CUDA_SUCCESS);
  auto* flag = static_cast<volatile uint32_t*>(flag_memory);
  *flag = 0;
  CUdeviceptr flag_on_device = 0;
  ASSERT_EQ(cu.cuMemHostGetDevicePointer(&flag_on_device, flag_memory, 0), CUDA_SUCCESS);
  // A wait already met: does the device have stream memory operations at all?
  const CUresult waits = cu.cuStreamWaitValue32(theirs, flag_on_device, 0, CU_STREAM_WAIT_VALUE_GEQ);
  if (waits != CUDA_SUCCESS) {
    cu.cuStreamDestroy(theirs);
    cu.cuMemFreeHost(flag_memory);
    GTEST_SKIP() << "this device has no stream memory operations (cuStreamWaitValue32: " << waits << ")";
  }
  ASSERT_EQ(cu.cuStreamSynchronize(theirs), CUDA_SUCCESS);
  CUevent gate = nullptr;
  ASSERT_EQ(cu.cuEventCreate(&gate, CU_EVENT_DISABLE_TIMING), CUDA_SUCCESS);
  std::atomic<bool> done{false};
  std::thread guard([&] {
    const auto start = left_work::Clock::now();
    while (!done.load() && left_work::seconds_since(start) < 10.0)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    *flag = 1;
  });
  left_work::check_left_work(
      dev,
      [&](porta::Stream& s) {
        ASSERT_EQ(cu.cuStreamWaitValue32(theirs, flag_on_device, 1, CU_STREAM_WAIT_VALUE_GEQ), CUDA_SUCCESS);
        ASSERT_EQ(cu.cuEventRecord(gate, theirs), CUDA_SUCCESS);
        porta::wait_native_event(s, gate);
      },
      [&] { *flag = 1; });  // the framework's work is done
  done.store(true);
  guard.join();
  EXPECT_EQ(cu.cuStreamSynchronize(theirs), CUDA_SUCCESS);
  cu.cuEventDestroy(gate);
  cu.cuStreamDestroy(theirs);
  cu.cuMemFreeHost(flag_memory);
}

}  // namespace
