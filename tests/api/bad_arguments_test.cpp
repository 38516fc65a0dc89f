// Every public C function (api/include/porta/porta.h) given bad arguments, on
// the backend under test: null, destroyed and wrong-kind handles, null
// out-pointers and host pointers, zero and huge sizes, offsets whose sum with
// the size overflows, ranges past the end, handles of another device, and
// calls in the wrong order. One table row per case: {function, what is wrong,
// the call, the status it must return, what its message must say}; every row
// also checks that porta_last_error() begins with that status and names the
// function. A function that returns no status reports through the status name
// at the head of porta_last_error(). Double destroy and destroy of NULL are
// defined (porta.h): rows for every *_destroy and *_close.
#define PORTA_NO_DEPRECATION_WARNINGS  // porta_device_info_get is public too
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using porta::test::backend_name_under_test;
using porta::test::backend_under_test;

// What a call did: its status, and porta_last_error() right after it.
struct Outcome {
  porta_status status;
  std::string message;
};

Outcome outcome(porta_status status) { return {status, porta_last_error()}; }

// For a call that returns no status: the status porta_last_error() begins
// with, PORTA_SUCCESS when it is empty.
Outcome reported() {
  const std::string message = porta_last_error();
  if (message.empty()) return {PORTA_SUCCESS, message};
  for (int s = PORTA_ERROR_INVALID_ARGUMENT; s <= PORTA_ERROR_INTERNAL; ++s) {
    const std::string prefix = std::string(porta_status_name(static_cast<porta_status>(s))) + ": ";
    if (message.rfind(prefix, 0) == 0) return {static_cast<porta_status>(s), message};
  }
  return {static_cast<porta_status>(-1), message};
}

struct Row {
  std::string function;  // the C entry point
  std::string wrong;     // what is wrong with the call
  std::function<Outcome()> call;
  porta_status want;
  std::vector<std::string> says;  // what the message must contain besides the function's name
};

// A buffer parameter with a fixed part (16 bytes) and a push-constant block (4 bytes).
const char* kKernel = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uvec4 header; float v[]; };
layout(push_constant) uniform P { uint n; };
void main() { uint i = gl_GlobalInvocationID.x; if (i < n) v[i] += float(header.x); })";
constexpr uint32_t kPushSize = 4;
constexpr uint64_t kBufferBytes = 64;  // 16 float32 elements

porta_device open_or_fail(const std::string& selector) {
  porta_device d = nullptr;
  if (porta_device_open(selector.c_str(), &d) != PORTA_SUCCESS)
    throw std::runtime_error("cannot open " + selector + ": " + porta_last_error());
  return d;
}

// Built once per device (PORTA_KERNEL_FLAG_REUSE), however many handles the rows make.
porta_kernel_descriptor kernel_descriptor() {
  return {.struct_size = sizeof(porta_kernel_descriptor),
          .source_kind = PORTA_KERNEL_SOURCE_GLSL,
          .source = kKernel,
          .source_size = std::strlen(kKernel),
          .name = "bad_args",
          .specs = nullptr,
          .spec_count = 0,
          .flags = PORTA_KERNEL_FLAG_REUSE,
          .reuse_key = nullptr,
          .specs64 = nullptr,
          .spec64_count = 0};
}

// The objects on one device that the rows use.
struct Objects {
  explicit Objects(const std::string& selector) : selector(selector), device(open_or_fail(selector)) {
    porta_device_query_info(device, &info);
    check(porta_buffer_create(device, kBufferBytes, &buffer));
    check(porta_buffer_create(device, 4, &small));
    check(porta_stream_create(device, &stream));
    check(porta_stream_create(device, &stream2));
    const porta_kernel_descriptor d = kernel_descriptor();
    check(porta_kernel_create(device, &d, &kernel));
    check(porta_stream_begin_record(stream));
    check(porta_stream_fill(stream, buffer, 0, kBufferBytes, 0));
    check(porta_stream_end_record(stream, &sequence));
    check(porta_event_record(stream, &event));
    check(porta_event_record(stream, &event2));
    check(porta_event_record(stream2, &event_of_stream2));
    check(porta_stream_sync(stream));
    check(porta_stream_sync(stream2));
  }
  ~Objects() {
    porta_event_destroy(event);
    porta_event_destroy(event2);
    porta_event_destroy(event_of_stream2);
    porta_sequence_destroy(sequence);
    porta_kernel_destroy(kernel);
    porta_stream_destroy(stream);
    porta_stream_destroy(stream2);
    porta_buffer_destroy(buffer);
    porta_buffer_destroy(small);
    porta_device_close(device);
  }
  Objects(const Objects&) = delete;
  Objects& operator=(const Objects&) = delete;

  static void check(porta_status status) {
    if (status != PORTA_SUCCESS) throw std::runtime_error(porta_last_error());
  }

  // Handles made and destroyed at once, for "use after destroy": nothing may
  // make another handle between this and its use, or the address may be live
  // again (porta.h).
  porta_device dead_device() const {
    porta_device d = open_or_fail(selector);
    porta_device_close(d);
    return d;
  }
  porta_buffer dead_buffer() const {
    porta_buffer b = nullptr;
    check(porta_buffer_create(device, 16, &b));
    porta_buffer_destroy(b);
    return b;
  }
  porta_kernel dead_kernel() const {
    porta_kernel k = nullptr;
    const porta_kernel_descriptor d = kernel_descriptor();
    check(porta_kernel_create(device, &d, &k));
    porta_kernel_destroy(k);
    return k;
  }
  porta_stream dead_stream() const {
    porta_stream s = nullptr;
    check(porta_stream_create(device, &s));
    porta_stream_destroy(s);
    return s;
  }
  porta_event dead_event() const {
    porta_event e = nullptr;
    check(porta_event_record(stream, &e));
    check(porta_stream_sync(stream));
    porta_event_destroy(e);
    return e;
  }
  porta_sequence dead_sequence() const {
    porta_sequence q = nullptr;
    check(porta_stream_begin_record(stream));
    check(porta_stream_end_record(stream, &q));
    porta_sequence_destroy(q);
    return q;
  }

  std::string selector;
  porta_device device = nullptr;
  porta_device_info info{};
  porta_buffer buffer = nullptr;  // kBufferBytes
  porta_buffer small = nullptr;   // 4 bytes: less than the kernel's block needs
  porta_stream stream = nullptr, stream2 = nullptr;
  porta_kernel kernel = nullptr;
  porta_sequence sequence = nullptr;  // recorded on `stream`
  porta_event event = nullptr, event2 = nullptr, event_of_stream2 = nullptr;
};

// `t` after `change`.
template <class Change>
porta_tensor changed(porta_tensor t, Change change) {
  change(t);
  return t;
}

porta_tensor tensor(porta_buffer buffer, std::initializer_list<uint64_t> shape, uint64_t offset = 0) {
  return porta::test::f32_tensor(buffer, shape, offset);
}

// Runs `body` with `stream` recording a sequence, then ends and drops the recording.
Outcome while_recording(porta_stream stream, const std::function<Outcome()>& body) {
  Objects::check(porta_stream_begin_record(stream));
  Outcome o = body();
  porta_sequence q = nullptr;
  porta_stream_end_record(stream, &q);
  porta_sequence_destroy(q);
  return o;
}

// The table, built over the objects of the device under test (`w`) and of
// another device (`other`). Its rows refer to it: run them while it lives.
class Table {
 public:
  Table(const Objects& w, const Objects& other) : w(w), other(other) {}

  std::vector<Row> rows;

  void add(std::string function, std::string wrong, std::function<Outcome()> call, porta_status want,
           std::vector<std::string> says = {}) {
    rows.push_back({std::move(function), std::move(wrong), std::move(call), want, std::move(says)});
  }

  // Null, destroyed and wrong-kind handles for the parameter `argument` (its
  // name in messages, "" where the handle's kind names it) of `function`.
  // `use` calls the function with the handle given. `exact_dead`: the message
  // says "not live" (false where the call itself makes a handle first, which
  // may take the dead one's address, porta.h).
  template <class H>
  void handles(const std::string& function, const char* kind, const std::string& argument,
               H (Objects::*dead)() const, const std::function<Outcome(H)>& use, bool exact_dead = true) {
    const std::string where = argument.empty() ? "" : argument + ": ";
    // A live handle of another kind.
    void* wrong = std::string(kind) == "buffer" ? static_cast<void*>(w.stream) : static_cast<void*>(w.buffer);
    const char* wrong_kind = std::string(kind) == "buffer" ? "stream" : "buffer";
    const std::string name = argument.empty() ? std::string(kind) : argument;
    add(function, "null " + name, [use] { return use(nullptr); }, PORTA_ERROR_INVALID_HANDLE,
        {where + "the " + kind + " handle is null"});
    std::vector<std::string> dead_says{where};
    if (exact_dead) dead_says = {where + "the " + kind + " handle", "is not live"};
    add(
        function, "destroyed " + name, [this, dead, use] { return use((w.*dead)()); },
        PORTA_ERROR_INVALID_HANDLE, dead_says);
    add(function, std::string("a ") + wrong_kind + " handle as " + name,
        [use, wrong] { return use(static_cast<H>(wrong)); }, PORTA_ERROR_INVALID_HANDLE,
        {where + "expected a " + kind + " handle, got a " + wrong_kind + " handle"});
  }

  // Destroy rows: NULL is a no-op; twice and a handle of another kind leave
  // INVALID_HANDLE in porta_last_error(), and the other handle still works.
  template <class H>
  void destroys(const std::string& function, const char* kind, const std::function<H()>& make,
                void (*destroy)(H)) {
    add(
        function, "NULL", [destroy] { return destroy(nullptr), reported(); }, PORTA_SUCCESS);
    add(function, "twice",
        [make, destroy] {
          H h = make();
          destroy(h);
          destroy(h);
          return reported();
        },
        PORTA_ERROR_INVALID_HANDLE, {"the " + std::string(kind) + " handle", "is not live"});
    const bool buffer = std::string(kind) == "buffer";
    add(function, buffer ? "a stream handle" : "a buffer handle",
        [this, destroy, buffer] {
          destroy(static_cast<H>(buffer ? static_cast<void*>(w.stream) : static_cast<void*>(w.buffer)));
          Outcome o = reported();
          // The handle of the other kind was left alone.
          EXPECT_EQ(porta_buffer_size(w.buffer), kBufferBytes);
          EXPECT_EQ(porta_stream_sync(w.stream), PORTA_SUCCESS) << porta_last_error();
          return o;
        },
        PORTA_ERROR_INVALID_HANDLE,
        {std::string("expected a ") + kind + " handle, got a " + (buffer ? "stream" : "buffer") + " handle"});
  }

