// PORTA_ROBUST=report: the record buffers of reporting dispatches, and the
// error the sync after them makes of the first access out of bounds.
#include "bounds_report.hpp"

#include <string>

#include "errors.hpp"

namespace porta::core {

namespace tr = porta::translator;

namespace {

// Writes `size` bytes at the start of a record through the device's own
// stream, as porta_buffer_write does.
void write_record(DeviceState& device, porta_plugin_buffer buffer, const void* bytes,
                  uint64_t size = tr::kBoundsRecordBytes) {
  std::lock_guard lock(device.io_mutex);
  if (!device.io_stream)
    check_plugin(device.api->stream_create(device.handle, &device.io_stream), device, "stream_create");
  check_plugin(device.api->stream_write(device.io_stream, buffer, 0, const_cast<void*>(bytes), size), device,
               "bounds record write");
  check_plugin(device.api->stream_sync(device.io_stream), device, "sync");
}

std::string describe(const DeviceState& device, const KernelState& kernel, const tr::BoundsRecord& r,
                     size_t dispatch, size_t dispatches) {
  const auto& sites = kernel.bounds_report->sites;
  const std::string& name = kernel.interface.name;
  if (r.site >= sites.size())
    return format("kernel '%s' on %s went out of bounds (record site %u of %zu: a damaged record)",
                  name.c_str(), device.label.c_str(), r.site, sites.size());
  const tr::BoundsSite& site = sites[r.site];
  // An instrumented module names the element of an array of blocks it went to.
  const size_t parameter = r.size && site.parameter + r.element < kernel.interface.buffers.size()
                               ? site.parameter + r.element
                               : site.parameter;
  const KernelBufferParameter& p = kernel.interface.buffers.at(parameter);
  const std::string element = p.is_array ? format("[%u]", p.array_index) : "";
  const std::string buffer = format("buffer %zu ('%s%s', set %u, binding %u)", parameter, p.name.c_str(),
                                    element.c_str(), p.set, p.binding);
  std::string where;
  if (p.is_array && r.size == 0) {
    where = "an element of its array of blocks past the array's end";
  } else {
    where = format("byte %llu of its %llu bytes", static_cast<unsigned long long>(r.offset),
                   static_cast<unsigned long long>(r.size));
    if (site.stride && r.offset >= site.base)
      where = format("index %llu (%s, %llu-byte elements)",
                     static_cast<unsigned long long>((r.offset - site.base) / site.stride), where.c_str(),
                     static_cast<unsigned long long>(site.stride));
  }
  return format(
      "kernel '%s' on %s %s %s out of bounds at %s; %u access%s out of bounds in all (the first is named; "
      "reads out of bounds gave 0, writes were dropped) [dispatch %zu of the %zu reporting since the last "
      "sync]",
      name.c_str(), device.label.c_str(), site.write ? "wrote" : "read", buffer.c_str(), where.c_str(),
      r.failures, r.failures == 1 ? "" : "es", dispatch + 1, dispatches);
}

}  // namespace

std::shared_ptr<BoundsRecord> make_bounds_record(const DeviceRef& device,
                                                 const std::shared_ptr<KernelState>& kernel,
                                                 const std::vector<porta_plugin_binding>& bindings) {
  // The header zero, then (for an instrumented module) each binding's size.
  std::vector<uint64_t> words(tr::kBoundsRecordBytes / 8, 0);
  if (kernel->bounds_report->binding_sizes)
    for (const porta_plugin_binding& b : bindings) words.push_back(b.size);
  const uint64_t size = words.size() * 8;
  auto record = std::make_shared<BoundsRecord>();
  record->kernel = kernel;
  record->buffer = std::make_shared<BufferState>();
  record->buffer->device = device;
  record->buffer->size = size;
  check_plugin(device->api->buffer_create(device->handle, size, &record->buffer->handle), *device,
               "bounds record buffer_create");
  write_record(*device, record->buffer->handle, words.data(), size);
  return record;
}

void check_bounds_records(porta_stream_t& s, const char* call) {
  if (s.bounds_records.empty()) return;
  std::vector<std::shared_ptr<BoundsRecord>> records;
  records.swap(s.bounds_records);
  DeviceState& device = *s.device;
  std::vector<tr::BoundsRecord> seen(records.size());
  for (size_t i = 0; i < records.size(); ++i)
    check_plugin(
        device.api->stream_read(s.handle, records[i]->buffer->handle, 0, &seen[i], tr::kBoundsRecordBytes),
        device, "bounds record read");
  check_plugin(device.api->stream_sync(s.handle), device, "sync");
  size_t first = records.size();
  for (size_t i = 0; i < records.size(); ++i) {
    if (seen[i].failures == 0) continue;
    if (first == records.size()) first = i;
    // A sequence's record is read again after its next replay.
    const tr::BoundsRecord zero{};
    write_record(device, records[i]->buffer->handle, &zero);
  }
  if (first < records.size())
    fail(PORTA_ERROR_OUT_OF_BOUNDS, "%s: %s", call,
         describe(device, *records[first]->kernel, seen[first], first, records.size()).c_str());
}

}  // namespace porta::core
