/* The contract between C++ emitted by porta's translator (target cpp) and the
 * CPU backend that runs it. Plain C so the generated code and the plugin agree
 * on layout whatever compiler builds either side.
 *
 * A translated kernel exports one porta_cpu_kernel_entry. The CPU backend calls
 * run_group once per work-group (work-groups spread over a thread pool); the
 * generated run_group runs every work-item of that group. A kernel without
 * barriers loops over its work-items directly; a kernel with barriers hands its
 * work-items to scheduler->run_items, which runs each one as a fiber, and
 * barrier() switches to the next fiber, so all work-items of a group reach a
 * barrier before any passes it, wherever the barrier is (loops included).
 */
#ifndef PORTA_CPU_H
#define PORTA_CPU_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PORTA_CPU_KERNEL_ABI_VERSION 1u

typedef struct porta_cpu_scheduler {
  void* self;
  /* Run item(ctx, i) for i in [0, count) as cooperative fibers; returns when all
   * have returned. Items may call barrier(self). */
  void (*run_items)(void* self, uint32_t count, void (*item)(void* ctx, uint32_t local_index), void* ctx);
  /* Called from inside an item: wait until every item of the group got here. */
  void (*barrier)(void* self);
} porta_cpu_scheduler;

typedef struct porta_cpu_group_args {
  void* const* buffers; /* storage buffers in parameter order */
  uint32_t buffer_count;
  const void* push; /* push-constant bytes, NULL if none */
  uint32_t group_id[3];
  uint32_t num_groups[3];
  const porta_cpu_scheduler* scheduler; /* for kernels with barriers */
} porta_cpu_group_args;

typedef struct porta_cpu_kernel_entry {
  uint32_t abi_version; /* PORTA_CPU_KERNEL_ABI_VERSION */
  void (*run_group)(const porta_cpu_group_args* args);
  uint32_t workgroup_size[3];
  uint32_t uses_barrier;
  uint32_t shared_memory_bytes;
} porta_cpu_kernel_entry;

/* Exported name: "porta_cpu_kernel" for a run-time compiled kernel, or
 * "porta_cpu_kernel_<symbol>" for kernels compiled into the plugin. */
#define PORTA_CPU_KERNEL_SYMBOL "porta_cpu_kernel"

#ifdef __cplusplus
}
#endif

#endif /* PORTA_CPU_H */