  // porta_buffer_get_device and porta_stream_get_device: bad handles, and a null device.
  template <class H>
  void get_device_rows(const std::string& function, const char* kind, H (Objects::*dead)() const, H live,
                       porta_status (*get)(H, porta_device*)) {
    handles<H>(function, kind, "", dead, [get](H h) {
      porta_device d = nullptr;
      return outcome(get(h, &d));
    });
    add(function, "null device", [get, live] { return outcome(get(live, nullptr)); },
        PORTA_ERROR_INVALID_ARGUMENT, {"device is null"});
  }

  void device_rows();
  void buffer_rows();
  void kernel_rows();
  void stream_rows();
  void transfer_rows(const char* function, bool write);
  void dispatch_rows();
  void dispatch_bindings_rows();
  void record_rows();
  void event_rows();
  void op_rows();
  // Handles of `other` used with handles of `w`.
  void other_device_rows();
  void all_rows();

 private:
  const Objects& w;
  const Objects& other;
};

void Table::device_rows() {
  add(
      "porta_status_name", "a value that is no porta_status",
      [] {
        EXPECT_STREQ(porta_status_name(static_cast<porta_status>(99)), "PORTA_ERROR_UNKNOWN");
        return reported();
      },
      PORTA_SUCCESS);
  add(
      "porta_feature_name", "0, two bits, an unknown bit",
      [] {
        EXPECT_EQ(porta_feature_name(0), nullptr);
        EXPECT_EQ(porta_feature_name(PORTA_FEATURE_FP16 | PORTA_FEATURE_FP64), nullptr);
        EXPECT_EQ(porta_feature_name(uint64_t{1} << 63), nullptr);
        return reported();
      },
      PORTA_SUCCESS);

  add("porta_backend_get", "index UINT32_MAX",
      [] { return outcome(porta_backend_get(UINT32_MAX, nullptr, nullptr, nullptr)); },
      PORTA_ERROR_INVALID_ARGUMENT, {"index 4294967295 out of range"});
  add("porta_backend_get", "index = porta_backend_count()",
      [] {
        const char* name = nullptr;
        return outcome(porta_backend_get(porta_backend_count(), &name, nullptr, nullptr));
      },
      PORTA_ERROR_INVALID_ARGUMENT, {"out of range"});
  add(
      "porta_backend_get", "every output NULL (they are optional)",
      [] { return outcome(porta_backend_get(0, nullptr, nullptr, nullptr)); }, PORTA_SUCCESS);
  add("porta_device_get_info", "null info", [] { return outcome(porta_device_get_info(0, nullptr)); },
      PORTA_ERROR_INVALID_ARGUMENT, {"info is null"});
  add("porta_device_get_info", "index = porta_device_count()",
      [] {
        porta_device_info info;
        return outcome(porta_device_get_info(porta_device_count(), &info));
      },
      PORTA_ERROR_INVALID_ARGUMENT, {"out of range"});

  const std::string backend = backend_name_under_test();
  auto open_rows = [&](const std::string& selector, porta_status want, std::string says) {
    add("porta_device_open", "selector \"" + selector + "\"",
        [selector] {
          porta_device d = nullptr;
          Outcome o = outcome(porta_device_open(selector.c_str(), &d));
          EXPECT_EQ(d, nullptr);
          return o;
        },
        want, {says});
  };
  add("porta_device_open", "null device", [] { return outcome(porta_device_open("", nullptr)); },
      PORTA_ERROR_INVALID_ARGUMENT, {"device is null"});
  open_rows("no-such-backend", PORTA_ERROR_NOT_FOUND, "unknown backend 'no-such-backend'");
  open_rows(backend + ":9999", PORTA_ERROR_NOT_FOUND, "device 9999 is out of range");
  open_rows(backend + ":no such device name", PORTA_ERROR_NOT_FOUND,
            "'no such device name' matches no device name");
  open_rows(backend + ",,cpu", PORTA_ERROR_INVALID_ARGUMENT, "has an empty entry");

  destroys<porta_device>(
      "porta_device_close", "device", [this] { return open_or_fail(w.selector); }, porta_device_close);
  for (const char* function : {"porta_device_query_info", "porta_device_info_get"}) {
    const bool old = std::string(function) == "porta_device_info_get";
    auto query = [old](porta_device d, porta_device_info* info) {
      return old ? porta_device_info_get(d, info) : porta_device_query_info(d, info);
    };
    handles<porta_device>(function, "device", "", &Objects::dead_device, [query](porta_device d) {
      porta_device_info info;
      return outcome(query(d, &info));
    });
    add(function, "null info", [this, query] { return outcome(query(w.device, nullptr)); },
        PORTA_ERROR_INVALID_ARGUMENT, {"info is null"});
  }
  handles<porta_device>("porta_device_equal", "device", "a", &Objects::dead_device, [this](porta_device d) {
    EXPECT_EQ(porta_device_equal(d, w.device), 0);
    return reported();
  });
  handles<porta_device>("porta_device_equal", "device", "b", &Objects::dead_device, [this](porta_device d) {
    EXPECT_EQ(porta_device_equal(w.device, d), 0);
    return reported();
  });
}

void Table::buffer_rows() {
  handles<porta_device>("porta_buffer_create", "device", "", &Objects::dead_device, [](porta_device d) {
    porta_buffer b = nullptr;
    return outcome(porta_buffer_create(d, 16, &b));
  });
  add("porta_buffer_create", "null buffer",
      [this] { return outcome(porta_buffer_create(w.device, 16, nullptr)); }, PORTA_ERROR_INVALID_ARGUMENT,
      {"buffer is null"});
  add("porta_buffer_create", "size 0",
      [this] {
        porta_buffer b = nullptr;
        return outcome(porta_buffer_create(w.device, 0, &b));
      },
      PORTA_ERROR_INVALID_ARGUMENT, {"size is 0 bytes"});
  if (w.info.limits.max_buffer_bytes)
    add("porta_buffer_create", "size UINT64_MAX",
        [this] {
          porta_buffer b = nullptr;
          return outcome(porta_buffer_create(w.device, UINT64_MAX, &b));
        },
        PORTA_ERROR_OUT_OF_MEMORY, {"18446744073709551615 bytes exceeds the device's largest buffer"});
  destroys<porta_buffer>(
      "porta_buffer_destroy", "buffer",
      [this] {
        porta_buffer b = nullptr;
        Objects::check(porta_buffer_create(w.device, 16, &b));
        return b;
      },
      porta_buffer_destroy);
  handles<porta_buffer>("porta_buffer_size", "buffer", "", &Objects::dead_buffer, [](porta_buffer b) {
    EXPECT_EQ(porta_buffer_size(b), 0u);
    return reported();
  });
  get_device_rows<porta_buffer>("porta_buffer_get_device", "buffer", &Objects::dead_buffer, w.buffer,
                                porta_buffer_get_device);
  handles<porta_buffer>(
      "porta_buffer_check_device", "buffer", "", &Objects::dead_buffer,
      [this](porta_buffer b) { return outcome(porta_buffer_check_device(b, w.device, nullptr)); });
  handles<porta_device>(
      "porta_buffer_check_device", "device", "", &Objects::dead_device,
      [this](porta_device d) { return outcome(porta_buffer_check_device(w.buffer, d, nullptr)); });
  add(
      "porta_buffer_check_device", "null size (optional)",
      [this] { return outcome(porta_buffer_check_device(w.buffer, w.device, nullptr)); }, PORTA_SUCCESS);

  for (bool write : {true, false}) {
    const char* function = write ? "porta_buffer_write" : "porta_buffer_read";
    const char* host_name = write ? "src" : "dst";
    const char* role = write ? "destination" : "source";
    auto transfer = [write](porta_buffer b, uint64_t offset, void* host, uint64_t size) {
      return write ? porta_buffer_write(b, offset, host, size) : porta_buffer_read(b, offset, host, size);
    };
    handles<porta_buffer>(function, "buffer", "", &Objects::dead_buffer, [transfer](porta_buffer b) {
      uint32_t host = 0;
      return outcome(transfer(b, 0, &host, 4));
    });
    add(function, std::string("null ") + host_name,
        [this, transfer] { return outcome(transfer(w.buffer, 0, nullptr, 4)); }, PORTA_ERROR_INVALID_ARGUMENT,
        {std::string(host_name) + " is null"});
    add(
        function, std::string("size 0, null ") + host_name + " (a no-op)",
        [this, transfer] { return outcome(transfer(w.buffer, 0, nullptr, 0)); }, PORTA_SUCCESS);
    add(function, "offset UINT64_MAX",
        [this, transfer] {
          uint32_t host = 0;
          return outcome(transfer(w.buffer, UINT64_MAX, &host, 4));
        },
        PORTA_ERROR_INVALID_ARGUMENT,
        {std::string(role) + " offset + size overflows", "(18446744073709551615 + 4)"});
    add(function, "size UINT64_MAX",
        [this, transfer] {
          uint32_t host = 0;
          return outcome(transfer(w.buffer, 8, &host, UINT64_MAX));
        },
        PORTA_ERROR_INVALID_ARGUMENT, {"offset + size overflows", "(8 + 18446744073709551615)"});
    add(function, "range past the end",
        [this, transfer] {
          uint8_t host[8] = {};
          return outcome(transfer(w.buffer, kBufferBytes - 4, host, 8));
        },
        PORTA_ERROR_INVALID_ARGUMENT,
        {std::string(role) + " range [60, 68) is past the end of the buffer (64 bytes)"});
    add(function, "offset past the end, size 0",
        [this, transfer] { return outcome(transfer(w.buffer, kBufferBytes + 1, nullptr, 0)); },
        PORTA_ERROR_INVALID_ARGUMENT, {"range [65, 65) is past the end"});
  }
}

