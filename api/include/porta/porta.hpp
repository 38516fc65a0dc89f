// porta C++ API: RAII over the C API of porta.h; failures throw porta::Error.
// Header-only over libporta's C ABI; needs C++17 or later.
//
//   porta::Device dev = porta::open();            // PORTA_BACKEND / PORTA_DEVICE, else the best device
//   porta::Buffer a = dev.upload(std::span<const float>(host));  // C++17: dev.upload(host) or porta::Span
//   porta::Kernel k = dev.kernel(porta::glsl(src));
//   porta::Stream s = dev.stream();
//   s.dispatch(k, {groups, 1, 1}, {a, b, out}, push_constants);
//   s.read(out, std::span<float>(result));
//   s.sync();
//
// Objects are reference-counted handles: copies share one object, and every
// object keeps the device it came from alive, so destruction order is free.
// Threading: a Device and its Buffers and Kernels may be used from several
// threads at once; a Stream belongs to one thread at a time.
//
// Host memory is passed as a std::vector, a porta::Span (pointer and count, or
// any contiguous container) or, in C++20, a std::span.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if __cplusplus >= 202002L && defined(__has_include)
#if __has_include(<span>)
#include <span>
#endif
#endif

#include "porta/porta.h"

#if defined(__cpp_lib_span)
#define PORTA_HPP_STD_SPAN 1  // std::span overloads are declared too
#endif

namespace porta {

class Error : public std::runtime_error {
 public:
  Error(porta_status status, const std::string& message) : std::runtime_error(message), status_(status) {}
  porta_status status() const { return status_; }

 private:
  porta_status status_;
};

namespace detail {
inline void check(porta_status status) {
  if (status != PORTA_SUCCESS) throw Error(status, porta_last_error());
}
// What every object of this API is: a reference-counted C handle, given to
// `Destroy` when the last copy goes.
template <class Handle, void (*Destroy)(Handle)>
class Object {
 public:
  using handle_type = Handle;
  Object() = default;
  explicit Object(Handle handle) : handle_(handle, [](Handle h) { Destroy(h); }) {}
  Handle handle() const { return handle_.get(); }
  explicit operator bool() const { return handle_ != nullptr; }

 private:
  std::shared_ptr<std::remove_pointer_t<Handle>> handle_;
};

// The object a C entry point makes: create(args..., &handle), checked.
template <class T, class... Params, class... Args>
T created(porta_status (*create)(Params...), Args... args) {
  typename T::handle_type handle = nullptr;
  check(create(args..., &handle));
  return T(handle);
}

// The element pointer of a contiguous range (std::data), if it has one.
template <class Range>
using data_pointer = decltype(std::data(std::declval<Range&>()));
template <class Range, class T, class = void>
struct is_range_of : std::false_type {};
// As std::span: the range's elements must be T, or T with more const.
template <class Range, class T>
struct is_range_of<Range, T, std::void_t<data_pointer<Range>, decltype(std::size(std::declval<Range&>()))>>
    : std::is_convertible<std::remove_pointer_t<data_pointer<Range>> (*)[], T (*)[]> {};
}  // namespace detail

// A view of `size()` contiguous elements of type T: std::span's core, for C++17
// callers. Converts from a pointer and a count, std::vector, std::array, C
// arrays and (in C++20) std::span; it does not own the elements.
template <class T>
class Span {
 public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;

  constexpr Span() noexcept = default;
  constexpr Span(T* data, size_t size) noexcept : data_(data), size_(size) {}
  template <class Range, std::enable_if_t<detail::is_range_of<Range, T>::value, int> = 0>
  constexpr Span(Range&& range) noexcept : data_(std::data(range)), size_(std::size(range)) {}

