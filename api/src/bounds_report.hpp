// PORTA_ROBUST=report (porta/robust.h): each dispatch of a kernel translated
// with TranslateOptions::bounds_report gets a record buffer of its own as its
// last binding; the sync that ends its work reads the records and turns the
// first one that caught an access out of bounds into an error.
#pragma once

#include <memory>
#include <vector>

#include "handles.hpp"
#include "porta_translator/translator.hpp"

namespace porta::core {

// What a reporting kernel's record sites mean (the translation's, or the
// instrumented module's), and what its record holds.
struct KernelBoundsReport {
  std::vector<translator::BoundsSite> sites;
  // An instrumented SPIR-V module (translator::instrument_bounds_report) reads
  // the size of each binding from its record, after the BoundsRecord.
  bool binding_sizes = false;
};

// One dispatch's record, while a sync may still have to read it.
struct BoundsRecord {
  std::shared_ptr<BufferState> buffer;  // kBoundsRecordBytes, zero until an access fails
  std::shared_ptr<KernelState> kernel;
};

// A zeroed record for a dispatch of `kernel` on `device` with `bindings` (the
// kernel's buffers), holding their sizes where the kernel reads them there.
std::shared_ptr<BoundsRecord> make_bounds_record(const DeviceRef& device,
                                                 const std::shared_ptr<KernelState>& kernel,
                                                 const std::vector<porta_plugin_binding>& bindings);

// After `stream`'s work ended: reads the records of its dispatches since the
// last check (s.bounds_records), zeroes those that fired, forgets them all,
// and fails with PORTA_ERROR_OUT_OF_BOUNDS for the first dispatch whose
// kernel went out of bounds, naming kernel, buffer, index and size.
void check_bounds_records(porta_stream_t& stream, const char* call);

}  // namespace porta::core
