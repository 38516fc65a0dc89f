// porta/interop.h on the backend under test: host memory used in place,
// DLPack both ways, map/unmap, allocator hooks, native handles, the log sink
// and the error callback, and the refusals of bad input. What a backend
// cannot do in place is refused with PORTA_ERROR_UNSUPPORTED naming it; the
// tests check that refusal where the backend says it cannot.
#include "porta/interop.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "support/backend_under_test.hpp"

namespace {

using porta::test::open_under_test;

// Host memory aligned to the page, freed by free().
struct HostMemory {
  explicit HostMemory(size_t bytes)
      : bytes(bytes), data(std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096)) {}
  ~HostMemory() { std::free(data); }
  float* floats() const { return static_cast<float*>(data); }
  size_t bytes;
  void* data;
};

// Imports `memory`, or returns an empty buffer after checking the refusal names the backend.
porta::Buffer import_or_refusal(porta::Device& dev, void* ptr, size_t bytes) {
  const std::string backend = dev.backend();
  porta_buffer b = nullptr;
  porta_status st = porta_buffer_import_host(dev.handle(), ptr, bytes, &b);
  if (st == PORTA_SUCCESS) return porta::Buffer(b);
  const std::string message = porta_last_error();
  EXPECT_EQ(st, PORTA_ERROR_UNSUPPORTED) << message;
  EXPECT_NE(message.find(backend), std::string::npos) << message;
  EXPECT_EQ(b, nullptr);
  return porta::Buffer();
}

TEST(Interop, HostMemoryIsUsedInPlace) {
  auto dev = open_under_test();
  const size_t n = 1000;
  HostMemory mem(n * 4);
  for (size_t i = 0; i < n; ++i) mem.floats()[i] = float(i);
  porta::Buffer b = import_or_refusal(dev, mem.data, n * 4);
  if (!b) GTEST_SKIP() << "the " << dev.backend() << " backend cannot use this host memory in place";
  EXPECT_EQ(b.size(), n * 4);
  // The device sees the host's values and the host sees the device's writes.
  porta::Stream s = dev.stream();
  porta::ops::scale(s, porta::Tensor(b, {n}), 2.0f, porta::Tensor(b, {n}));
  s.sync();
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(mem.floats()[i], 2.0f * float(i)) << i;
  void* p = nullptr;
  if (porta_buffer_host_pointer(b.handle(), &p) == PORTA_SUCCESS) {
    EXPECT_EQ(p, mem.data);
  }
  const porta_native_memory m = porta::native(b);
  if (m.host_pointer) {
    EXPECT_EQ(m.host_pointer, mem.data);
  }
}

// Imported host memory as a stream copy's source and destination (the
// staging a streaming upload copies from: on CUDA, page-locked memory read
// by a DMA): the device buffer receives the host's values, and the host's
// memory the device's.
TEST(Interop, StreamCopiesFromAndToImportedHostMemory) {
  auto dev = open_under_test();
  const size_t n = 3 << 18;  // 3 MiB
  HostMemory from(n * 4), to(n * 4);
  for (size_t i = 0; i < n; ++i) from.floats()[i] = float(i) * 0.5f;
  porta::Buffer src = import_or_refusal(dev, from.data, n * 4);
  porta::Buffer dst = import_or_refusal(dev, to.data, n * 4);
  if (!src || !dst)
    GTEST_SKIP() << "the " << dev.backend() << " backend cannot use this host memory in place";
  porta::Buffer device = dev.buffer(n * 4);
  porta::Stream s = dev.stream();
  s.copy(src, device, n * 4);
  s.copy(device, dst, n * 4 - 64, 64, 0);  // an offset on the device's side
  s.sync();
  EXPECT_EQ(device.to_vector<float>(), std::vector<float>(from.floats(), from.floats() + n));
  for (size_t i = 0; i + 16 < n; ++i) ASSERT_EQ(to.floats()[i], from.floats()[i + 16]) << i;
}