  constexpr T* data() const noexcept { return data_; }
  constexpr size_t size() const noexcept { return size_; }
  constexpr size_t size_bytes() const noexcept { return size_ * sizeof(T); }
  constexpr bool empty() const noexcept { return size_ == 0; }
  constexpr T* begin() const noexcept { return data_; }
  constexpr T* end() const noexcept { return data_ + size_; }
  constexpr T& operator[](size_t i) const noexcept { return data_[i]; }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};
template <class T>
Span(T*, size_t) -> Span<T>;
template <class Range>
Span(Range&) -> Span<std::remove_pointer_t<detail::data_pointer<Range>>>;

using DeviceInfo = porta_device_info;

class Device;

struct BackendInfo {
  std::string name;
  bool available = false;
  std::string reason;  // why it is unavailable
};

// Every backend whose plugin was found, loaded or not.
inline std::vector<BackendInfo> backends() {
  std::vector<BackendInfo> out;
  for (uint32_t i = 0, n = porta_backend_count(); i < n; ++i) {
    const char* name = nullptr;
    const char* reason = nullptr;
    int available = 0;
    detail::check(porta_backend_get(i, &name, &available, &reason));
    out.push_back({name, available != 0, reason ? reason : ""});
  }
  return out;
}

// Every device of every available backend, best first.
inline std::vector<DeviceInfo> devices() {
  std::vector<DeviceInfo> out(porta_device_count());
  for (uint32_t i = 0; i < out.size(); ++i) detail::check(porta_device_get_info(i, &out[i]));
  return out;
}

// A specialization-constant value for a kernel: the value's bit pattern, 32
// bits (porta_spec_constant: bool, 8/16/32-bit integers, float16 and float) or
// 64 (porta_spec_constant64: int64_t, uint64_t, double), as the constructor's
// type says. The core checks it against the constant's declared type.
struct SpecConstant {
  uint32_t id;
  uint64_t bits;
  uint32_t width = 4;  // bytes of the value given: 4 or 8
  SpecConstant(uint32_t id, uint32_t value) : id(id), bits(value) {}
  SpecConstant(uint32_t id, int value) : id(id), bits(static_cast<uint32_t>(value)) {}
  SpecConstant(uint32_t id, bool value) : id(id), bits(value ? 1u : 0u) {}
  SpecConstant(uint32_t id, float value) : id(id), bits(0) { std::memcpy(&bits, &value, sizeof value); }
  SpecConstant(uint32_t id, int64_t value) : id(id), bits(static_cast<uint64_t>(value)), width(8) {}
  SpecConstant(uint32_t id, uint64_t value) : id(id), bits(value), width(8) {}
  SpecConstant(uint32_t id, double value) : id(id), bits(0), width(8) {
    std::memcpy(&bits, &value, sizeof value);
  }
};

// Where a kernel comes from: GLSL compute source or SPIR-V words.
struct KernelSource {
  bool is_glsl = true;
  std::string text;
  std::vector<uint32_t> words;
  std::string name;
};
inline KernelSource glsl(std::string source, std::string name = "kernel") {
  return {true, std::move(source), {}, std::move(name)};
}
inline KernelSource spirv(std::vector<uint32_t> words, std::string name = "kernel") {
  return {false, {}, std::move(words), std::move(name)};
}

class Buffer : public detail::Object<porta_buffer, porta_buffer_destroy> {
 public:
  using Object::Object;
  uint64_t size() const { return porta_buffer_size(handle()); }
  // A range to bind in Stream::dispatch_ranges (size 0: to the end); the
  // buffer must outlive the dispatch call.
  porta_binding range(uint64_t offset, uint64_t size = 0) const { return {handle(), offset, size}; }
  // The device the buffer belongs to.
  Device device() const;

