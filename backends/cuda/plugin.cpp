// The CUDA backend as a porta plugin: its objects (cuda_plugin.hpp) and the
// file that does each entry's work (device, memory, kernel, stream).
#include "cuda_plugin.hpp"

namespace porta::cuda {

struct Backend {
  static constexpr const char* name = "cuda";
  static constexpr porta_kernel_language language = PORTA_LANGUAGE_CUDA;

  static void init() { enumerate_devices(); }
  static void shutdown() { forget_devices(); }
  static uint32_t device_count() { return cuda::device_count(); }
  static const porta_device_info& device_info(uint32_t index) { return cuda::device_info(index); }
  static Device* device_open(uint32_t index) { return cuda::device_open(index); }
  static void device_close(Device* device) { cuda::device_close(device); }

  static Buffer* buffer_create(Device& device, uint64_t size) { return cuda::buffer_create(&device, size); }
  static void buffer_destroy(Buffer* buffer) { cuda::buffer_destroy(buffer); }
  static Kernel* kernel_create(Device& device, const porta_kernel_desc& desc) {
    return cuda::kernel_create(&device, &desc);
  }
  static void kernel_destroy(Kernel* kernel) { cuda::kernel_destroy(kernel); }

  static Stream* stream_create(Device& device) { return cuda::stream_create(&device); }
  static void stream_destroy(Stream* s) { cuda::stream_destroy(s); }
  static void stream_write(Stream& s, Buffer& dst, uint64_t offset, const void* src, uint64_t size) {
    cuda::stream_write(&s, &dst, offset, src, size);
  }
  static void stream_read(Stream& s, Buffer& src, uint64_t offset, void* dst, uint64_t size) {
    cuda::stream_read(&s, &src, offset, dst, size);
  }
  static void stream_copy(Stream& s, Buffer& src, uint64_t src_offset, Buffer& dst, uint64_t dst_offset,
                          uint64_t size) {
    cuda::stream_copy(&s, &src, src_offset, &dst, dst_offset, size);
  }
  static void stream_fill(Stream& s, Buffer& dst, uint64_t offset, uint64_t size, uint32_t pattern) {
    cuda::stream_fill(&s, &dst, offset, size, pattern);
  }
  static void stream_dispatch(Stream& s, Kernel& kernel, const uint32_t groups[3],
                              plugin::BufferList<Buffer> buffers, const void* push, uint32_t push_size) {
    cuda::stream_dispatch(&s, &kernel, groups, buffers, push, push_size);
  }
  static void stream_sync(Stream& s) { cuda::stream_sync(&s); }

  static Event* event_record(Stream& s) { return cuda::event_record(&s); }
  static double event_elapsed_ms(Event& start, Event& end) { return cuda::event_elapsed_ms(&start, &end); }
  static void event_destroy(Event* event) { cuda::event_destroy(event); }

  static void stream_begin_record(Stream& s) { cuda::stream_begin_record(&s); }
  static Sequence* stream_end_record(Stream& s) { return cuda::stream_end_record(&s); }
  static void stream_replay(Stream& s, Sequence& sequence) { cuda::stream_replay(&s, &sequence); }
  static void sequence_destroy(Sequence* sequence) { cuda::sequence_destroy(sequence); }
};

}  // namespace porta::cuda

PORTA_PLUGIN_ENTRY(porta::cuda::Backend)
