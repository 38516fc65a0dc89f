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

#define PORTA_CPU_KERNEL_ABI_VERSION 3u

/* Work-items per subgroup (gl_SubgroupSize) in kernels with subgroup
 * operations; the device reports it as its subgroup size. */
#define PORTA_CPU_SUBGROUP_SIZE 32u

typedef struct porta_cpu_scheduler {
  void* self;
  /* Run item(ctx, i) for i in [0, count) as cooperative fibers; returns when all
   * have returned. Items may call barrier(self). */
  void (*run_items)(void* self, uint32_t count, void (*item)(void* ctx, uint32_t local_index), void* ctx);
  /* Called from inside an item: wait until every item of the group got here. */
  void (*barrier)(void* self);
} porta_cpu_scheduler;

typedef struct porta_cpu_group_args {
  void* const* buffers;         /* buffer parameters in parameter order (NULL if none) */
  const uint64_t* buffer_sizes; /* their sizes in bytes, for .length() */
  uint32_t buffer_count;
  const void* push; /* push-constant bytes, NULL if none */
  uint32_t group_id[3];
  uint32_t num_groups[3];
  const porta_cpu_scheduler* scheduler; /* for kernels with barriers */
  /* Non-zero once the dispatch is cancelled (its time limit passed): kernels
   * translated with cancel polls read it (relaxed) at the top of every loop
   * and end the work-item. Never NULL. */
  const uint32_t* cancel;
} porta_cpu_group_args;

typedef struct porta_cpu_kernel_entry {
  uint32_t abi_version; /* PORTA_CPU_KERNEL_ABI_VERSION */
  void (*run_group)(const porta_cpu_group_args* args);
  uint32_t workgroup_size[3];
  uint32_t uses_barrier;
  uint32_t shared_memory_bytes;
} porta_cpu_kernel_entry;

/* Exported name: "porta_cpu_kernel" for a run-time compiled kernel. Kernels
 * compiled into the plugin at build time are the same translated text built
 * with -DPORTA_CPU_KERNEL_NAME=porta_cpu_kernel_<name>, so the text the core
 * translates at run time and the text compiled in are identical and can be
 * matched by comparing them. Generated code ends with
 *   PORTA_CPU_EXPORT_KERNEL const porta_cpu_kernel_entry PORTA_CPU_KERNEL_NAME = {...};
 * and keeps everything else in an anonymous namespace. */
#define PORTA_CPU_KERNEL_SYMBOL "porta_cpu_kernel"
/* A run-time compiled kernel also exports, beside its entry, the bytes of
 * stack one work-item may use (the C++ compiler's measure of every function's
 * frame, summed: kernels never recurse), as a const uint64_t of this name.
 * The CPU backend sizes the stacks it runs the items on from it. Absent (the
 * built-in kernels): the default fiber stack suffices. */
#define PORTA_CPU_KERNEL_STACK_SYMBOL "porta_cpu_kernel_stack_bytes"
#ifndef PORTA_CPU_KERNEL_NAME
#define PORTA_CPU_KERNEL_NAME porta_cpu_kernel
#endif
#ifdef __cplusplus
#define PORTA_CPU_EXPORT_KERNEL extern "C" __attribute__((visibility("default")))
#else
#define PORTA_CPU_EXPORT_KERNEL __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
}
#endif

#endif /* PORTA_CPU_H */