  // Synchronous transfers (the device's own stream).
  template <class T>
  void write(Span<T> data, uint64_t offset_bytes = 0) const {
    detail::check(porta_buffer_write(handle(), offset_bytes, data.data(), data.size_bytes()));
  }
  template <class T>
  void write(const std::vector<T>& data, uint64_t offset_bytes = 0) const {
    write(Span<const T>(data), offset_bytes);
  }
  template <class T>
  void read(Span<T> data, uint64_t offset_bytes = 0) const {
    detail::check(porta_buffer_read(handle(), offset_bytes, data.data(), data.size_bytes()));
  }
  template <class T>
  void read(std::vector<T>& data, uint64_t offset_bytes = 0) const {
    read(Span<T>(data), offset_bytes);
  }
#ifdef PORTA_HPP_STD_SPAN
  template <class T>
  void write(std::span<const T> data, uint64_t offset_bytes = 0) const {
    write(Span<const T>(data), offset_bytes);
  }
  template <class T>
  void read(std::span<T> data, uint64_t offset_bytes = 0) const {
    read(Span<T>(data), offset_bytes);
  }
#endif
  template <class T>
  std::vector<T> to_vector() const {
    std::vector<T> out(size() / sizeof(T));
    read(out);
    return out;
  }
};

class Kernel : public detail::Object<porta_kernel, porta_kernel_destroy> {
 public:
  using Object::Object;
  uint32_t buffer_count() const { return porta_kernel_buffer_count(handle()); }
  uint32_t push_constant_size() const { return porta_kernel_push_constant_size(handle()); }
  std::array<uint32_t, 3> workgroup_size() const {
    std::array<uint32_t, 3> size{};
    porta_kernel_workgroup_size(handle(), size.data());
    return size;
  }
};

class Event : public detail::Object<porta_event, porta_event_destroy> {
 public:
  using Object::Object;
  // Milliseconds from this event to `end`; sync the stream first.
  double elapsed_ms(const Event& end) const {
    double ms = 0;
    detail::check(porta_event_elapsed_ms(handle(), end.handle(), &ms));
    return ms;
  }
};

// A recorded sequence of stream operations, replayed with Stream::replay.
class Sequence : public detail::Object<porta_sequence, porta_sequence_destroy> {
 public:
  using Object::Object;
};

struct Groups {
  uint32_t x = 1, y = 1, z = 1;
};

// An in-order queue. Operations are asynchronous: host memory given to
// write/read must stay valid until sync().
class Stream : public detail::Object<porta_stream, porta_stream_destroy> {
 public:
  using Object::Object;
  // The device the stream belongs to.
  Device device() const;

  template <class T>
  void write(const Buffer& dst, Span<T> src, uint64_t offset_bytes = 0) {
    detail::check(porta_stream_write(handle(), dst.handle(), offset_bytes, src.data(), src.size_bytes()));
  }
  template <class T>
  void write(const Buffer& dst, const std::vector<T>& src, uint64_t offset_bytes = 0) {
    write(dst, Span<const T>(src), offset_bytes);
  }
  template <class T>
  void read(const Buffer& src, Span<T> dst, uint64_t offset_bytes = 0) {
    detail::check(porta_stream_read(handle(), src.handle(), offset_bytes, dst.data(), dst.size_bytes()));
  }
  template <class T>
  void read(const Buffer& src, std::vector<T>& dst, uint64_t offset_bytes = 0) {
    read(src, Span<T>(dst), offset_bytes);
  }
#ifdef PORTA_HPP_STD_SPAN
  template <class T>
  void write(const Buffer& dst, std::span<const T> src, uint64_t offset_bytes = 0) {
    write(dst, Span<const T>(src), offset_bytes);
  }
  template <class T>
  void read(const Buffer& src, std::span<T> dst, uint64_t offset_bytes = 0) {
    read(src, Span<T>(dst), offset_bytes);
  }
#endif
  void copy(const Buffer& src, const Buffer& dst, uint64_t size, uint64_t src_offset = 0,
            uint64_t dst_offset = 0) {
    detail::check(porta_stream_copy(handle(), src.handle(), src_offset, dst.handle(), dst_offset, size));
  }
  void fill(const Buffer& dst, uint32_t pattern, uint64_t offset = 0, uint64_t size = UINT64_MAX) {
    if (size == UINT64_MAX) size = dst.size() - offset;
    detail::check(porta_stream_fill(handle(), dst.handle(), offset, size, pattern));
  }
  void fill(const Buffer& dst, float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    fill(dst, bits);
  }