TEST(Interop, ReleaseCallbackRunsOnceAfterTheLastUse) {
  auto dev = open_under_test();
  HostMemory mem(256);
  int released = 0;
  porta_native_memory m{};
  m.kind = PORTA_NATIVE_MEMORY_HOST;
  m.host_pointer = mem.data;
  m.bytes = 256;
  m.release = [](void* count) { ++*static_cast<int*>(count); };
  m.release_user_data = &released;
  m.struct_size = sizeof m;
  porta_buffer b = nullptr;
  porta_status st = porta_buffer_import_native(dev.handle(), &m, &b);
  if (st == PORTA_ERROR_UNSUPPORTED) {
    EXPECT_EQ(released, 0) << "a refused import must not release the caller's memory";
    GTEST_SKIP() << porta_last_error();
  }
  ASSERT_EQ(st, PORTA_SUCCESS) << porta_last_error();
  porta::Stream s = dev.stream();
  std::vector<float> ones(64, 1.0f);
  s.write(porta::Buffer(b), ones);  // the wrapper's copy keeps the handle; the stream keeps the buffer
  EXPECT_EQ(released, 0);
  s.sync();
  EXPECT_EQ(released, 1);
  EXPECT_EQ(static_cast<float*>(mem.data)[63], 1.0f);
}

