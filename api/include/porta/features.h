/* porta device features: the one table of their bits, names and descriptions.
 *
 * Included by porta.h. Every place that names a feature (kernel refusals,
 * porta-info, the translator's signature text, the plugins) reads this table:
 * PORTA_FEATURE_LIST(X) calls X(SUFFIX, bit, "name", "description") once per
 * feature. The name is a short token (porta-info, signatures, messages); the
 * description says what the feature is in words.
 */
#ifndef PORTA_FEATURES_H
#define PORTA_FEATURES_H

#include <stddef.h>
#include <stdint.h>

#ifndef PORTA_API
#include "porta/porta.h" /* for PORTA_API; porta.h includes this file after defining it */
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define PORTA_FEATURE_LIST(X)                                                               \
  X(FP16, 0, "fp16", "16-bit float arithmetic")                                             \
  X(FP64, 1, "fp64", "64-bit float arithmetic")                                             \
  X(INT8, 2, "int8", "8-bit integer arithmetic")                                            \
  X(INT16, 3, "int16", "16-bit integer arithmetic")                                         \
  X(INT64, 4, "int64", "64-bit integer arithmetic")                                         \
  X(STORAGE_16BIT, 5, "storage-16bit", "16-bit types in storage buffers")                   \
  X(STORAGE_8BIT, 6, "storage-8bit", "8-bit types in storage buffers")                      \
  X(BF16, 7, "bf16", "bfloat16")                                                            \
  X(SUBGROUPS, 8, "subgroups", "subgroup (warp) operations")                                \
  X(ATOMIC_INT32, 9, "atomic-int32", "32-bit integer atomics on buffers and shared memory") \
  X(ATOMIC_INT64, 10, "atomic-int64", "64-bit integer atomics")                             \
  X(ATOMIC_FLOAT32, 11, "atomic-float32", "32-bit float atomic add")                        \
  X(COOPERATIVE_MATRIX, 12, "cooperative-matrix", "cooperative matrices")                   \
  X(TIMELINE_SEMAPHORE, 13, "timeline-semaphore", "timeline semaphores")                    \
  X(SUBGROUP_CLUSTERED, 14, "subgroup-clustered", "clustered subgroup reductions")          \
  X(COOPERATIVE_MATRIX_F16_HW, 15, "coopmat-f16-hw",                                        \
    "cooperative matrices: float16 16x16x16 into float32 on matrix hardware")               \
  X(COOPERATIVE_MATRIX_TF32_HW, 16, "coopmat-tf32-hw",                                      \
    "cooperative matrices: float32 at TF32 on matrix hardware (PORTA_KERNEL_FLAG_ALLOW_TF32)") \
  X(COOPERATIVE_MATRIX_BF16_HW, 17, "coopmat-bf16-hw",                                      \
    "cooperative matrices: bfloat16 16x16x16 into float32 on matrix hardware")              \
  X(COOPERATIVE_MATRIX_WORKGROUP_HW, 18, "coopmat-workgroup-hw",                            \
    "cooperative matrices of Workgroup scope: float16 and bfloat16 into float32 on matrix hardware")

/* Device features (bit flags), one per entry of PORTA_FEATURE_LIST. */
typedef enum porta_feature {
#define PORTA_FEATURE_ENUM_(suffix, bit, name, description) PORTA_FEATURE_##suffix = 1u << (bit),
  PORTA_FEATURE_LIST(PORTA_FEATURE_ENUM_)
#undef PORTA_FEATURE_ENUM_
} porta_feature;

/* The name of one feature bit ("fp16"), or NULL if `single_feature_bit` is
 * not exactly one known feature. */
PORTA_API const char* porta_feature_name(uint64_t single_feature_bit);

/* The same lookups, header-only, for code that does not link libporta
 * (the translator, the plugins): a feature bit's name, or its description
 * when `description` is nonzero. */
static inline const char* porta_feature_text_inline_(uint64_t single_feature_bit, int description) {
#define PORTA_FEATURE_TEXT_(suffix, bit, name, text) \
  if (single_feature_bit == (UINT64_C(1) << (bit))) return description ? text : name;
  PORTA_FEATURE_LIST(PORTA_FEATURE_TEXT_)
#undef PORTA_FEATURE_TEXT_
  return NULL;
}

static inline const char* porta_feature_name_inline(uint64_t single_feature_bit) {
  return porta_feature_text_inline_(single_feature_bit, 0);
}

static inline const char* porta_feature_description_inline(uint64_t single_feature_bit) {
  return porta_feature_text_inline_(single_feature_bit, 1);
}

#ifdef __cplusplus
}
#endif

#endif /* PORTA_FEATURES_H */