  // Buffers in the kernel's parameter order (ascending binding).
  void dispatch(const Kernel& kernel, Groups groups, std::initializer_list<Buffer> buffers) {
    dispatch_bytes(kernel, groups, buffers, nullptr, 0);
  }
  // `push` is the kernel's push-constant block (a struct laid out as std430).
  template <class Push, std::enable_if_t<std::is_trivially_copyable_v<Push>, int> = 0>
  void dispatch(const Kernel& kernel, Groups groups, std::initializer_list<Buffer> buffers,
                const Push& push) {
    dispatch_bytes(kernel, groups, buffers, &push, sizeof(Push));
  }
  void dispatch_bytes(const Kernel& kernel, Groups groups, Span<const Buffer> buffers, const void* push,
                      uint32_t push_size) {
    std::vector<porta_buffer> handles;
    handles.reserve(buffers.size());
    for (const auto& b : buffers) handles.push_back(b.handle());
    const uint32_t g[3] = {groups.x, groups.y, groups.z};
    detail::check(porta_stream_dispatch(handle(), kernel.handle(), g, handles.data(),
                                        static_cast<uint32_t>(handles.size()), push, push_size));
  }
  void dispatch_bytes(const Kernel& kernel, Groups groups, std::initializer_list<Buffer> buffers,
                      const void* push, uint32_t push_size) {
    dispatch_bytes(kernel, groups, Span<const Buffer>(buffers.begin(), buffers.size()), push, push_size);
  }

  // Buffer ranges (Buffer::range) in the kernel's parameter order; each one
  // the kernel sees as a whole buffer.
  void dispatch_ranges(const Kernel& kernel, Groups groups, std::initializer_list<porta_binding> bindings,
                       const void* push = nullptr, uint32_t push_size = 0) {
    const uint32_t g[3] = {groups.x, groups.y, groups.z};
    detail::check(porta_stream_dispatch_bindings(handle(), kernel.handle(), g, bindings.begin(),
                                                 static_cast<uint32_t>(bindings.size()), push, push_size));
  }
  template <class Push, std::enable_if_t<std::is_trivially_copyable_v<Push>, int> = 0>
  void dispatch_ranges(const Kernel& kernel, Groups groups, std::initializer_list<porta_binding> bindings,
                       const Push& push) {
    dispatch_ranges(kernel, groups, bindings, &push, sizeof(Push));
  }

  Event record_event() { return detail::created<Event>(porta_event_record, handle()); }
  // Later work on this stream waits (on the device) for the work before `event`,
  // recorded on any stream of the same device.
  void wait(const Event& event) { detail::check(porta_stream_wait_event(handle(), event.handle())); }
  void sync() { detail::check(porta_stream_sync(handle())); }

  void begin_record() { detail::check(porta_stream_begin_record(handle())); }
  Sequence end_record() { return detail::created<Sequence>(porta_stream_end_record, handle()); }
  void replay(const Sequence& sequence) { detail::check(porta_stream_replay(handle(), sequence.handle())); }
};

class Device : public detail::Object<porta_device, porta_device_close> {
 public:
  using Object::Object;

  DeviceInfo info() const {
    DeviceInfo i{};
    detail::check(porta_device_query_info(handle(), &i));
    return i;
  }
  std::string backend() const { return info().backend; }
  std::string name() const { return info().name; }