void Table::kernel_rows() {
  const std::string source = kKernel;
  // A valid module's first words: enough for every check before the front end.
  static const uint32_t words[5] = {0x07230203u, 0x00010000u, 0, 8, 0};
  auto glsl = [](porta_device d, const char* text, size_t size, const porta_spec_constant* specs, uint32_t n,
                 porta_kernel* k) {
    return porta_kernel_create_glsl(d, text, size, "bad_args", specs, n, k);
  };
  handles<porta_device>("porta_kernel_create_glsl", "device", "", &Objects::dead_device, [=](porta_device d) {
    porta_kernel k = nullptr;
    return outcome(glsl(d, source.c_str(), source.size(), nullptr, 0, &k));
  });
  auto glsl_row = [&](std::string wrong, const char* text, size_t size, uint32_t spec_count, bool null_out,
                      porta_status want, std::string says) {
    add("porta_kernel_create_glsl", std::move(wrong),
        [=, this] {
          porta_kernel k = nullptr;
          return outcome(glsl(w.device, text, size, nullptr, spec_count, null_out ? nullptr : &k));
        },
        want, {says});
  };
  glsl_row("null source", nullptr, 10, 0, false, PORTA_ERROR_INVALID_ARGUMENT, "source is null (size is 10)");
  glsl_row("size 0", kKernel, 0, 0, false, PORTA_ERROR_INVALID_KERNEL,
           "the kernel source is empty (size is 0)");
  glsl_row("size SIZE_MAX", kKernel, SIZE_MAX, 0, false, PORTA_ERROR_INVALID_ARGUMENT,
           "size is 18446744073709551615, more than the 1073741824 bytes");
  glsl_row("null specs, spec_count 2", kKernel, source.size(), 2, false, PORTA_ERROR_INVALID_ARGUMENT,
           "spec_count is 2 but specs is null");
  glsl_row("null kernel", kKernel, source.size(), 0, true, PORTA_ERROR_INVALID_ARGUMENT, "kernel is null");

  handles<porta_device>("porta_kernel_create_spirv", "device", "", &Objects::dead_device, [](porta_device d) {
    porta_kernel k = nullptr;
    return outcome(porta_kernel_create_spirv(d, words, 5, nullptr, nullptr, 0, &k));
  });
  auto spirv_row = [&](std::string wrong, const uint32_t* text, size_t count, uint32_t spec_count,
                       bool null_out, porta_status want, std::string says) {
    add("porta_kernel_create_spirv", std::move(wrong),
        [=, this] {
          porta_kernel k = nullptr;
          return outcome(porta_kernel_create_spirv(w.device, text, count, nullptr, nullptr, spec_count,
                                                   null_out ? nullptr : &k));
        },
        want, {says});
  };
  spirv_row("null words", nullptr, 5, 0, false, PORTA_ERROR_INVALID_ARGUMENT,
            "words is null (word_count is 5)");
  spirv_row("word_count 0", words, 0, 0, false, PORTA_ERROR_INVALID_KERNEL,
            "the kernel source is empty (word_count is 0)");
  spirv_row("word_count SIZE_MAX", words, SIZE_MAX, 0, false, PORTA_ERROR_INVALID_ARGUMENT,
            "word_count is 18446744073709551615, more than the 1073741824 bytes");
  spirv_row("word_count SIZE_MAX / 4 (bytes overflow)", words, SIZE_MAX / 4, 0, false,
            PORTA_ERROR_INVALID_ARGUMENT, "word_count is 4611686018427387903");
  spirv_row("null specs, spec_count 1", words, 5, 1, false, PORTA_ERROR_INVALID_ARGUMENT,
            "spec_count is 1 but specs is null");
  spirv_row("null kernel", words, 5, 0, true, PORTA_ERROR_INVALID_ARGUMENT, "kernel is null");

  handles<porta_device>("porta_kernel_create", "device", "", &Objects::dead_device, [](porta_device d) {
    porta_kernel k = nullptr;
    const porta_kernel_descriptor desc = kernel_descriptor();
    return outcome(porta_kernel_create(d, &desc, &k));
  });
  auto create_row = [&](std::string wrong, std::function<void(porta_kernel_descriptor&)> change,
                        porta_status want, std::string says) {
    add("porta_kernel_create", std::move(wrong),
        [this, change] {
          // Room past the descriptor for a struct_size larger than this version's.
          struct {
            porta_kernel_descriptor d;
            unsigned char more[64];
          } given{kernel_descriptor(), {}};
          given.d.flags = 0;
          change(given.d);
          porta_kernel k = nullptr;
          return outcome(porta_kernel_create(w.device, &given.d, &k));
        },
        want, {says});
  };
  add("porta_kernel_create", "null descriptor",
      [this] {
        porta_kernel k = nullptr;
        return outcome(porta_kernel_create(w.device, nullptr, &k));
      },
      PORTA_ERROR_INVALID_ARGUMENT, {"descriptor is null"});
  add("porta_kernel_create", "null kernel",
      [this] {
        const porta_kernel_descriptor desc = kernel_descriptor();
        return outcome(porta_kernel_create(w.device, &desc, nullptr));
      },
      PORTA_ERROR_INVALID_ARGUMENT, {"kernel is null"});
  create_row(
      "struct_size 0", [](porta_kernel_descriptor& d) { d.struct_size = 0; }, PORTA_ERROR_INVALID_ARGUMENT,
      "descriptor struct_size is 0; it must be at least");
  create_row(
      "a field this version does not know",
      [](porta_kernel_descriptor& d) {
        d.struct_size = sizeof d + 16;
        reinterpret_cast<unsigned char*>(&d)[sizeof d + 8] = 1;
      },
      PORTA_ERROR_UNSUPPORTED, "sets fields this porta version");
  create_row(
      "source_kind 7",
      [](porta_kernel_descriptor& d) { d.source_kind = static_cast<porta_kernel_source_kind>(7); },
      PORTA_ERROR_INVALID_ARGUMENT, "source_kind 7 is not a porta_kernel_source_kind");
  create_row(
      "null source", [](porta_kernel_descriptor& d) { d.source = nullptr; }, PORTA_ERROR_INVALID_ARGUMENT,
      "source is null (source_size is");
  create_row(
      "source_size 0", [](porta_kernel_descriptor& d) { d.source_size = 0; }, PORTA_ERROR_INVALID_KERNEL,
      "the kernel source is empty (source_size is 0)");
  create_row(
      "source_size SIZE_MAX", [](porta_kernel_descriptor& d) { d.source_size = SIZE_MAX; },
      PORTA_ERROR_INVALID_ARGUMENT, "source_size is 18446744073709551615, more than the 1073741824 bytes");
  create_row(
      "SPIR-V of 6 bytes",
      [](porta_kernel_descriptor& d) {
        d.source_kind = PORTA_KERNEL_SOURCE_SPIRV;
        d.source = words;
        d.source_size = 6;
      },
      PORTA_ERROR_INVALID_ARGUMENT, "6 bytes of SPIR-V are not whole 32-bit words");
  create_row(
      "null specs, spec_count 3", [](porta_kernel_descriptor& d) { d.spec_count = 3; },
      PORTA_ERROR_INVALID_ARGUMENT, "spec_count is 3 but specs is null");
  create_row(
      "unknown flag", [](porta_kernel_descriptor& d) { d.flags = 0x80; }, PORTA_ERROR_INVALID_ARGUMENT,
      "unknown flags 0x80");
  create_row(
      "reuse_key without PORTA_KERNEL_FLAG_REUSE", [](porta_kernel_descriptor& d) { d.reuse_key = "k"; },
      PORTA_ERROR_INVALID_ARGUMENT, "reuse_key 'k' is set but PORTA_KERNEL_FLAG_REUSE is not");

  destroys<porta_kernel>(
      "porta_kernel_destroy", "kernel",
      [this] {
        porta_kernel k = nullptr;
        const porta_kernel_descriptor d = kernel_descriptor();
        Objects::check(porta_kernel_create(w.device, &d, &k));
        return k;
      },
      porta_kernel_destroy);
  handles<porta_kernel>("porta_kernel_buffer_count", "kernel", "", &Objects::dead_kernel, [](porta_kernel k) {
    EXPECT_EQ(porta_kernel_buffer_count(k), 0u);
    return reported();
  });
  handles<porta_kernel>("porta_kernel_push_constant_size", "kernel", "", &Objects::dead_kernel,
                        [](porta_kernel k) {
                          EXPECT_EQ(porta_kernel_push_constant_size(k), 0u);
                          return reported();
                        });
  handles<porta_kernel>("porta_kernel_workgroup_size", "kernel", "", &Objects::dead_kernel,
                        [](porta_kernel k) {
                          uint32_t size[3] = {7, 7, 7};
                          porta_kernel_workgroup_size(k, size);
                          EXPECT_EQ(size[0], 7u) << "written for a bad handle";
                          return reported();
                        });
  add("porta_kernel_workgroup_size", "null size",
      [this] { return porta_kernel_workgroup_size(w.kernel, nullptr), reported(); },
      PORTA_ERROR_INVALID_ARGUMENT, {"size is null"});
}

