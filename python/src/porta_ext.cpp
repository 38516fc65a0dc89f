// porta._porta: the Python package's binding of porta's C API (porta/porta.h).
//
// Thin on purpose: one Python class per C handle (Device, Buffer, Kernel,
// Stream, Event, Sequence) and one function per op. Shapes, dtypes and
// NumPy/DLPack conversions are decided in Python (porta/_array.py); this file
// moves bytes, calls porta and turns a failed status into an exception that
// carries porta's message. Calls that wait (sync, reads, writes, ops, which the
// cpu backend runs on the calling thread) release the GIL.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>
#include <porta/interop.h>
#include <porta/porta.h>

#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace nb = nanobind;
using namespace nb::literals;

// Memory shared with NumPy and DLPack producers goes through porta/interop.h.
// Its entry points are weak references: a libporta without them (one that
// predates them) still loads this module, which then copies, and says so in
// porta.HAS_INTEROP.
#pragma weak porta_buffer_import_native
#pragma weak porta_buffer_native
#pragma weak porta_stream_wrap_native

namespace {

// A failed porta call: the status and porta_last_error(), raised in Python as
// the porta.Error subclass of that status (porta/_errors.py).
struct StatusError : std::runtime_error {
  porta_status status;
  StatusError(porta_status s, std::string message) : std::runtime_error(std::move(message)), status(s) {}
};

void check(porta_status status) {
  if (status != PORTA_SUCCESS) throw StatusError(status, porta_last_error());
}

// A handle used after Python released it (Buffer.free(), Device.close()).
[[noreturn]] void released(const char* what) {
  throw StatusError(PORTA_ERROR_INVALID_HANDLE,
                    std::string("this porta ") + what + " was freed; it can no longer be used");
}

struct Device {
  porta_device handle = nullptr;
  explicit Device(porta_device h) : handle(h) {}
  Device(const Device&) = delete;
  ~Device() { porta_device_close(handle); }
  porta_device get() const {
    if (!handle) released("device");
    return handle;
  }
};

struct Buffer {
  porta_buffer handle = nullptr;
  uint64_t bytes = 0;
  nb::object owner;  // memory that the buffer uses in place (an imported host array), kept alive
  Buffer(porta_buffer h, uint64_t n) : handle(h), bytes(n) {}
  Buffer(const Buffer&) = delete;
  ~Buffer() { free(); }
  porta_buffer get() const {
    if (!handle) released("buffer");
    return handle;
  }
  void free() {
    porta_buffer_destroy(handle);
    handle = nullptr;
    owner = nb::object();
  }
};

// A C handle that one Python object owns and destroys.
template <class Handle, void (*Destroy)(Handle)>
struct Owned {
  Handle handle;
  explicit Owned(Handle h) : handle(h) {}
  Owned(const Owned&) = delete;
  ~Owned() { Destroy(handle); }
};
using Kernel = Owned<porta_kernel, porta_kernel_destroy>;
using Event = Owned<porta_event, porta_event_destroy>;
using Sequence = Owned<porta_sequence, porta_sequence_destroy>;

struct Stream {
  porta_stream handle;
  explicit Stream(porta_stream h) : handle(h) {}
  Stream(const Stream&) = delete;
  ~Stream() {
    nb::gil_scoped_release unlocked;  // destroying waits for the stream's work
    porta_stream_destroy(handle);
  }
  void sync() {
    porta_status s;
    {
      nb::gil_scoped_release unlocked;
      s = porta_stream_sync(handle);
    }
    check(s);
  }
};

// Host memory that Python hands in (read-only is fine) or out: any C-contiguous array on the CPU.
using HostSource = nb::ndarray<nb::ro, nb::c_contig, nb::device::cpu>;
using HostArray = nb::ndarray<nb::c_contig, nb::device::cpu>;

nb::dict info_dict(const porta_device_info& info) {
  nb::dict d;
  d["backend"] = std::string(info.backend);
  d["name"] = std::string(info.name);
  d["vendor"] = std::string(info.vendor);
  d["driver"] = std::string(info.driver);
  d["api_version"] = std::string(info.api_version);
  static const char* types[] = {"discrete_gpu", "integrated_gpu", "virtual_gpu", "cpu", "other"};
  d["type"] = std::string(info.type <= PORTA_DEVICE_OTHER ? types[info.type] : "other");
  d["index"] = info.index;
  d["memory_bytes"] = info.memory_bytes;
  d["unified_memory"] = (info.flags & PORTA_DEVICE_FLAG_UNIFIED_MEMORY) != 0;
  d["max_buffer_bytes"] = info.limits.max_buffer_bytes;
  d["max_binding_bytes"] = info.max_binding_bytes;
  d["subgroup_size"] = info.limits.subgroup_size;
  std::vector<std::string> features;
  for (uint32_t bit = 0; bit < 64; ++bit)
    if (info.features & (uint64_t{1} << bit))
      if (const char* name = porta_feature_name(uint64_t{1} << bit)) features.emplace_back(name);
  d["features"] = features;
  d["pci_bus_id"] = std::string(info.pci_bus_id);
  return d;
}

// A tensor view over a Buffer: contiguous row-major, `offset` in elements.
porta_tensor tensor(const Buffer& buffer, int dtype, const std::vector<uint64_t>& shape, uint64_t offset) {
  if (shape.empty() || shape.size() > PORTA_TENSOR_MAX_RANK)
    throw nb::value_error(("porta ops take arrays of rank 1 to " + std::to_string(PORTA_TENSOR_MAX_RANK) +
                           ", got rank " + std::to_string(shape.size()))
                              .c_str());
  porta_tensor t{};
  t.buffer = buffer.get();
  t.dtype = static_cast<porta_dtype>(dtype);
  t.rank = static_cast<uint32_t>(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) t.shape[i] = shape[i];
  t.offset = offset;
  return t;
}

// One op call with the GIL released: the cpu backend runs it on this thread.
template <class F>
void run_unlocked(F&& f) {
  porta_status s;
  {
    nb::gil_scoped_release unlocked;
    s = f();
  }
  check(s);
}

using Shape = std::vector<uint64_t>;
// (buffer, dtype, shape, element offset): how Python passes an array to an op.
using View = std::tuple<Buffer*, int, Shape, uint64_t>;
porta_tensor view(const View& v) {
  return tensor(*std::get<0>(v), std::get<1>(v), std::get<2>(v), std::get<3>(v));
}

bool has_interop() { return &porta_buffer_import_native != nullptr && &porta_buffer_native != nullptr; }

// porta's element types by the name the package uses (NumPy's, and "bfloat16").
const std::pair<const char*, porta_dtype> kDtypes[] = {
    {"float32", PORTA_DTYPE_FLOAT32}, {"float16", PORTA_DTYPE_FLOAT16}, {"bfloat16", PORTA_DTYPE_BFLOAT16},
    {"float64", PORTA_DTYPE_FLOAT64}, {"int8", PORTA_DTYPE_INT8},       {"uint8", PORTA_DTYPE_UINT8},
    {"int16", PORTA_DTYPE_INT16},     {"uint16", PORTA_DTYPE_UINT16},   {"int32", PORTA_DTYPE_INT32},
    {"uint32", PORTA_DTYPE_UINT32},   {"int64", PORTA_DTYPE_INT64},     {"uint64", PORTA_DTYPE_UINT64}};

// porta's dtype name of a DLPack element type; "" where porta has none.
std::string dtype_of(nb::dlpack::dtype t) {
  using code = nb::dlpack::dtype_code;
  const char* kind = "";
  switch (static_cast<code>(t.code)) {
    case code::Float:
      kind = "float";
      break;
    case code::Bfloat:
      kind = "bfloat";
      break;
    case code::Int:
      kind = "int";
      break;
    case code::UInt:
      kind = "uint";
      break;
    default:
      return "";
  }
  std::string name = kind + std::to_string(t.bits);
  for (const auto& [known, value] : kDtypes)
    if (t.lanes == 1 && name == known) return name;
  return "";
}

nb::dlpack::dtype dlpack_of(const std::string& name) {
  using code = nb::dlpack::dtype_code;
  auto make = [](code c, uint8_t bits) { return nb::dlpack::dtype{static_cast<uint8_t>(c), bits, 1}; };
  if (name == "float16") return make(code::Float, 16);
  if (name == "float32") return make(code::Float, 32);
  if (name == "float64") return make(code::Float, 64);
  if (name == "bfloat16") return make(code::Bfloat, 16);
  char kind = name[0];
  uint8_t bits = static_cast<uint8_t>(std::stoi(name.substr(kind == 'u' ? 4 : 3)));
  return make(kind == 'u' ? code::UInt : code::Int, bits);
}

using AnyArray = nb::ndarray<nb::ro>;

// An imported array (and so its producer's memory) stays referenced until
// porta calls the release callback.
void release_owner(void* owner) {
  nb::gil_scoped_acquire locked;
  delete static_cast<AnyArray*>(owner);
}

// A NumPy array over host memory of an imported array (bfloat16 as uint16),
// for the copy that follows where the device cannot use the memory in place.
nb::object numpy_view(const AnyArray& a, const std::vector<size_t>& shape, const std::string& dtype) {
  if (a.device_type() != nb::device::cpu::value || dtype.empty()) return nb::none();
  nb::capsule keep(new AnyArray(a), [](void* p) noexcept { delete static_cast<AnyArray*>(p); });
  nb::dlpack::dtype type = dtype == "bfloat16" ? dlpack_of("uint16") : a.dtype();
  nb::ndarray<nb::numpy, nb::ro> view(a.data(), shape.size(), shape.data(), keep, nullptr, type);
  return nb::cast(view);
}

// What import_array found: (buffer or None, why None, dtype name, shape,
// DLPack device type, and without a buffer a NumPy view of host memory to copy).
using Imported = std::tuple<nb::object, std::string, std::string, std::vector<size_t>, int32_t, nb::object>;

// A C-contiguous array's shape; anything else is a ValueError naming the fix.
std::vector<size_t> contiguous_shape(const AnyArray& a) {
  std::vector<size_t> shape(a.ndim());
  int64_t expected = 1;
  for (size_t i = a.ndim(); i-- > 0;) {
    shape[i] = a.shape(i);
    if (a.shape(i) != 1 && a.stride(i) != expected)
      throw nb::value_error(
          "porta: the array is not C-contiguous; expected a contiguous array "
          "(NumPy: np.ascontiguousarray(x); PyTorch: x.contiguous())");
    expected *= a.shape(i);
  }
  return shape;
}

// A buffer over `bytes` of memory at `data` (DLPack device type
// `device_type`), used in place: host memory on a device that imports it,
// CUDA memory on the CUDA backend. porta calls `release(owner)` once it no
// longer uses the memory; on failure the caller keeps `owner`. Null, with
// `why`, where the device cannot use the memory in place.
porta_buffer import_memory(Device& d, int32_t device_type, const void* data, uint64_t bytes, void* owner,
                           porta_release_fn release, std::string& why) {
  if (!has_interop()) {
    why = "this libporta cannot import memory";
    return nullptr;
  }
  porta_native_memory memory{};
  memory.struct_size = sizeof memory;
  memory.bytes = bytes;
  if (device_type == nb::device::cpu::value) {
    memory.kind = PORTA_NATIVE_MEMORY_HOST;
    memory.host_pointer = const_cast<void*>(data);
  } else if (device_type == nb::device::cuda::value) {
    memory.kind = PORTA_NATIVE_MEMORY_CUDA_POINTER;
    memory.cuda_pointer = reinterpret_cast<uint64_t>(data);
  } else {
    why = "porta imports host and CUDA memory only";
    return nullptr;
  }
  if (bytes == 0) {
    why = "an empty array has no memory to share";
    return nullptr;
  }
  memory.release = release;
  memory.release_user_data = owner;
  porta_buffer b = nullptr;
  porta_status s = porta_buffer_import_native(d.get(), &memory, &b);
  if (s != PORTA_SUCCESS) {
    if (s != PORTA_ERROR_UNSUPPORTED && s != PORTA_ERROR_INVALID_ARGUMENT) check(s);
    why = porta_last_error();
    return nullptr;
  }
  return b;
}

// A buffer over `a`'s memory, used in place (import_memory); the buffer
// keeps `a` (its producer's memory) until porta releases it.
porta_buffer import_in_place(Device& d, const AnyArray& a, std::string& why) {
  auto* owner = new AnyArray(a);
  porta_buffer b = import_memory(d, a.device_type(), a.data(), a.nbytes(), owner, release_owner, why);
  if (!b) delete owner;  // porta did not take it
  return b;
}

// PyTorch's tensor type where PyTorch is loaded (never imported here), and
// the strided layout: found again until PyTorch is there.
struct TorchTypes {
  PyObject* tensor = nullptr;
  PyObject* strided = nullptr;
};
const TorchTypes& torch_types() {
  static TorchTypes found;
  if (found.tensor) return found;
  nb::object torch = nb::steal(PyImport_GetModule(nb::str("torch").ptr()));
  if (!torch.is_valid()) {
    PyErr_Clear();
    return found;
  }
  if (!nb::hasattr(torch, "Tensor") || !nb::hasattr(torch, "strided")) return found;
  found.strided = nb::object(torch.attr("strided")).release().ptr();  // kept for good, like the module
  found.tensor = nb::object(torch.attr("Tensor")).release().ptr();
  return found;
}

void release_python_object(void* owner) {
  nb::gil_scoped_acquire locked;
  Py_DECREF(static_cast<PyObject*>(owner));
}

// A PyTorch tensor used in place, its memory read from the tensor itself
// (data_ptr, nbytes): __dlpack__ is Python code that costs more than the
// dispatch it would serve. The tensor is kept until porta releases the
// memory, as its DLPack capsule would be. Null, and `fallback` set, for
// anything else and for any tensor DLPack treats specially (a lazy
// conjugate or negative view, a non-contiguous or non-strided one, another
// device): those take the DLPack path, which says why it refuses.
porta_buffer import_torch(Device& d, nb::handle item, std::string& why, bool& fallback) {
  fallback = true;
  const TorchTypes& torch = torch_types();
  if (!torch.tensor || !PyObject_TypeCheck(item.ptr(), reinterpret_cast<PyTypeObject*>(torch.tensor)))
    return nullptr;
  if (!item.attr("layout").is(nb::handle(torch.strided)) ||
      nb::cast<bool>(item.attr("is_conj")()) || nb::cast<bool>(item.attr("is_neg")()) ||
      !nb::cast<bool>(item.attr("is_contiguous")()))
    return nullptr;
  int32_t device_type = 0;
  if (nb::cast<bool>(item.attr("is_cuda")))
    device_type = nb::device::cuda::value;
  else if (nb::cast<bool>(item.attr("is_cpu")))
    device_type = nb::device::cpu::value;
  else
    return nullptr;
  fallback = false;
  const auto data = reinterpret_cast<const void*>(nb::cast<uintptr_t>(item.attr("data_ptr")()));
  const uint64_t bytes = nb::cast<uint64_t>(item.attr("nbytes"));
  Py_INCREF(item.ptr());  // porta's until release_python_object
  porta_buffer b = import_memory(d, device_type, data, bytes, item.ptr(), release_python_object, why);
  if (!b) Py_DECREF(item.ptr());  // porta did not take it
  return b;
}

// What import_array found: (buffer or None, why None, dtype name, shape,
// DLPack device type, and without a buffer a NumPy view of host memory to copy).
using Imported = std::tuple<nb::object, std::string, std::string, std::vector<size_t>, int32_t, nb::object>;

// A buffer over a DLPack producer's memory, used in place (import_in_place);
// None where the device cannot use the memory in place: the caller copies then.
Imported import_array(Device& d, AnyArray a) {
  std::vector<size_t> shape = contiguous_shape(a);
  std::string dtype = dtype_of(a.dtype());
  std::string why = "porta has no such element type";
  porta_buffer b = dtype.empty() ? nullptr : import_in_place(d, a, why);
  if (!b) return {nb::none(), why, dtype, shape, a.device_type(), numpy_view(a, shape, dtype)};
  return {nb::cast(new Buffer(b, a.nbytes()), nb::rv_policy::take_ownership),
          "",
          dtype,
          shape,
          a.device_type(),
          nb::none()};
}

// A dispatch whose buffers are porta buffers or DLPack producers (PyTorch
// tensors, NumPy arrays) used in place for this dispatch alone: each is
// imported, bound, and its buffer destroyed at once (the stream keeps it
// until the work is done, then porta lets go of the producer's memory). A
// framework's operator pays one call, no porta arrays.
void dispatch_arrays(Device& d, porta_stream stream, porta_kernel kernel, const uint32_t groups[3],
                     const nb::list& buffers, const std::string& push) {
  std::vector<porta_buffer> handles, imported;
  handles.reserve(buffers.size());
  struct Imports {  // destroyed on every way out: the stream holds what it still uses
    std::vector<porta_buffer>& buffers;
    ~Imports() {
      for (porta_buffer b : buffers) porta_buffer_destroy(b);
    }
  } destroy{imported};
  size_t i = 0;
  for (nb::handle item : buffers) {
    if (Buffer* b = nb::isinstance<Buffer>(item) ? nb::inst_ptr<Buffer>(item) : nullptr) {
      handles.push_back(b->get());
    } else {
      std::string why;
      bool fallback = true;
      porta_buffer own = import_torch(d, item, why, fallback);
      if (fallback) {
        AnyArray a;
        if (!nb::try_cast(item, a))
          throw nb::type_error(
              ("stream.dispatch: buffer " + std::to_string(i) +
               " is neither a porta.Array nor a DLPack producer (a PyTorch tensor, a NumPy array)")
                  .c_str());
        contiguous_shape(a);
        own = import_in_place(d, a, why);
      }
      if (!own)
        throw nb::value_error(("stream.dispatch: buffer " + std::to_string(i) +
                               " cannot be used in place on this device (" + why +
                               "); pass porta.from_dlpack(x, device), which copies where it must")
                                  .c_str());
      imported.push_back(own);
      handles.push_back(own);
    }
    ++i;
  }
  run_unlocked([&] {
    return porta_stream_dispatch(stream, kernel, groups, handles.data(),
                                 static_cast<uint32_t>(handles.size()), push.empty() ? nullptr : push.data(),
                                 static_cast<uint32_t>(push.size()));
  });
}

// The buffer's memory as (DLPack capsule, DLPack device type, device id):
// host memory, or CUDA memory on the CUDA backend; the capsule keeps the
// buffer alive until its consumer is done. None where the memory is not
// addressable that way.
nb::object export_array(nb::handle buffer_object, const std::string& dtype, const std::vector<size_t>& shape,
                        int32_t cuda_ordinal) {
  Buffer& b = nb::cast<Buffer&>(buffer_object);
  if (!has_interop()) return nb::none();
  porta_native_memory memory{};
  memory.struct_size = sizeof memory;
  porta_status s = porta_buffer_native(b.get(), &memory);
  if (s == PORTA_ERROR_UNSUPPORTED) return nb::none();
  check(s);
  void* data = nullptr;
  int32_t device_type = nb::device::cpu::value, device_id = 0;
  if (memory.host_pointer) {
    data = memory.host_pointer;
  } else if (memory.kind == PORTA_NATIVE_MEMORY_CUDA_POINTER) {
    data = reinterpret_cast<void*>(memory.cuda_pointer);
    device_type = nb::device::cuda::value;
    device_id = cuda_ordinal;
  } else {
    return nb::none();
  }
  nb::ndarray<> array(data, shape.size(), shape.data(), buffer_object, nullptr, dlpack_of(dtype), device_type,
                      device_id);
  return nb::make_tuple(nb::cast(array, nb::rv_policy::reference), device_type, device_id);
}

}  // namespace