  Buffer buffer(uint64_t bytes) const {
    return detail::created<Buffer>(porta_buffer_create, handle(), bytes);
  }
  template <class T>
  Buffer upload(Span<T> data) const {
    Buffer b = buffer(data.size_bytes());
    b.write(data);
    return b;
  }
  template <class T>
  Buffer upload(const std::vector<T>& data) const {
    return upload(Span<const T>(data));
  }
#ifdef PORTA_HPP_STD_SPAN
  template <class T>
  Buffer upload(std::span<const T> data) const {
    return upload(Span<const T>(data));
  }
#endif
  template <class T>
  std::vector<T> download(const Buffer& b) const {
    return b.to_vector<T>();
  }

  Kernel kernel(const KernelSource& source, std::initializer_list<SpecConstant> specs = {}) const {
    return kernel(source, std::vector<SpecConstant>(specs));
  }
  Kernel kernel(const KernelSource& source, const std::vector<SpecConstant>& specs) const {
    return build(nullptr, source, specs, 0);
  }
  // A kernel as the descriptor says (porta_kernel_create); struct_size is filled in here.
  Kernel kernel(porta_kernel_descriptor descriptor) const {
    descriptor.struct_size = sizeof(porta_kernel_descriptor);
    return detail::created<Kernel>(porta_kernel_create, handle(), &descriptor);
  }
  // The kernel this device already built from the same source, name and
  // constants, or a new one it keeps for the next call (PORTA_KERNEL_FLAG_REUSE).
  Kernel reused_kernel(const KernelSource& source, const std::vector<SpecConstant>& specs = {}) const {
    return build(nullptr, source, specs, PORTA_KERNEL_FLAG_REUSE);
  }
  // The same, found by the caller's key for the source and the constants
  // (porta_kernel_descriptor.reuse_key): the source is read only the first time.
  Kernel reused_kernel(const std::string& key, const KernelSource& source,
                       const std::vector<SpecConstant>& specs = {}) const {
    return build(key.c_str(), source, specs, PORTA_KERNEL_FLAG_REUSE);
  }

  Stream stream() const { return detail::created<Stream>(porta_stream_create, handle()); }

