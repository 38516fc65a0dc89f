// From GLSL or SPIR-V to a plugin kernel: compile, validate, optimise,
// reflect, check against the device, translate for the plugin's language.
#include "kernel_builder.hpp"

#include <algorithm>
#include <cstring>

#include "bounds_report.hpp"
#include "cache.hpp"
#include "errors.hpp"
#include "handles.hpp"
#include "log.hpp"
#include "porta/version.h"
#include "porta_translator/translator.hpp"
#include "robust.hpp"

namespace porta::core {
namespace {

namespace tr = porta::translator;

porta_status status_of(tr::Error::Kind kind) {
  switch (kind) {
    case tr::Error::Kind::InvalidGlsl:
    case tr::Error::Kind::InvalidSpirv:
      return PORTA_ERROR_INVALID_KERNEL;
    case tr::Error::Kind::UnsupportedFeature:
      return PORTA_ERROR_UNSUPPORTED;
    case tr::Error::Kind::Internal:
      return PORTA_ERROR_INTERNAL;
  }
  return PORTA_ERROR_INTERNAL;
}

void check_limits(const DeviceState& device, const tr::KernelSignature& sig, const uint32_t size[3],
                  const std::string& name) {
  const porta_device_limits& lim = device.info.limits;
  const char* axis = "xyz";
  uint64_t invocations = 1;
  for (int i = 0; i < 3; ++i) {
    if (size[i] == 0)
      fail(PORTA_ERROR_INVALID_KERNEL, "kernel '%s': work-group size %c is 0", name.c_str(), axis[i]);
    if (size[i] > lim.max_workgroup_size[i])
      fail(PORTA_ERROR_UNSUPPORTED, "kernel '%s' needs work-group size %c = %u; %s allows at most %u",
           name.c_str(), axis[i], size[i], device.label.c_str(), lim.max_workgroup_size[i]);
    invocations *= size[i];
  }
  if (invocations > lim.max_workgroup_invocations)
    fail(PORTA_ERROR_UNSUPPORTED, "kernel '%s' needs %llu work-items per group; %s allows at most %u",
         name.c_str(), static_cast<unsigned long long>(invocations), device.label.c_str(),
         lim.max_workgroup_invocations);
  if (sig.shared_memory_bytes > lim.max_shared_memory_bytes)
    fail(PORTA_ERROR_UNSUPPORTED, "kernel '%s' needs %u bytes of shared memory; %s allows at most %u",
         name.c_str(), sig.shared_memory_bytes, device.label.c_str(), lim.max_shared_memory_bytes);
  if (sig.push_constant_size > lim.max_push_constant_bytes)
    fail(PORTA_ERROR_UNSUPPORTED, "kernel '%s' needs %u bytes of push constants; %s allows at most %u",
         name.c_str(), sig.push_constant_size, device.label.c_str(), lim.max_push_constant_bytes);
  for (uint64_t missing = sig.required_features & ~device.info.features; missing; missing &= missing - 1) {
    const uint64_t bit = missing & (~missing + 1);
    if (const char* feature = porta_feature_name(bit))
      fail(PORTA_ERROR_UNSUPPORTED, "kernel '%s' needs %s (%s), which %s does not support", name.c_str(),
           feature, porta_feature_description_inline(bit), device.label.c_str());
  }
}

}  // namespace

void check_kernel_source(const void* source, size_t count, size_t unit, const porta_spec_constant* specs,
                         uint32_t spec_count, const char* call, const char* source_name,
                         const char* count_name, bool may_be_empty) {
  if (!source && count)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: %s is null (%s is %zu)", call, source_name, count_name, count);
  if (!count && !may_be_empty)
    fail(PORTA_ERROR_INVALID_KERNEL, "%s: the kernel source is empty (%s is 0)", call, count_name);
  if (count > kMaxKernelSourceBytes / unit)
    fail(PORTA_ERROR_INVALID_ARGUMENT,
         "%s: %s is %zu, more than the %llu bytes any kernel source may have; a wrong length?", call,
         count_name, count, static_cast<unsigned long long>(kMaxKernelSourceBytes));
  if (spec_count && !specs)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: spec_count is %u but specs is null", call, spec_count);
}

std::shared_ptr<KernelState> build_kernel(const DeviceRef& device, const std::vector<uint32_t>* spirv,
                                          const std::string* glsl, const std::string& name,
                                          const porta_spec_constant* specs, uint32_t spec_count,
                                          const porta_spec_constant64* specs64, uint32_t spec64_count,
                                          bool allow_tf32) {
  if ((spec_count > 0 && !specs) || (spec64_count > 0 && !specs64))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "kernel '%s': %u specialization constants but a null array",
         name.c_str(), specs ? spec64_count : spec_count);
  try {
    std::vector<uint32_t> words = glsl ? tr::compile_glsl(*glsl, name) : *spirv;
    // Cooperative matrices: the translated targets run the lowered module
    // prepare() makes (each invocation holds whole matrices); Vulkan runs the
    // module as given, natively, on devices with VK_KHR_cooperative_matrix.
    // bfloat16 matrices: a device that runs SPIR-V takes such a module as
    // given (its driver has the type), where its bounds are not instrumented;
    // the others, and instrumented ones, run prepare()'s lowering (bfloat16
    // as its bits in a uint16_t).
    const bool cooperative_matrix = tr::uses_cooperative_matrix(words);
    const bool as_given = cooperative_matrix && device->api->language == PORTA_LANGUAGE_SPIRV &&
                          !device->bounds_report && tr::uses_bfloat16_matrices(words);
    // Otherwise a module with cooperative matrices is lowered once its
    // spec-constant values are known (below): matrix sizes and a work-group
    // size from spec constants take them (Workgroup-scope matrices spread over
    // the group's items); its interface reads the same before.
    const bool specialised = cooperative_matrix && !as_given;
    std::vector<uint32_t> prepared = as_given || specialised ? words : tr::prepare(words);
    tr::KernelSignature sig = tr::reflect(prepared);
    if (cooperative_matrix) sig.required_features |= PORTA_FEATURE_COOPERATIVE_MATRIX;  // prepared is lowered
    // The optimiser drops a push-constant block the code never reads; callers
    // still pass the block they declared, and the backend gets what is left.
    uint32_t declared_push_size = sig.push_constant_size;
    if (words != prepared)
      declared_push_size = std::max(declared_push_size, tr::reflect(words).push_constant_size);

    // Spec constants: every given id must exist, once, with a value that fits
    // its declared type; every constant gets a value.
    std::vector<tr::SpecValue> values;
    const auto give = [&](uint32_t id, uint64_t bits, bool wide) {
      auto sc = std::find_if(sig.spec_constants.begin(), sig.spec_constants.end(),
                             [&](const tr::SpecConstant& c) { return c.id == id; });
      if (sc == sig.spec_constants.end()) {
        std::string ids;
        for (const auto& c : sig.spec_constants)
          ids += format("%s%u (%s)", ids.empty() ? "" : ", ", c.id, c.name.c_str());
        fail(PORTA_ERROR_INVALID_ARGUMENT,
             "kernel '%s' has no specialization constant with id %u; it has: %s", name.c_str(), id,
             ids.empty() ? "none" : ids.c_str());
      }
      for (const auto& v : values)
        if (v.id == id)
          fail(PORTA_ERROR_INVALID_ARGUMENT, "kernel '%s': specialization constant %u given twice",
               name.c_str(), id);
      const std::string type = tr::spec_type_name(*sc);
      if (sc->width == 8 && !wide)
        fail(PORTA_ERROR_INVALID_ARGUMENT,
             "kernel '%s': specialization constant %u (%s, %s) is 64 bits wide: give its value as a "
             "porta_spec_constant64 (porta_kernel_descriptor.specs64; in C++, porta::SpecConstant "
             "from an int64_t, uint64_t or double)",
             name.c_str(), id, sc->name.c_str(), type.c_str());
      if (sc->type == tr::ScalarType::Bool) {
        bits = bits != 0;
      } else if (sc->width < 8) {
        const uint64_t mask = (uint64_t(1) << (8 * sc->width)) - 1;
        const bool negative = sc->type == tr::ScalarType::Int && (bits >> (8 * sc->width - 1)) & 1;
        const uint64_t above = bits & ~mask, extension = ~mask & (wide ? ~uint64_t(0) : 0xffffffffu);
        if (above && !(negative && above == extension))
          fail(PORTA_ERROR_INVALID_ARGUMENT,
               "kernel '%s': specialization constant %u (%s, %s): the value 0x%llx does not fit the type",
               name.c_str(), id, sc->name.c_str(), type.c_str(), static_cast<unsigned long long>(bits));
        bits &= mask;
      }
      values.push_back({id, bits});
    };
    for (uint32_t i = 0; i < spec_count; ++i) give(specs[i].id, specs[i].bits, false);
    for (uint32_t i = 0; i < spec64_count; ++i) {
      if (specs64[i].reserved)
        fail(PORTA_ERROR_INVALID_ARGUMENT,
             "kernel '%s': specialization constant %u: reserved is %u; it must be 0", name.c_str(),
             specs64[i].id, specs64[i].reserved);
      give(specs64[i].id, specs64[i].bits, true);
    }
    std::vector<porta_kernel_spec_value> all_specs;
    for (const auto& sc : sig.spec_constants) {
      uint64_t bits = sc.default_bits;
      for (const auto& v : values)
        if (v.id == sc.id) bits = v.bits;
      all_specs.push_back({sc.id, static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32), sc.width});
    }