// A stream that is never synced (a framework's, which a custom operator
// queues on) lets go of the buffers of work the device has finished: the
// framework's memory comes back without a sync, on every backend (Vulkan
// submits a stream's work at the marks the core records to tell when).
TEST(Interop, FinishedWorkReleasesForeignMemoryWithoutASync) {
  auto dev = open_under_test();
  HostMemory mem(256);
  int released = 0;
  porta_native_memory m{};
  m.struct_size = sizeof m;
  m.kind = PORTA_NATIVE_MEMORY_HOST;
  m.host_pointer = mem.data;
  m.bytes = 256;
  m.release = [](void* count) { ++*static_cast<int*>(count); };
  m.release_user_data = &released;
  porta_buffer imported = nullptr;
  porta_status st = porta_buffer_import_native(dev.handle(), &m, &imported);
  if (st == PORTA_ERROR_UNSUPPORTED) GTEST_SKIP() << porta_last_error();
  ASSERT_EQ(st, PORTA_SUCCESS) << porta_last_error();
  porta::Stream s = dev.stream();
  {
    porta::Buffer b(imported);
    porta::ops::scale(s, porta::Tensor(b, {64}), 2.0f, porta::Tensor(b, {64}));
  }
  porta::Buffer other = dev.buffer(256);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  int ops = 0;
  while (released == 0 && std::chrono::steady_clock::now() < deadline && ops < 100000) {
    porta::ops::scale(s, porta::Tensor(other, {64}), 1.0f, porta::Tensor(other, {64}));
    if (++ops % 32 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(released, 1) << "still held after " << ops << " later operations without a sync";
  s.sync();
  EXPECT_EQ(released, 1);
}

TEST(Interop, DlpackRoundTripSharesMemory) {
  auto dev = open_under_test();
  std::vector<float> host(6 * 5);
  for (size_t i = 0; i < host.size(); ++i) host[i] = float(i) - 7;
  porta::Buffer b = dev.upload(host);
  const porta::Tensor tensor(b, {5, 6});
  porta_tensor view = *tensor.get();
  DLManagedTensor* t = nullptr;
  porta_status st = porta_tensor_export_dlpack(&view, &t);
  if (st == PORTA_ERROR_UNSUPPORTED) {
    EXPECT_NE(std::string(porta_last_error()).find("DLPack"), std::string::npos) << porta_last_error();
    GTEST_SKIP() << porta_last_error();
  }
  ASSERT_EQ(st, PORTA_SUCCESS) << porta_last_error();
  EXPECT_EQ(t->dl_tensor.ndim, 2);
  EXPECT_EQ(t->dl_tensor.shape[0], 5);
  EXPECT_EQ(t->dl_tensor.shape[1], 6);
  EXPECT_EQ(t->dl_tensor.strides[0], 6);
  EXPECT_EQ(t->dl_tensor.strides[1], 1);
  EXPECT_EQ(t->dl_tensor.dtype.code, kDLFloat);
  EXPECT_EQ(t->dl_tensor.dtype.bits, 32);
  if (t->dl_tensor.device.device_type == kDLCPU) {
    const float* data = static_cast<const float*>(t->dl_tensor.data);
    EXPECT_EQ(data[7], host[7]);
  }
  void* data = t->dl_tensor.data;
  b = porta::Buffer();  // the DLPack tensor keeps the memory alive
  porta::Tensor back = porta::from_dlpack(dev, t);
  const porta_native_memory m = porta::native(back.buffer());
  if (m.host_pointer) {
    EXPECT_EQ(m.host_pointer, data);
  } else if (m.kind == PORTA_NATIVE_MEMORY_CUDA_POINTER) {
    EXPECT_EQ(reinterpret_cast<void*>(m.cuda_pointer), data);
  }
  EXPECT_EQ(back.rank(), 2u);
  EXPECT_EQ(back.dim(0), 5u);
  EXPECT_EQ(back.get()->dtype, PORTA_DTYPE_FLOAT32);
  std::vector<float> seen(30);
  back.buffer().read(seen, back.get()->offset * 4);
  EXPECT_EQ(seen, host);
}

// A DLPack tensor made by someone else (here: a plain struct over host memory).
struct ForeignTensor {
  DLManagedTensor managed{};
  int64_t shape[2], strides[2];
  HostMemory mem{4096};
  bool* deleted;
};

ForeignTensor* foreign(bool* deleted, int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride,
                       uint64_t byte_offset = 0) {
  auto* f = new ForeignTensor;
  f->deleted = deleted;
  f->shape[0] = rows;
  f->shape[1] = cols;
  f->strides[0] = row_stride;
  f->strides[1] = col_stride;
  DLTensor& t = f->managed.dl_tensor;
  t.data = f->mem.data;
  t.device = {kDLCPU, 0};
  t.ndim = 2;
  t.dtype = {kDLFloat, 32, 1};
  t.shape = f->shape;
  t.strides = f->strides;
  t.byte_offset = byte_offset;
  for (int i = 0; i < 1024; ++i) f->mem.floats()[i] = float(i);
  f->managed.manager_ctx = f;
  f->managed.deleter = [](DLManagedTensor* self) {
    auto* me = static_cast<ForeignTensor*>(self->manager_ctx);
    *me->deleted = true;
    delete me;
  };
  return f;
}

TEST(Interop, DlpackImportCallsTheDeleterWhenTheBufferGoes) {
  auto dev = open_under_test();
  bool deleted = false;
  ForeignTensor* f = foreign(&deleted, 4, 3, 3, 1, 8);  // starts at element 2: not 16-byte aligned
  porta_tensor view{};
  porta_status st = porta_tensor_import_dlpack(dev.handle(), &f->managed, &view);
  if (st == PORTA_ERROR_UNSUPPORTED) {
    EXPECT_FALSE(deleted) << "a refused import leaves the tensor to its owner";
    f->managed.deleter(&f->managed);
    GTEST_SKIP() << porta_last_error();
  }
  ASSERT_EQ(st, PORTA_SUCCESS) << porta_last_error();
  EXPECT_EQ(view.offset, 2u);
  EXPECT_EQ(view.shape[0], 4u);
  EXPECT_EQ(view.shape[1], 3u);
  // The view holds the tensor's elements: out = view + view.
  {
    porta::Buffer in(view.buffer);  // owns the handle from here
    porta::Buffer out = dev.buffer(12 * 4);
    porta::Stream s = dev.stream();
    const porta::Tensor t(in, {4, 3}, view.offset);
    porta::ops::add(s, t, t, porta::Tensor(out, {4, 3}));
    std::vector<float> got(12);
    s.read(out, got);
    s.sync();
    for (int i = 0; i < 12; ++i) EXPECT_EQ(got[i], 2.0f * float(i + 2)) << i;
    EXPECT_FALSE(deleted);
  }
  EXPECT_TRUE(deleted);
}

TEST(Interop, DlpackImportRefusesWhatPortaCannotView) {
  auto dev = open_under_test();
  bool deleted = false;
  struct Row {
    int64_t rows, cols, row_stride, col_stride;
    uint64_t byte_offset;
    const char* expect;
  };
  for (const Row& r : {Row{4, 3, -3, 1, 0, "strides[0] is -3"}, Row{4, 3, 3, 1, 2, "byte_offset 2"}}) {
    ForeignTensor* f = foreign(&deleted, r.rows, r.cols, r.row_stride, r.col_stride, r.byte_offset);
    porta_tensor view{};
    EXPECT_EQ(porta_tensor_import_dlpack(dev.handle(), &f->managed, &view), PORTA_ERROR_UNSUPPORTED);
    EXPECT_NE(std::string(porta_last_error()).find(r.expect), std::string::npos) << porta_last_error();
    EXPECT_NE(std::string(porta_last_error()).find("porta_tensor_import_dlpack"), std::string::npos);
    EXPECT_EQ(view.buffer, nullptr);
    EXPECT_FALSE(deleted);
    f->managed.deleter(&f->managed);
    deleted = false;
  }
  // Vector lanes and devices porta does not import.
  ForeignTensor* f = foreign(&deleted, 2, 2, 2, 1);
  f->managed.dl_tensor.dtype.lanes = 4;
  porta_tensor view{};
  EXPECT_EQ(porta_tensor_import_dlpack(dev.handle(), &f->managed, &view), PORTA_ERROR_UNSUPPORTED);
  EXPECT_NE(std::string(porta_last_error()).find("lanes"), std::string::npos) << porta_last_error();
  f->managed.dl_tensor.dtype.lanes = 1;
  f->managed.dl_tensor.device = {kDLROCM, 0};
  EXPECT_EQ(porta_tensor_import_dlpack(dev.handle(), &f->managed, &view), PORTA_ERROR_UNSUPPORTED);
  EXPECT_NE(std::string(porta_last_error()).find("kDLCPU and kDLCUDA"), std::string::npos)
      << porta_last_error();
  f->managed.dl_tensor.device = {kDLCUDA, 0};
  const std::string backend = dev.backend();
  const porta_status cuda = porta_tensor_import_dlpack(dev.handle(), &f->managed, &view);
  const std::string message = porta_last_error();
  if (backend != "cuda") {
    // Host memory claimed to be CUDA memory: refused before anything reads it.
    EXPECT_EQ(cuda, PORTA_ERROR_UNSUPPORTED);
    EXPECT_NE(message.find("open a CUDA device"), std::string::npos) << message;
  }
  EXPECT_FALSE(deleted);
  if (cuda != PORTA_SUCCESS) f->managed.deleter(&f->managed);
  EXPECT_EQ(porta_tensor_import_dlpack(dev.handle(), nullptr, &view), PORTA_ERROR_INVALID_ARGUMENT);
}

TEST(Interop, HostImportRefusesMisalignedAndNull) {
  auto dev = open_under_test();
  HostMemory mem(1024);
  porta_buffer b = nullptr;
  EXPECT_EQ(porta_buffer_import_host(dev.handle(), static_cast<char*>(mem.data) + 4, 64, &b),
            PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(porta_last_error()).find("not aligned to 16 bytes"), std::string::npos)
      << porta_last_error();
  EXPECT_EQ(b, nullptr);
  EXPECT_EQ(porta_buffer_import_host(dev.handle(), nullptr, 64, &b), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(porta_buffer_import_host(dev.handle(), mem.data, 0, &b), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(porta_last_error()).find("0 bytes"), std::string::npos) << porta_last_error();
  porta_native_memory m{};
  m.struct_size = sizeof m;
  m.kind = static_cast<porta_native_memory_kind>(42);
  m.bytes = 64;
  EXPECT_EQ(porta_buffer_import_native(dev.handle(), &m, &b), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(porta_last_error()).find("memory kind 42"), std::string::npos) << porta_last_error();
  m.struct_size = 4;
  EXPECT_EQ(porta_buffer_import_native(dev.handle(), &m, &b), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(porta_last_error()).find("struct_size"), std::string::npos) << porta_last_error();
}

TEST(Interop, ForeignKindsOfAnotherApiAreRefused) {
  auto dev = open_under_test();
  const porta_native_device nd = porta::native(dev);
  EXPECT_EQ(std::string(nd.api), dev.backend());
  struct Kind {
    porta_native_memory_kind kind;
    bool own;  // the backend's own kind
  };
  for (const Kind k : {Kind{PORTA_NATIVE_MEMORY_CUDA_POINTER, nd.cuda_context != nullptr},
                       Kind{PORTA_NATIVE_MEMORY_CL_MEM, nd.cl_context != nullptr},
                       Kind{PORTA_NATIVE_MEMORY_VK_BUFFER, nd.vk_device != nullptr}}) {
    if (k.own) continue;
    porta_native_memory m{};
    m.struct_size = sizeof m;
    m.kind = k.kind;
    m.bytes = 64;
    m.cuda_pointer = 0x1000;
    m.cl_mem = reinterpret_cast<void*>(0x1000);
    m.vk_buffer = m.vk_memory = 0x1000;
    porta_buffer b = nullptr;
    const std::string backend = dev.backend();
    EXPECT_EQ(porta_buffer_import_native(dev.handle(), &m, &b), PORTA_ERROR_UNSUPPORTED) << k.kind;
    const std::string message = porta_last_error();
    EXPECT_NE(message.find(backend), std::string::npos) << message;
  }
}

TEST(Interop, MapReadsAndUnmapWritesBack) {
  auto dev = open_under_test();
  std::vector<float> host(100);
  for (size_t i = 0; i < host.size(); ++i) host[i] = float(i);
  porta::Buffer b = dev.upload(host);
  {
    porta::Mapping map(b, 40, 20 * 4);
    float* p = map.as<float>();
    EXPECT_EQ(p[0], 10.0f);
    EXPECT_EQ(p[19], 29.0f);
    for (int i = 0; i < 20; ++i) p[i] = -p[i];
    // An overlapping range is refused while this one is mapped.
    void* other = nullptr;
    EXPECT_EQ(porta_buffer_map(b.handle(), 0, 44, &other), PORTA_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(porta_last_error()).find("overlaps"), std::string::npos) << porta_last_error();
    map.unmap();
  }
  std::vector<float> after = b.to_vector<float>();
  for (size_t i = 0; i < after.size(); ++i)
    EXPECT_EQ(after[i], i >= 10 && i < 30 ? -float(i) : float(i)) << i;
  void* p = nullptr;
  EXPECT_EQ(porta_buffer_map(b.handle(), 400, 4, &p), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(porta_buffer_map(b.handle(), 396, 8, &p), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(porta_buffer_unmap(b.handle(), host.data()), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(porta_last_error()).find("not a pointer porta_buffer_map gave"), std::string::npos);
}

// An allocator hook that hands out host memory and counts.
struct CountingAllocator {
  int allocated = 0, freed = 0;
  static porta_status allocate(void* self, uint64_t bytes, porta_native_memory* m) {
    void* p = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
    if (!p) return PORTA_ERROR_OUT_OF_MEMORY;
    m->kind = PORTA_NATIVE_MEMORY_HOST;
    m->host_pointer = p;
    m->bytes = bytes;
    ++static_cast<CountingAllocator*>(self)->allocated;
    return PORTA_SUCCESS;
  }
  static void free(void* self, const porta_native_memory* m) {
    std::free(m->host_pointer);
    ++static_cast<CountingAllocator*>(self)->freed;
  }
};

TEST(Interop, AllocatorHookSuppliesBuffers) {
  auto dev = open_under_test();
  CountingAllocator counts;
  porta_allocator a{sizeof(porta_allocator), CountingAllocator::allocate, CountingAllocator::free, &counts};
  if (porta_device_set_allocator(dev.handle(), &a) == PORTA_ERROR_UNSUPPORTED)
    GTEST_SKIP() << porta_last_error();
  {
    porta_buffer raw = nullptr;
    porta_status st = porta_buffer_create(dev.handle(), 1024, &raw);
    if (st == PORTA_ERROR_UNSUPPORTED) {
      // The backend imports some memory, but not host memory: the hook's memory went back.
      EXPECT_EQ(counts.allocated, counts.freed);
      ASSERT_EQ(porta_device_set_allocator(dev.handle(), nullptr), PORTA_SUCCESS);
      GTEST_SKIP() << porta_last_error();
    }
    ASSERT_EQ(st, PORTA_SUCCESS) << porta_last_error();
    porta::Buffer b(raw);
    EXPECT_EQ(counts.allocated, 1);
    std::vector<float> v(256, 3.0f);
    b.write(v);
    EXPECT_EQ(b.to_vector<float>(), v);
  }
  EXPECT_EQ(counts.freed, 1);
  ASSERT_EQ(porta_device_set_allocator(dev.handle(), nullptr), PORTA_SUCCESS);
  porta::Buffer own = dev.buffer(64);
  EXPECT_EQ(counts.allocated, 1) << "buffers after the hook is removed are porta's own";
  porta_allocator half{sizeof(porta_allocator), CountingAllocator::allocate, nullptr, &counts};
  EXPECT_EQ(porta_device_set_allocator(dev.handle(), &half), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(porta_last_error()).find("allocator->free is null"), std::string::npos);
}

TEST(Interop, LogSinkAndErrorCallbackReceiveMessages) {
  struct Seen {
    std::vector<std::string> errors;
  } seen;
  porta_set_error_callback(
      [](porta_status status, const char* message, void* user) {
        static_cast<Seen*>(user)->errors.push_back(std::string(porta_status_name(status)) + "|" + message);
      },
      &seen);
  auto dev = open_under_test();
  porta_buffer b = nullptr;
  EXPECT_EQ(porta_buffer_create(dev.handle(), 0, &b), PORTA_ERROR_INVALID_ARGUMENT);
  porta_buffer_destroy(reinterpret_cast<porta_buffer>(&seen));  // no status: only the callback hears it
  porta_set_error_callback(nullptr, nullptr);
  EXPECT_EQ(porta_buffer_create(dev.handle(), 0, &b), PORTA_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(seen.errors.size(), 2u);
  EXPECT_NE(seen.errors[0].find("PORTA_ERROR_INVALID_ARGUMENT|"), std::string::npos) << seen.errors[0];
  EXPECT_NE(seen.errors[0].find("size is 0 bytes"), std::string::npos) << seen.errors[0];
  EXPECT_NE(seen.errors[1].find("porta_buffer_destroy"), std::string::npos) << seen.errors[1];

  // The log sink: this test runs with PORTA_LOG=info, so opening a device logs its choice.
  static std::vector<std::string> logged;
  porta_set_log_sink([](porta_log_level level, const char* message,
                        void*) { logged.push_back(std::to_string(level) + "|" + message); },
                     nullptr);
  { auto again = open_under_test(); }
  porta_set_log_sink(nullptr, nullptr);
  const size_t heard = logged.size();
  { auto unheard = open_under_test(); }
  EXPECT_EQ(logged.size(), heard) << "messages after the sink was removed";
  bool choice = false;
  for (const std::string& m : logged) choice |= m.rfind("2|using " + dev.backend(), 0) == 0;
  EXPECT_TRUE(choice) << "the device choice was not heard";
}

TEST(Interop, NativeHandlesOfTheDevice) {
  auto dev = open_under_test();
  const porta_native_device nd = porta::native(dev);
  const std::string api = nd.api;
  EXPECT_EQ(api, dev.backend());
  if (api == "opencl") {
    EXPECT_NE(nd.cl_context, nullptr);
    EXPECT_NE(nd.cl_device, nullptr);
    EXPECT_NE(nd.cl_platform, nullptr);
  } else if (api == "vulkan") {
    EXPECT_NE(nd.vk_instance, nullptr);
    EXPECT_NE(nd.vk_physical_device, nullptr);
    EXPECT_NE(nd.vk_device, nullptr);
    EXPECT_NE(nd.vk_queue, nullptr);
  } else if (api == "cuda") {
    EXPECT_NE(nd.cuda_context, nullptr);
  }
  porta_native_device small{};
  small.struct_size = 8;
  EXPECT_EQ(porta_device_native(dev.handle(), &small), PORTA_ERROR_INVALID_ARGUMENT);
}

TEST(Interop, StreamWrapRefusesNull) {
  auto dev = open_under_test();
  porta_stream s = nullptr;
  EXPECT_EQ(porta_stream_wrap_native(dev.handle(), nullptr, &s), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(porta_last_error()).find("native_stream is null"), std::string::npos);
  porta::Stream own = dev.stream();
  void* native = nullptr;
  const porta_status st = porta_stream_native(own.handle(), &native);
  if (st == PORTA_SUCCESS)
    EXPECT_NE(native, nullptr);
  else
    EXPECT_EQ(st, PORTA_ERROR_UNSUPPORTED) << porta_last_error();
  EXPECT_EQ(porta_stream_wait_native_event(own.handle(), nullptr), PORTA_ERROR_INVALID_ARGUMENT);
}

}  // namespace