void Table::stream_rows() {
  handles<porta_device>("porta_stream_create", "device", "", &Objects::dead_device, [](porta_device d) {
    porta_stream s = nullptr;
    return outcome(porta_stream_create(d, &s));
  });
  add("porta_stream_create", "null stream",
      [this] { return outcome(porta_stream_create(w.device, nullptr)); }, PORTA_ERROR_INVALID_ARGUMENT,
      {"stream is null"});
  get_device_rows<porta_stream>("porta_stream_get_device", "stream", &Objects::dead_stream, w.stream,
                                porta_stream_get_device);
  destroys<porta_stream>(
      "porta_stream_destroy", "stream",
      [this] {
        porta_stream s = nullptr;
        Objects::check(porta_stream_create(w.device, &s));
        return s;
      },
      porta_stream_destroy);
  add(
      "porta_stream_destroy", "while recording (defined: the recording is dropped)",
      [this] {
        porta_stream s = nullptr;
        Objects::check(porta_stream_create(w.device, &s));
        Objects::check(porta_stream_begin_record(s));
        Objects::check(porta_stream_fill(s, w.buffer, 0, 16, 1));
        porta_stream_destroy(s);
        return reported();
      },
      PORTA_SUCCESS);
  handles<porta_stream>("porta_stream_sync", "stream", "", &Objects::dead_stream,
                        [](porta_stream s) { return outcome(porta_stream_sync(s)); });

  transfer_rows("porta_stream_write", true);
  transfer_rows("porta_stream_read", false);

  const char* copy = "porta_stream_copy";
  handles<porta_stream>(copy, "stream", "", &Objects::dead_stream, [this](porta_stream s) {
    return outcome(porta_stream_copy(s, w.buffer, 0, w.buffer, 32, 16));
  });
  handles<porta_buffer>(copy, "buffer", "src", &Objects::dead_buffer, [this](porta_buffer b) {
    return outcome(porta_stream_copy(w.stream, b, 0, w.buffer, 32, 16));
  });
  handles<porta_buffer>(copy, "buffer", "dst", &Objects::dead_buffer, [this](porta_buffer b) {
    return outcome(porta_stream_copy(w.stream, w.buffer, 0, b, 32, 16));
  });
  add(copy, "src_offset UINT64_MAX",
      [this] { return outcome(porta_stream_copy(w.stream, w.buffer, UINT64_MAX, w.buffer, 0, 4)); },
      PORTA_ERROR_INVALID_ARGUMENT, {"source offset + size overflows"});
  add(copy, "size UINT64_MAX",
      [this] { return outcome(porta_stream_copy(w.stream, w.buffer, 4, w.buffer, 32, UINT64_MAX)); },
      PORTA_ERROR_INVALID_ARGUMENT, {"source offset + size overflows"});
  add(copy, "dst range past the end",
      [this] { return outcome(porta_stream_copy(w.stream, w.buffer, 0, w.buffer, 56, 16)); },
      PORTA_ERROR_INVALID_ARGUMENT, {"destination range [56, 72) is past the end of the buffer (64 bytes)"});
  add(copy, "overlapping ranges of one buffer",
      [this] { return outcome(porta_stream_copy(w.stream, w.buffer, 0, w.buffer, 8, 16)); },
      PORTA_ERROR_INVALID_ARGUMENT, {"source and destination ranges overlap"});

  const char* fill = "porta_stream_fill";
  handles<porta_stream>(fill, "stream", "", &Objects::dead_stream,
                        [this](porta_stream s) { return outcome(porta_stream_fill(s, w.buffer, 0, 16, 0)); });
  handles<porta_buffer>(fill, "buffer", "dst", &Objects::dead_buffer,
                        [this](porta_buffer b) { return outcome(porta_stream_fill(w.stream, b, 0, 16, 0)); });
  add(fill, "offset not a multiple of 4",
      [this] { return outcome(porta_stream_fill(w.stream, w.buffer, 2, 4, 0)); },
      PORTA_ERROR_INVALID_ARGUMENT, {"offset (2) and size (4) must be multiples of 4"});
  add(fill, "size UINT64_MAX - 3",
      [this] { return outcome(porta_stream_fill(w.stream, w.buffer, 4, UINT64_MAX - 3, 0)); },
      PORTA_ERROR_INVALID_ARGUMENT, {"destination offset + size overflows"});
  add(fill, "range past the end",
      [this] { return outcome(porta_stream_fill(w.stream, w.buffer, 32, 64, 0)); },
      PORTA_ERROR_INVALID_ARGUMENT, {"destination range [32, 96) is past the end"});
  add(
      fill, "size 0 (a no-op)", [this] { return outcome(porta_stream_fill(w.stream, w.buffer, 64, 0, 0)); },
      PORTA_SUCCESS);

  dispatch_rows();
  record_rows();
  event_rows();
}

void Table::transfer_rows(const char* function, bool write) {
  const char* buffer_name = write ? "dst" : "src";
  const char* host_name = write ? "src" : "dst";
  const std::string role = write ? "destination" : "source";
  auto transfer = [write](porta_stream s, porta_buffer b, uint64_t offset, void* host, uint64_t size) {
    return write ? porta_stream_write(s, b, offset, host, size) : porta_stream_read(s, b, offset, host, size);
  };
  handles<porta_stream>(function, "stream", "", &Objects::dead_stream, [this, transfer](porta_stream s) {
    uint32_t host = 0;
    return outcome(transfer(s, w.buffer, 0, &host, 4));
  });
  handles<porta_buffer>(function, "buffer", buffer_name, &Objects::dead_buffer,
                        [this, transfer](porta_buffer b) {
                          uint32_t host = 0;
                          return outcome(transfer(w.stream, b, 0, &host, 4));
                        });
  add(function, std::string("null ") + host_name,
      [this, transfer] { return outcome(transfer(w.stream, w.buffer, 0, nullptr, 4)); },
      PORTA_ERROR_INVALID_ARGUMENT, {std::string(host_name) + " is null"});
  add(
      function, std::string("size 0, null ") + host_name + " (a no-op)",
      [this, transfer] { return outcome(transfer(w.stream, w.buffer, 0, nullptr, 0)); }, PORTA_SUCCESS);
  add(function, "offset UINT64_MAX",
      [this, transfer] {
        uint32_t host = 0;
        return outcome(transfer(w.stream, w.buffer, UINT64_MAX, &host, 4));
      },
      PORTA_ERROR_INVALID_ARGUMENT, {role + " offset + size overflows (18446744073709551615 + 4)"});
  add(function, "size UINT64_MAX - 2",
      [this, transfer] {
        uint32_t host = 0;
        return outcome(transfer(w.stream, w.buffer, 4, &host, UINT64_MAX - 2));
      },
      PORTA_ERROR_INVALID_ARGUMENT, {role + " offset + size overflows (4 + 18446744073709551613)"});
  add(function, "range past the end",
      [this, transfer] {
        uint8_t host[8] = {};
        return outcome(transfer(w.stream, w.buffer, 60, host, 8));
      },
      PORTA_ERROR_INVALID_ARGUMENT, {role + " range [60, 68) is past the end of the buffer (64 bytes)"});
}

void Table::dispatch_rows() {
  const char* dispatch = "porta_stream_dispatch";
  static const uint32_t one[3] = {1, 1, 1};
  static const uint32_t push = 0;
  handles<porta_stream>(dispatch, "stream", "", &Objects::dead_stream, [this](porta_stream s) {
    return outcome(porta_stream_dispatch(s, w.kernel, one, &w.buffer, 1, &push, kPushSize));
  });
  handles<porta_kernel>(dispatch, "kernel", "", &Objects::dead_kernel, [this](porta_kernel k) {
    return outcome(porta_stream_dispatch(w.stream, k, one, &w.buffer, 1, &push, kPushSize));
  });
  handles<porta_buffer>(
      dispatch, "buffer", "of kernel 'bad_args'", &Objects::dead_buffer, [this](porta_buffer b) {
        return outcome(porta_stream_dispatch(w.stream, w.kernel, one, &b, 1, &push, kPushSize));
      });
  auto row = [&](std::string wrong, std::function<porta_status()> call, std::string says) {
    add(dispatch, std::move(wrong), [call] { return outcome(call()); }, PORTA_ERROR_INVALID_ARGUMENT,
        {"'bad_args'", says});
  };
  row(
      "null groups",
      [this] { return porta_stream_dispatch(w.stream, w.kernel, nullptr, &w.buffer, 1, &push, kPushSize); },
      "groups is null");
  static const uint32_t zero_y[3] = {1, 0, 1};
  row(
      "group count 0",
      [this] { return porta_stream_dispatch(w.stream, w.kernel, zero_y, &w.buffer, 1, &push, kPushSize); },
      "group count y is 0");
  // A limit of UINT32_MAX would run the dispatch: no row then.
  if (w.info.limits.max_workgroup_count[0] < UINT32_MAX) {
    static const uint32_t huge[3] = {UINT32_MAX, 1, 1};
    row(
        "group count UINT32_MAX",
        [this] { return porta_stream_dispatch(w.stream, w.kernel, huge, &w.buffer, 1, &push, kPushSize); },
        "group count x = 4294967295 exceeds");
  }
  row(
      "2 buffers for 1 parameter",
      [this] {
        const porta_buffer two[2] = {w.buffer, w.buffer};
        return porta_stream_dispatch(w.stream, w.kernel, one, two, 2, &push, kPushSize);
      },
      "2 buffers given; the kernel has 1 buffer parameters");
  row(
      "null buffers",
      [this] { return porta_stream_dispatch(w.stream, w.kernel, one, nullptr, 1, &push, kPushSize); },
      "buffers is null");
  row(
      "8 bytes of push constants for 4",
      [this] {
        const uint64_t push8 = 0;
        return porta_stream_dispatch(w.stream, w.kernel, one, &w.buffer, 1, &push8, 8);
      },
      "8 bytes of push constants given; the kernel's block is 4 bytes");
  row(
      "null push constants",
      [this] { return porta_stream_dispatch(w.stream, w.kernel, one, &w.buffer, 1, nullptr, kPushSize); },
      "push constants are null");
  row(
      "a buffer smaller than its block",
      [this] { return porta_stream_dispatch(w.stream, w.kernel, one, &w.small, 1, &push, kPushSize); },
      "is 4 bytes; its block needs at least 16 bytes");
  dispatch_bindings_rows();
}

void Table::dispatch_bindings_rows() {
  const char* dispatch = "porta_stream_dispatch_bindings";
  static const uint32_t one[3] = {1, 1, 1};
  static const uint32_t push = 0;
  auto whole = [](porta_buffer b) { return porta_binding{b, 0, 0}; };
  handles<porta_stream>(dispatch, "stream", "", &Objects::dead_stream, [this, whole](porta_stream s) {
    const porta_binding b = whole(w.buffer);
    return outcome(porta_stream_dispatch_bindings(s, w.kernel, one, &b, 1, &push, kPushSize));
  });
  handles<porta_kernel>(dispatch, "kernel", "", &Objects::dead_kernel, [this, whole](porta_kernel k) {
    const porta_binding b = whole(w.buffer);
    return outcome(porta_stream_dispatch_bindings(w.stream, k, one, &b, 1, &push, kPushSize));
  });
  handles<porta_buffer>(
      dispatch, "buffer", "of kernel 'bad_args'", &Objects::dead_buffer, [this, whole](porta_buffer buffer) {
        const porta_binding b = whole(buffer);
        return outcome(porta_stream_dispatch_bindings(w.stream, w.kernel, one, &b, 1, &push, kPushSize));
      });
  auto row = [&](std::string wrong, porta_binding binding, std::string says) {
    add(dispatch, std::move(wrong),
        [this, binding] {
          return outcome(
              porta_stream_dispatch_bindings(w.stream, w.kernel, one, &binding, 1, &push, kPushSize));
        },
        PORTA_ERROR_INVALID_ARGUMENT, {"'bad_args'", says});
  };
  add(dispatch, "null groups",
      [this, whole] {
        const porta_binding b = whole(w.buffer);
        return outcome(porta_stream_dispatch_bindings(w.stream, w.kernel, nullptr, &b, 1, &push, kPushSize));
      },
      PORTA_ERROR_INVALID_ARGUMENT, {"'bad_args'", "groups is null"});
  add(dispatch, "null bindings",
      [this] {
        return outcome(porta_stream_dispatch_bindings(w.stream, w.kernel, one, nullptr, 1, &push, kPushSize));
      },
      PORTA_ERROR_INVALID_ARGUMENT, {"'bad_args'", "bindings is null"});
  row("range past the end", {w.buffer, 0, kBufferBytes + 16},
      "range [0, 80) is past the end of the buffer (64 bytes)");
  row("offset + size overflows", {w.buffer, 16, UINT64_MAX},
      "offset + size overflows (16 + 18446744073709551615)");
  row("offset at the end", {w.buffer, kBufferBytes, 0},
      "is bound at offset 64, the end of its 64-byte buffer");
  row("a range smaller than its block", {w.buffer, 0, 4}, "is 4 bytes; its block needs at least 16 bytes");
  if (w.info.binding_offset_alignment > 1)
    row("offset off the alignment", {w.buffer, 1, 16},
        "is bound at offset 1, not a multiple of " + std::string(w.info.backend) + ":");
}

