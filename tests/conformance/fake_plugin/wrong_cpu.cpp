// libporta-wrongcpu.so: porta's CPU plugin, deliberately wrong. It loads the
// real libporta-cpu.so and forwards its table, but after every dispatch it
// corrupts the result in the way PORTA_WRONGCPU_MODE names:
//   ulp        one written element moved by one ulp
//   unwritten  one written element put back to what it held before
//   swap       two written elements with different values exchanged
//   segfault   the process dies on the third dispatch
//   crash      the process dies on its first dispatch (a kernel that crashes one backend)
//   hang       the first dispatch never returns
//   refuse     the reference device (as the CPU plugin is) that refuses every
//              kernel: the other devices must be compared with each other
//   none       forwards untouched
// porta-conformance must catch each one and say where. Two more modes are
// not wrong but limited, as real devices are; the suite must name them
// rather than fail or silently pass:
//   oom        a buffer larger than kOomBytes cannot be allocated
//              (PORTA_ERROR_OUT_OF_MEMORY), though the limits claim more
//   ftz        every denormal element a dispatch writes is flushed to zero
//              (keeping its sign), as a device without denormal support does
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "../../../backends/common/plugin_support.hpp"

namespace {

const porta_plugin_api* g_real = nullptr;
std::mutex g_mutex;
std::map<porta_plugin_buffer, uint64_t> g_sizes;
int g_dispatches = 0;

std::string mode() {
  const char* m = std::getenv("PORTA_WRONGCPU_MODE");
  return m && *m ? m : "ulp";
}

porta_status init(const porta_host_api* host) {
  porta::plugin::host() = host;
  return porta::plugin::guard([&] {
    void* handle = dlopen(PORTA_REAL_CPU_PLUGIN, RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      porta::plugin::fail(PORTA_ERROR_UNAVAILABLE, "wrongcpu: cannot load %s: %s", PORTA_REAL_CPU_PLUGIN,
                          dlerror());
    auto entry = reinterpret_cast<porta_plugin_entry_fn>(dlsym(handle, PORTA_PLUGIN_ENTRY_SYMBOL));
    if (!entry)
      porta::plugin::fail(PORTA_ERROR_UNAVAILABLE, "wrongcpu: %s is not a porta plugin",
                          PORTA_REAL_CPU_PLUGIN);
    g_real = entry();
    porta_status s = g_real->init(host);
    if (s != PORTA_SUCCESS) porta::plugin::fail(s, "wrongcpu: the real CPU plugin did not start");
  });
}

void shutdown() {}
uint32_t device_count() { return g_real->device_count(); }

// A test plugin: not the reference, no built-in kernels, timed and ranked as
// any other plugin; its work-items still run as the CPU plugin's fibers.
porta_status device_info(uint32_t index, porta_device_info* info) {
  porta_status s = g_real->device_info(index, info);
  if (s != PORTA_SUCCESS) return s;
  porta::plugin::copy_string(info->name, "corrupting (" + mode() + ") " + info->name);
  if (mode() != "refuse") info->flags &= PORTA_DEVICE_FLAG_UNIFIED_MEMORY | PORTA_DEVICE_FLAG_FIBER_BARRIERS;
  info->timer = PORTA_TIMER_DEVICE;
  info->priority = 50;
  info->tuning = {};
  return s;
}

porta_status device_open(uint32_t i, porta_plugin_device* d) { return g_real->device_open(i, d); }
void device_close(porta_plugin_device d) { g_real->device_close(d); }

// Small enough that the quick table's larger cases do not fit, large enough
// that its small ones do.
constexpr uint64_t kOomBytes = 64 * 1024;

porta_status buffer_create(porta_plugin_device d, uint64_t size, porta_plugin_buffer* b) {
  if (mode() == "oom" && size > kOomBytes)
    return porta::plugin::guard([&] {
      porta::plugin::fail(PORTA_ERROR_OUT_OF_MEMORY,
                          "wrongcpu: out of device memory for %llu bytes (oom mode: %llu at most)",
                          static_cast<unsigned long long>(size), static_cast<unsigned long long>(kOomBytes));
    });
  porta_status s = g_real->buffer_create(d, size, b);
  if (s == PORTA_SUCCESS) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_sizes[*b] = size;
  }
  return s;
}

void buffer_destroy(porta_plugin_buffer b) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_sizes.erase(b);
  }
  g_real->buffer_destroy(b);
}

porta_status kernel_create(porta_plugin_device d, const porta_kernel_desc* desc, porta_plugin_kernel* k) {
  if (mode() == "refuse")
    return porta::plugin::guard(
        [] { porta::plugin::fail(PORTA_ERROR_UNSUPPORTED, "wrongcpu: refuses every kernel (refuse mode)"); });
  return g_real->kernel_create(d, desc, k);
}
void kernel_destroy(porta_plugin_kernel k) { g_real->kernel_destroy(k); }
porta_status stream_create(porta_plugin_device d, porta_plugin_stream* s) {
  return g_real->stream_create(d, s);
}
void stream_destroy(porta_plugin_stream s) { g_real->stream_destroy(s); }
porta_status stream_write(porta_plugin_stream s, porta_plugin_buffer b, uint64_t o, const void* p,
                          uint64_t n) {
  return g_real->stream_write(s, b, o, p, n);
}
porta_status stream_read(porta_plugin_stream s, porta_plugin_buffer b, uint64_t o, void* p, uint64_t n) {
  return g_real->stream_read(s, b, o, p, n);
}
porta_status stream_copy(porta_plugin_stream s, porta_plugin_buffer a, uint64_t ao, porta_plugin_buffer b,
                         uint64_t bo, uint64_t n) {
  return g_real->stream_copy(s, a, ao, b, bo, n);
}
porta_status stream_fill(porta_plugin_stream s, porta_plugin_buffer b, uint64_t o, uint64_t n, uint32_t p) {
  return g_real->stream_fill(s, b, o, n, p);
}

