// Fuzz entry point for sequences of C API calls on the cpu backend: each input
// is a small program in a byte code (one opcode byte, then its operands) over
// porta.h: buffers, streams, transfers, copies, fills, dispatches with buffer
// ranges, recorded sequences, events, the elementwise ops on arbitrary tensor
// views, and injected allocation and dispatch failures (porta/fault.h).
// Handles live in a few slots; a slot may hold a destroyed handle, which the
// API must refuse. Checked after every call: a failure leaves a message that
// starts with its status's name. Checked after every input: destroying
// everything it made leaves no live handle (porta_live_handle_count).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "porta/fault.h"
#include "porta/porta.h"

namespace {

constexpr size_t kSlots = 4;
constexpr size_t kHostBytes = 1 << 16;

// The input, read a byte at a time; zeros once it runs out.
struct Reader {
  const uint8_t* data;
  size_t size;
  size_t at = 0;
  bool done() const { return at >= size; }
  uint8_t u8() { return at < size ? data[at++] : 0; }
  uint16_t u16() { return static_cast<uint16_t>(u8() | u8() << 8); }
  size_t slot() { return u8() % kSlots; }
};

const char* kScale = R"(#version 450
layout(local_size_x = 4) in;
layout(binding = 0) buffer Data { float v[]; };
layout(push_constant) uniform Push { float factor; };
void main() { if (gl_GlobalInvocationID.x < v.length()) v[gl_GlobalInvocationID.x] *= factor; }
)";

struct World {
  porta_device device = nullptr;
  porta_kernel kernel = nullptr;
  uint64_t baseline = 0;
  std::vector<uint8_t> host = std::vector<uint8_t>(kHostBytes);
};

World& world() {
  static World* w = [] {
    auto* fresh = new World();
    if (porta_device_open("cpu", &fresh->device) != PORTA_SUCCESS ||
        porta_kernel_create_glsl(fresh->device, kScale, std::strlen(kScale), "scale", nullptr, 0,
                                 &fresh->kernel) != PORTA_SUCCESS) {
      std::printf("SKIP: api fuzz: no cpu device: %s\n", porta_last_error());
      std::exit(77);
    }
    fresh->baseline = porta_live_handle_count();
    return fresh;
  }();
  return *w;
}

// A failed call must say why, starting with its status's name.
void check(porta_status status) {
  if (status == PORTA_SUCCESS) return;
  const std::string message = porta_last_error();
  const std::string name = porta_status_name(status);
  if (message.compare(0, name.size(), name) != 0) {
    std::fprintf(stderr, "status %s with the message '%s'\n", name.c_str(), message.c_str());
    std::abort();
  }
}

// A create call's outcome in its slot's live flag.
void made(bool& live, porta_status status) {
  check(status);
  live = status == PORTA_SUCCESS;
}

porta_tensor tensor(Reader& in, porta_buffer buffer) {
  porta_tensor t{};
  t.buffer = buffer;
  const uint8_t kind = in.u8();
  t.dtype = static_cast<porta_dtype>(kind % 16);  // 12..15: not a dtype
  t.rank = in.u8() % 6;                           // 0 and 5: out of range
  for (uint32_t i = 0; i < PORTA_TENSOR_MAX_RANK; ++i) {
    t.shape[i] = in.u8() % 40;
    t.strides[i] = static_cast<int8_t>(in.u8()) % 48;
  }
  if (kind & 0x80) std::memset(t.strides, 0, sizeof t.strides);  // contiguous, the common case
  t.offset = in.u8();
  return t;
}