void Table::record_rows() {
  handles<porta_stream>("porta_stream_begin_record", "stream", "", &Objects::dead_stream,
                        [](porta_stream s) { return outcome(porta_stream_begin_record(s)); });
  add("porta_stream_begin_record", "twice",
      [this] {
        return while_recording(w.stream2, [this] { return outcome(porta_stream_begin_record(w.stream2)); });
      },
      PORTA_ERROR_INVALID_ARGUMENT, {"already recording"});
  handles<porta_stream>("porta_stream_end_record", "stream", "", &Objects::dead_stream, [](porta_stream s) {
    porta_sequence q = nullptr;
    return outcome(porta_stream_end_record(s, &q));
  });
  add("porta_stream_end_record", "without begin",
      [this] {
        porta_sequence q = nullptr;
        return outcome(porta_stream_end_record(w.stream2, &q));
      },
      PORTA_ERROR_INVALID_ARGUMENT, {"the stream is not recording"});
  add("porta_stream_end_record", "null sequence",
      [this] {
        return while_recording(w.stream2,
                               [this] { return outcome(porta_stream_end_record(w.stream2, nullptr)); });
      },
      PORTA_ERROR_INVALID_ARGUMENT, {"sequence is null"});
  add("porta_stream_sync", "while recording",
      [this] { return while_recording(w.stream2, [this] { return outcome(porta_stream_sync(w.stream2)); }); },
      PORTA_ERROR_INVALID_ARGUMENT, {"the stream is recording a sequence"});

  handles<porta_stream>("porta_stream_replay", "stream", "", &Objects::dead_stream,
                        [this](porta_stream s) { return outcome(porta_stream_replay(s, w.sequence)); });
  handles<porta_sequence>("porta_stream_replay", "sequence", "", &Objects::dead_sequence,
                          [this](porta_sequence q) { return outcome(porta_stream_replay(w.stream, q)); });
  add("porta_stream_replay", "while recording",
      [this] {
        return while_recording(w.stream2,
                               [this] { return outcome(porta_stream_replay(w.stream2, w.sequence)); });
      },
      PORTA_ERROR_INVALID_ARGUMENT, {"the stream is recording a sequence"});
  add(
      "porta_stream_replay", "on another stream of its device (defined: it runs)",
      [this] {
        Outcome o = outcome(porta_stream_replay(w.stream2, w.sequence));
        EXPECT_EQ(porta_stream_sync(w.stream2), PORTA_SUCCESS) << porta_last_error();
        return o;
      },
      PORTA_SUCCESS);
  destroys<porta_sequence>(
      "porta_sequence_destroy", "sequence",
      [this] {
        porta_sequence q = nullptr;
        Objects::check(porta_stream_begin_record(w.stream2));
        Objects::check(porta_stream_end_record(w.stream2, &q));
        return q;
      },
      porta_sequence_destroy);
}

void Table::event_rows() {
  handles<porta_stream>("porta_event_record", "stream", "", &Objects::dead_stream, [](porta_stream s) {
    porta_event e = nullptr;
    return outcome(porta_event_record(s, &e));
  });
  add("porta_event_record", "null event", [this] { return outcome(porta_event_record(w.stream, nullptr)); },
      PORTA_ERROR_INVALID_ARGUMENT, {"event is null"});
  add("porta_event_record", "while recording",
      [this] {
        return while_recording(w.stream2, [this] {
          porta_event e = nullptr;
          return outcome(porta_event_record(w.stream2, &e));
        });
      },
      PORTA_ERROR_INVALID_ARGUMENT, {"the stream is recording a sequence"});
  const char* wait = "porta_stream_wait_event";
  handles<porta_stream>(wait, "stream", "", &Objects::dead_stream,
                        [this](porta_stream s) { return outcome(porta_stream_wait_event(s, w.event)); });
  handles<porta_event>(wait, "event", "event", &Objects::dead_event,
                       [this](porta_event e) { return outcome(porta_stream_wait_event(w.stream, e)); });
  add(wait, "while recording",
      [this] {
        return while_recording(w.stream2,
                               [this] { return outcome(porta_stream_wait_event(w.stream2, w.event)); });
      },
      PORTA_ERROR_INVALID_ARGUMENT, {"the stream is recording a sequence"});
  add(
      wait, "an event of another stream of the device (defined: it waits)",
      [this] { return outcome(porta_stream_wait_event(w.stream, w.event_of_stream2)); }, PORTA_SUCCESS);
  add(
      wait, "an event of its own stream (defined: it waits)",
      [this] { return outcome(porta_stream_wait_event(w.stream, w.event)); }, PORTA_SUCCESS);
  const char* elapsed = "porta_event_elapsed_ms";
  handles<porta_event>(elapsed, "event", "start", &Objects::dead_event, [this](porta_event e) {
    double ms = 0;
    return outcome(porta_event_elapsed_ms(e, w.event2, &ms));
  });
  handles<porta_event>(elapsed, "event", "end", &Objects::dead_event, [this](porta_event e) {
    double ms = 0;
    return outcome(porta_event_elapsed_ms(w.event, e, &ms));
  });
  add(elapsed, "null ms", [this] { return outcome(porta_event_elapsed_ms(w.event, w.event2, nullptr)); },
      PORTA_ERROR_INVALID_ARGUMENT, {"ms is null"});
  add(elapsed, "events of two streams",
      [this] {
        double ms = 0;
        return outcome(porta_event_elapsed_ms(w.event, w.event_of_stream2, &ms));
      },
      PORTA_ERROR_INVALID_ARGUMENT, {"start and end were recorded on different streams"});
  destroys<porta_event>(
      "porta_event_destroy", "event",
      [this] {
        porta_event e = nullptr;
        Objects::check(porta_event_record(w.stream, &e));
        Objects::check(porta_stream_sync(w.stream));
        return e;
      },
      porta_event_destroy);
}