 private:
  // A kernel from `source` through porta_kernel_create: with PORTA_KERNEL_FLAG_REUSE
  // in `flags`, the device's kernel for `key` (or, NULL, for the source) if it has one.
  Kernel build(const char* key, const KernelSource& source, const std::vector<SpecConstant>& specs,
               uint32_t flags) const {
    std::vector<porta_spec_constant> narrow;
    std::vector<porta_spec_constant64> wide;
    for (const auto& s : specs)
      if (s.width == 8)
        wide.push_back({s.id, 0, s.bits});
      else
        narrow.push_back({s.id, static_cast<uint32_t>(s.bits)});
    porta_kernel_descriptor d{};
    d.source_kind = source.is_glsl ? PORTA_KERNEL_SOURCE_GLSL : PORTA_KERNEL_SOURCE_SPIRV;
    d.source = source.is_glsl ? static_cast<const void*>(source.text.data()) : source.words.data();
    d.source_size = source.is_glsl ? source.text.size() : source.words.size() * sizeof(uint32_t);
    d.name = source.name.c_str();
    d.specs = narrow.data();
    d.spec_count = static_cast<uint32_t>(narrow.size());
    d.specs64 = wide.data();
    d.spec64_count = static_cast<uint32_t>(wide.size());
    d.flags = flags;
    d.reuse_key = key;
    return kernel(d);
  }
};

// Whether two handles name one opened device.
inline bool operator==(const Device& a, const Device& b) {
  return a.handle() == b.handle() || porta_device_equal(a.handle(), b.handle()) != 0;
}
inline bool operator!=(const Device& a, const Device& b) { return !(a == b); }

inline Device Buffer::device() const { return detail::created<Device>(porta_buffer_get_device, handle()); }

inline Device Stream::device() const { return detail::created<Device>(porta_stream_get_device, handle()); }

// Opens a device: "" → PORTA_BACKEND / PORTA_DEVICE, else the best device;
// otherwise "backend", "backend:index", "backend:name-substring" or a
// comma-separated ordered list of those.
inline Device open(const std::string& selector = "") {
  return detail::created<Device>(porta_device_open, selector.c_str());
}

// ==== ops: built-in kernels over typed tensor views ==========================
//
//   porta::Tensor A(a_buf, {m, k}), B(b_buf, {k, n}), C(c_buf, {m, n});
//   porta::ops::matmul(stream, A, B, C);          // C = A * B
//   porta::ops::logreg_step(stream, X, y, w, b, 0.5f, loss);
//
// Ops are queued on the stream like dispatches (and recorded into sequences);
// porta.h documents each op's rules.

// A typed view of a buffer (porta_tensor); keeps its buffer alive.
class Tensor {
 public:
  Tensor() = default;
  // Contiguous row-major view of `shape`, `offset` elements into `buffer`.
  Tensor(Buffer buffer, std::initializer_list<uint64_t> shape, uint64_t offset = 0,
         porta_dtype dtype = PORTA_DTYPE_FLOAT32)
      : Tensor(std::move(buffer), Span<const uint64_t>(shape.begin(), shape.size()), {}, offset, dtype) {}
  // Any strides (in elements); empty `strides` means contiguous row-major.
  Tensor(Buffer buffer, Span<const uint64_t> shape, Span<const int64_t> strides, uint64_t offset = 0,
         porta_dtype dtype = PORTA_DTYPE_FLOAT32)
      : buffer_(std::move(buffer)) {
    if (shape.size() == 0 || shape.size() > PORTA_TENSOR_MAX_RANK)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "porta::Tensor: rank " + std::to_string(shape.size()) +
                                                    " is outside 1.." +
                                                    std::to_string(PORTA_TENSOR_MAX_RANK));
    if (!strides.empty() && strides.size() != shape.size())
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "porta::Tensor: " + std::to_string(strides.size()) +
                                                    " strides for a rank-" + std::to_string(shape.size()) +
                                                    " shape");
    view_.buffer = buffer_.handle();
    view_.dtype = dtype;
    view_.rank = static_cast<uint32_t>(shape.size());
    view_.offset = offset;
    for (size_t i = 0; i < shape.size(); ++i) {
      view_.shape[i] = shape[i];
      view_.strides[i] = strides.empty() ? 0 : strides[i];
    }
  }
  const porta_tensor* get() const { return &view_; }
  const Buffer& buffer() const { return buffer_; }
  uint32_t rank() const { return view_.rank; }
  uint64_t dim(uint32_t i) const { return view_.shape[i]; }
  uint64_t elements() const {
    uint64_t n = 1;
    for (uint32_t i = 0; i < view_.rank; ++i) n *= view_.shape[i];
    return n;
  }

 private:
  Buffer buffer_;
  porta_tensor view_{};
};