    uint32_t size[3];
    tr::resolve_local_size(sig, values, size);
    if (specialised) {
      tr::PrepareOptions options;
      options.specs = values;
      options.fix_group_size = true;
      prepared = tr::prepare(words, options);
      // Where the lowered module runs, what it needs: the shared arrays a
      // Workgroup-scope multiply-add adds; no bfloat16 type (lowered to its
      // bits); each item's own share of a matrix, not the whole matrix the
      // source's variable declares.
      // The optimiser drops a push-constant block the code never reads: the
      // backend gets the lowered module's (declared_push_size keeps the
      // caller's).
      if (device->api->language != PORTA_LANGUAGE_SPIRV || device->bounds_report) {
        const tr::KernelSignature lowered = tr::reflect(prepared, values);
        sig.shared_memory_bytes = std::max(sig.shared_memory_bytes, lowered.shared_memory_bytes);
        sig.private_memory_bytes = lowered.private_memory_bytes;
        sig.required_features = lowered.required_features | PORTA_FEATURE_COOPERATIVE_MATRIX;
        sig.push_constant_size = lowered.push_constant_size;
      }
    }
    check_limits(*device, sig, size, name);

    porta_kernel_language language = device->api->language;
    if (cooperative_matrix && language != PORTA_LANGUAGE_SPIRV && device->info.limits.subgroup_size == 1) {
      const std::string variable = tr::cooperative_matrix_in_place_update(words);
      if (!variable.empty())
        fail(PORTA_ERROR_UNSUPPORTED,
             "kernel '%s': %s runs subgroups of one work-item, where each work-item holds its own copy of a "
             "cooperative matrix; the kernel loads matrices from %s and stores them back, an update each "
             "work-item would apply again",
             name.c_str(), device->label.c_str(), variable.c_str());
    }
    const std::vector<uint32_t>* device_spirv =
        cooperative_matrix && language == PORTA_LANGUAGE_SPIRV ? &words : &prepared;
    // PORTA_ROBUST=report on a device that runs SPIR-V: the checks and the
    // record go into the module itself (translator/src/bounds_instrument.cpp).
    // A kernel with cooperative matrices runs its lowered form there, whose
    // loads and stores are plain ones that can be checked.
    tr::BoundsInstrumentation instrumented;
    if (device->bounds_report && language == PORTA_LANGUAGE_SPIRV) {
      instrumented = tr::instrument_bounds_report(prepared, values);
      try {
        tr::validate(instrumented.spirv);
      } catch (const tr::Error& e) {
        fail(PORTA_ERROR_INTERNAL, "kernel '%s': its bounds-checked module is invalid (a porta bug): %s",
             name.c_str(), e.what());
      }
      device_spirv = &instrumented.spirv;
    }
    // CUDA runs cooperative matrices on tensor cores where they map onto
    // mma.sync.m16n8k16 or m16n8k32 (sm_80 on, where bf16 arithmetic starts: the
    // CUDA backend reports BF16 from there), else on the per-invocation
    // lowering every translated target has; PORTA_LOG=info says which and why.
    const std::vector<uint32_t>* translated = &prepared;
    std::vector<uint32_t> fragments;
    if (cooperative_matrix && language == PORTA_LANGUAGE_CUDA) {
      // Workgroup-scope matrices on sm_90's warpgroup MMA where the device has it.
      const bool warpgroups = (device->info.features & PORTA_FEATURE_COOPERATIVE_MATRIX_WORKGROUP_HW) != 0;
      const std::string mismatch = !(device->info.features & PORTA_FEATURE_BF16)
                                       ? std::string("anything on a device before sm_80")
                                       : tr::tensor_core_mismatch(words, values, allow_tf32, warpgroups);
      if (mismatch.empty()) {
        tr::PrepareOptions options;
        options.tensor_cores = true;
        options.specs = values;     // a work-group size from spec constants: this kernel's
        options.tf32 = allow_tf32;  // float32 matrices at TF32 only where the creator allowed it
        options.warpgroups = warpgroups;
        fragments = tr::prepare(words, options);
        translated = &fragments;
        // Its shared memory, not the spread lowering's (porta_wgmma's stage is
        // the CUDA source's own).
        sig.shared_memory_bytes = tr::reflect(fragments, values).shared_memory_bytes;
        log(PORTA_LOG_INFO,
            format("kernel '%s' on %s: cooperative matrices on tensor cores (%s)", name.c_str(),
                   device->label.c_str(), tr::uses_workgroup_matrices(words) ? "wgmma" : "mma.sync"));
      } else {
        log(PORTA_LOG_INFO,
            format("kernel '%s' on %s: cooperative matrices lowered per invocation (correct, not "
                   "fast): tensor cores cannot run %s",
                   name.c_str(), device->label.c_str(), mismatch.c_str()));
      }
    }
    std::string source;
    std::string entry = sig.entry_point;
    tr::Translation translation;
    if (language != PORTA_LANGUAGE_SPIRV) {
      // The translation's subgroups are the device's (OpenCL devices without
      // subgroup extensions report subgroups of one work-item).
      tr::TranslateOptions options{tr::target_for_language(language), values,
                                   device->info.limits.subgroup_size};
      // Out-of-bounds accesses are defined (porta/robust.h): always on the
      // CPU backend unless PORTA_CPU_BOUNDS=off, on a robust device for the
      // others. The translated source is part of the cache key, so checked
      // and unchecked kernels never share an entry.
      options.bounds_checks = language == PORTA_LANGUAGE_CPP ? cpu_bounds_checks() : device->robust;
      // PORTA_ROBUST=report: the checks also record (bounds_report.hpp).
      options.bounds_report = device->bounds_report;
      // The CPU backend's watchdog stops a kernel through its loops' polls.
      options.cancel_polls = language == PORTA_LANGUAGE_CPP;
      translation = tr::translate(*translated, options);
      source = std::move(translation.source);
      entry = translation.entry_point;
    }

