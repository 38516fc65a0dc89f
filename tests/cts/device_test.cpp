// The plugin table and what it says about each device.
#include <cstring>

#include "cts.hpp"

namespace porta::test {
namespace {

// The table alone, checked even where the backend's runtime is missing, as
// long as the plugin loads: no device is opened.
class Table : public ::testing::TestWithParam<CtsDevice> {};
INSTANTIATE_TEST_SUITE_P(cts, Table, ::testing::ValuesIn(cts_devices()), cts_device_label);
PORTA_CTS_SUITE(Devices);

// A NUL-terminated, non-empty string within its field.
template <size_t N>
bool filled(const char (&field)[N]) {
  const size_t length = strnlen(field, N);
  return length > 0 && length < N;
}

TEST_P(Table, DescribesThePlugin) {
  const Plugin& plugin = *GetParam().plugin;
  if (!plugin.api) GTEST_SKIP() << plugin.reason;
  const porta_plugin_api& a = *plugin.api;
  EXPECT_EQ(a.abi_version, PORTA_PLUGIN_ABI_VERSION);
  ASSERT_NE(a.name, nullptr);
  // libporta-NAME.so reports NAME.
  EXPECT_EQ(std::string(a.name), cts_backend());
  EXPECT_TRUE(a.language == PORTA_LANGUAGE_SPIRV || a.language == PORTA_LANGUAGE_OPENCL_C ||
              a.language == PORTA_LANGUAGE_CUDA || a.language == PORTA_LANGUAGE_CPP)
      << a.language;
  const void* required[] = {reinterpret_cast<const void*>(a.init),
                            reinterpret_cast<const void*>(a.shutdown),
                            reinterpret_cast<const void*>(a.device_count),
                            reinterpret_cast<const void*>(a.device_info),
                            reinterpret_cast<const void*>(a.device_open),
                            reinterpret_cast<const void*>(a.device_close),
                            reinterpret_cast<const void*>(a.buffer_create),
                            reinterpret_cast<const void*>(a.buffer_destroy),
                            reinterpret_cast<const void*>(a.kernel_create),
                            reinterpret_cast<const void*>(a.kernel_destroy),
                            reinterpret_cast<const void*>(a.stream_create),
                            reinterpret_cast<const void*>(a.stream_destroy),
                            reinterpret_cast<const void*>(a.stream_write),
                            reinterpret_cast<const void*>(a.stream_read),
                            reinterpret_cast<const void*>(a.stream_copy),
                            reinterpret_cast<const void*>(a.stream_fill),
                            reinterpret_cast<const void*>(a.stream_dispatch),
                            reinterpret_cast<const void*>(a.stream_sync),
                            reinterpret_cast<const void*>(a.event_record),
                            reinterpret_cast<const void*>(a.event_elapsed_ms),
                            reinterpret_cast<const void*>(a.event_destroy)};
  for (size_t i = 0; i < std::size(required); ++i) EXPECT_NE(required[i], nullptr) << "entry " << i;
  // Recorded sequences: all four entries or none (libporta records itself).
  const int sequence_entries = (a.stream_begin_record != nullptr) + (a.stream_end_record != nullptr) +
                               (a.stream_replay != nullptr) + (a.sequence_destroy != nullptr);
  EXPECT_TRUE(sequence_entries == 0 || sequence_entries == 4) << sequence_entries;
}

TEST_P(Devices, InfoIsFilledAndConsistent) {
  ASSERT_GE(api().device_count(), 1u);
  for (uint32_t d = 0; d < api().device_count(); ++d) {
    SCOPED_TRACE("device " + std::to_string(d));
    porta_device_info i{};
    ASSERT_EQ(api().device_info(d, &i), PORTA_SUCCESS) << error();
    EXPECT_STREQ(i.backend, api().name);
    EXPECT_EQ(i.index, d);
    EXPECT_TRUE(filled(i.name));
    EXPECT_TRUE(filled(i.vendor));
    EXPECT_TRUE(filled(i.driver));
    EXPECT_TRUE(filled(i.api_version));
    EXPECT_LE(static_cast<uint32_t>(i.type), static_cast<uint32_t>(PORTA_DEVICE_OTHER));
    std::printf("%s device %u: %s | %s | %s | %s | %.2f GiB | subgroup %u | features 0x%llx\n", i.backend, d,
                i.name, i.vendor, i.driver, i.api_version, i.memory_bytes / 1073741824.0,
                i.limits.subgroup_size, static_cast<unsigned long long>(i.features));

    // Every heap is listed; the device-local ones add up to memory_bytes.
    EXPECT_GT(i.memory_bytes, 0u);
    ASSERT_GE(i.memory_heap_count, 1u);
    ASSERT_LE(i.memory_heap_count, uint32_t(PORTA_MAX_MEMORY_HEAPS));
    uint64_t device_local = 0;
    for (uint32_t h = 0; h < i.memory_heap_count; ++h) {
      EXPECT_GT(i.memory_heaps[h].bytes, 0u) << "heap " << h;
      if (i.memory_heaps[h].flags & PORTA_MEMORY_HEAP_DEVICE_LOCAL) device_local += i.memory_heaps[h].bytes;
    }
    EXPECT_EQ(device_local, i.memory_bytes);

    const porta_device_limits& l = i.limits;
    uint64_t largest_group = 1;
    for (int axis = 0; axis < 3; ++axis) {
      EXPECT_GE(l.max_workgroup_size[axis], 1u) << axis;
      EXPECT_GE(l.max_workgroup_count[axis], 1u) << axis;
      largest_group *= l.max_workgroup_size[axis];
    }
    // Every kernel of porta's own runs in groups of 64 at least.
    EXPECT_GE(l.max_workgroup_invocations, 64u);
    EXPECT_GE(l.max_workgroup_size[0], 64u);
    EXPECT_LE(l.max_workgroup_invocations, largest_group);
    EXPECT_GT(l.max_shared_memory_bytes, 0u);
    EXPECT_GE(l.max_push_constant_bytes, 128u);
    EXPECT_GT(l.max_buffer_bytes, 0u);
    EXPECT_GT(l.max_allocation_bytes, 0u);
    if (l.subgroup_size) {
      EXPECT_LE(l.subgroup_size, l.max_workgroup_invocations);
    }

    // Features that imply others.
    EXPECT_TRUE(i.features & PORTA_FEATURE_ATOMIC_INT32);
    if (i.features & PORTA_FEATURE_ATOMIC_INT64) {
      EXPECT_TRUE(i.features & PORTA_FEATURE_INT64);
    }
    // Every bit is one of the feature table's.
    for (int bit = 0; bit < 64; ++bit)
      if (i.features & (uint64_t{1} << bit)) {
        EXPECT_NE(porta_feature_name_inline(uint64_t{1} << bit), nullptr) << "unknown feature bit " << bit;
      }
  }
}

#if PORTA_PLUGIN_ABI_VERSION >= 3
// The properties a backend describes itself with (plugin ABI 3).
TEST_P(Devices, FlagsTimerAndPriorityAreSane) {
  for (uint32_t d = 0; d < api().device_count(); ++d) {
    SCOPED_TRACE("device " + std::to_string(d));
    porta_device_info i{};
    ASSERT_EQ(api().device_info(d, &i), PORTA_SUCCESS) << error();
    const uint32_t known_flags = PORTA_DEVICE_FLAG_UNIFIED_MEMORY | PORTA_DEVICE_FLAG_PRECOMPILED_DEFAULTS |
                                 PORTA_DEVICE_FLAG_REFERENCE | PORTA_DEVICE_FLAG_FIBER_BARRIERS |
                                 PORTA_DEVICE_FLAG_LOOP_LIMIT | PORTA_DEVICE_FLAG_SMOD_AS_SREM;
    EXPECT_EQ(i.flags & ~known_flags, 0u) << "unknown flag bits";
    EXPECT_TRUE(i.timer == PORTA_TIMER_DEVICE || i.timer == PORTA_TIMER_HOST) << i.timer;
    // Barriers on fibers, and the reference implementation, run on the CPU.
    if (i.flags & PORTA_DEVICE_FLAG_FIBER_BARRIERS) {
      EXPECT_EQ(i.type, PORTA_DEVICE_CPU);
    }
    if (i.flags & PORTA_DEVICE_FLAG_REFERENCE) {
      EXPECT_EQ(i.type, PORTA_DEVICE_CPU);
    }
    // A discrete GPU's buffers are its own memory, not the host's.
    if (i.type == PORTA_DEVICE_DISCRETE_GPU) {
      EXPECT_FALSE(i.flags & PORTA_DEVICE_FLAG_UNIFIED_MEMORY);
    }
    // Small numbers: 0 for a vendor's own API up to 100 for porta's CPU backend.
    EXPECT_LT(i.priority, 1000u);
    for (const porta_tile_shape* t : {&i.tuning.tile_large, &i.tuning.tile_huge}) {
      const bool none =
          !t->group_x && !t->group_y && !t->depth && !t->item_m && !t->item_n && !t->prefetch && !t->wide_loads;
      if (none) continue;
      EXPECT_GT(t->group_x, 0u);
      EXPECT_GT(t->group_y, 0u);
      EXPECT_GT(t->depth, 0u);
      EXPECT_GT(t->item_m, 0u);
      EXPECT_GT(t->item_n, 0u);
      EXPECT_LE(t->prefetch, 2u);
      EXPECT_LE(t->wide_loads, 1u);
      EXPECT_LE(uint64_t{t->group_x} * t->group_y, i.limits.max_workgroup_invocations);
    }
  }
}
#endif

}  // namespace
}  // namespace porta::test