namespace ops {

inline void fill(Stream& stream, const Tensor& out, float value) {
  detail::check(porta_ops_fill(stream.handle(), out.get(), value));
}
inline void scale(Stream& stream, const Tensor& x, float alpha, const Tensor& out) {
  detail::check(porta_ops_scale(stream.handle(), x.get(), alpha, out.get()));
}
inline void mul(Stream& stream, const Tensor& a, const Tensor& b, const Tensor& out) {
  detail::check(porta_ops_mul(stream.handle(), a.get(), b.get(), out.get()));
}
// out = a + b with NumPy broadcasting (porta_ops_add).
inline void add(Stream& stream, const Tensor& a, const Tensor& b, const Tensor& out) {
  detail::check(porta_ops_add(stream.handle(), a.get(), b.get(), out.get()));
}
inline void sigmoid(Stream& stream, const Tensor& x, const Tensor& out) {
  detail::check(porta_ops_sigmoid(stream.handle(), x.get(), out.get()));
}
// C = alpha * op(A) * op(B) + beta * C.
inline void matmul(Stream& stream, const Tensor& a, const Tensor& b, const Tensor& c, float alpha = 1.0f,
                   float beta = 0.0f, bool trans_a = false, bool trans_b = false) {
  detail::check(porta_ops_matmul(stream.handle(), a.get(), b.get(), c.get(), alpha, beta, trans_a ? 1 : 0,
                                 trans_b ? 1 : 0));
}
// C = act(alpha * op(A) * op(B) + beta * C + bias), batched (porta_ops_gemm).
struct GemmOptions {
  float alpha = 1.0f;
  float beta = 0.0f;
  bool trans_a = false;
  bool trans_b = false;
  porta_gemm_compute compute = PORTA_GEMM_COMPUTE_DEFAULT;
  const Tensor* bias = nullptr;  // row vector over N, or none
  porta_gemm_activation activation = PORTA_GEMM_ACTIVATION_NONE;
};
inline void gemm(Stream& stream, const Tensor& a, const Tensor& b, const Tensor& c,
                 const GemmOptions& options = {}) {
  porta_gemm_desc desc{};
  desc.struct_size = sizeof desc;
  desc.a = a.get();
  desc.b = b.get();
  desc.c = c.get();
  desc.alpha = options.alpha;
  desc.beta = options.beta;
  desc.trans_a = options.trans_a ? 1 : 0;
  desc.trans_b = options.trans_b ? 1 : 0;
  desc.compute = options.compute;
  desc.bias = options.bias ? options.bias->get() : nullptr;
  desc.activation = options.activation;
  detail::check(porta_ops_gemm(stream.handle(), &desc));
}
// y = act(x W^T + b), fused (porta_ops_dense); b may be null.
inline void dense(Stream& stream, const Tensor& x, const Tensor& w, const Tensor* b, const Tensor& y,
                  porta_gemm_activation activation = PORTA_GEMM_ACTIVATION_NONE) {
  detail::check(
      porta_ops_dense(stream.handle(), x.get(), w.get(), b ? b->get() : nullptr, activation, y.get()));
}
inline uint64_t logreg_workspace_bytes(const Device& device, uint64_t m, uint64_t d) {
  uint64_t bytes = 0;
  detail::check(porta_ops_logreg_workspace_size(device.handle(), m, d, &bytes));
  return bytes;
}
// One training step; `workspace` may be null (the step allocates its own).
inline void logreg_step(Stream& stream, const Tensor& x, const Tensor& y, const Tensor& w, const Tensor& b,
                        float lr, const Tensor& loss, const Tensor* workspace = nullptr) {
  detail::check(porta_ops_logreg_step(stream.handle(), x.get(), y.get(), w.get(), b.get(), lr, loss.get(),
                                      workspace ? workspace->get() : nullptr));
}
// The same step on int8 X with a float32 scale per column (x_scale may be
// null for X of a floating dtype).
inline void logreg_step_scaled(Stream& stream, const Tensor& x, const Tensor* x_scale, const Tensor& y,
                               const Tensor& w, const Tensor& b, float lr, const Tensor& loss,
                               const Tensor* workspace = nullptr) {
  detail::check(porta_ops_logreg_step_scaled(stream.handle(), x.get(), x_scale ? x_scale->get() : nullptr,
                                             y.get(), w.get(), b.get(), lr, loss.get(),
                                             workspace ? workspace->get() : nullptr));
}
// Adds the step's sums (X^T r, sum r, sum of the losses: d + 2 floats) to
// `sums` without taking the step (porta_ops_logreg_gradient).
inline void logreg_gradient(Stream& stream, const Tensor& x, const Tensor* x_scale, const Tensor& y,
                            const Tensor& w, const Tensor& b, const Tensor& sums,
                            const Tensor* workspace = nullptr) {
  detail::check(porta_ops_logreg_gradient(stream.handle(), x.get(), x_scale ? x_scale->get() : nullptr,
                                          y.get(), w.get(), b.get(), sums.get(),
                                          workspace ? workspace->get() : nullptr));
}

}  // namespace ops
// ==== end of ops ==============================================================

}  // namespace porta
