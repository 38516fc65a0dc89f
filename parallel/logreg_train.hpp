// The data-parallel trainer behind porta_parallel_logreg_train
// (porta/parallel.h): written on the public API alone, like the ops; the C
// entry point (api/src/ops/c_api_ops.cpp) turns its porta::Error into a status.
#pragma once

#include "porta/parallel.h"

namespace porta::parallel {

void logreg_train(const porta_device* devices, uint32_t device_count, const porta_parallel_data* data,
                  const porta_parallel_options* options, float* w, float* b,
                  porta_parallel_device_report* reports);

}  // namespace porta::parallel