void run(Reader& in) {
  World& w = world();
  porta_buffer buffers[kSlots] = {};
  porta_stream streams[kSlots] = {};
  porta_sequence sequences[kSlots] = {};
  porta_event events[kSlots] = {};
  // Destroyed handles stay in their slot (a stale handle to refuse); this
  // says which are live, for the clean-up.
  bool live_buffer[kSlots] = {}, live_stream[kSlots] = {}, live_sequence[kSlots] = {},
       live_event[kSlots] = {};
  uint8_t* host = w.host.data();
  for (int op = 0; op < 64 && !in.done(); ++op) {
    const uint8_t code = in.u8() % 22;
    const size_t a = in.slot(), b = in.slot();
    switch (code) {
      case 0:
        if (!live_buffer[a])
          made(live_buffer[a], porta_buffer_create(w.device, in.u16() % 8193, &buffers[a]));
        break;
      case 1:
        porta_buffer_destroy(buffers[a]);
        live_buffer[a] = false;
        break;
      case 2:
        check(porta_buffer_write(buffers[a], in.u16(), host, in.u16()));
        break;
      case 3:
        check(porta_buffer_read(buffers[a], in.u16(), host, in.u16()));
        break;
      case 4:
        if (!live_stream[a]) made(live_stream[a], porta_stream_create(w.device, &streams[a]));
        break;
      case 5:
        porta_stream_destroy(streams[a]);
        live_stream[a] = false;
        break;
      case 6:
        check(porta_stream_write(streams[a], buffers[b], in.u16(), host, in.u16()));
        break;
      case 7:
        check(porta_stream_read(streams[a], buffers[b], in.u16(), host, in.u16()));
        break;
      case 8:
        check(porta_stream_copy(streams[a], buffers[b], in.u16(), buffers[in.slot()], in.u16(), in.u16()));
        break;
      case 9:
        check(porta_stream_fill(streams[a], buffers[b], in.u16(), in.u16(), in.u8() * 0x01010101u));
        break;
      case 10: {
        const uint32_t groups[3] = {in.u8() % 9u, 1u + in.u8() % 2u, 1};
        const porta_binding binding{buffers[b], in.u16(), in.u16()};
        const float factor = static_cast<float>(in.u8()) / 16.0f;
        check(porta_stream_dispatch_bindings(streams[a], w.kernel, groups, &binding, 1, &factor,
                                             in.u8() & 1 ? 0 : sizeof factor));
        break;
      }
      case 11:
        check(porta_stream_sync(streams[a]));
        break;
      case 12:
        check(porta_stream_begin_record(streams[a]));
        break;
      case 13:
        if (!live_sequence[b]) made(live_sequence[b], porta_stream_end_record(streams[a], &sequences[b]));
        break;
      case 14:
        check(porta_stream_replay(streams[a], sequences[b]));
        break;
      case 15:
        porta_sequence_destroy(sequences[b]);
        live_sequence[b] = false;
        break;
      case 16:
        if (!live_event[b]) made(live_event[b], porta_event_record(streams[a], &events[b]));
        break;
      case 17: {
        double ms = 0;
        check(porta_event_elapsed_ms(events[a], events[b], &ms));
        break;
      }
      case 18: {
        const porta_tensor t = tensor(in, buffers[b]);
        check(porta_ops_fill(streams[a], &t, 1.5f));
        break;
      }
      case 19: {
        const porta_tensor x = tensor(in, buffers[b]), out = tensor(in, buffers[in.slot()]);
        check(in.u8() & 1 ? porta_ops_scale(streams[a], &x, 0.5f, &out)
                          : porta_ops_sigmoid(streams[a], &x, &out));
        break;
      }
      case 20: {
        const porta_tensor x = tensor(in, buffers[b]), y = tensor(in, buffers[in.slot()]),
                           out = tensor(in, buffers[in.slot()]);
        check(porta_ops_mul(streams[a], &x, &y, &out));
        break;
      }
      case 21: {
        const char* kinds[] = {"alloc", "dispatch"};
        const std::string spec = std::string(kinds[a % 2]) + ":" + std::to_string(1 + b);
        check(porta_fault_inject(w.device, spec.c_str()));
        break;
      }
    }
  }
  // Everything the program made goes; a stream still recording ends first.
  for (size_t i = 0; i < kSlots; ++i) {
    if (live_event[i]) porta_event_destroy(events[i]);
    if (live_sequence[i]) porta_sequence_destroy(sequences[i]);
    if (live_stream[i]) porta_stream_destroy(streams[i]);
  }
  for (size_t i = 0; i < kSlots; ++i)
    if (live_buffer[i]) porta_buffer_destroy(buffers[i]);
  porta_fault_inject(nullptr, nullptr);
  const uint64_t left = porta_live_handle_count();
  if (left != w.baseline) {
    std::fprintf(stderr, "%llu handles left after destroying everything (%llu before)\n",
                 static_cast<unsigned long long>(left), static_cast<unsigned long long>(w.baseline));
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader in{data, size};
  run(in);
  return 0;
}