void Table::op_rows() {
  // The ops make a handle of the stream's device before they check their
  // tensors, which may take a destroyed buffer handle's address: those rows
  // ask only for the operand's name (exact_dead = false).
  const porta_tensor t16 = tensor(w.buffer, {16});
  auto op = [&](const char* function, std::string wrong, std::function<porta_status()> call,
                porta_status want, std::vector<std::string> says) {
    add(
        function, std::move(wrong), [call] { return outcome(call()); }, want, std::move(says));
  };
  // `split`: an operand the op splits into pieces (elementwise ops, X of the
  // logistic-regression step), which may have any number of elements that
  // its buffer holds; others stay within 32-bit indices.
  auto tensor_rows = [&](const char* function, const std::string& operand,
                         std::function<porta_status(const porta_tensor*)> use, bool split = false) {
    const std::string named = "operand '" + operand + "'";
    op(function, "null " + operand, [use] { return use(nullptr); }, PORTA_ERROR_INVALID_ARGUMENT,
       {named + " is null"});
    handles<porta_buffer>(
        function, "buffer", named, &Objects::dead_buffer,
        [use](porta_buffer b) {
          const porta_tensor t = tensor(b, {4});
          return outcome(use(&t));
        },
        false);
    // A row whose operand is `t`, which is wrong as `wrong` says.
    auto given = [&](const std::string& wrong, const porta_tensor& t, porta_status want,
                     const std::string& says) {
      op(function, operand + " " + wrong, [use, t] { return use(&t); }, want, {named + says});
    };
    const porta_tensor t4 = tensor(w.buffer, {4});
    given("offset UINT64_MAX", tensor(w.buffer, {4}, UINT64_MAX), PORTA_ERROR_INVALID_ARGUMENT,
          " [4] starts at element offset 18446744073709551615, past the end of its buffer");
    given("past the end", tensor(w.buffer, {17}), PORTA_ERROR_INVALID_ARGUMENT,
          " [17] at element offset 0 reaches element 16, past the end of its buffer");
    given("rank 0", changed(t4, [](porta_tensor& t) { t.rank = 0; }), PORTA_ERROR_INVALID_ARGUMENT,
          " has rank 0");
    given("rank 5", changed(t4, [](porta_tensor& t) { t.rank = 5; }), PORTA_ERROR_INVALID_ARGUMENT,
          " has rank 5");
    given("dtype 99", changed(t4, [](porta_tensor& t) { t.dtype = static_cast<porta_dtype>(99); }),
          PORTA_ERROR_INVALID_ARGUMENT, " has dtype 99, which is not a porta_dtype");
    if (split)
      given("of 2^40 elements", tensor(w.buffer, {uint64_t{1} << 40}), PORTA_ERROR_INVALID_ARGUMENT,
            " [1099511627776] at element offset 0 reaches element 1099511627775, past the end of its buffer");
    else
      given("of 2^40 elements", tensor(w.buffer, {uint64_t{1} << 40}), PORTA_ERROR_UNSUPPORTED,
            " [1099511627776] has more than 2^31 - 1 elements");
  };
  auto op_stream_rows = [&](const char* function, std::function<porta_status(porta_stream)> use) {
    handles<porta_stream>(function, "stream", "", &Objects::dead_stream,
                          [use](porta_stream s) { return outcome(use(s)); });
  };

  op_stream_rows("porta_ops_fill", [t16](porta_stream s) { return porta_ops_fill(s, &t16, 1.0f); });
  tensor_rows(
      "porta_ops_fill", "out", [this](const porta_tensor* t) { return porta_ops_fill(w.stream, t, 1.0f); },
      true);
  const porta_tensor int32 =
      changed(tensor(w.buffer, {8}), [](porta_tensor& t) { t.dtype = PORTA_DTYPE_INT32; });
  op("porta_ops_fill", "out of int32", [this, int32] { return porta_ops_fill(w.stream, &int32, 0.0f); },
     PORTA_ERROR_UNSUPPORTED, {"operands are int32; this op computes in float32 only"});
  const porta_tensor a8 = tensor(w.buffer, {8}), b8 = tensor(w.buffer, {8}, 8);
  op_stream_rows("porta_ops_scale", [a8, b8](porta_stream s) { return porta_ops_scale(s, &a8, 2.0f, &b8); });
  tensor_rows(
      "porta_ops_scale", "x",
      [this, b8](const porta_tensor* t) { return porta_ops_scale(w.stream, t, 2.0f, &b8); }, true);
  op("porta_ops_scale", "x of int32, out of float32",
     [this, int32, b8] { return porta_ops_scale(w.stream, &int32, 2.0f, &b8); }, PORTA_ERROR_INVALID_ARGUMENT,
     {"operand 'out' is float32 but 'x' is int32; the operands' dtypes must match"});
  op("porta_ops_scale", "out partly over x",
     [this, a8] {
       const porta_tensor out = tensor(w.buffer, {8}, 4);
       return porta_ops_scale(w.stream, &a8, 2.0f, &out);
     },
     PORTA_ERROR_INVALID_ARGUMENT, {"'out' (buffer elements [4, 12)) overlaps 'x'"});
  op("porta_ops_scale", "shapes differ",
     [this, a8] {
       const porta_tensor out = tensor(w.buffer, {4}, 8);
       return porta_ops_scale(w.stream, &a8, 2.0f, &out);
     },
     PORTA_ERROR_INVALID_ARGUMENT, {"shapes differ: 'x' is [8] but 'out' is [4]"});

  const porta_tensor c8 = tensor(w.small, {1});
  op_stream_rows("porta_ops_mul", [a8, b8](porta_stream s) { return porta_ops_mul(s, &a8, &a8, &b8); });
  tensor_rows(
      "porta_ops_mul", "a",
      [this, b8](const porta_tensor* t) { return porta_ops_mul(w.stream, t, &b8, &b8); }, true);
  tensor_rows(
      "porta_ops_mul", "b",
      [this, a8, b8](const porta_tensor* t) { return porta_ops_mul(w.stream, &a8, t, &b8); }, true);
  op("porta_ops_mul", "shapes differ", [this, a8, c8] { return porta_ops_mul(w.stream, &a8, &c8, &a8); },
     PORTA_ERROR_INVALID_ARGUMENT, {"shapes differ"});

  op_stream_rows("porta_ops_add", [a8, b8](porta_stream s) { return porta_ops_add(s, &a8, &a8, &b8); });
  tensor_rows(
      "porta_ops_add", "b",
      [this, a8, b8](const porta_tensor* t) { return porta_ops_add(w.stream, &a8, t, &b8); }, true);
  op("porta_ops_add", "b does not broadcast",
     [this] {
       const porta_tensor m = tensor(w.buffer, {2, 4}), row3 = tensor(w.buffer, {3}, 8),
                          out = tensor(w.buffer, {2, 4}, 8);
       return porta_ops_add(w.stream, &m, &row3, &out);
     },
     PORTA_ERROR_INVALID_ARGUMENT, {"operand 'b' [3] does not broadcast to out [2, 4]", "expected 4 or 1"});
  op("porta_ops_add", "out larger than the broadcast shape",
     [this] {
       const porta_tensor row = tensor(w.buffer, {4}), out = tensor(w.buffer, {2, 4}, 8);
       return porta_ops_add(w.stream, &row, &row, &out);
     },
     PORTA_ERROR_INVALID_ARGUMENT, {"out [2, 4] is not the broadcast shape of a [4] and b [4]"});

  op_stream_rows("porta_ops_dense", [](porta_stream s) {
    return porta_ops_dense(s, nullptr, nullptr, nullptr, PORTA_GEMM_ACTIVATION_NONE, nullptr);
  });
  tensor_rows("porta_ops_dense", "y", [this](const porta_tensor* t) {
    const porta_tensor x = tensor(w.buffer, {2, 2}), wt = tensor(w.buffer, {2, 2}, 4);
    return porta_ops_dense(w.stream, &x, &wt, nullptr, PORTA_GEMM_ACTIVATION_SIGMOID, t);
  });
  op("porta_ops_dense", "w of the wrong input size",
     [this] {
       const porta_tensor x = tensor(w.buffer, {2, 3}), wt = tensor(w.buffer, {2, 2}, 6),
                          y = tensor(w.buffer, {2, 2}, 10);
       return porta_ops_dense(w.stream, &x, &wt, nullptr, PORTA_GEMM_ACTIVATION_NONE, &y);
     },
     PORTA_ERROR_INVALID_ARGUMENT, {"operand 'w' [2, 2] has 2 input features but x [2, 3] has 3"});
  op("porta_ops_dense", "b of the wrong size",
     [this] {
       const porta_tensor x = tensor(w.buffer, {2, 2}), wt = tensor(w.buffer, {2, 2}, 4),
                          b = tensor(w.buffer, {3}, 8), y = tensor(w.buffer, {2, 2}, 12);
       return porta_ops_dense(w.stream, &x, &wt, &b, PORTA_GEMM_ACTIVATION_NONE, &y);
     },
     PORTA_ERROR_INVALID_ARGUMENT, {"operand 'b' is [3]; expected [2]"});

  op_stream_rows("porta_ops_sigmoid", [a8](porta_stream s) { return porta_ops_sigmoid(s, &a8, &a8); });
  tensor_rows(
      "porta_ops_sigmoid", "out",
      [this, a8](const porta_tensor* t) { return porta_ops_sigmoid(w.stream, &a8, t); }, true);

  const porta_tensor ma = tensor(w.buffer, {2, 2}), mb = tensor(w.buffer, {2, 2}, 4),
                     mc = tensor(w.buffer, {2, 2}, 8);
  op_stream_rows("porta_ops_matmul",
                 [=](porta_stream s) { return porta_ops_matmul(s, &ma, &mb, &mc, 1, 0, 0, 0); });
  tensor_rows("porta_ops_matmul", "C", [this, ma, mb](const porta_tensor* t) {
    return porta_ops_matmul(w.stream, &ma, &mb, t, 1, 0, 0, 0);
  });
  op("porta_ops_matmul", "a of rank 1",
     [this, mb, mc] {
       const porta_tensor a = tensor(w.buffer, {4});
       return porta_ops_matmul(w.stream, &a, &mb, &mc, 1, 0, 0, 0);
     },
     PORTA_ERROR_INVALID_ARGUMENT, {"operand 'A' has rank 1", "needs rank 2"});
  op("porta_ops_matmul", "inner sizes differ",
     [this, ma, mc] {
       const porta_tensor b = tensor(w.buffer, {3, 2}, 4);
       return porta_ops_matmul(w.stream, &ma, &b, &mc, 1, 0, 0, 0);
     },
     PORTA_ERROR_INVALID_ARGUMENT, {"shapes do not match"});
  op("porta_ops_matmul", "c over a",
     [this, ma, mb] {
       const porta_tensor c = tensor(w.buffer, {2, 2}, 2);
       return porta_ops_matmul(w.stream, &ma, &mb, &c, 1, 0, 0, 0);
     },
     PORTA_ERROR_INVALID_ARGUMENT, {"'C' (buffer elements [2, 6)) overlaps 'A'"});

  // porta_ops_gemm: A, B and C as for matmul, a desc built by `change`.
  const auto gemm = [this, ma, mb, mc](auto change) {
    porta_tensor a = ma, b = mb, c = mc, bias = tensor(w.buffer, {2}, 12);
    porta_gemm_desc d{};
    d.struct_size = sizeof d;
    d.a = &a;
    d.b = &b;
    d.c = &c;
    d.alpha = 1.0f;
    change(d, a, b, c, bias);
    return porta_ops_gemm(w.stream, &d);
  };
  using GemmChange = void (*)(porta_gemm_desc&, porta_tensor&, porta_tensor&, porta_tensor&, porta_tensor&);
  const auto gemm_row = [&](const char* wrong, GemmChange change, porta_status want,
                            std::vector<std::string> says) {
    op(
        "porta_ops_gemm", wrong, [gemm, change] { return gemm(change); }, want, std::move(says));
  };
  op_stream_rows("porta_ops_gemm", [=](porta_stream s) {
    porta_gemm_desc d{};
    d.struct_size = sizeof d;
    d.a = &ma;
    d.b = &mb;
    d.c = &mc;
    return porta_ops_gemm(s, &d);
  });
  for (const char* operand : {"A", "C"})
    tensor_rows("porta_ops_gemm", operand, [this, ma, mb, mc, operand](const porta_tensor* t) {
      porta_gemm_desc d{};
      d.struct_size = sizeof d;
      d.a = operand[0] == 'A' ? t : &ma;
      d.b = &mb;
      d.c = operand[0] == 'C' ? t : &mc;
      return porta_ops_gemm(w.stream, &d);
    });
  op("porta_ops_gemm", "null desc", [this] { return porta_ops_gemm(w.stream, nullptr); },
     PORTA_ERROR_INVALID_ARGUMENT, {"desc is null"});
  gemm_row("struct_size 0",
           [](porta_gemm_desc& d, porta_tensor&, porta_tensor&, porta_tensor&, porta_tensor&) {
             d.struct_size = 0;
           },
           PORTA_ERROR_INVALID_ARGUMENT, {"desc->struct_size is 0; set it to sizeof(porta_gemm_desc)"});
  gemm_row("compute 7",
           [](porta_gemm_desc& d, porta_tensor&, porta_tensor&, porta_tensor&, porta_tensor&) {
             d.compute = static_cast<porta_gemm_compute>(7);
           },
           PORTA_ERROR_INVALID_ARGUMENT, {"desc->compute is 7, which is not a porta_gemm_compute"});
  gemm_row("activation 9",
           [](porta_gemm_desc& d, porta_tensor&, porta_tensor&, porta_tensor&, porta_tensor&) {
             d.activation = static_cast<porta_gemm_activation>(9);
           },
           PORTA_ERROR_INVALID_ARGUMENT, {"desc->activation is 9, which is not a porta_gemm_activation"});
  gemm_row(
      "null B",
      [](porta_gemm_desc& d, porta_tensor&, porta_tensor&, porta_tensor&, porta_tensor&) { d.b = nullptr; },
      PORTA_ERROR_INVALID_ARGUMENT, {"operand 'B' is null"});
  gemm_row("A and B of int8",
           [](porta_gemm_desc&, porta_tensor& a, porta_tensor& b, porta_tensor&, porta_tensor&) {
             a.dtype = b.dtype = PORTA_DTYPE_INT8;
           },
           PORTA_ERROR_UNSUPPORTED, {"operand 'A' is int8; A and B must be float32, float16 or bfloat16"});
  gemm_row("A float32, B float16",
           [](porta_gemm_desc&, porta_tensor&, porta_tensor& b, porta_tensor&, porta_tensor&) {
             b.dtype = PORTA_DTYPE_FLOAT16;
           },
           PORTA_ERROR_INVALID_ARGUMENT,
           {"operand 'B' is float16 but 'A' is float32; A and B must have one dtype"});
  gemm_row("C of bfloat16",
           [](porta_gemm_desc&, porta_tensor&, porta_tensor&, porta_tensor& c, porta_tensor&) {
             c.dtype = PORTA_DTYPE_BFLOAT16;
           },
           PORTA_ERROR_UNSUPPORTED, {"operand 'C' is bfloat16; this op computes in float32 only"});
  gemm_row("A of rank 1",
           [](porta_gemm_desc&, porta_tensor& a, porta_tensor&, porta_tensor&, porta_tensor&) {
             a.rank = 1;
             a.shape[0] = 4;
           },
           PORTA_ERROR_INVALID_ARGUMENT, {"operand 'A' has rank 1", "rank 2 (a matrix) or 3 (a batch)"});
  gemm_row("rank-3 A, rank-2 C",
           [](porta_gemm_desc&, porta_tensor& a, porta_tensor&, porta_tensor&, porta_tensor&) {
             a = tensor(a.buffer, {1, 2, 2});
           },
           PORTA_ERROR_INVALID_ARGUMENT,
           {"operand 'A' [1, 2, 2] is a batch of 1 but C [2, 2] is one matrix"});
  gemm_row("C's batches overlap",
           [](porta_gemm_desc&, porta_tensor&, porta_tensor&, porta_tensor& c, porta_tensor&) {
             c = tensor(c.buffer, {2, 2, 2}, 8);
             c.strides[0] = 2;
             c.strides[1] = 2;
             c.strides[2] = 1;
           },
           PORTA_ERROR_INVALID_ARGUMENT,
           {"operand 'C' [2, 2, 2] has batch stride 2", "its matrices overlap"});
  gemm_row("inner sizes differ",
           [](porta_gemm_desc&, porta_tensor&, porta_tensor& b, porta_tensor&, porta_tensor&) {
             b = tensor(b.buffer, {3, 2}, 4);
           },
           PORTA_ERROR_INVALID_ARGUMENT, {"shapes do not match"});
  gemm_row("bias of 3",
           [](porta_gemm_desc& d, porta_tensor&, porta_tensor&, porta_tensor&, porta_tensor& bias) {
             bias.shape[0] = 3;
             d.bias = &bias;
           },
           PORTA_ERROR_INVALID_ARGUMENT, {"operand 'bias' has shape [3]; it must be [2]"});
  gemm_row("bias over C",
           [](porta_gemm_desc& d, porta_tensor&, porta_tensor&, porta_tensor&, porta_tensor& bias) {
             bias.offset = 10;
             d.bias = &bias;
           },
           PORTA_ERROR_INVALID_ARGUMENT, {"'C' (buffer elements [8, 12)) overlaps 'bias'"});
  gemm_row("bias of dtype 99",
           [](porta_gemm_desc& d, porta_tensor&, porta_tensor&, porta_tensor&, porta_tensor& bias) {
             bias.dtype = static_cast<porta_dtype>(99);
             d.bias = &bias;
           },
           PORTA_ERROR_INVALID_ARGUMENT, {"operand 'bias' has dtype 99, which is not a porta_dtype"});
  op("porta_ops_gemm", "float16 A in a buffer of 6 bytes",
     [this] {
       porta_buffer six = nullptr;
       if (porta_buffer_create(w.device, 6, &six) != PORTA_SUCCESS) return PORTA_ERROR_INTERNAL;
       porta_tensor a = changed(tensor(six, {1, 3}), [](porta_tensor& t) { t.dtype = PORTA_DTYPE_FLOAT16; });
       porta_tensor b =
           changed(tensor(w.buffer, {3, 2}), [](porta_tensor& t) { t.dtype = PORTA_DTYPE_FLOAT16; });
       porta_tensor c = tensor(w.buffer, {1, 2}, 8);
       porta_gemm_desc d{};
       d.struct_size = sizeof d;
       d.a = &a;
       d.b = &b;
       d.c = &c;
       const porta_status status = porta_ops_gemm(w.stream, &d);
       porta_buffer_destroy(six);
       return status;
     },
     PORTA_ERROR_INVALID_ARGUMENT, {"operand 'A' [1, 3] is float16, read as 32-bit words", "pad the buffer"});

  const char* workspace = "porta_ops_logreg_workspace_size";
  handles<porta_device>(workspace, "device", "", &Objects::dead_device, [](porta_device d) {
    uint64_t bytes = 0;
    return outcome(porta_ops_logreg_workspace_size(d, 4, 4, &bytes));
  });
  op(workspace, "null bytes", [this] { return porta_ops_logreg_workspace_size(w.device, 4, 4, nullptr); },
     PORTA_ERROR_INVALID_ARGUMENT, {"bytes is null"});
  op(workspace, "m 0",
     [this] {
       uint64_t bytes = 0;
       return porta_ops_logreg_workspace_size(w.device, 0, 4, &bytes);
     },
     PORTA_ERROR_INVALID_ARGUMENT, {"X is 0 x 4: m = 0"});
  op(workspace, "m, d UINT64_MAX",
     [this] {
       uint64_t bytes = 0;
       return porta_ops_logreg_workspace_size(w.device, UINT64_MAX, UINT64_MAX, &bytes);
     },
     PORTA_ERROR_UNSUPPORTED,
     {"X is 18446744073709551615 x 18446744073709551615: more than 2^31 - 1 elements"});

  // X 2 x 2, y 2, w 2, b 1, loss 1: elements 0..9 of the buffer.
  const porta_tensor x = tensor(w.buffer, {2, 2}), y = tensor(w.buffer, {2}, 4),
                     wt = tensor(w.buffer, {2}, 6), bt = tensor(w.buffer, {1}, 8),
                     loss = tensor(w.buffer, {1}, 9);
  const char* step = "porta_ops_logreg_step";
  op_stream_rows(
      step, [=](porta_stream s) { return porta_ops_logreg_step(s, &x, &y, &wt, &bt, 0.1f, &loss, nullptr); });
  tensor_rows(
      step, "X",
      [=, this](const porta_tensor* t) {
        return porta_ops_logreg_step(w.stream, t, &y, &wt, &bt, 0.1f, &loss, nullptr);
      },
      true);
  op(step, "lr NaN",
     [=, this] { return porta_ops_logreg_step(w.stream, &x, &y, &wt, &bt, std::nanf(""), &loss, nullptr); },
     PORTA_ERROR_INVALID_ARGUMENT, {"learning rate lr = nan is not finite"});
  op(step, "y of 3 elements for 2 rows",
     [=, this] {
       const porta_tensor y3 = tensor(w.buffer, {3}, 10);
       return porta_ops_logreg_step(w.stream, &x, &y3, &wt, &bt, 0.1f, &loss, nullptr);
     },
     PORTA_ERROR_INVALID_ARGUMENT, {"'y' is [3] (3 elements) but X is 2 x 2"});
  op(step, "a workspace of 1 element",
     [=, this] {
       const porta_tensor ws = tensor(w.buffer, {1}, 12);
       return porta_ops_logreg_step(w.stream, &x, &y, &wt, &bt, 0.1f, &loss, &ws);
     },
     PORTA_ERROR_INVALID_ARGUMENT, {"'workspace' has 1 elements; this step needs"});

  // int8 X 2 x 4 (bytes 0..7 = elements 0..1 of float32), its scale 4, y 2, w 4, b 1, loss 1.
  const porta_tensor x8 = changed(tensor(w.buffer, {2, 4}),
                                  [](porta_tensor&t) { t.dtype = PORTA_DTYPE_INT8; }),
                     s4 = tensor(w.buffer, {4}, 2), y2 = tensor(w.buffer, {2}, 6),
                     w4 = tensor(w.buffer, {4}, 8), b1 = tensor(w.buffer, {1}, 12),
                     l1 = tensor(w.buffer, {1}, 13);
  const char* scaled = "porta_ops_logreg_step_scaled";
  op_stream_rows(scaled, [=](porta_stream s) {
    return porta_ops_logreg_step_scaled(s, &x8, &s4, &y2, &w4, &b1, 0.1f, &l1, nullptr);
  });
  tensor_rows(
      scaled, "X",
      [=, this](const porta_tensor* t) {
        return porta_ops_logreg_step_scaled(w.stream, t, nullptr, &y2, &w4, &b1, 0.1f, &l1, nullptr);
      },
      true);
  tensor_rows(scaled, "x_scale", [=, this](const porta_tensor* t) {
    return porta_ops_logreg_step_scaled(w.stream, &x8, t, &y2, &w4, &b1, 0.1f, &l1, nullptr);
  });
  op(scaled, "x_scale with float32 X",
     [=, this] {
       const porta_tensor x32 = tensor(w.buffer, {2, 4});
       return porta_ops_logreg_step_scaled(w.stream, &x32, &s4, &y2, &w4, &b1, 0.1f, &l1, nullptr);
     },
     PORTA_ERROR_INVALID_ARGUMENT, {"'x_scale' is given but X is float32; only int8 X has a scale"});
  op(scaled, "int8 X of uint32",
     [=, this] {
       const porta_tensor xu = changed(x8, [](porta_tensor& t) { t.dtype = PORTA_DTYPE_UINT32; });
       return porta_ops_logreg_step_scaled(w.stream, &xu, &s4, &y2, &w4, &b1, 0.1f, &l1, nullptr);
     },
     PORTA_ERROR_UNSUPPORTED, {"operand 'X' is uint32; X may be float32, float16, bfloat16 or int8"});
  op(scaled, "int8 X at offset 1",
     [=, this] {
       const porta_tensor x1 = changed(x8, [](porta_tensor& t) { t.offset = 1; });
       return porta_ops_logreg_step_scaled(w.stream, &x1, &s4, &y2, &w4, &b1, 0.1f, &l1, nullptr);
     },
     PORTA_ERROR_UNSUPPORTED, {"has element offset 1 and row stride 4; int8 X is read in 32-bit words"});
  op(scaled, "x_scale of 3 elements for 4 columns",
     [=, this] {
       const porta_tensor s3 = tensor(w.buffer, {3}, 2);
       return porta_ops_logreg_step_scaled(w.stream, &x8, &s3, &y2, &w4, &b1, 0.1f, &l1, nullptr);
     },
     PORTA_ERROR_INVALID_ARGUMENT, {"'x_scale' is [3] (3 elements) but X is 2 x 4"});
  // The gradient alone: the same operands, and d + 2 = 6 sums after the loss.
  const char* gradient = "porta_ops_logreg_gradient";
  const porta_tensor sums6 = tensor(w.buffer, {6}, 14);
  op_stream_rows(gradient, [=](porta_stream s) {
    return porta_ops_logreg_gradient(s, &x8, &s4, &y2, &w4, &b1, &sums6, nullptr);
  });
  tensor_rows(
      gradient, "X",
      [=, this](const porta_tensor* t) {
        return porta_ops_logreg_gradient(w.stream, t, nullptr, &y2, &w4, &b1, &sums6, nullptr);
      },
      true);
  op(scaled, "w over x_scale",
     [=, this] {
       const porta_tensor w_over = tensor(w.buffer, {4}, 2);
       return porta_ops_logreg_step_scaled(w.stream, &x8, &s4, &y2, &w_over, &b1, 0.1f, &l1, nullptr);
     },
     PORTA_ERROR_INVALID_ARGUMENT, {"'w'", "overlaps 'x_scale'"});
}