using Words = std::vector<uint32_t>;

porta_status snapshot(porta_plugin_stream s, porta_plugin_buffer b, Words& out) {
  uint64_t size;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    size = g_sizes[b];
  }
  out.assign(size / 4, 0);
  if (out.empty()) return PORTA_SUCCESS;
  porta_status st = g_real->stream_read(s, b, 0, out.data(), out.size() * 4);
  return st != PORTA_SUCCESS ? st : g_real->stream_sync(s);
}

bool finite_bits(uint32_t w) { return (w & 0x7f800000u) != 0x7f800000u; }
bool denormal_bits(uint32_t w) { return (w & 0x7f800000u) == 0 && (w & 0x007fffffu) != 0; }

// Corrupts one buffer's written elements; false if it has none to corrupt this way.
bool corrupt(const std::string& how, const Words& before, Words& after) {
  std::vector<size_t> changed;
  for (size_t i = 0; i < after.size(); ++i)
    if (after[i] != before[i]) changed.push_back(i);
  if (changed.empty()) return false;
  if (how == "ulp" || how == "unwritten") {
    for (size_t k = 0; k < changed.size(); ++k) {
      const size_t i = changed[(changed.size() / 2 + k) % changed.size()];
      if (how == "ulp" && finite_bits(after[i])) {
        after[i] += 1;  // the next float away from zero
        return true;
      }
      if (how == "unwritten") {
        after[i] = before[i];
        return true;
      }
    }
    return false;
  }
  if (how == "ftz") {
    bool flushed = false;
    for (size_t i : changed)
      if (denormal_bits(after[i])) {
        after[i] &= 0x80000000u;
        flushed = true;
      }
    return flushed;
  }
  if (how == "swap") {
    const size_t i = changed[changed.size() / 2];
    for (size_t j : changed)
      if (after[j] != after[i]) {
        std::swap(after[i], after[j]);
        return true;
      }
  }
  return false;
}

// A real invalid write, as a faulty driver would make; the default action is
// restored first in case the process inherited SIGSEGV ignored or blocked, or
// has a sanitizer's handler installed (which would turn the signal into an
// exit status). A driver is not built with UBSan, so the store is left
// uninstrumented for the fault to reach the kernel as it would from a driver.
[[noreturn]] __attribute__((no_sanitize("undefined"))) void crash() {
  signal(SIGSEGV, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGSEGV);
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  volatile int* volatile nowhere = nullptr;
  *nowhere = 1;
  abort();
}

porta_status stream_dispatch(porta_plugin_stream s, porta_plugin_kernel k, const uint32_t groups[3],
                             const porta_plugin_binding* buffers, uint32_t count, const void* push,
                             uint32_t push_size) {
  const std::string how = mode();
  if (how == "segfault" && ++g_dispatches == 3) crash();
  if (how == "crash") crash();
  while (how == "hang") pause();
  if (how != "ulp" && how != "unwritten" && how != "swap" && how != "ftz")
    return g_real->stream_dispatch(s, k, groups, buffers, count, push, push_size);
  std::vector<Words> before(count);
  for (uint32_t i = 0; i < count; ++i)
    if (porta_status st = snapshot(s, buffers[i].buffer, before[i]); st != PORTA_SUCCESS) return st;
  porta_status st = g_real->stream_dispatch(s, k, groups, buffers, count, push, push_size);
  if (st != PORTA_SUCCESS) return st;
  for (uint32_t i = 0; i < count; ++i) {
    Words after;
    if ((st = snapshot(s, buffers[i].buffer, after)) != PORTA_SUCCESS) return st;
    if (!corrupt(how, before[i], after)) continue;
    st = g_real->stream_write(s, buffers[i].buffer, 0, after.data(), after.size() * 4);
    if (st == PORTA_SUCCESS) st = g_real->stream_sync(s);
    // One corruption per dispatch is enough to be caught; flushing is a
    // property of the device and applies to every buffer written.
    if (st != PORTA_SUCCESS || how != "ftz") return st;
  }
  return PORTA_SUCCESS;
}

porta_status stream_sync(porta_plugin_stream s) { return g_real->stream_sync(s); }
porta_status event_record(porta_plugin_stream s, porta_plugin_event* e) { return g_real->event_record(s, e); }
porta_status event_elapsed_ms(porta_plugin_event a, porta_plugin_event b, double* ms) {
  return g_real->event_elapsed_ms(a, b, ms);
}
void event_destroy(porta_plugin_event e) { g_real->event_destroy(e); }

// Sequences are left to the core (null entries), so every replayed dispatch
// comes through stream_dispatch above.
const porta_plugin_api kApi = {PORTA_PLUGIN_ABI_VERSION,
                               "wrongcpu",
                               PORTA_LANGUAGE_CPP,
                               init,
                               shutdown,
                               device_count,
                               device_info,
                               device_open,
                               device_close,
                               buffer_create,
                               buffer_destroy,
                               kernel_create,
                               kernel_destroy,
                               stream_create,
                               stream_destroy,
                               stream_write,
                               stream_read,
                               stream_copy,
                               stream_fill,
                               stream_dispatch,
                               stream_sync,
                               event_record,
                               event_elapsed_ms,
                               event_destroy,
                               nullptr,
                               nullptr,
                               nullptr,
                               nullptr};

}  // namespace

extern "C" PORTA_PLUGIN_EXPORT const porta_plugin_api* porta_plugin_entry(void) { return &kApi; }