    std::vector<porta_kernel_buffer_desc> buffers;
    for (const auto& b : sig.buffers)
      buffers.push_back(
          {b.set, b.binding, b.array_index,
           b.kind == tr::BufferKind::Uniform ? PORTA_BUFFER_KIND_UNIFORM : PORTA_BUFFER_KIND_STORAGE,
           static_cast<uint32_t>(b.access)});
    // The record buffer a reporting kernel takes after its own.
    if (device->bounds_report) {
      if (language == PORTA_LANGUAGE_SPIRV) {
        translation.bounds_record_set = instrumented.record_set;
        translation.bounds_record_binding = instrumented.record_binding;
        translation.bounds_sites = std::move(instrumented.sites);
      }
      buffers.push_back({translation.bounds_record_set, translation.bounds_record_binding, 0,
                         PORTA_BUFFER_KIND_STORAGE, static_cast<uint32_t>(tr::Access::ReadWrite)});
    }

    std::string salt = format("porta %s|language %d|", PORTA_VERSION_STRING, static_cast<int>(language));
    for (const auto& s : all_specs) salt += format("%u=%u:%u/%u;", s.id, s.bits, s.high_bits, s.size);
    if (allow_tf32) salt += "tf32;";
    // The translated source too: a translator change within one porta version
    // must not hand a plugin a binary built from the old translation.
    if (!source.empty()) salt += "source " + hash_hex(source.data(), source.size(), "") + ";";
    std::string key = hash_hex(device_spirv->data(), device_spirv->size() * sizeof(uint32_t), salt);