void Table::other_device_rows() {
  // `other` is another device: each row hands one of its handles to a call on `w`'s.
  static const uint32_t one[3] = {1, 1, 1};
  static const uint32_t push = 0;
  auto row = [&](const char* function, std::string wrong, std::function<porta_status()> call,
                 std::vector<std::string> says) {
    add(
        function, "another device's " + wrong, [call] { return outcome(call()); }, PORTA_ERROR_INVALID_HANDLE,
        std::move(says));
  };
  const std::string theirs = other.info.backend;
  row("porta_buffer_check_device", "buffer",
      [this] { return porta_buffer_check_device(other.buffer, w.device, nullptr); },
      {"the buffer belongs to " + theirs, "but the device given is"});
  row("porta_stream_write", "dst",
      [this] {
        uint32_t host = 0;
        return porta_stream_write(w.stream, other.buffer, 0, &host, 4);
      },
      {"the destination buffer belongs to " + theirs});
  row("porta_stream_read", "src",
      [this] {
        uint32_t host = 0;
        return porta_stream_read(w.stream, other.buffer, 0, &host, 4);
      },
      {"the source buffer belongs to " + theirs});
  row("porta_stream_copy", "src",
      [this] { return porta_stream_copy(w.stream, other.buffer, 0, w.buffer, 0, 4); },
      {"the source buffer belongs to " + theirs});
  row("porta_stream_copy", "dst",
      [this] { return porta_stream_copy(w.stream, w.buffer, 0, other.buffer, 0, 4); },
      {"the destination buffer belongs to " + theirs});
  row("porta_stream_fill", "dst", [this] { return porta_stream_fill(w.stream, other.buffer, 0, 4, 0); },
      {"the destination buffer belongs to " + theirs});
  row("porta_stream_dispatch", "kernel",
      [this] { return porta_stream_dispatch(w.stream, other.kernel, one, &w.buffer, 1, &push, kPushSize); },
      {"kernel 'bad_args' belongs to " + theirs});
  row("porta_stream_dispatch", "buffer",
      [this] { return porta_stream_dispatch(w.stream, w.kernel, one, &other.buffer, 1, &push, kPushSize); },
      {"buffer 0", "of kernel 'bad_args' belongs to " + theirs});
  row("porta_stream_replay", "sequence", [this] { return porta_stream_replay(w.stream, other.sequence); },
      {"the sequence belongs to " + theirs});
  row("porta_event_elapsed_ms", "end event",
      [this] {
        double ms = 0;
        return porta_event_elapsed_ms(w.event, other.event2, &ms);
      },
      {"start belongs to", "but end belongs to " + theirs});
  row("porta_stream_wait_event", "event", [this] { return porta_stream_wait_event(w.stream, other.event); },
      {"event was recorded on a stream of " + theirs, "a stream waits only for events of its own device"});
  const porta_tensor t = tensor(other.buffer, {4});
  row("porta_ops_fill", "buffer as out", [this, t] { return porta_ops_fill(w.stream, &t, 0.0f); },
      {"operand 'out' is a buffer of " + theirs, "not of the stream's device"});
  const porta_tensor mine = tensor(w.buffer, {4});
  row("porta_ops_mul", "buffer as b", [this, t, mine] { return porta_ops_mul(w.stream, &mine, &t, &mine); },
      {"operand 'b' is a buffer of " + theirs});
  add(
      "porta_device_equal", "two devices",
      [this] {
        EXPECT_EQ(porta_device_equal(w.device, other.device), 0);
        return reported();
      },
      PORTA_SUCCESS);
}

