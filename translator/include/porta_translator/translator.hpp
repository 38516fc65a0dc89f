// porta's kernel front end and translator: GLSL → SPIR-V, validation,
// optimisation, reflection into a KernelSignature, and SPIR-V → C++ / OpenCL C /
// CUDA C++. Used by libporta and porta-translate; nothing else touches
// SPIRV-Cross, shaderc or SPIRV-Tools.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "porta/plugin.h"

namespace porta::translator {

// A failure of the front end or translator; `log` holds the compiler's or
// validator's own message (with line numbers where it has them).
struct Error : std::runtime_error {
  enum class Kind { InvalidGlsl, InvalidSpirv, UnsupportedFeature, Internal };
  Error(Kind kind, const std::string& message) : std::runtime_error(message), kind(kind) {}
  Kind kind;
};

enum class Access : uint32_t { Read = 1, Write = 2, ReadWrite = 3 };

enum class BufferKind : uint32_t { Storage = 0, Uniform = 1 };

// One buffer parameter of a kernel (the kernel ABI of DESIGN.md). Every
// storage or uniform block, at any descriptor set, is one; an array of N
// blocks (`buffer B { } b[3];`) is N of them, array_index 0..N-1; blocks
// declared at one (set, binding) are views of one parameter.
struct BufferBinding {
  uint32_t set = 0;
  uint32_t binding = 0;
  uint32_t array_index = 0;  // element of an array of blocks, else 0
  BufferKind kind = BufferKind::Storage;
  std::string name;  // block instance name or block type name (the first view's, for aliases)
  Access access = Access::ReadWrite;  // all views together; uniform blocks are Read
  uint64_t min_size = 0;  // bytes the block's fixed part needs (a runtime array counts 0 elements)
};

struct PushConstantMember {
  std::string name;
  std::string type;  // GLSL spelling: "float", "uint", "vec4", "float[4]"
  uint32_t offset = 0;
  uint32_t size = 0;
};

enum class ScalarType : uint32_t { Bool, Int, UInt, Float };

// A scalar specialization constant of any width: bool, 8/16/32/64-bit
// integers, 16/32/64-bit floats.
struct SpecConstant {
  uint32_t id = 0;
  std::string name;
  ScalarType type = ScalarType::UInt;
  uint32_t width = 4;         // bytes of the declared type: 1, 2, 4 or 8 (bool: 4, as Vulkan passes it)
  uint64_t default_bits = 0;  // the default's bit pattern, zero above `width`
};

// A spec constant's value: its bit pattern at the constant's width, zero above
// it (an int8_t -1 is 0xff).
struct SpecValue {
  uint32_t id = 0;
  uint64_t bits = 0;
};

// The declared type as GLSL spells it ("bool", "int", "uint16_t", "float64_t"), for messages.
std::string spec_type_name(const SpecConstant& spec);
// `text` read as a value of the spec constant's type: bool true/false/1/0;
// integers in decimal, 0x hex or 0 octal within the type's range; floats as
// strtod reads them, rounded to the type, within its range (inf and nan only
// when spelled so). Returns the bit pattern; throws std::invalid_argument
// saying what is wrong with `text` ("'5000000000' is out of the range of int
// [-2147483648, 2147483647]").
uint64_t parse_spec_value(const SpecConstant& spec, const std::string& text);
// The value `bits` as text, in the spec constant's type ("-5000000000", "0.5", "true").
std::string format_spec_value(const SpecConstant& spec, uint64_t bits);

// Feature bits use porta_feature values from porta.h.
struct KernelSignature {
  std::string entry_point;
  std::vector<BufferBinding> buffers;  // parameter order: sorted by (set, binding, array_index)
  uint32_t push_constant_size = 0;     // bytes (std430, from Offset decorations)
  std::vector<PushConstantMember> push_constants;
  std::vector<SpecConstant> spec_constants;
  uint32_t local_size[3] = {1, 1, 1};            // literal or spec-constant default
  int32_t local_size_spec_id[3] = {-1, -1, -1};  // spec id driving each dimension, -1 if literal
  uint32_t shared_memory_bytes = 0;
  // Every variable of one work-item's own (Function and Private storage),
  // summed over the module's functions: what an item may hold at once, at
  // most (optimisation may keep less).
  uint64_t private_memory_bytes = 0;
  bool uses_barrier = false;
  uint64_t required_features = 0;
};

enum class Target { Cpp, OpenCL, Cuda };

// The targets, in one table: porta-translate's --target names, messages and
// the front end read it; nothing else spells a target's name.
struct TargetInfo {
  Target target;
  const char* name;                       // "cpp", "opencl", "cuda"
  const char* language;                   // what the translation is written in, for people
  porta_kernel_language plugin_language;  // the language of the plugins it translates for
  // Whether translated code can call helper functions that take pointers or
  // touch the kernel's resources (OpenCL C 1.2 cannot: it has no references
  // and no program-scope variables). Where not, a readable prepare() inlines them.
  bool calls_helper_functions;
};
const std::vector<TargetInfo>& targets();
const TargetInfo& target_info(Target target);
// The target called `name`, or nullptr.
const TargetInfo* find_target(std::string_view name);
const char* target_name(Target target);
// The target translating for a plugin of `language` (TargetInfo::plugin_language);
// C++ for a language no target has.
Target target_for_language(porta_kernel_language language);

// GLSL compute source → SPIR-V (Vulkan 1.1 environment). `name` appears in messages.
std::vector<uint32_t> compile_glsl(const std::string& source, const std::string& name);
// Bytes of a .spv file → words. Throws Error(InvalidSpirv) when the size is not
// a multiple of 4, the module is empty or the magic number is wrong.
std::vector<uint32_t> spirv_from_bytes(const void* data, size_t size);
// Throws Error(InvalidSpirv) with spirv-val's message when invalid.
void validate(const std::vector<uint32_t>& spirv);
// Inlining and the performance passes; spec constants stay spec constants.
std::vector<uint32_t> optimize(const std::vector<uint32_t>& spirv);

struct PrepareOptions {
  // false: optimise, what every kernel a backend runs goes through.
  // true: for a person reading the translation (porta-translate --readable):
  // no spirv-opt, so the module keeps the shape of its source: helper
  // functions, loops, and the GLSL names it carries (OpName, OpMemberName;
  // compile_glsl keeps them). Only a target that cannot call helper functions
  // (TargetInfo::calls_helper_functions) gets them inlined, with nothing else.
  // The kernel computes the same either way.
  bool readable = false;
  Target target = Target::Cpp;  // the target the module will be translated to (readable only)
  // Cooperative matrices as warp fragments for tensor cores
  // (lower_cooperative_matrix_to_warp_fragments), for target cuda only.
  bool tensor_cores = false;
  // With tensor_cores or fix_group_size: the spec-constant values the
  // translation will fix (TranslateOptions::specs). A work-group size from
  // spec constants is read from them (missing ids: their defaults) and frozen
  // into the module.
  std::vector<SpecValue> specs;
  // The module's Workgroup-scope cooperative matrices spread over the items
  // of a work-group whose size comes from spec constants too (`specs`), not
  // only of a literal size (lower_cooperative_matrix).
  bool fix_group_size = false;
  // With tensor_cores: float32 A and B matrices may be multiplied at TF32
  // precision (mma.sync m16n8k8 .tf32: A and B rounded to 10 mantissa bits).
  // Only where the kernel's creator allowed it (PORTA_KERNEL_FLAG_ALLOW_TF32):
  // a float32 kernel otherwise keeps float32 products.
  bool tf32 = false;
  // With tensor_cores: Workgroup-scope matrices on sm_90's warpgroup MMA
  // (wgmma) where they fit (tensor_core_mismatch()); target cuda then needs
  // sm_90a.
  bool warpgroups = false;
};
// Whether the module declares CooperativeMatrixKHR (GLSL's GL_KHR_cooperative_matrix).
bool uses_cooperative_matrix(const std::vector<uint32_t>& spirv);
// Whether it declares BFloat16CooperativeMatrixKHR (SPV_KHR_bfloat16): matrices
// of bfloat16, which Vulkan runs as given where its driver lists them and the
// translated targets lower (bfloat16 as its bits in a uint16_t; on tensor
// cores, mma.sync's bf16 products).
bool uses_bfloat16_matrices(const std::vector<uint32_t>& spirv);
// The module with its cooperative matrices lowered to plain SPIR-V: each
// invocation holds a whole matrix as an array, loads, stores, multiply-adds
// and element-wise arithmetic are loops (translator/src/coopmat_lowering.cpp);
// a Vulkan-memory-model module gets the GLSL450 model; bfloat16 (SPV_KHR_bfloat16)
// becomes its bits in a 16-bit unsigned integer, converted through float32. What is not lowered is
// refused (Error UnsupportedFeature, naming the instruction and its file:line).
// Workgroup-scope matrices: spread over the work-group's items where its size
// is known (a literal, or with `fix_group_size` spec constants whose values
// `specs` give, which the module then has as literals): each item holds
// elements i, i + G, ... and multiply-adds exchange operands through shared
// memory between two work-group barriers. Elsewhere each item holds the
// whole matrix, and a work-group barrier before each store keeps an in-place
// update (load C, multiply-add, store C) from reading another item's result.
std::vector<uint32_t> lower_cooperative_matrix(const std::vector<uint32_t>& spirv,
                                               const std::vector<SpecValue>& specs = {},
                                               bool fix_group_size = false);
// Whether the module has cooperative matrices of Workgroup scope.
bool uses_workgroup_matrices(const std::vector<uint32_t>& spirv);
// The same lowering for reading the module's interface (bindings, push
// constants, spec constants) alone: matrices of SPV_KHR_bfloat16's bfloat16,
// which no translated target has, lower as other floats' do (Vulkan runs such
// modules as given). Not for compiling.
std::vector<uint32_t> lower_cooperative_matrix_interface(const std::vector<uint32_t>& spirv);
// Why the module's cooperative matrices cannot run on tensor cores
// (mma.sync.m16n8k16: float16 A and B, float16 or float32 accumulators;
// m16n8k32: 8-bit integer A and B, 32-bit integer accumulators;
// Subgroup scope, work-groups of whole warps), or "" when they can. What the
// lowering refuses for every target is refused here too (Error). A
// work-group size from spec constants is the one `specs` give (missing ids:
// their defaults), the values the kernel will be translated with.
// `tf32`: float32 A and B map too, at TF32 precision (PrepareOptions::tf32).
// `warpgroups`: Workgroup-scope matrices may map onto sm_90's wgmma
// (m64nNk16: work-groups of 128 W items, A and accumulators of 64 W rows,
// float16 or bfloat16 A and B into float32), a module's matrices all of that
// scope; else such matrices never map.
std::string tensor_core_mismatch(const std::vector<uint32_t>& spirv, const std::vector<SpecValue>& specs = {},
                                 bool tf32 = false, bool warpgroups = false);
// The module with each matrix spread over a 32-lane subgroup as mma.sync's
// operand fragments (each component held by one lane, Length rows * cols /
// 32), the multiply-adds calls that target cuda alone spells (as mma.sync);
// refused (UnsupportedFeature) where tensor_core_mismatch() is not "". A
// work-group size from spec constants becomes the literal size `specs` give
// (the module then runs only at that size, which the translation with the
// same values has anyway).
std::vector<uint32_t> lower_cooperative_matrix_to_warp_fragments(const std::vector<uint32_t>& spirv,
                                                                 const std::vector<SpecValue>& specs = {},
                                                                 bool tf32 = false, bool warpgroups = false);
// The variable a module both loads Subgroup-scope cooperative matrices from
// and stores them to (an in-place update: load C, multiply-add, store C),
// named with the store's file:line where known; "" if none. With subgroups of
// one work-item every work-item holds and updates its own copy of such a
// matrix, so each would apply the update again: backends with such subgroups
// refuse it. (A Workgroup-scope matrix is the work-group's whatever its
// subgroups, and the lowering orders its loads before its stores.)
std::string cooperative_matrix_in_place_update(const std::vector<uint32_t>& spirv);
// Validate then optimise (or, readable, only what options.target needs). A
// module with cooperative matrices is lowered first (lower_cooperative_matrix):
// the result serves the translated targets; Vulkan takes the module as given.
std::vector<uint32_t> prepare(const std::vector<uint32_t>& spirv, const PrepareOptions& options = {});

// The interface of a kernel. prepare() keeps unused buffers (their bindings)
// and unused spec constants, but spirv-opt drops a push-constant block the
// kernel never reads: reflect the validated module before optimize() when the
// declared push-constant size must hold even then.
KernelSignature reflect(const std::vector<uint32_t>& spirv);
// The same with spec-constant values applied: local_size, shared_memory_bytes and
// private_memory_bytes
// (whose array lengths may depend on spec constants) are those of the
// specialised kernel; spec_constants still lists the defaults.
KernelSignature reflect(const std::vector<uint32_t>& spirv, const std::vector<SpecValue>& specs);
// A readable multi-line description (porta-translate --signature, logs).
std::string describe(const KernelSignature& signature);

// Work-group size with spec-constant overrides applied.
void resolve_local_size(const KernelSignature& signature, const std::vector<SpecValue>& specs,
                        uint32_t out[3]);

struct TranslateOptions {
  Target target = Target::Cpp;
  std::vector<SpecValue> specs;  // fixed into the source; missing ids keep their defaults
  // The subgroup size of the device that runs the translation, as it reports
  // it (porta_device_limits::subgroup_size; 0: unknown). Only 1 changes a
  // translation: target opencl then translates subgroup operations for
  // subgroups of one work-item, each with its exact meaning there (the OpenCL
  // backend reports 1 for devices without the cl_khr_subgroup_* extensions);
  // targets cpp and cuda, whose subgroups have 32 lanes, refuse it for a
  // kernel with subgroup operations. Any other value leaves subgroups to the
  // target: the device's own through its extensions (opencl), 32 lanes (cpp, cuda).
  uint32_t subgroup_size = 0;
  // Every load, store and atomic through a storage or uniform buffer checks
  // its bytes against the buffer's size, with Vulkan's robustBufferAccess
  // meaning: a read out of bounds gives 0, a write is dropped, an atomic
  // returns 0 and changes nothing (bounds_checks.cpp). The CPU backend's
  // default; PORTA_ROBUST for OpenCL and CUDA.
  bool bounds_checks = false;
  // With bounds_checks: the first access out of bounds is also recorded, for
  // PORTA_ROBUST=report. The translation gains one buffer parameter after the
  // kernel's own (Translation::bounds_record), of kBoundsRecordBytes; each
  // guarded access that fails adds 1 to its first word, and the one that
  // finds it 0 writes its site (an index into Translation::bounds_sites), its
  // byte offset, the buffer's size in bytes and the element of an array of
  // blocks (BoundsRecord's layout).
  bool bounds_report = false;
  // Target cpp: each loop header asks whether the dispatch was cancelled (its
  // time limit passed) and, if so, ends the work-item (porta_cpu.h's
  // `cancel`), so that a kernel that never ends can be stopped.
  bool cancel_polls = false;
};

// What a guarded access that failed recorded (TranslateOptions::bounds_report),
// as the record buffer holds it after the dispatch.
struct BoundsRecord {
  uint32_t failures;  // accesses out of bounds (0: none; wraps after 2^32)
  uint32_t site;      // the first one's: an index into Translation::bounds_sites
  uint64_t offset;    // its first byte, from the start of the buffer (binding)
  uint64_t size;      // the buffer's (binding's) size in bytes; 0: an element of an array of blocks
                      //   past the array's end
  uint64_t element;   // the element of an array of blocks the access went to (its parameter is
                      //   the site's plus this); 0 for other buffers
};
constexpr uint32_t kBoundsRecordBytes = sizeof(BoundsRecord);

// One guarded access in the source: which buffer and how its offsets read as
// an index (the first index the kernel computes, `stride` bytes apart from
// byte `base`; stride 0: the access has none, only a constant offset).
struct BoundsSite {
  uint32_t parameter = 0;  // among the kernel's buffer parameters
  bool write = false;      // a store or an atomic (else a load)
  uint64_t base = 0, stride = 0;
  bool operator==(const BoundsSite&) const = default;
};

struct Translation {
  std::string source;
  std::string entry_point;  // the function a backend launches
  // TranslateOptions::bounds_report: the record buffer's descriptor set and
  // binding (after every other), and the sites its records name.
  uint32_t bounds_record_set = 0, bounds_record_binding = 0;
  std::vector<BoundsSite> bounds_sites;
};

Translation translate(const std::vector<uint32_t>& spirv, const TranslateOptions& options);

// PORTA_ROBUST=report where a device runs SPIR-V itself (Vulkan): the module
// with every load, store and atomic through an access chain into a storage or
// uniform block checked as TranslateOptions::bounds_checks checks a
// translation (the same byte range against the binding's size: a load out of
// bounds gives 0, a store or an atomic is skipped, an atomic gives 0) and the
// first failure recorded as bounds_report records it
// (bounds_instrument.cpp). The record buffer is one more binding, after every
// other; it holds a BoundsRecord, then the size in bytes of each buffer
// parameter's binding as a uint64_t, which the host writes before the dispatch
// (bounds_record_bytes()). `specs`: the values the kernel is created with (for
// array lengths that are spec constants; missing ids keep their defaults).
// What cannot be checked (pointers into buffers passed to functions, variable
// pointers, buffer device addresses) is refused (Error UnsupportedFeature).
struct BoundsInstrumentation {
  std::vector<uint32_t> spirv;
  uint32_t record_set = 0, record_binding = 0;
  std::vector<BoundsSite> sites;
};
BoundsInstrumentation instrument_bounds_report(const std::vector<uint32_t>& spirv,
                                               const std::vector<SpecValue>& specs = {});
// The size of an instrumented module's record buffer for a kernel of `parameters` buffers.
constexpr uint64_t bounds_record_bytes(uint32_t parameters) { return kBoundsRecordBytes + 8ull * parameters; }

// ---- Typed buffer layouts (tools that fill or compare a kernel's buffers) ----

// One scalar of a block: where it is and what it holds. Vectors and matrices
// are their components, arrays their elements, structs their members.
struct LayoutField {
  std::string path;     // "pos.y", "m[1][0]", "a[3]"; relative to the block (or to a runtime-array element)
  uint64_t offset = 0;  // bytes from the block's (or the element's) start
  ScalarType type = ScalarType::UInt;
  uint32_t width = 4;  // bytes: 1, 2, 4 or 8 (bool members are 4-byte)
};

// Every typed byte of one buffer parameter (or of the push-constant block),
// from the block's Offset/ArrayStride/MatrixStride/RowMajor decorations.
// Bytes no field covers are padding.
struct BlockLayout {
  uint32_t set = 0, binding = 0, array_index = 0;
  bool uniform = false;             // a uniform block (std140, read-only)
  bool read_only = false;           // NonWritable, or a uniform block
  std::string name;                 // block instance name, else its type name
  std::string type_name;            // the block's type name
  uint64_t fixed_size = 0;          // bytes before the runtime array (the declared size without one)
  std::vector<LayoutField> fields;  // the fixed part's scalars, by offset
  // The last member, when it is a runtime array: `element` are one element's
  // scalars, offsets from the element's start and paths that follow
  // "name[i]" (".pos.y", "[2]" or "" for a scalar element).
  bool has_runtime_array = false;
  std::string runtime_name;
  uint64_t runtime_offset = 0, runtime_stride = 0;
  std::vector<LayoutField> element;
  // Bytes a buffer holding `elements` runtime-array elements takes.
  uint64_t size_for(uint64_t elements) const {
    return has_runtime_array ? runtime_offset + elements * runtime_stride : fixed_size;
  }
};

struct KernelLayout {
  std::vector<BlockLayout> buffers;  // one per buffer parameter, by (set, binding, array element)
  bool has_push_constants = false;
  BlockLayout push_constants;
  uint32_t local_size[3] = {1, 1, 1};        // with the spec-constant values applied
  std::vector<SpecConstant> spec_constants;  // the scalar ones, by id
};

// The layouts of every storage and uniform buffer of the module's single entry
// point. Where several blocks alias one (set, binding), the view with the
// largest fixed part types the parameter. Array lengths that are spec constants
// take `specs`' values. Throws Error(UnsupportedFeature) for what it cannot
// type (a runtime-sized array of buffers), naming it.
KernelLayout reflect_layout(const std::vector<uint32_t>& spirv, const std::vector<SpecValue>& specs = {});

// The names of the module's GLCompute entry points.
std::vector<std::string> entry_points(const std::vector<uint32_t>& spirv);
// The module with only entry point `name` (others' OpEntryPoint and execution
// modes removed, then the functions only they called; every buffer stays). Throws
// Error(InvalidSpirv) naming the module's entry points when there is no `name`.
std::vector<uint32_t> select_entry_point(const std::vector<uint32_t>& spirv, const std::string& name);

}  // namespace porta::translator
