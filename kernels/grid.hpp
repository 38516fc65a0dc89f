// Group counts for the elementwise kernels' grid-stride loops.
#pragma once

#include <algorithm>

#include "ops/ops.hpp"

namespace porta::ops {

// GPUs: grid_groups() (enough groups to fill the device, then each item
// strides). CPU-type devices run a group's items one after another, so a
// stride makes every item walk the whole array in steps of the grid: one
// cache line per step, and no prefetching. There the grid covers the range
// (up to the group-count limit) and each item's range stays next to its
// neighbours'.
inline uint32_t elementwise_groups(const DeviceState& device, uint64_t n, uint32_t workgroup) {
  if (!cpu_like(device)) return grid_groups(device, n, workgroup);
  const uint64_t groups =
      std::min<uint64_t>((n + workgroup - 1) / workgroup, device.info.limits.max_workgroup_count[0]);
  return static_cast<uint32_t>(std::max<uint64_t>(groups, 1));
}

}  // namespace porta::ops