// porta_last_error() reset to "" by a call that succeeds.
void clear_last_error(const Objects& w) {
  porta_device_info info;
  ASSERT_EQ(porta_device_query_info(w.device, &info), PORTA_SUCCESS);
  ASSERT_STREQ(porta_last_error(), "");
}

void run(const Objects& w, const std::vector<Row>& rows) {
  for (const Row& row : rows) {
    SCOPED_TRACE(row.function + ": " + row.wrong);
    clear_last_error(w);
    const Outcome got = row.call();
    EXPECT_EQ(got.status, row.want) << "got " << porta_status_name(got.status) << ": " << got.message;
    if (row.want == PORTA_SUCCESS) {
      EXPECT_EQ(got.message, "");
      continue;
    }
    const std::string head = std::string(porta_status_name(row.want)) + ": ";
    EXPECT_EQ(got.message.rfind(head, 0), 0u) << got.message;
    EXPECT_NE(got.message.find(row.function), std::string::npos)
        << "the function is not named: " << got.message;
    for (const std::string& s : row.says)
      EXPECT_NE(got.message.find(s), std::string::npos) << "'" << s << "' is not in: " << got.message;
  }
}

void Table::all_rows() {
  device_rows();
  buffer_rows();
  kernel_rows();
  stream_rows();
  op_rows();
  other_device_rows();
}

// A device of another backend than the one under test, or "" (with the reason in `why`).
std::string other_backend_device(std::string* why) {
  std::string backends;
  for (uint32_t i = 0; i < porta_device_count(); ++i) {
    porta_device_info info;
    if (porta_device_get_info(i, &info) != PORTA_SUCCESS) continue;
    if (info.backend != backend_name_under_test())
      return std::string(info.backend) + ":" + std::to_string(info.index);
    backends += std::string(backends.empty() ? "" : ", ") + info.backend + ":" + std::to_string(info.index);
  }
  *why = "every device here is of backend " + backend_name_under_test() + " (" + backends + ")";
  return "";
}

// The functions porta.h and features.h declare with PORTA_API.
std::set<std::string> public_functions() {
  std::set<std::string> names;
  for (const char* header : {"porta.h", "features.h"}) {
    std::ifstream in(std::string(PORTA_SOURCE_DIR) + "/api/include/porta/" + header);
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    static const std::regex declaration(R"(PORTA_API\b[^;{#]*?\b(porta_[a-z0-9_]+)\s*\()");
    for (std::sregex_iterator it(s.begin(), s.end(), declaration), end; it != end; ++it)
      names.insert((*it)[1]);
  }
  return names;
}

// The rows over the device under test and a second open of it, which is
// another device (porta.h, porta_device_equal): its handles are foreign to the first's.
class BadArguments : public ::testing::Test {
 protected:
  BadArguments() { table.all_rows(); }

  std::set<std::string> functions() const {
    std::set<std::string> names;
    for (const Row& r : table.rows) names.insert(r.function);
    return names;
  }

  const Objects w{backend_under_test()};
  const Objects second{backend_under_test()};
  Table table{w, second};
};

TEST_F(BadArguments, EveryRowOnTheDeviceUnderTest) {
  std::printf("%zu rows over %zu functions on %s\n", table.rows.size(), functions().size(), w.info.name);
  run(w, table.rows);
}

TEST_F(BadArguments, HandlesOfAnotherBackendsDevice) {
  std::string why;
  const std::string selector = other_backend_device(&why);
  if (selector.empty()) GTEST_SKIP() << "no device of another backend: " << why;
  const Objects other(selector);
  Table t(w, other);
  t.other_device_rows();
  std::printf("%zu rows: %s's handles on %s\n", t.rows.size(), other.info.name, w.info.name);
  run(w, t.rows);
}

// Every public function has rows, except those that take no argument at all.
TEST_F(BadArguments, EveryPublicFunctionHasRows) {
  const std::set<std::string> no_arguments = {"porta_last_error", "porta_version", "porta_backend_count",
                                              "porta_device_count"};
  const std::set<std::string> covered = functions();
  const std::set<std::string> declared = public_functions();
  ASSERT_GE(declared.size(), 45u) << "the declarations were not found in porta.h";
  for (const std::string& f : declared)
    EXPECT_TRUE(covered.count(f) || no_arguments.count(f)) << f << " has no bad-argument rows";
  for (const std::string& f : covered) EXPECT_TRUE(declared.count(f)) << f << " is not a public function";
  std::printf("%zu public functions: %zu with rows, %zu without arguments\n", declared.size(), covered.size(),
              no_arguments.size());
}

}  // namespace