NB_MODULE(_porta, m) {
  m.doc() = "porta's C API, bound for the porta package (use porta, not porta._porta)";
  // Devices and kernels in module-level caches (porta.default_device, ops' kernels, a
  // user's own) may still be alive when the interpreter ends: nothing to report then.
  nb::set_leak_warnings(false);

  // Failed calls become porta.Error subclasses, looked up by status name.
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const StatusError& e) {
      nb::object errors = nb::module_::import_("porta._errors");
      nb::object cls = errors.attr("error_class")(porta_status_name(e.status));
      PyErr_SetObject(cls.ptr(), nb::str(e.what()).ptr());
    }
  });

  m.def("version", [] { return std::string(porta_version()); });

  m.def("backends", [] {
    std::vector<std::tuple<std::string, bool, std::string>> out;
    for (uint32_t i = 0; i < porta_backend_count(); ++i) {
      const char *name = nullptr, *reason = nullptr;
      int available = 0;
      check(porta_backend_get(i, &name, &available, &reason));
      out.emplace_back(name ? name : "", available != 0, reason ? reason : "");
    }
    return out;
  });

  m.def("device_infos", [] {
    nb::list out;
    for (uint32_t i = 0; i < porta_device_count(); ++i) {
      porta_device_info info{};
      check(porta_device_get_info(i, &info));
      out.append(info_dict(info));
    }
    return out;
  });

  nb::class_<Device>(m, "Device")
      .def_prop_ro("info",
                   [](const Device& d) {
                     porta_device_info info{};
                     check(porta_device_query_info(d.get(), &info));
                     return info_dict(info);
                   })
      .def("same", [](const Device& a, const Device& b) { return porta_device_equal(a.get(), b.get()) != 0; })
      .def("close", [](Device& d) {
        porta_device_close(d.handle);
        d.handle = nullptr;
      });

  m.def(
      "open",
      [](const std::string& selector) {
        porta_device d = nullptr;
        porta_status s;
        {
          nb::gil_scoped_release unlocked;  // opening may load drivers and build nothing else
          s = porta_device_open(selector.c_str(), &d);
        }
        check(s);
        return new Device(d);
      },
      "selector"_a);

  nb::class_<Buffer>(m, "Buffer")
      .def_prop_ro("nbytes", [](const Buffer& b) { return b.bytes; })
      .def_prop_ro("freed", [](const Buffer& b) { return b.handle == nullptr; })
      .def("free", &Buffer::free)
      .def("write",
           [](Buffer& b, uint64_t offset, HostSource src) {
             const void* data = src.data();
             uint64_t n = src.nbytes();
             porta_buffer h = b.get();
             run_unlocked([&] { return porta_buffer_write(h, offset, data, n); });
           })
      .def("read_into", [](Buffer& b, uint64_t offset, HostArray dst) {
        void* data = dst.data();
        uint64_t n = dst.nbytes();
        porta_buffer h = b.get();
        run_unlocked([&] { return porta_buffer_read(h, offset, data, n); });
      });

  m.def(
      "buffer_create",
      [](Device& d, uint64_t bytes) {
        porta_buffer b = nullptr;
        check(porta_buffer_create(d.get(), bytes, &b));
        return new Buffer(b, bytes);
      },
      "device"_a, "nbytes"_a);

  nb::class_<Kernel>(m, "Kernel")
      .def_prop_ro("buffer_count", [](const Kernel& k) { return porta_kernel_buffer_count(k.handle); })
      .def_prop_ro("push_constant_size",
                   [](const Kernel& k) { return porta_kernel_push_constant_size(k.handle); })
      .def_prop_ro("workgroup_size", [](const Kernel& k) {
        uint32_t s[3] = {0, 0, 0};
        porta_kernel_workgroup_size(k.handle, s);
        return std::make_tuple(s[0], s[1], s[2]);
      });

  // specs: (id, bits, wide) with `wide` for a 64-bit constant's bits.
  m.def(
      "kernel_create",
      [](Device& d, nb::bytes source, bool spirv, const std::string& name,
         const std::vector<std::tuple<uint32_t, uint64_t, bool>>& specs) {
        std::vector<porta_spec_constant> narrow;
        std::vector<porta_spec_constant64> wide;
        for (const auto& [id, bits, is_wide] : specs) {
          if (is_wide)
            wide.push_back({id, 0, bits});
          else
            narrow.push_back({id, static_cast<uint32_t>(bits)});
        }
        porta_kernel_descriptor desc{};
        desc.struct_size = sizeof desc;
        desc.source_kind = spirv ? PORTA_KERNEL_SOURCE_SPIRV : PORTA_KERNEL_SOURCE_GLSL;
        desc.source = source.c_str();
        desc.source_size = source.size();
        desc.name = name.c_str();
        desc.specs = narrow.data();
        desc.spec_count = static_cast<uint32_t>(narrow.size());
        desc.specs64 = wide.data();
        desc.spec64_count = static_cast<uint32_t>(wide.size());
        porta_kernel k = nullptr;
        porta_device h = d.get();
        run_unlocked([&] { return porta_kernel_create(h, &desc, &k); });  // may run a compiler
        return new Kernel(k);
      },
      "device"_a, "source"_a, "spirv"_a, "name"_a, "specs"_a);

  nb::class_<Event>(m, "Event").def("elapsed_ms", [](const Event& start, const Event& end) {
    double ms = 0;
    check(porta_event_elapsed_ms(start.handle, end.handle, &ms));
    return ms;
  });

  nb::class_<Sequence>(m, "Sequence");

  nb::class_<Stream>(m, "Stream")
      .def("sync", &Stream::sync)
      .def("record_event",
           [](Stream& s) {
             porta_event e = nullptr;
             check(porta_event_record(s.handle, &e));
             return new Event(e);
           })
      .def("begin_record", [](Stream& s) { check(porta_stream_begin_record(s.handle)); })
      .def("end_record",
           [](Stream& s) {
             porta_sequence q = nullptr;
             check(porta_stream_end_record(s.handle, &q));
             return new Sequence(q);
           })
      .def("replay",
           [](Stream& s, Sequence& q) {
             run_unlocked([&] { return porta_stream_replay(s.handle, q.handle); });
           })
      .def("copy",
           [](Stream& s, Buffer& src, uint64_t src_offset, Buffer& dst, uint64_t dst_offset, uint64_t bytes) {
             porta_buffer a = src.get(), b = dst.get();
             run_unlocked([&] { return porta_stream_copy(s.handle, a, src_offset, b, dst_offset, bytes); });
           })
      .def("fill",
           [](Stream& s, Buffer& dst, uint64_t offset, uint64_t bytes, uint32_t pattern) {
             porta_buffer b = dst.get();
             run_unlocked([&] { return porta_stream_fill(s.handle, b, offset, bytes, pattern); });
           })
      .def("dispatch", [](Stream& s, Kernel& k, std::tuple<uint32_t, uint32_t, uint32_t> groups,
                          std::vector<Buffer*> buffers, nb::bytes push) {
        uint32_t g[3] = {std::get<0>(groups), std::get<1>(groups), std::get<2>(groups)};
        std::vector<porta_buffer> handles;
        for (Buffer* b : buffers) {
          if (!b) throw nb::type_error("stream.dispatch: a buffer is None; expected porta arrays or buffers");
          handles.push_back(b->get());
        }
        std::string bytes(push.c_str(), push.size());
        run_unlocked([&] {
          return porta_stream_dispatch(
              s.handle, k.handle, g, handles.data(), static_cast<uint32_t>(handles.size()),
              bytes.empty() ? nullptr : bytes.data(), static_cast<uint32_t>(bytes.size()));
        });
      });

  m.def("stream_wrap_native", [](Device& d, uintptr_t native) {
    if (&porta_stream_wrap_native == nullptr)
      throw StatusError(PORTA_ERROR_UNSUPPORTED,
                        "this libporta cannot wrap a native stream (porta/interop.h)");
    porta_stream s = nullptr;
    check(porta_stream_wrap_native(d.get(), reinterpret_cast<void*>(native), &s));
    return new Stream(s);
  });

  m.def("stream_create", [](Device& d) {
    porta_stream s = nullptr;
    check(porta_stream_create(d.get(), &s));
    return new Stream(s);
  });

  // ---- ops: (buffer, dtype, shape, offset) views, queued on a stream ----
  m.def("ops_mul", [](Stream& s, const View& a, const View& b, const View& out) {
    porta_tensor ta = view(a), tb = view(b), to = view(out);
    run_unlocked([&] { return porta_ops_mul(s.handle, &ta, &tb, &to); });
  });
  m.def("ops_add", [](Stream& s, const View& a, const View& b, const View& out) {
    porta_tensor ta = view(a), tb = view(b), to = view(out);
    run_unlocked([&] { return porta_ops_add(s.handle, &ta, &tb, &to); });
  });
  m.def(
      "ops_dense",
      [](Stream& s, const View& x, const View& w, std::optional<View> b, int activation, const View& y) {
        porta_tensor tx = view(x), tw = view(w), ty = view(y), tb{};
        if (b) tb = view(*b);
        run_unlocked([&] {
          return porta_ops_dense(s.handle, &tx, &tw, b ? &tb : nullptr,
                                 static_cast<porta_gemm_activation>(activation), &ty);
        });
      },
      "stream"_a, "x"_a, "w"_a, "b"_a.none(), "activation"_a, "y"_a);
  m.def("ops_sigmoid", [](Stream& s, const View& x, const View& out) {
    porta_tensor tx = view(x), to = view(out);
    run_unlocked([&] { return porta_ops_sigmoid(s.handle, &tx, &to); });
  });
  m.def("ops_fill", [](Stream& s, const View& out, float value) {
    porta_tensor to = view(out);
    run_unlocked([&] { return porta_ops_fill(s.handle, &to, value); });
  });
  m.def("ops_scale", [](Stream& s, const View& x, float alpha, const View& out) {
    porta_tensor tx = view(x), to = view(out);
    run_unlocked([&] { return porta_ops_scale(s.handle, &tx, alpha, &to); });
  });
  m.def(
      "ops_gemm",
      [](Stream& s, const View& a, const View& b, const View& c, float alpha, float beta, bool trans_a,
         bool trans_b, std::optional<View> bias, int activation) {
        porta_tensor ta = view(a), tb = view(b), tc = view(c), tbias{};
        if (bias) tbias = view(*bias);
        porta_gemm_desc desc{};
        desc.struct_size = sizeof desc;
        desc.a = &ta;
        desc.b = &tb;
        desc.c = &tc;
        desc.alpha = alpha;
        desc.beta = beta;
        desc.trans_a = trans_a;
        desc.trans_b = trans_b;
        desc.bias = bias ? &tbias : nullptr;
        desc.activation = static_cast<porta_gemm_activation>(activation);
        run_unlocked([&] { return porta_ops_gemm(s.handle, &desc); });
      },
      "stream"_a, "a"_a, "b"_a, "c"_a, "alpha"_a, "beta"_a, "trans_a"_a, "trans_b"_a, "bias"_a.none(),
      "activation"_a);
  m.def("ops_logreg_workspace_size", [](Device& d, uint64_t rows, uint64_t cols) {
    uint64_t bytes = 0;
    check(porta_ops_logreg_workspace_size(d.get(), rows, cols, &bytes));
    return bytes;
  });
  m.def("ops_logreg_step", [](Stream& s, const View& x, const View& y, const View& w, const View& b, float lr,
                              const View& loss, const View& workspace) {
    porta_tensor tx = view(x), ty = view(y), tw = view(w), tb = view(b), tl = view(loss),
                 ts = view(workspace);
    run_unlocked([&] { return porta_ops_logreg_step(s.handle, &tx, &ty, &tw, &tb, lr, &tl, &ts); });
  });

  nb::dict dtypes;
  for (const auto& [name, value] : kDtypes) dtypes[name] = int(value);
  m.attr("DTYPES") = dtypes;
  // Whether this libporta can share memory with NumPy and DLPack producers (porta/interop.h).
  m.attr("HAS_INTEROP") = has_interop();
  m.def("import_array", &import_array, "device"_a, "array"_a);
  m.def(
      "dispatch_arrays",
      [](Device& d, Stream& s, Kernel& k, std::tuple<uint32_t, uint32_t, uint32_t> groups, nb::list buffers,
         nb::bytes push) {
        const uint32_t g[3] = {std::get<0>(groups), std::get<1>(groups), std::get<2>(groups)};
        dispatch_arrays(d, s.handle, k.handle, g, buffers, std::string(push.c_str(), push.size()));
      },
      "device"_a, "stream"_a, "kernel"_a, "groups"_a, "buffers"_a, "push"_a);
  m.def("export_array", &export_array, "buffer"_a, "dtype"_a, "shape"_a, "cuda_ordinal"_a);
}