    porta_kernel_desc desc{};
    desc.spirv = device_spirv->data();
    desc.spirv_words = device_spirv->size();
    desc.source = language == PORTA_LANGUAGE_SPIRV ? nullptr : source.c_str();
    desc.source_size = source.size();
    desc.entry_point = entry.c_str();
    desc.name = name.c_str();
    desc.buffer_count = static_cast<uint32_t>(buffers.size());
    desc.buffers = buffers.data();
    desc.push_constant_size = sig.push_constant_size;
    desc.spec_count = static_cast<uint32_t>(all_specs.size());
    desc.specs = all_specs.data();
    std::memcpy(desc.workgroup_size, size, sizeof size);
    desc.shared_memory_bytes = sig.shared_memory_bytes;
    desc.private_memory_bytes = sig.private_memory_bytes;
    desc.required_features = sig.required_features;
    desc.cache_key = key.c_str();

    auto kernel = std::make_shared<KernelState>();
    kernel->device = device;
    kernel->interface.name = name;
    kernel->interface.buffer_count = static_cast<uint32_t>(sig.buffers.size());
    if (device->bounds_report)
      kernel->bounds_report = std::make_shared<KernelBoundsReport>(
          KernelBoundsReport{translation.bounds_sites, language == PORTA_LANGUAGE_SPIRV});
    for (size_t i = 0; i < sig.buffers.size(); ++i) {
      const tr::BufferBinding& b = sig.buffers[i];
      const bool in_array =
          b.array_index > 0 || (i + 1 < sig.buffers.size() && sig.buffers[i + 1].set == b.set &&
                                sig.buffers[i + 1].binding == b.binding);
      kernel->interface.buffers.push_back({b.set, b.binding, b.array_index, in_array, b.name, b.min_size});
    }
    kernel->interface.push_constant_size = declared_push_size;
    kernel->interface.device_push_constant_size = sig.push_constant_size;
    std::memcpy(kernel->interface.workgroup_size, size, sizeof size);
    check_not_lost(*device, "kernel_create");
    clear_last_error();
    check_plugin(device->api->kernel_create(device->handle, &desc, &kernel->handle), *device,
                 ("kernel_create '" + name + "'").c_str());
    return kernel;
  } catch (const tr::Error& e) {
    fail(status_of(e.kind), "kernel '%s': %s", name.c_str(), e.what());
  }
}

}  // namespace porta::core
