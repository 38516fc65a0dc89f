/* A stand-in for libnvidia-ml.so.1 with the entry points porta-bench's energy
 * meter calls: one device, at PCI 0000:01:00.0, whose energy counter steps by
 * 7 J every 20 ms of the steady clock (350 W), the way NVML's counter moves in
 * steps. FAKE_NVML_ENERGY=unsupported makes the counter answer
 * NVML_ERROR_NOT_SUPPORTED. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kSuccess = 0, kNotSupported = 3, kNotFound = 6 };
static int device;

int nvmlInit_v2(void) { return kSuccess; }

const char* nvmlErrorString(int r) {
  return r == kNotSupported ? "Not Supported"
         : r == kNotFound   ? "Not Found"
         : r                ? "Unknown Error"
                            : "Success";
}

int nvmlDeviceGetHandleByPciBusId_v2(const char* id, void** handle) {
  if (strcmp(id, "0000:01:00.0") != 0) return kNotFound;
  *handle = &device;
  return kSuccess;
}

int nvmlDeviceGetTotalEnergyConsumption(void* handle, unsigned long long* mj) {
  const char* mode = getenv("FAKE_NVML_ENERGY");
  if (handle != &device) return kNotFound;
  if (mode && strcmp(mode, "unsupported") == 0) return kNotSupported;
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  const unsigned long long steps =
      (unsigned long long)t.tv_sec * 50 + (unsigned long long)t.tv_nsec / 20000000;
  *mj = steps * 7000;
  return kSuccess;
}

int nvmlDeviceGetName(void* handle, char* name, unsigned length) {
  (void)handle;
  strncpy(name, "Fake GPU", length);
  return kSuccess;
}
