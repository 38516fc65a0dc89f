// Cooperative matrices (SPV_KHR_cooperative_matrix, GLSL's GL_KHR_cooperative_matrix)
// lowered to plain SPIR-V, for the translated targets and for the SPIRV-Tools and
// SPIRV-Cross that porta links (Debian's, which predate the extension).
//
// How a matrix's elements are spread over its scope's invocations (a
// subgroup's, or a work-group's for Workgroup scope) is the implementation's
// choice, so one choice that is right everywhere is that each invocation
// holds the whole matrix: a matrix type becomes an array of
// rows * cols components (row r, column c at r * cols + c), its length
// (OpCooperativeMatrixLengthKHR) is rows * cols, and loads, stores, the
// multiply-add and the element-wise arithmetic become helper functions with
// loops, which prepare() inlines. What a matrix value may do besides (load,
// store, copy, OpCompositeExtract/Insert, an access chain into a variable,
// phi, function parameters) an array does as it is. Modules written for the
// Vulkan memory model (glslang uses it for every coopmat kernel) get GLSL450's:
// the availability and visibility operands go, the accesses stay.
#define SPV_ENABLE_UTILITY_CODE  // spv::HasResultAndType
#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "bfloat16_lowering.hpp"
#include "spirv_words.hpp"

namespace porta::translator {
namespace {

// SPV_KHR_cooperative_matrix and SPV_KHR_vulkan_memory_model numbers, newer
// than the SPIR-V headers porta builds with.
constexpr uint32_t kCapabilityCooperativeMatrix = 6022;
constexpr uint32_t kCapabilityVulkanMemoryModel = 5345;
constexpr uint32_t kOpTypeCooperativeMatrix = 4456;
constexpr uint32_t kOpCooperativeMatrixLoad = 4457;
constexpr uint32_t kOpCooperativeMatrixStore = 4458;
constexpr uint32_t kOpCooperativeMatrixMulAdd = 4459;
constexpr uint32_t kOpCooperativeMatrixLength = 4460;
constexpr uint32_t kMemoryModelGlsl450 = 1, kMemoryModelVulkan = 3;
constexpr uint32_t kScopeDevice = 1, kScopeWorkgroup = 2, kScopeSubgroup = 3, kScopeQueueFamily = 5;
constexpr uint32_t kLayoutRowMajor = 0, kLayoutColumnMajor = 1;
// Memory-operand bits that only the Vulkan memory model has (each of the first
// two takes a scope operand), and memory-semantics bits likewise.
constexpr uint32_t kMakePointerAvailable = 0x8, kMakePointerVisible = 0x10, kNonPrivatePointer = 0x20;
constexpr uint32_t kVulkanSemantics = 0x1000 | 0x2000 | 0x4000 | 0x8000;
// AcquireRelease | UniformMemory | WorkgroupMemory.
constexpr uint32_t kBarrierSemantics = 0x8 | 0x40 | 0x100;
// MulAdd operands: which of A, B, C are signed (the result's signedness
// matters only to saturation, which is refused).
constexpr uint32_t kMatrixASigned = 0x1, kMatrixBSigned = 0x2, kMatrixCSigned = 0x4, kSaturating = 0x10;

const char* coopmat_opcode_name(uint32_t opcode) {
  static const char* const names[] = {"OpTypeCooperativeMatrixKHR", "OpCooperativeMatrixLoadKHR",
                                      "OpCooperativeMatrixStoreKHR", "OpCooperativeMatrixMulAddKHR",
                                      "OpCooperativeMatrixLengthKHR"};
  return opcode >= kOpTypeCooperativeMatrix && opcode <= kOpCooperativeMatrixLength
             ? names[opcode - kOpTypeCooperativeMatrix]
             : nullptr;
}

using Words = std::vector<uint32_t>;

Words instruction(uint32_t opcode, std::initializer_list<uint32_t> operands) {
  Words w{(uint32_t(operands.size() + 1) << 16) | opcode};
  w.insert(w.end(), operands);
  return w;
}
Words instruction(uint32_t opcode, const Words& operands) {
  Words w{(uint32_t(operands.size() + 1) << 16) | opcode};
  w.insert(w.end(), operands.begin(), operands.end());
  return w;
}

class FunctionBuilder;

struct Matrix {
  uint32_t component = 0;  // type id
  uint32_t rows = 0, cols = 0;
  uint32_t use = 0;
  uint32_t scope = 3;  // Subgroup (3) or Workgroup (2)
  // Workgroup scope spread over the group's G items (Lowering::spread_):
  // item i holds elements i, i + G, i + 2G, ... of the rows * cols in
  // row-major order, length ceil(rows * cols / G) of them (places past
  // rows * cols are padding: loaded as zeros, never stored).
  bool spread = false;
  // Workgroup scope on sm_90's warpgroup MMA (Lowering::warpgroups_):
  // porta_cuda.h's porta_wgmma layouts (position()).
  bool warpgroup = false;
  // bfloat16 components, held as their bits in a 16-bit unsigned integer
  // (bfloat16_lowering.cpp).
  bool bfloat16 = false;
  // The components one invocation holds: rows * cols, or with warp fragments
  // rows * cols / 32, in tiles of tile_rows x tile_cols (tile_elements each,
  // a lane's place in a tile as mma.sync's operand registers say).
  uint32_t length = 0;
  uint32_t tile_rows = 0, tile_cols = 0, tile_elements = 0;
  // It becomes `struct { component elements[rows * cols]; }`, which C, OpenCL C
  // and CUDA assign and return as values (arrays they do not): the struct keeps
  // the matrix type's id, the array is new.
  uint32_t array = 0;     // the struct: the matrix type's own id
  uint32_t elements = 0;  // the array in it
};

class Lowering {
 public:
  // `fragments`: spread each matrix over a 32-lane subgroup as mma.sync's
  // operands (target cuda's tensor cores); where a matrix or the module does
  // not fit, mismatch() says why and run() must not be called.
  // `fix_group_size`: `specs` are the values the kernel will be translated
  // with, so a work-group size from spec constants may be read from them and
  // frozen into the module (always so with fragments); else only a literal
  // size spreads Workgroup-scope matrices.
  Lowering(const Words& spirv, bool fragments, const std::vector<SpecValue>& specs = {}, bool tf32 = false,
           bool interface_only = false, const std::unordered_set<uint32_t>& bfloat16_matrices = {},
           bool fix_group_size = false, bool warpgroups = false)
      : in_(spirv),
        bound_(spirv[3]),
        fragments_(fragments),
        interface_only_(interface_only),
        specs_(specs),
        fix_group_size_(fragments || fix_group_size),
        warpgroups_(warpgroups),
        tf32_(tf32),
        bfloat16_matrices_(bfloat16_matrices) {
    read();
  }

  Words run();
  const std::string& mismatch() const { return mismatch_; }

 private:
  struct Instruction {
    uint32_t opcode;
    Words words;  // the whole instruction, word 0 included
    // An instruction shorter than its opcode needs is not valid SPIR-V, which
    // nothing before the lowering has checked: refused, never read past.
    uint32_t operand(size_t i) const {
      if (i + 1 >= words.size())
        throw Error(Error::Kind::InvalidSpirv,
                    "cooperative matrix: an instruction of opcode " + std::to_string(opcode) + " has " +
                        std::to_string(words.size() - 1) + " operands, where operand " +
                        std::to_string(i + 1) + " was expected");
      return words[i + 1];
    }
    size_t operand_count() const { return words.size() - 1; }
  };

  void read();
  void plan_fragments();
  uint32_t new_id() { return bound_++; }
  [[noreturn]] void refuse(const std::string& what, const Instruction& at) const;

  // Types and constants, reused when the module declares them, else added.
  uint32_t type(uint32_t opcode, const Words& operands);
  uint32_t uint_type() { return type(spv::OpTypeInt, {32, 0}); }
  uint32_t bool_type() { return type(spv::OpTypeBool, {}); }
  uint32_t pointer(uint32_t storage, uint32_t pointee) {
    return type(spv::OpTypePointer, {storage, pointee});
  }
  uint32_t constant(uint32_t type_id, uint32_t value);
  uint32_t uint_constant(uint32_t value) { return constant(uint_type(), value); }
  uint32_t null_constant(uint32_t type_id);
  // The literal value of an OpConstant (32-bit integer) id, or refuses.
  uint32_t literal(uint32_t id, const char* what, const Instruction& at) const;
  // A matrix size: a constant, or a spec constant's value (specs_) where the
  // module is lowered with the kernel's values or for its interface alone.
  uint32_t size_literal(uint32_t id, const char* what, const Instruction& at) const;
  bool is_float(uint32_t type_id) const;
  bool is_signed_int(uint32_t type_id) const;
  uint32_t width(uint32_t type_id) const;
  const Matrix* matrix(uint32_t type_id) const {
    auto it = matrices_.find(type_id);
    return it == matrices_.end() ? nullptr : &it->second;
  }
  uint32_t type_of(uint32_t id) const {
    auto it = result_types_.find(id);
    return it == result_types_.end() ? 0 : it->second;
  }

  // Rewrites one function-body instruction into `out`.
  void lower(const Instruction& inst, Words& out);
  uint32_t transfer_helper(const Instruction& inst, bool load, Words& call_args);
  uint32_t element_pointer(FunctionBuilder& f, uint32_t variable, const Matrix& m, uint32_t index);
  // Row and column of the component an invocation holds at `e`.
  void position(FunctionBuilder& f, const Matrix& m, uint32_t e, uint32_t& row, uint32_t& col);
  uint32_t lane_variable();
  uint32_t copy_in(FunctionBuilder& f, uint32_t value, const Matrix& m);
  uint32_t add_helper(FunctionBuilder& f, uint32_t return_type,
                      uint32_t control = spv::FunctionControlMaskNone);
  void check_mul_add(const Instruction& inst);
  uint32_t mul_add_helper(const Instruction& inst);
  uint32_t tensor_core_helper(const Instruction& inst);
  uint32_t elementwise_helper(const Instruction& inst);
  // The element address of a load or store: `pointer` (an access chain into
  // an array of a module-scope variable) with `offset` added to its last index.
  struct Address {
    uint32_t base = 0;
    Words constant_indices;     // the chain's indices but the last, 0 where dynamic
    std::vector<bool> dynamic;  // which of them are passed to the helper
    uint32_t element_pointer = 0;
    uint32_t pointee = 0;
    // Where the pointee is not the matrix's component type, memory read as
    // the spec says, components in order from Pointer[row * Stride] on:
    // the pointee's scalar type, its lanes (1 for a scalar), its bits.
    uint32_t scalar = 0, lanes = 1, scalar_bits = 0;
    uint32_t storage = 0;
  };
  Address address(uint32_t pointer_id, const Matrix& m, const Instruction& at);
  // A type as a kernel's author reads it: float16, uint32, uint32 x 4.
  std::string type_name(uint32_t type_id) const;
  // Component `minor` of the run that starts at the pointee `chain` ends on
  // (its last index), read from or written to memory of another type.
  uint32_t scalar_pointer(FunctionBuilder& f, const Address& a, Words chain, uint32_t minor,
                          uint32_t component_bytes, uint32_t& byte);
  uint32_t reinterpreted_load(FunctionBuilder& f, const Address& a, const Matrix& m, const Words& chain,
                              uint32_t minor);
  void reinterpreted_store(FunctionBuilder& f, const Address& a, const Matrix& m, const Words& chain,
                           uint32_t minor, uint32_t value);

  Words strip_memory_operands(const Instruction& inst, size_t first);
  Words through_matrices(const Instruction& inst, size_t first, uint32_t type_id, bool literal_indices);
  uint32_t semantics(uint32_t id);
  uint32_t scope(uint32_t id);

  const Words& in_;
  uint32_t bound_;
  std::vector<Instruction> preamble_, types_, functions_;
  Words added_types_;  // new types and constants, after the module's own
  Words helpers_;      // new functions, after the module's own
  std::unordered_map<uint32_t, const Instruction*> defs_;
  std::unordered_map<uint32_t, uint32_t> result_types_;
  std::map<std::pair<uint32_t, Words>, uint32_t> type_ids_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> constant_ids_;
  std::unordered_map<uint32_t, Matrix> matrices_;
  std::map<Words, uint32_t> helper_ids_;
  std::vector<std::pair<uint32_t, std::string>> helper_names_;  // OpName of the tensor-core helpers
  std::unordered_map<uint32_t, std::string> strings_;
  std::string file_;
  uint32_t line_ = 0;
  bool vulkan_memory_model_ = false;
  const bool fragments_;
  // Lowered for the interface alone (reflection), never compiled: matrices of
  // any float, bfloat16 too, lower as floats do.
  const bool interface_only_;
  std::string mismatch_;
  uint32_t lane_ = 0;         // the SubgroupLocalInvocationId variable (fragments)
  bool lane_is_new_ = false;   // added by the lowering: decorate it, list it in the entry point
  bool int16_is_new_ = false;  // 16-bit integers, to read float16 components from wider words
  // The work-group size (fragments, spread and warpgroup matrices), and
  // whether it came from spec constants (run() then writes it as literals:
  // LocalSize, gl_WorkGroupSize's constants).
  const std::vector<SpecValue> specs_;
  const bool fix_group_size_;
  // Fragments: Workgroup-scope matrices may go on sm_90's warpgroup MMA.
  const bool warpgroups_;
  uint32_t size_[3] = {1, 1, 1};
  uint32_t workgroup_size_ = 0;  // the WorkgroupSize built-in's constant, if any
  bool frozen_ = false;
  // Workgroup-scope matrices spread over this many items (Matrix::spread),
  // the LocalInvocationIndex variable that places an item's elements, and
  // the shared arrays their multiply-adds exchange operands through; 0 where
  // the size is not known here (each item then holds the whole matrix).
  uint32_t spread_ = 0;
  uint32_t local_index_ = 0;
  bool local_index_is_new_ = false;
  Words scratch_;  // the Workgroup variables the multiply-adds added
  // The work-group size into size_ (from specs_ where fix_group_size_),
  // false with `why` where it is not known.
  bool read_group_size(std::string& why);
  uint32_t local_index_variable();
  // The element at `e` of an item's share of a spread matrix: its index in
  // the whole matrix (e * G + the item's index).
  uint32_t spread_index(FunctionBuilder& f, uint32_t e);
  void warpgroup_position(FunctionBuilder& f, const Matrix& m, uint32_t e, uint32_t& row, uint32_t& col);
  uint32_t spread_mul_add_helper(const Instruction& inst);
  void plan_warpgroup(Matrix& m);
  // Where an item's element e of m lies past the matrix (padding), a bool id
  // that is false there; 0 where every element is inside.
  uint32_t inside(FunctionBuilder& f, const Matrix& m, uint32_t e);
  uint32_t mul_add_convert(FunctionBuilder& f, uint32_t value, const Matrix& m, bool is_signed, uint32_t t);
  void sum_products(FunctionBuilder& f, const Instruction& inst, uint32_t acc, uint32_t k_counter, uint32_t r,
                    uint32_t c, const std::function<uint32_t(uint32_t)>& a_at,
                    const std::function<uint32_t(uint32_t)>& b_at);
  const bool tf32_;  // float32 A and B as TF32 (m16n8k8), where the kernel allows it
  // The matrix types whose u16 components are bfloat16's bits (lower_bfloat16()).
  const std::unordered_set<uint32_t> bfloat16_matrices_;
  BFloat16Ops bfloat16_ops(FunctionBuilder& f, uint32_t u16);
  BFloat16Scalar scalar(const Matrix& m) const {
    return {m.component, m.bfloat16, is_float(m.component), width(m.component)};
  }
};

void Lowering::read() {
  size_t at = kSpirvHeaderWords;
  bool in_functions = false;
  while (at < in_.size()) {
    const uint32_t length = in_[at] >> 16, opcode = in_[at] & 0xffffu;
    if (length == 0 || at + length > in_.size())
      throw Error(Error::Kind::InvalidSpirv, "malformed SPIR-V instruction at word " + std::to_string(at));
    Instruction inst{opcode, Words(in_.begin() + at, in_.begin() + at + length)};
    at += length;
    if (opcode == spv::OpFunction) in_functions = true;
    const bool preamble =
        !in_functions &&
        (opcode == spv::OpCapability || opcode == spv::OpExtension || opcode == spv::OpExtInstImport ||
         opcode == spv::OpMemoryModel || opcode == spv::OpEntryPoint || opcode == spv::OpExecutionMode ||
         opcode == spv::OpExecutionModeId || opcode == spv::OpString || opcode == spv::OpSource ||
         opcode == spv::OpSourceExtension || opcode == spv::OpSourceContinued || opcode == spv::OpName ||
         opcode == spv::OpMemberName || opcode == spv::OpModuleProcessed || opcode == spv::OpDecorate ||
         opcode == spv::OpMemberDecorate || opcode == spv::OpDecorationGroup ||
         opcode == spv::OpGroupDecorate || opcode == spv::OpGroupMemberDecorate ||
         opcode == spv::OpDecorateId || opcode == spv::OpDecorateString ||
         opcode == spv::OpMemberDecorateString);
    (in_functions ? functions_ : preamble ? preamble_ : types_).push_back(std::move(inst));
  }
  for (auto* list : {&preamble_, &types_, &functions_})
    for (const Instruction& inst : *list) {
      bool has_result = false, has_type = false;
      spv::HasResultAndType(static_cast<spv::Op>(inst.opcode), &has_result, &has_type);
      if (inst.opcode == kOpTypeCooperativeMatrix) has_result = true, has_type = false;
      if (inst.opcode == kOpCooperativeMatrixLoad || inst.opcode == kOpCooperativeMatrixMulAdd ||
          inst.opcode == kOpCooperativeMatrixLength)
        has_result = has_type = true;
      if (has_result && has_type && inst.operand_count() >= 2) {
        defs_[inst.operand(1)] = &inst;
        result_types_[inst.operand(1)] = inst.operand(0);
      } else if (has_result && inst.operand_count() >= 1) {
        defs_[inst.operand(0)] = &inst;
      }
      if (inst.opcode == spv::OpString && inst.operand_count() >= 2)
        strings_[inst.operand(0)] = spirv_string(&inst.words[2], uint32_t(inst.words.size() - 2));
      if (inst.opcode == spv::OpMemoryModel && inst.operand(1) == kMemoryModelVulkan)
        vulkan_memory_model_ = true;
    }
  // The module's types, to reuse; constants of 32-bit integers likewise.
  for (const Instruction& inst : types_) {
    const bool is_type = inst.opcode >= spv::OpTypeVoid && inst.opcode <= spv::OpTypeForwardPointer;
    if (is_type && inst.opcode != spv::OpTypeStruct && inst.opcode != spv::OpTypeArray &&
        inst.opcode != spv::OpTypeRuntimeArray)
      type_ids_.emplace(std::make_pair(inst.opcode, Words(inst.words.begin() + 2, inst.words.end())),
                        inst.operand(0));
    if (inst.opcode == spv::OpConstant && inst.operand_count() == 3)
      constant_ids_.emplace(std::make_pair(inst.operand(0), inst.operand(2)), inst.operand(1));
  }
  for (const Instruction& inst : types_) {
    if (inst.opcode != kOpTypeCooperativeMatrix) continue;
    if (inst.operand_count() != 6) refuse("a malformed matrix type", inst);
    const uint32_t scope_value = literal(inst.operand(2), "its scope", inst);
    if (scope_value != kScopeSubgroup && scope_value != kScopeWorkgroup)
      refuse("matrices of scope " + std::to_string(scope_value) +
                 " (Subgroup, 3, and Workgroup, 2, are lowered)",
             inst);
    const uint32_t component = inst.operand(1);
    const Instruction* component_def = defs_.count(component) ? defs_.at(component) : nullptr;
    // Any integer, and IEEE floats of every width: each target spells
    // float16_t (translator/README.md, "8- and 16-bit types"), and the loops
    // are the same for each. An OpTypeFloat with an encoding operand is
    // SPV_KHR_bfloat16's bfloat16, which no target has as a type.
    const bool is_float = component_def && component_def->opcode == spv::OpTypeFloat;
    if (is_float && component_def->operand_count() != 2 && !interface_only_)
      refuse("matrices of bfloat16 components (SPV_KHR_bfloat16; no translated target has the type)", inst);
    if (!component_def || (!is_float && component_def->opcode != spv::OpTypeInt))
      refuse("matrices of components that are neither integers nor floats", inst);
    Matrix m;
    m.component = component;
    m.rows = size_literal(inst.operand(3), "its row count", inst);
    m.cols = size_literal(inst.operand(4), "its column count", inst);
    m.use = literal(inst.operand(5), "its use", inst);
    m.scope = scope_value;
    m.length = m.rows * m.cols;
    m.array = inst.operand(0);
    m.elements = new_id();
    m.bfloat16 = bfloat16_matrices_.count(inst.operand(0)) != 0;
    matrices_[inst.operand(0)] = m;
  }
  if (fragments_) plan_fragments();
  // Workgroup-scope matrices spread over the group's items where its size is
  // known here; else each item holds the whole matrix, as at Subgroup scope.
  bool workgroup = false;
  for (const auto& entry : matrices_) workgroup |= entry.second.scope == kScopeWorkgroup;
  std::string why;
  if (workgroup && !fragments_ && !interface_only_ && read_group_size(why)) {
    spread_ = size_[0] * size_[1] * size_[2];
    for (auto& entry : matrices_) {
      Matrix& m = entry.second;
      if (m.scope != kScopeWorkgroup) continue;
      m.spread = true;
      m.length = (m.rows * m.cols + spread_ - 1) / spread_;
    }
  }
}

// Warp fragments for mma.sync.aligned.m16n8k16 (f16 A and B, f16 or f32 C
// and D, sm_80 on): a matrix is tiles of the instruction's operands, A 16 x 16
// (8 components a lane), B 16 x 8 (4), accumulators 16 x 8 (4), tile after
// tile in row-major order of tiles. Each component is held by exactly one
// lane, so Length is rows * cols / 32 and element-wise work is per lane.
// Warpgroup fragments (porta_cuda.h's porta_wgmma): a group of G = 128 W
// items, A M x K and accumulators M x N with M = 64 W (warpgroup w holds rows
// 64 w on), K a multiple of 16 and N of 8; float16 or bfloat16 A and B,
// float32 accumulators. Sets mismatch_ where the matrix does not fit.
void Lowering::plan_warpgroup(Matrix& m) {
  static const char* const uses[] = {"A", "B", "accumulator"};
  const std::string what = std::to_string(m.rows) + "x" + std::to_string(m.cols) + " " +
                           (m.use < 3 ? uses[m.use] : "use " + std::to_string(m.use)) + " of Workgroup scope";
  if (!warpgroups_) {
    mismatch_ =
        "a matrix of Workgroup scope (mma.sync's fragments are one subgroup's; wgmma, sm_90's, takes "
        "a warpgroup's)";
    return;
  }
  if (spread_ == 0) {
    std::string why;
    if (!read_group_size(why)) {
      mismatch_ = why;
      return;
    }
    spread_ = size_[0] * size_[1] * size_[2];
  }
  if (spread_ % 128 != 0) {
    mismatch_ = "matrices of Workgroup scope in work-groups of " + std::to_string(spread_) +
                " items (wgmma takes warpgroups of 128)";
    return;
  }
  const uint32_t w = spread_ / 128;
  const Instruction* component = defs_.at(m.component);
  const bool half = (component->opcode == spv::OpTypeFloat && component->operand(1) == 16) || m.bfloat16;
  const bool single = component->opcode == spv::OpTypeFloat && component->operand(1) == 32 && !m.bfloat16;
  if ((m.use < 2 && !half) || (m.use == 2 && !single) || m.use > 2) {
    mismatch_ = "a " + what + " (wgmma takes float16 or bfloat16 A and B, float32 accumulators)";
    return;
  }
  const bool fits = m.use == 0   ? m.rows == 64 * w && m.cols % 16 == 0
                    : m.use == 1 ? m.rows % 16 == 0 && m.cols % 8 == 0
                                 : m.rows == 64 * w && m.cols % 8 == 0;
  if (!fits) {
    mismatch_ = "a " + what + " in work-groups of " + std::to_string(spread_) +
                " (wgmma's A and accumulators are " + std::to_string(64 * w) +
                " rows, 64 a warpgroup; K a multiple of 16, N of 8)";
    return;
  }
  m.warpgroup = true;
  // The tiles only tell apart what element-wise work may mix.
  m.tile_rows = m.use == 1 ? 8 : 64;
  m.tile_cols = m.use == 0 ? 16 : 8;
  const uint32_t core_rows = m.rows * m.cols / 8;
  m.length = m.use == 1 ? (core_rows + spread_ - 1) / spread_ * 8 : m.rows * m.cols / spread_;
}

void Lowering::plan_fragments() {
  static const char* const uses[] = {"A", "B", "accumulator"};
  bool scopes[2] = {false, false};
  for (const auto& entry : matrices_) scopes[entry.second.scope == kScopeWorkgroup] = true;
  if (scopes[0] && scopes[1]) {
    mismatch_ = "matrices of both Subgroup and Workgroup scope";
    return;
  }
  for (const Instruction& type : types_) {  // in the module's order: the first that does not fit is named
    if (type.opcode != kOpTypeCooperativeMatrix) continue;
    Matrix& m = matrices_.at(type.operand(0));
    if (m.scope != kScopeSubgroup) {
      plan_warpgroup(m);
      if (!mismatch_.empty()) return;
      continue;
    }
    const Instruction* component = defs_.at(m.component);
    const bool half = (component->opcode == spv::OpTypeFloat && component->operand(1) == 16) || m.bfloat16;
    const bool single = component->opcode == spv::OpTypeFloat && component->operand(1) == 32;
    const bool byte = component->opcode == spv::OpTypeInt && component->operand(1) == 8;
    const bool word = component->opcode == spv::OpTypeInt && component->operand(1) == 32;
    const std::string what = std::to_string(m.rows) + "x" + std::to_string(m.cols) + " " +
                             (m.bfloat16                            ? "bfloat"
                              : component->opcode == spv::OpTypeInt ? "int"
                                                                    : "float") +
                             std::to_string(width(m.component)) + " " +
                             (m.use < 3 ? uses[m.use] : "use " + std::to_string(m.use));
    // m16n8k16 for float16, m16n8k32 for 8-bit integers, m16n8k8 for TF32: A
    // is 16 x K, B K x 8.
    if (m.use == 0 && single && tf32_)
      m.tile_rows = 16, m.tile_cols = 8, m.tile_elements = 4;
    else if (m.use == 1 && single && tf32_)
      m.tile_rows = 8, m.tile_cols = 8, m.tile_elements = 2;
    else if (m.use == 0 && (half || byte))
      m.tile_rows = 16, m.tile_cols = half ? 16 : 32, m.tile_elements = half ? 8 : 16;
    else if (m.use == 1 && (half || byte))
      m.tile_rows = half ? 16 : 32, m.tile_cols = 8, m.tile_elements = half ? 4 : 8;
    else if (m.use == 2 && (half || single || word))
      m.tile_rows = 16, m.tile_cols = 8, m.tile_elements = 4;
    else {
      mismatch_ = "a " + what +
                  " matrix (tensor cores take float16 A and B with float16 or float32 accumulators, 8-bit "
                  "integer A and B with 32-bit integer ones, float32 A and B at TF32 precision only where "
                  "the kernel allows TF32)";
      return;
    }
    if (m.rows % m.tile_rows || m.cols % m.tile_cols) {
      mismatch_ = "a " + what + " matrix (tensor-core tiles of " + uses[m.use] + " are " +
                  std::to_string(m.tile_rows) + "x" + std::to_string(m.tile_cols) + ")";
      return;
    }
    m.length = m.rows * m.cols / 32;
  }
  // A multiply-add of one instruction's types; element-wise work between
  // matrices of the same tiles (a lane's components at the same positions).
  const auto integer = [&](const Matrix* m) {
    return !m->bfloat16 && defs_.at(m->component)->opcode == spv::OpTypeInt;
  };
  for (const Instruction& inst : functions_) {
    bool has_result = false, has_type = false;
    spv::HasResultAndType(static_cast<spv::Op>(inst.opcode), &has_result, &has_type);
    if (inst.opcode == kOpCooperativeMatrixMulAdd) has_result = has_type = true;
    const Matrix* result = has_type && inst.operand_count() >= 3 ? matrix(inst.operand(0)) : nullptr;
    if (!result) continue;
    if (inst.opcode == kOpCooperativeMatrixMulAdd && inst.operand_count() >= 5) {
      const Matrix* a = matrix(type_of(inst.operand(2)));
      const Matrix* b = matrix(type_of(inst.operand(3)));
      const Matrix* c = matrix(type_of(inst.operand(4)));
      if (a && b && c &&
          (integer(a) != integer(b) || integer(a) != integer(c) || integer(a) != integer(result))) {
        mismatch_ = "a multiply-add of float and integer matrices (no tensor-core instruction takes both)";
        return;
      }
      if (a && b && a->bfloat16 != b->bfloat16) {
        mismatch_ = "a multiply-add of bfloat16 and other matrices (no tensor-core instruction takes both)";
        return;
      }
      if ((c && c->bfloat16) || result->bfloat16 ||
          (a && a->bfloat16 && (!is_float(result->component) || width(result->component) != 32))) {
        mismatch_ =
            "a multiply-add of bfloat16 matrices into other than float32 (tensor cores sum bfloat16 products "
            "in float32 only)";
        return;
      }
      if (a && result && width(a->component) == 32 && width(result->component) != 32) {
        mismatch_ = "a TF32 multiply-add into float16 (mma.sync m16n8k8 accumulates in float32)";
        return;
      }
      continue;
    }
    for (size_t i = 2; i < inst.operand_count(); ++i)
      if (const Matrix* m = matrix(type_of(inst.operand(i)));
          m && (m->tile_rows != result->tile_rows || m->tile_cols != result->tile_cols)) {
        mismatch_ = "a conversion between matrices that tensor cores tile differently";
        return;
      }
  }
  // Every lane of every warp takes part in mma.sync: work-groups of whole
  // warps.
  std::string why;
  if (!read_group_size(why)) {
    mismatch_ = why;
    return;
  }
  const uint64_t invocations = uint64_t(size_[0]) * size_[1] * size_[2];
  if (invocations % 32 != 0)
    mismatch_ = "work-groups of " + std::to_string(invocations) +
                " invocations (tensor cores need whole warps of 32)";
}

// A size from spec constants is the one the translation fixes (specs_, else
// each constant's default) where fix_group_size_; run() freezes it into the
// module, which then runs at that size only.
bool Lowering::read_group_size(std::string& why) {
  std::unordered_map<uint32_t, uint32_t> spec_ids;  // spec constant -> its SpecId
  for (const Instruction& inst : preamble_)
    if (inst.opcode == spv::OpDecorate && inst.operand_count() >= 3 &&
        inst.operand(1) == spv::DecorationSpecId)
      spec_ids[inst.operand(0)] = inst.operand(2);
  bool frozen = false;
  // A 32-bit integer constant's value, a spec constant's as the translation fixes it.
  const auto value_of = [&](uint32_t id, uint32_t& value) {
    const Instruction* def = defs_.count(id) ? defs_.at(id) : nullptr;
    if (!def || def->operand_count() != 3 ||
        (def->opcode != spv::OpConstant && def->opcode != spv::OpSpecConstant))
      return false;
    value = def->operand(2);
    if (def->opcode == spv::OpSpecConstant) {
      if (!spec_ids.count(id) || !fix_group_size_) return false;
      for (const SpecValue& spec : specs_)
        if (spec.id == spec_ids.at(id)) value = static_cast<uint32_t>(spec.bits);
      frozen = true;
    }
    return true;
  };
  const std::string from_expressions = "a work-group size from spec-constant expressions";
  bool builtin = false, known = true;
  uint32_t size[3] = {1, 1, 1};
  for (const Instruction& inst : preamble_) {
    if (inst.opcode == spv::OpExecutionModeId && inst.operand(1) == spv::ExecutionModeLocalSizeId &&
        inst.operand_count() >= 5 && !builtin)
      for (int d = 0; d < 3; ++d) known &= value_of(inst.operand(2 + d), size[d]);
    if (inst.opcode == spv::OpExecutionMode && inst.operand(1) == spv::ExecutionModeLocalSize &&
        inst.operand_count() >= 5 && !builtin)
      for (int d = 0; d < 3; ++d) size[d] = inst.operand(2 + d);
    if (inst.opcode == spv::OpDecorate && inst.operand_count() >= 3 &&
        inst.operand(1) == spv::DecorationBuiltIn && inst.operand(2) == spv::BuiltInWorkgroupSize) {
      // gl_WorkGroupSize, which overrides LocalSize: constants, or spec constants.
      const Instruction* composite = defs_.count(inst.operand(0)) ? defs_.at(inst.operand(0)) : nullptr;
      builtin = true;
      workgroup_size_ = inst.operand(0);
      known = true;
      if (!composite ||
          (composite->opcode != spv::OpConstantComposite &&
           composite->opcode != spv::OpSpecConstantComposite) ||
          composite->operand_count() != 5) {
        known = false;
        continue;
      }
      for (int d = 0; d < 3; ++d) known &= value_of(composite->operand(2 + d), size[d]);
    }
    if (inst.opcode == spv::OpDecorate && inst.operand_count() >= 3 &&
        inst.operand(1) == spv::DecorationBuiltIn && inst.operand(2) == spv::BuiltInSubgroupLocalInvocationId)
      lane_ = inst.operand(0);
    if (inst.opcode == spv::OpDecorate && inst.operand_count() >= 3 &&
        inst.operand(1) == spv::DecorationBuiltIn && inst.operand(2) == spv::BuiltInLocalInvocationIndex)
      local_index_ = inst.operand(0);
  }
  if (!known) {
    why = from_expressions;
    return false;
  }
  std::copy(size, size + 3, size_);
  frozen_ = frozen;
  return true;
}

uint32_t Lowering::lane_variable() {
  if (lane_ == 0) {
    lane_ = new_id();
    lane_is_new_ = true;
    const uint32_t pointer_type = pointer(spv::StorageClassInput, uint_type());
    const Words w = instruction(spv::OpVariable, {pointer_type, lane_, spv::StorageClassInput});
    added_types_.insert(added_types_.end(), w.begin(), w.end());
  }
  return lane_;
}

uint32_t Lowering::local_index_variable() {
  if (local_index_ == 0) {
    local_index_ = new_id();
    local_index_is_new_ = true;
    const uint32_t pointer_type = pointer(spv::StorageClassInput, uint_type());
    const Words w = instruction(spv::OpVariable, {pointer_type, local_index_, spv::StorageClassInput});
    added_types_.insert(added_types_.end(), w.begin(), w.end());
  }
  return local_index_;
}

void Lowering::refuse(const std::string& what, const Instruction& at) const {
  const char* name = coopmat_opcode_name(at.opcode);
  std::string where = name ? name : instruction_name(at.words.data(), uint32_t(at.words.size()));
  if (!file_.empty()) where += " at " + file_ + ":" + std::to_string(line_);
  throw Error(Error::Kind::UnsupportedFeature, "cooperative matrix: " + what + " (" + where + ")");
}

uint32_t Lowering::size_literal(uint32_t id, const char* what, const Instruction& at) const {
  auto it = defs_.find(id);
  if (it == defs_.end() || it->second->opcode != spv::OpSpecConstant || it->second->operand_count() != 3)
    return literal(id, what, at);
  // A spec constant: its value where the translation's are known, its
  // default for the interface alone (which sizes do not change).
  if (!fix_group_size_ && !interface_only_)
    refuse(std::string(what) +
               " is a spec constant, whose value is known only with the kernel's (libporta "
               "and porta-translate lower the module with them)",
           at);
  uint32_t value = it->second->operand(2);
  for (const Instruction& inst : preamble_)
    if (inst.opcode == spv::OpDecorate && inst.operand_count() >= 3 && inst.operand(0) == id &&
        inst.operand(1) == spv::DecorationSpecId)
      for (const SpecValue& spec : specs_)
        if (spec.id == inst.operand(2)) value = static_cast<uint32_t>(spec.bits);
  if (value == 0) refuse(std::string(what) + " is 0", at);
  return value;
}

uint32_t Lowering::literal(uint32_t id, const char* what, const Instruction& at) const {
  auto it = defs_.find(id);
  if (it == defs_.end() || it->second->opcode != spv::OpConstant || it->second->operand_count() != 3)
    refuse(std::string(what) + " is not a constant (spec-constant expressions are not lowered)", at);
  return it->second->operand(2);
}

uint32_t Lowering::type(uint32_t opcode, const Words& operands) {
  auto key = std::make_pair(opcode, operands);
  auto it = type_ids_.find(key);
  if (it != type_ids_.end()) return it->second;
  const uint32_t id = new_id();
  Words w{id};
  w.insert(w.end(), operands.begin(), operands.end());
  const Words inst = instruction(opcode, w);
  added_types_.insert(added_types_.end(), inst.begin(), inst.end());
  type_ids_.emplace(key, id);
  return id;
}

uint32_t Lowering::constant(uint32_t type_id, uint32_t value) {
  auto key = std::make_pair(type_id, value);
  auto it = constant_ids_.find(key);
  if (it != constant_ids_.end()) return it->second;
  const uint32_t id = new_id();
  const Words inst = instruction(spv::OpConstant, {type_id, id, value});
  added_types_.insert(added_types_.end(), inst.begin(), inst.end());
  constant_ids_.emplace(key, id);
  return id;
}

bool Lowering::is_float(uint32_t type_id) const {
  auto it = defs_.find(type_id);
  return it != defs_.end() && it->second->opcode == spv::OpTypeFloat;
}
bool Lowering::is_signed_int(uint32_t type_id) const {
  auto it = defs_.find(type_id);
  return it != defs_.end() && it->second->opcode == spv::OpTypeInt && it->second->operand(2) == 1;
}
uint32_t Lowering::null_constant(uint32_t type_id) {
  const Words key{spv::OpConstantNull, type_id};
  if (helper_ids_.count(key)) return helper_ids_[key];
  const uint32_t id = new_id();
  const Words w = instruction(spv::OpConstantNull, {type_id, id});
  added_types_.insert(added_types_.end(), w.begin(), w.end());
  return helper_ids_[key] = id;
}

uint32_t Lowering::width(uint32_t type_id) const {
  auto it = defs_.find(type_id);
  return it == defs_.end() ? 0 : it->second->operand(1);
}

// ---- Helper functions: a little builder for one function with loops ----

class FunctionBuilder {
 public:
  explicit FunctionBuilder(std::function<uint32_t()> new_id) : new_id_(std::move(new_id)) {}
  uint32_t id() { return new_id_(); }
  uint32_t parameter(uint32_t type) {
    const uint32_t p = id();
    append(parameters_, instruction(spv::OpFunctionParameter, {type, p}));
    parameter_types_.push_back(type);
    return p;
  }
  const Words& parameter_types() const { return parameter_types_; }
  uint32_t variable(uint32_t pointer_type) {
    const uint32_t v = id();
    append(variables_, instruction(spv::OpVariable, {pointer_type, v, spv::StorageClassFunction}));
    return v;
  }
  uint32_t op(uint32_t opcode, uint32_t result_type, const Words& operands) {
    const uint32_t r = id();
    Words w{result_type, r};
    w.insert(w.end(), operands.begin(), operands.end());
    append(code_, instruction(opcode, w));
    return r;
  }
  void statement(uint32_t opcode, const Words& operands) { append(code_, instruction(opcode, operands)); }
  // for (i = 0; i < count; ++i) body(i), with `counter` a Function uint variable.
  void loop(uint32_t uint_type, uint32_t bool_type, uint32_t counter, uint32_t zero, uint32_t one,
            uint32_t count, const std::function<void(uint32_t)>& body) {
    const uint32_t header = id(), check = id(), block = id(), next = id(), merge = id();
    statement(spv::OpStore, {counter, zero});
    statement(spv::OpBranch, {header});
    statement(spv::OpLabel, {header});
    statement(spv::OpLoopMerge, {merge, next, spv::LoopControlMaskNone});
    statement(spv::OpBranch, {check});
    statement(spv::OpLabel, {check});
    const uint32_t i = op(spv::OpLoad, uint_type, {counter});
    const uint32_t more = op(spv::OpULessThan, bool_type, {i, count});
    statement(spv::OpBranchConditional, {more, block, merge});
    statement(spv::OpLabel, {block});
    body(i);
    statement(spv::OpBranch, {next});
    statement(spv::OpLabel, {next});
    const uint32_t again = op(spv::OpLoad, uint_type, {counter});
    const uint32_t incremented = op(spv::OpIAdd, uint_type, {again, one});
    statement(spv::OpStore, {counter, incremented});
    statement(spv::OpBranch, {header});
    statement(spv::OpLabel, {merge});
  }
  // if (condition) then(), else otherwise() where given.
  void if_then(uint32_t condition, const std::function<void()>& then,
               const std::function<void()>& otherwise = nullptr) {
    const uint32_t yes = id(), no = otherwise ? id() : 0, merge = id();
    statement(spv::OpSelectionMerge, {merge, spv::SelectionControlMaskNone});
    statement(spv::OpBranchConditional, {condition, yes, otherwise ? no : merge});
    statement(spv::OpLabel, {yes});
    then();
    statement(spv::OpBranch, {merge});
    if (otherwise) {
      statement(spv::OpLabel, {no});
      otherwise();
      statement(spv::OpBranch, {merge});
    }
    statement(spv::OpLabel, {merge});
  }
  // The whole function: OpFunction, parameters, the first block's variables, the code.
  Words finish(uint32_t function, uint32_t return_type, uint32_t function_type,
               uint32_t control = spv::FunctionControlMaskNone) {
    Words out = instruction(spv::OpFunction, {return_type, function, control, function_type});
    append(out, parameters_);
    append(out, instruction(spv::OpLabel, {id()}));
    append(out, variables_);
    append(out, code_);
    append(out, instruction(spv::OpFunctionEnd, {}));
    return out;
  }

 private:
  static void append(Words& to, const Words& what) { to.insert(to.end(), what.begin(), what.end()); }
  std::function<uint32_t()> new_id_;
  Words parameters_, parameter_types_, variables_, code_;
};

// porta_cuda.h's porta_wgmma layouts, for the item t of the group: thread
// lane = t % 32 of warp t % 128 / 32 of warpgroup t / 128 (g = lane / 4,
// q = lane % 4). Accumulators: e = 4 j + i at row 64 wg + 16 w + g + 8 (i / 2),
// column 8 j + 2 q + i % 2. A: e = 8 s + i at row 64 wg + 16 w + g +
// 8 (i / 2 % 2), column 16 s + 8 (i / 4) + 2 q + i % 2. B: e = 8 r + i in core
// row rho = r G + t, at k = rho % K / 8 * 8 + i, n = rho / K * 8 + rho % 8.
void Lowering::warpgroup_position(FunctionBuilder& f, const Matrix& m, uint32_t e, uint32_t& row,
                                  uint32_t& col) {
  const uint32_t u = uint_type();
  const auto op = [&](uint32_t opcode, uint32_t a, uint32_t b) { return f.op(opcode, u, {a, b}); };
  const auto k = [&](uint32_t value) { return uint_constant(value); };
  const uint32_t t = f.op(spv::OpLoad, u, {local_index_variable()});
  const uint32_t i = op(spv::OpBitwiseAnd, e, k(m.use == 2 ? 3 : 7));
  if (m.use == 1) {
    const uint32_t rho =
        op(spv::OpIAdd, op(spv::OpIMul, op(spv::OpShiftRightLogical, e, k(3)), k(spread_)), t);
    row = op(spv::OpIAdd, op(spv::OpIMul, op(spv::OpUDiv, op(spv::OpUMod, rho, k(m.rows)), k(8)), k(8)), i);
    col = op(spv::OpIAdd, op(spv::OpIMul, op(spv::OpUDiv, rho, k(m.rows)), k(8)),
             op(spv::OpBitwiseAnd, rho, k(7)));
    return;
  }
  const uint32_t lane = op(spv::OpBitwiseAnd, t, k(31));
  const uint32_t g = op(spv::OpShiftRightLogical, lane, k(2)), q = op(spv::OpBitwiseAnd, lane, k(3));
  // 64 wg + 16 w: t / 128 * 64 + t % 128 / 32 * 16 = t / 32 * 16.
  const uint32_t warp_row = op(spv::OpIMul, op(spv::OpShiftRightLogical, t, k(5)), k(16));
  const uint32_t pair = op(spv::OpIAdd, op(spv::OpIMul, q, k(2)), op(spv::OpBitwiseAnd, i, k(1)));
  if (m.use == 2) {
    row = op(spv::OpIAdd, op(spv::OpIAdd, warp_row, g),
             op(spv::OpIMul, op(spv::OpShiftRightLogical, i, k(1)), k(8)));
    col = op(spv::OpIAdd, op(spv::OpIMul, op(spv::OpShiftRightLogical, e, k(2)), k(8)), pair);
    return;
  }
  row = op(spv::OpIAdd, op(spv::OpIAdd, warp_row, g),
           op(spv::OpIMul, op(spv::OpBitwiseAnd, op(spv::OpShiftRightLogical, i, k(1)), k(1)), k(8)));
  col = op(spv::OpIAdd,
           op(spv::OpIAdd, op(spv::OpIMul, op(spv::OpShiftRightLogical, e, k(3)), k(16)),
              op(spv::OpIMul, op(spv::OpShiftRightLogical, i, k(2)), k(8))),
           pair);
}

uint32_t Lowering::inside(FunctionBuilder& f, const Matrix& m, uint32_t e) {
  const uint32_t u = uint_type(), b = bool_type();
  if (m.spread && (m.rows * m.cols) % spread_ != 0)
    return f.op(spv::OpULessThan, b, {spread_index(f, e), uint_constant(m.rows * m.cols)});
  if (m.warpgroup && m.use == 1 && (m.rows * m.cols / 8) % spread_ != 0) {
    const uint32_t t = f.op(spv::OpLoad, u, {local_index_variable()});
    const uint32_t rho =
        f.op(spv::OpIAdd, u,
             {f.op(spv::OpIMul, u,
                   {f.op(spv::OpShiftRightLogical, u, {e, uint_constant(3)}), uint_constant(spread_)}),
              t});
    return f.op(spv::OpULessThan, b, {rho, uint_constant(m.rows * m.cols / 8)});
  }
  return 0;
}

uint32_t Lowering::spread_index(FunctionBuilder& f, uint32_t e) {
  const uint32_t u = uint_type();
  const uint32_t item = f.op(spv::OpLoad, u, {local_index_variable()});
  return f.op(spv::OpIAdd, u, {f.op(spv::OpIMul, u, {e, uint_constant(spread_)}), item});
}

uint32_t Lowering::element_pointer(FunctionBuilder& f, uint32_t variable, const Matrix& m, uint32_t index) {
  return f.op(spv::OpAccessChain, pointer(spv::StorageClassFunction, m.component),
              {variable, uint_constant(0), index});
}

void Lowering::position(FunctionBuilder& f, const Matrix& m, uint32_t e, uint32_t& row, uint32_t& col) {
  const uint32_t u = uint_type();
  const auto op = [&](uint32_t opcode, uint32_t a, uint32_t b) { return f.op(opcode, u, {a, b}); };
  const auto k = [&](uint32_t value) { return uint_constant(value); };
  if (m.warpgroup) return warpgroup_position(f, m, e, row, col);
  if (m.spread) e = spread_index(f, e);
  if (!fragments_ || m.spread) {
    row = op(spv::OpUDiv, e, k(m.cols));
    col = op(spv::OpUMod, e, k(m.cols));
    return;
  }
  // The lane's group (lane / 4, a row or column of the tile) and its place in
  // the group (lane % 4); i is the register's component in the tile.
  const uint32_t lane = f.op(spv::OpLoad, u, {lane_variable()});
  const uint32_t group = op(spv::OpShiftRightLogical, lane, k(2)),
                 in_group = op(spv::OpBitwiseAnd, lane, k(3));
  const uint32_t tile = op(spv::OpUDiv, e, k(m.tile_elements)), i = op(spv::OpUMod, e, k(m.tile_elements));
  const uint32_t tiles_per_row = m.cols / m.tile_cols;
  const uint32_t tile_row = op(spv::OpIMul, op(spv::OpUDiv, tile, k(tiles_per_row)), k(m.tile_rows));
  const uint32_t tile_col = op(spv::OpIMul, op(spv::OpUMod, tile, k(tiles_per_row)), k(m.tile_cols));
  const uint32_t pair = op(spv::OpIAdd, op(spv::OpIMul, in_group, k(2)), op(spv::OpBitwiseAnd, i, k(1)));
  uint32_t r = 0, c = 0;
  if (m.use == 0 && m.tile_cols == 8) {
    // TF32 A: a0 (g, q), a1 (g + 8, q), a2 a3 the same 4 columns on.
    r = op(spv::OpIAdd, group, op(spv::OpIMul, op(spv::OpBitwiseAnd, i, k(1)), k(8)));
    c = op(spv::OpIAdd, in_group, op(spv::OpIMul, op(spv::OpShiftRightLogical, i, k(1)), k(4)));
  } else if (m.use == 1 && m.tile_rows == 8) {
    // TF32 B: b0 (q, g), b1 4 rows on.
    r = op(spv::OpIAdd, in_group, op(spv::OpIMul, i, k(4)));
    c = group;
  } else if (m.use == 0 && m.tile_cols == 32) {
    // 8-bit A: a0..a3 (g, 4q..4q+3), a4..a7 (g + 8, ...), a8..a15 the same 16 columns on.
    r = op(spv::OpIAdd, group,
           op(spv::OpIMul, op(spv::OpBitwiseAnd, op(spv::OpShiftRightLogical, i, k(2)), k(1)), k(8)));
    c = op(spv::OpIAdd, op(spv::OpIAdd, op(spv::OpIMul, in_group, k(4)), op(spv::OpBitwiseAnd, i, k(3))),
           op(spv::OpIMul, op(spv::OpShiftRightLogical, i, k(3)), k(16)));
  } else if (m.use == 1 && m.tile_rows == 32) {
    // 8-bit B: b0..b3 (4q..4q+3, g), b4..b7 16 rows on.
    r = op(spv::OpIAdd, op(spv::OpIAdd, op(spv::OpIMul, in_group, k(4)), op(spv::OpBitwiseAnd, i, k(3))),
           op(spv::OpIMul, op(spv::OpShiftRightLogical, i, k(2)), k(16)));
    c = group;
  } else if (m.use == 0) {
    // A: a0 a1 (g, 2q..2q+1), a2 a3 (g + 8, ...), a4..a7 the same 8 columns on.
    r = op(spv::OpIAdd, group,
           op(spv::OpIMul, op(spv::OpBitwiseAnd, op(spv::OpShiftRightLogical, i, k(1)), k(1)), k(8)));
    c = op(spv::OpIAdd, pair, op(spv::OpIMul, op(spv::OpShiftRightLogical, i, k(2)), k(8)));
  } else if (m.use == 1) {
    // B: b0 b1 (2q..2q+1, g), b2 b3 8 rows on.
    r = op(spv::OpIAdd, pair, op(spv::OpIMul, op(spv::OpShiftRightLogical, i, k(1)), k(8)));
    c = group;
  } else {
    // C and D: c0 c1 (g, 2q..2q+1), c2 c3 (g + 8, ...).
    r = op(spv::OpIAdd, group, op(spv::OpIMul, op(spv::OpShiftRightLogical, i, k(1)), k(8)));
    c = pair;
  }
  row = op(spv::OpIAdd, tile_row, r);
  col = op(spv::OpIAdd, tile_col, c);
}

// `value` (a matrix parameter) in a variable, to index.
uint32_t Lowering::copy_in(FunctionBuilder& f, uint32_t value, const Matrix& m) {
  const uint32_t v = f.variable(pointer(spv::StorageClassFunction, m.array));
  f.statement(spv::OpStore, {v, value});
  return v;
}

uint32_t Lowering::add_helper(FunctionBuilder& f, uint32_t return_type, uint32_t control) {
  const uint32_t function = new_id();
  Words signature{return_type};
  signature.insert(signature.end(), f.parameter_types().begin(), f.parameter_types().end());
  const Words body = f.finish(function, return_type, type(spv::OpTypeFunction, signature), control);
  helpers_.insert(helpers_.end(), body.begin(), body.end());
  return function;
}

std::string Lowering::type_name(uint32_t type_id) const {
  auto it = defs_.find(type_id);
  if (it == defs_.end()) return "type %" + std::to_string(type_id);
  const Instruction& t = *it->second;
  if (t.opcode == spv::OpTypeFloat) return "float" + std::to_string(t.operand(1));
  if (t.opcode == spv::OpTypeInt) return (t.operand(2) ? "int" : "uint") + std::to_string(t.operand(1));
  if (t.opcode == spv::OpTypeVector) return type_name(t.operand(1)) + " x " + std::to_string(t.operand(2));
  if (t.opcode == spv::OpTypeStruct) return "a struct";
  if (t.opcode == spv::OpTypeArray || t.opcode == spv::OpTypeRuntimeArray) return "an array";
  return "type %" + std::to_string(type_id);
}

Lowering::Address Lowering::address(uint32_t pointer_id, const Matrix& m, const Instruction& at) {
  const uint32_t component = m.component;
  auto it = defs_.find(pointer_id);
  if (it == defs_.end() ||
      (it->second->opcode != spv::OpAccessChain && it->second->opcode != spv::OpInBoundsAccessChain))
    refuse("a pointer that is not an access chain into an array", at);
  const Instruction& chain = *it->second;
  if (chain.operand_count() < 4) refuse("a pointer that is not an access chain into an array", at);
  Address a;
  a.element_pointer = chain.operand(0);
  a.base = chain.operand(2);
  auto base = defs_.find(a.base);
  if (base == defs_.end() || base->second->opcode != spv::OpVariable ||
      base->second->operand(2) == spv::StorageClassFunction)
    refuse("a pointer into a function's own variable (only buffers and shared memory are lowered)", at);
  const Instruction& pointer_type = *defs_.at(a.element_pointer);
  a.storage = pointer_type.operand(1);
  a.pointee = pointer_type.operand(2);
  a.scalar = a.pointee;
  if (a.pointee != component) {
    // A scalar or a vector of 2 or 4 numbers at least as wide as the
    // component (vec4 of floats, uvec4 of words holding float16 or 8-bit
    // integers, uint16_t for float16 bits).
    auto pointee = defs_.find(a.pointee);
    const std::string what = "a pointer to " + type_name(a.pointee) + " for a matrix of " +
                             type_name(component) + " components";
    if (pointee != defs_.end() && pointee->second->opcode == spv::OpTypeVector) {
      a.scalar = pointee->second->operand(1);
      a.lanes = pointee->second->operand(2);
      if (a.lanes != 2 && a.lanes != 4) refuse(what + " (vectors of 2 or 4 components are read)", at);
    }
    auto scalar = defs_.find(a.scalar);
    if (scalar == defs_.end() ||
        (scalar->second->opcode != spv::OpTypeInt && scalar->second->opcode != spv::OpTypeFloat))
      refuse(what + " (a scalar or vector of numbers was expected)", at);
    a.scalar_bits = width(a.scalar);
    const uint32_t bits = width(component);
    if (a.scalar_bits < bits || a.scalar_bits > 32)
      refuse(what + " (components are read from numbers as wide as they are, or from words of up to 32 bits)",
             at);
    if (m.bfloat16)
      refuse(what + " (bfloat16 components are read through a pointer to bfloat16 only)", at);
  }
  for (size_t i = 3; i + 1 < chain.operand_count(); ++i) {
    const uint32_t index = chain.operand(i);
    const bool dynamic = !defs_.count(index) || defs_.at(index)->opcode != spv::OpConstant;
    a.constant_indices.push_back(index);
    a.dynamic.push_back(dynamic);
  }
  return a;
}

// The run's `minor`-th component lies (minor * component bytes) past the
// start of the pointee the chain's last index names: the pointee that holds
// it, the scalar of that pointee, and (`byte`) its first byte in the scalar.
uint32_t Lowering::scalar_pointer(FunctionBuilder& f, const Address& a, Words chain, uint32_t minor,
                                  uint32_t component_bytes, uint32_t& byte) {
  const uint32_t u = uint_type();
  const uint32_t scalar_bytes = a.scalar_bits / 8, pointee_bytes = scalar_bytes * a.lanes;
  const uint32_t offset = f.op(spv::OpIMul, u, {minor, uint_constant(component_bytes)});
  chain.back() = f.op(spv::OpIAdd, u, {chain.back(), f.op(spv::OpUDiv, u, {offset, uint_constant(pointee_bytes)})});
  const uint32_t within = f.op(spv::OpUMod, u, {offset, uint_constant(pointee_bytes)});
  if (a.lanes > 1) chain.push_back(f.op(spv::OpUDiv, u, {within, uint_constant(scalar_bytes)}));
  byte = f.op(spv::OpUMod, u, {within, uint_constant(scalar_bytes)});
  return f.op(spv::OpAccessChain, pointer(a.storage, a.scalar), chain);
}

uint32_t Lowering::reinterpreted_load(FunctionBuilder& f, const Address& a, const Matrix& m, const Words& chain,
                                      uint32_t minor) {
  const uint32_t bits = width(m.component);
  uint32_t byte = 0;
  const uint32_t value = f.op(spv::OpLoad, a.scalar, {scalar_pointer(f, a, chain, minor, bits / 8, byte)});
  if (a.scalar == m.component) return value;
  if (a.scalar_bits == bits) return f.op(spv::OpBitcast, m.component, {value});
  // A narrower component inside a word: its bits shifted down, the word
  // narrowed to them (little-endian, as every target is), then taken as the
  // component's type.
  const uint32_t u = uint_type();
  const uint32_t word = is_float(a.scalar) || is_signed_int(a.scalar) ? f.op(spv::OpBitcast, u, {value}) : value;
  const uint32_t shifted = f.op(spv::OpShiftRightLogical, u, {word, f.op(spv::OpIMul, u, {byte, uint_constant(8)})});
  const uint32_t narrow_type = type(spv::OpTypeInt, {bits, 0});
  if (bits == 16) int16_is_new_ = true;
  const uint32_t narrow = f.op(spv::OpUConvert, narrow_type, {shifted});
  return narrow_type == m.component ? narrow : f.op(spv::OpBitcast, m.component, {narrow});
}

void Lowering::reinterpreted_store(FunctionBuilder& f, const Address& a, const Matrix& m, const Words& chain,
                                   uint32_t minor, uint32_t value) {
  uint32_t byte = 0;
  const uint32_t to = scalar_pointer(f, a, chain, minor, width(m.component) / 8, byte);
  f.statement(spv::OpStore, {to, a.scalar == m.component ? value : f.op(spv::OpBitcast, a.scalar, {value})});
}

// A load (`load`) or store between a matrix and a buffer or shared array.
// Parameters: the pointer's dynamic indices (their ids go to `call_args`), the
// element index and the stride (uint), for a store the matrix.
uint32_t Lowering::transfer_helper(const Instruction& inst, bool load, Words& call_args) {
  const Matrix* m = matrix(load ? inst.operand(0) : type_of(inst.operand(1)));
  if (!m) refuse("a store of something that is not a matrix", inst);
  const Address a = address(inst.operand(load ? 2 : 0), *m, inst);
  const uint32_t layout = literal(inst.operand(load ? 3 : 2), "the layout", inst);
  if (layout != kLayoutRowMajor && layout != kLayoutColumnMajor)
    refuse("layout " + std::to_string(layout) + " (only RowMajor and ColumnMajor are lowered)", inst);
  const bool reinterpreted = a.pointee != m->component;
  if (!load && reinterpreted && a.scalar_bits != width(m->component))
    refuse("a store of " + type_name(m->component) + " components into " + type_name(a.pointee) +
               " (a store into wider words would have items write parts of one word at once; store "
               "through an array of the component type, or of a type as wide)",
           inst);
  const uint32_t u = uint_type(), b = bool_type();
  // Warp fragments of 16- or 32-bit components in a `shared` array indexed
  // directly: the helper takes the array (a pointer parameter) and keeps its
  // body (DontInline), and target cuda calls porta_cuda.h's
  // porta_fragment_load/store for it (ldmatrix, paired accesses) instead of
  // component after component. One helper per matrix type, layout and array type.
  const Instruction& base = *defs_.at(a.base);
  const bool shared = fragments_ && !m->warpgroup && a.constant_indices.empty() && !reinterpreted &&
                      base.operand(2) == spv::StorageClassWorkgroup && width(m->component) >= 16;
  const Words key{load ? kOpCooperativeMatrixLoad : kOpCooperativeMatrixStore, m->array, layout,
                  base.operand(0)};
  if (shared) {
    call_args.push_back(a.base);
    if (helper_ids_.count(key)) return helper_ids_[key];
  }
  FunctionBuilder f([this] { return new_id(); });
  const uint32_t array = shared ? f.parameter(base.operand(0)) : a.base;
  Words indices;
  for (size_t i = 0; i < a.constant_indices.size(); ++i) {
    if (!a.dynamic[i]) {
      indices.push_back(a.constant_indices[i]);
      continue;
    }
    indices.push_back(f.parameter(type_of(a.constant_indices[i])));
    call_args.push_back(a.constant_indices[i]);
  }
  const uint32_t element = f.parameter(u), stride = f.parameter(u);
  const uint32_t matrix_variable =
      load ? f.variable(pointer(spv::StorageClassFunction, m->array)) : copy_in(f, f.parameter(m->array), *m);
  const uint32_t counter = f.variable(pointer(spv::StorageClassFunction, u));
  f.loop(u, b, counter, uint_constant(0), uint_constant(1), uint_constant(m->length), [&](uint32_t e) {
    const auto transfer = [&] {
      uint32_t r = 0, c = 0;
      position(f, *m, e, r, c);
      const uint32_t major = layout == kLayoutRowMajor ? r : c, minor = layout == kLayoutRowMajor ? c : r;
      Words chain{array};
      chain.insert(chain.end(), indices.begin(), indices.end());
      const uint32_t in_matrix = element_pointer(f, matrix_variable, *m, e);
      if (reinterpreted) {
        chain.push_back(f.op(spv::OpIAdd, u, {element, f.op(spv::OpIMul, u, {major, stride})}));
        if (load)
          f.statement(spv::OpStore, {in_matrix, reinterpreted_load(f, a, *m, chain, minor)});
        else
          reinterpreted_store(f, a, *m, chain, minor, f.op(spv::OpLoad, m->component, {in_matrix}));
        return;
      }
      const uint32_t offset = f.op(spv::OpIAdd, u, {f.op(spv::OpIMul, u, {major, stride}), minor});
      chain.push_back(f.op(spv::OpIAdd, u, {element, offset}));
      const uint32_t in_memory = f.op(spv::OpAccessChain, a.element_pointer, chain);
      const uint32_t from = load ? in_memory : in_matrix, to = load ? in_matrix : in_memory;
      f.statement(spv::OpStore, {to, f.op(spv::OpLoad, m->component, {from})});
    };
    // Padding past the matrix (the last items' of a spread one, B's rows of
    // warpgroup fragments past its own): nothing stored, zeros loaded.
    const uint32_t within = inside(f, *m, e);
    if (within == 0) return transfer();
    if (!load) return f.if_then(within, transfer);
    f.if_then(within, transfer, [&] {
      f.statement(spv::OpStore, {element_pointer(f, matrix_variable, *m, e), null_constant(m->component)});
    });
  });
  if (load)
    f.statement(spv::OpReturnValue, {f.op(spv::OpLoad, m->array, {matrix_variable})});
  else
    f.statement(spv::OpReturn, {});
  const uint32_t helper =
      add_helper(f, load ? m->array : type(spv::OpTypeVoid, {}),
                 shared ? spv::FunctionControlDontInlineMask : spv::FunctionControlMaskNone);
  if (!shared) return helper;
  // porta_fragment_load_RxC_use_row: what target cuda needs to spell the call.
  static const char* const uses[] = {"a", "b", "accumulator"};
  helper_names_.emplace_back(helper, fragment_function_prefix() + (load ? "load_" : "store_") +
                                         std::to_string(m->rows) + "x" + std::to_string(m->cols) + "_" +
                                         uses[std::min<uint32_t>(m->use, 2)] + "_" +
                                         (layout == kLayoutRowMajor ? "row" : "col"));
  return helper_ids_[key] = helper;
}

BFloat16Ops Lowering::bfloat16_ops(FunctionBuilder& f, uint32_t u16) {
  BFloat16Ops ops;
  ops.op = [&f](uint32_t opcode, uint32_t result_type, const Words& operands) {
    return f.op(opcode, result_type, operands);
  };
  ops.uint_constant = [this](uint32_t value) { return uint_constant(value); };
  ops.u16 = u16;
  ops.u32 = uint_type();
  ops.f32 = type(spv::OpTypeFloat, {32});
  ops.boolean = bool_type();
  return ops;
}

void Lowering::check_mul_add(const Instruction& inst) {
  const Matrix* result = matrix(inst.operand(0));
  const Matrix* ma = matrix(type_of(inst.operand(2)));
  const Matrix* mb = matrix(type_of(inst.operand(3)));
  const Matrix* mc = matrix(type_of(inst.operand(4)));
  if (!result || !ma || !mb || !mc) refuse("a multiply-add of operands that are not matrices", inst);
  const uint32_t flags = inst.operand_count() > 5 ? inst.operand(5) : 0;
  if (flags & kSaturating) refuse("saturating accumulation", inst);
  if (ma->rows != result->rows || mb->rows != ma->cols || mb->cols != result->cols ||
      mc->rows != result->rows || mc->cols != result->cols)
    refuse("a multiply-add of matrices whose shapes do not chain", inst);
  // Each scope's matrices are laid out their own way (a spread one holds a
  // share of the elements): one product takes matrices of one scope.
  if (ma->scope != result->scope || mb->scope != result->scope || mc->scope != result->scope)
    refuse("a multiply-add of matrices of different scopes", inst);
}

// An operand's element `value` (of matrix m) converted to the multiply-add's
// component type t, as the product takes it.
uint32_t Lowering::mul_add_convert(FunctionBuilder& f, uint32_t value, const Matrix& m, bool is_signed,
                                   uint32_t t) {
  const bool floating = is_float(t);
  const uint32_t from = m.component;
  if (m.bfloat16)
    return bfloat16_convert(bfloat16_ops(f, from),
                            floating           ? spv::OpFConvert
                            : is_signed_int(t) ? spv::OpConvertFToS
                                               : spv::OpConvertFToU,
                            value, scalar(m), {t, false, floating, width(t)});
  if (from == t) return value;
  if (floating && is_float(from)) return f.op(spv::OpFConvert, t, {value});
  if (floating) return f.op(is_signed ? spv::OpConvertSToF : spv::OpConvertUToF, t, {value});
  if (is_float(from)) return f.op(is_signed_int(t) ? spv::OpConvertFToS : spv::OpConvertFToU, t, {value});
  if (width(from) == width(t)) return f.op(spv::OpBitcast, t, {value});
  if (is_signed) return f.op(spv::OpSConvert, t, {value});
  // OpUConvert makes an unsigned type only: widen as unsigned, then take the bits.
  const uint32_t unsigned_t = type(spv::OpTypeInt, {width(t), 0});
  const uint32_t widened = f.op(spv::OpUConvert, unsigned_t, {value});
  return unsigned_t == t ? widened : f.op(spv::OpBitcast, t, {widened});
}

// acc += A's row r times B's column c over k in order, each element
// (a_at(r * K + k), b_at(k * N + c)) converted to acc's type first.
void Lowering::sum_products(FunctionBuilder& f, const Instruction& inst, uint32_t acc, uint32_t k_counter,
                            uint32_t r, uint32_t c, const std::function<uint32_t(uint32_t)>& a_at,
                            const std::function<uint32_t(uint32_t)>& b_at) {
  const Matrix* result = matrix(inst.operand(0));
  const Matrix* ma = matrix(type_of(inst.operand(2)));
  const Matrix* mb = matrix(type_of(inst.operand(3)));
  const uint32_t flags = inst.operand_count() > 5 ? inst.operand(5) : 0;
  const uint32_t u = uint_type(), t = result->component;
  const bool floating = is_float(t);
  const uint32_t n_const = uint_constant(result->cols), k_const = uint_constant(ma->cols);
  f.loop(u, bool_type(), k_counter, uint_constant(0), uint_constant(1), k_const, [&](uint32_t k) {
    const uint32_t ia = f.op(spv::OpIAdd, u, {f.op(spv::OpIMul, u, {r, k_const}), k});
    const uint32_t ib = f.op(spv::OpIAdd, u, {f.op(spv::OpIMul, u, {k, n_const}), c});
    const uint32_t x = mul_add_convert(f, a_at(ia), *ma, flags & kMatrixASigned, t);
    const uint32_t y = mul_add_convert(f, b_at(ib), *mb, flags & kMatrixBSigned, t);
    const uint32_t product = f.op(floating ? spv::OpFMul : spv::OpIMul, t, {x, y});
    const uint32_t sum =
        f.op(floating ? spv::OpFAdd : spv::OpIAdd, t, {f.op(spv::OpLoad, t, {acc}), product});
    f.statement(spv::OpStore, {acc, sum});
  });
}

// Result = A * B + C, each result element summed over k in order, starting from C's element.
uint32_t Lowering::mul_add_helper(const Instruction& inst) {
  const Matrix* result = matrix(inst.operand(0));
  const Matrix* ma = matrix(type_of(inst.operand(2)));
  const Matrix* mb = matrix(type_of(inst.operand(3)));
  const Matrix* mc = matrix(type_of(inst.operand(4)));
  const uint32_t flags = inst.operand_count() > 5 ? inst.operand(5) : 0;
  const uint32_t m_rows = result->rows, n_cols = result->cols;
  const Words key{kOpCooperativeMatrixMulAdd, inst.operand(0), ma->array, mb->array, mc->array, flags};
  if (helper_ids_.count(key)) return helper_ids_[key];

  if (result->bfloat16 || mc->bfloat16)
    refuse("bfloat16 accumulators (products of bfloat16 are summed in float32 or float16)", inst);
  const uint32_t u = uint_type(), b = bool_type(), t = result->component;
  FunctionBuilder f([this] { return new_id(); });
  const uint32_t va = copy_in(f, f.parameter(ma->array), *ma);
  const uint32_t vb = copy_in(f, f.parameter(mb->array), *mb);
  const uint32_t vc = copy_in(f, f.parameter(mc->array), *mc);
  const uint32_t vr = f.variable(pointer(spv::StorageClassFunction, result->array));
  const uint32_t acc = f.variable(pointer(spv::StorageClassFunction, t));
  const uint32_t e_counter = f.variable(pointer(spv::StorageClassFunction, u));
  const uint32_t k_counter = f.variable(pointer(spv::StorageClassFunction, u));
  const uint32_t zero = uint_constant(0), one = uint_constant(1);
  const uint32_t n_const = uint_constant(n_cols);
  const auto element = [&](uint32_t var, const Matrix& m, uint32_t index) {
    return f.op(spv::OpLoad, m.component, {element_pointer(f, var, m, index)});
  };
  f.loop(u, b, e_counter, zero, one, uint_constant(m_rows * n_cols), [&](uint32_t e) {
    const uint32_t r = f.op(spv::OpUDiv, u, {e, n_const}), c = f.op(spv::OpUMod, u, {e, n_const});
    f.statement(spv::OpStore, {acc, mul_add_convert(f, element(vc, *mc, e), *mc, flags & kMatrixCSigned, t)});
    sum_products(
        f, inst, acc, k_counter, r, c, [&](uint32_t ia) { return element(va, *ma, ia); },
        [&](uint32_t ib) { return element(vb, *mb, ib); });
    f.statement(spv::OpStore, {element_pointer(f, vr, *result, e), f.op(spv::OpLoad, t, {acc})});
  });
  f.statement(spv::OpReturnValue, {f.op(spv::OpLoad, result->array, {vr})});
  return helper_ids_[key] = add_helper(f, result->array);
}

// The same for spread matrices: each item puts its shares of A and B into
// shared arrays (one pair per helper), and after a work-group barrier sums
// its own elements of the result from them, over k in order, starting from
// its element of C; a second barrier keeps the next multiply-add from
// overwriting operands an item still reads.
uint32_t Lowering::spread_mul_add_helper(const Instruction& inst) {
  const Matrix* result = matrix(inst.operand(0));
  const Matrix* ma = matrix(type_of(inst.operand(2)));
  const Matrix* mb = matrix(type_of(inst.operand(3)));
  const Matrix* mc = matrix(type_of(inst.operand(4)));
  const uint32_t flags = inst.operand_count() > 5 ? inst.operand(5) : 0;
  const uint32_t n_cols = result->cols;
  const Words key{kOpCooperativeMatrixMulAdd, 2, inst.operand(0), ma->array, mb->array, mc->array, flags};
  if (helper_ids_.count(key)) return helper_ids_[key];
  if (!ma->spread || !mb->spread || !mc->spread)
    refuse("a multiply-add of Workgroup-scope and Subgroup-scope matrices", inst);
  if (result->bfloat16 || mc->bfloat16)
    refuse("bfloat16 accumulators (products of bfloat16 are summed in float32 or float16)", inst);
  const uint32_t u = uint_type(), b = bool_type(), t = result->component;
  // The shared arrays: A's m x k and B's k x n elements, row-major.
  const auto shared_array = [&](const Matrix& m) {
    const uint32_t array_type = type(spv::OpTypeArray, {m.component, uint_constant(m.rows * m.cols)});
    const uint32_t variable = new_id();
    const Words w = instruction(spv::OpVariable, {pointer(spv::StorageClassWorkgroup, array_type), variable,
                                                  spv::StorageClassWorkgroup});
    added_types_.insert(added_types_.end(), w.begin(), w.end());
    scratch_.push_back(variable);
    return variable;
  };
  const uint32_t sa = shared_array(*ma), sb = shared_array(*mb);
  FunctionBuilder f([this] { return new_id(); });
  const uint32_t va = copy_in(f, f.parameter(ma->array), *ma);
  const uint32_t vb = copy_in(f, f.parameter(mb->array), *mb);
  const uint32_t vc = copy_in(f, f.parameter(mc->array), *mc);
  const uint32_t vr = f.variable(pointer(spv::StorageClassFunction, result->array));
  const uint32_t acc = f.variable(pointer(spv::StorageClassFunction, t));
  const uint32_t e_counter = f.variable(pointer(spv::StorageClassFunction, u));
  const uint32_t k_counter = f.variable(pointer(spv::StorageClassFunction, u));
  const uint32_t zero = uint_constant(0), one = uint_constant(1);
  const uint32_t n_const = uint_constant(n_cols);
  const auto element = [&](uint32_t var, const Matrix& m, uint32_t index) {
    return f.op(spv::OpLoad, m.component, {element_pointer(f, var, m, index)});
  };
  const auto in_shared = [&](uint32_t array, const Matrix& m, uint32_t index) {
    return f.op(spv::OpAccessChain, pointer(spv::StorageClassWorkgroup, m.component), {array, index});
  };
  // Each element of the item's share, where it lies inside the matrix.
  const auto each_element = [&](const Matrix& m, const std::function<void(uint32_t, uint32_t)>& body) {
    f.loop(u, b, e_counter, zero, one, uint_constant(m.length), [&](uint32_t e) {
      const uint32_t g = spread_index(f, e), within = inside(f, m, e);
      if (within == 0) return body(e, g);
      f.if_then(within, [&] { body(e, g); });
    });
  };
  const auto put = [&](uint32_t array, uint32_t variable, const Matrix& m) {
    each_element(m, [&](uint32_t e, uint32_t g) {
      f.statement(spv::OpStore, {in_shared(array, m, g), element(variable, m, e)});
    });
  };
  const uint32_t workgroup = uint_constant(kScopeWorkgroup);
  const auto barrier = [&] {
    f.statement(spv::OpControlBarrier, {workgroup, workgroup, uint_constant(kBarrierSemantics)});
  };
  put(sa, va, *ma);
  put(sb, vb, *mb);
  barrier();
  // The padding keeps C's value.
  f.loop(u, b, e_counter, zero, one, uint_constant(result->length), [&](uint32_t e) {
    f.statement(spv::OpStore, {element_pointer(f, vr, *result, e),
                               mul_add_convert(f, element(vc, *mc, e), *mc, flags & kMatrixCSigned, t)});
  });
  each_element(*result, [&](uint32_t e, uint32_t g) {
    const uint32_t r = f.op(spv::OpUDiv, u, {g, n_const}), c = f.op(spv::OpUMod, u, {g, n_const});
    f.statement(spv::OpStore, {acc, f.op(spv::OpLoad, t, {element_pointer(f, vr, *result, e)})});
    sum_products(
        f, inst, acc, k_counter, r, c,
        [&](uint32_t ia) { return f.op(spv::OpLoad, ma->component, {in_shared(sa, *ma, ia)}); },
        [&](uint32_t ib) { return f.op(spv::OpLoad, mb->component, {in_shared(sb, *mb, ib)}); });
    f.statement(spv::OpStore, {element_pointer(f, vr, *result, e), f.op(spv::OpLoad, t, {acc})});
  });
  barrier();
  f.statement(spv::OpReturnValue, {f.op(spv::OpLoad, result->array, {vr})});
  return helper_ids_[key] = add_helper(f, result->array);
}

// Target cuda's tensor cores: D = A * B + C on the warp's fragments is
// `porta_mma_sync_MxNxK(a, b, c)`, a function the optimiser keeps (DontInline)
// and target cuda calls as runtime/porta_cuda.h's mma.sync loop over tiles
// (cuda_compiler.cpp). Its SPIR-V body only keeps the module valid: every
// other target refuses a module that has it (TargetCompiler).
uint32_t Lowering::tensor_core_helper(const Instruction& inst) {
  const Matrix* result = matrix(inst.operand(0));
  const Matrix* ma = matrix(type_of(inst.operand(2)));
  const Matrix* mb = matrix(type_of(inst.operand(3)));
  const Matrix* mc = matrix(type_of(inst.operand(4)));
  const Words key{kOpCooperativeMatrixMulAdd, 1, inst.operand(0), ma->array, mb->array, mc->array};
  if (helper_ids_.count(key)) return helper_ids_[key];
  FunctionBuilder f([this] { return new_id(); });
  f.parameter(ma->array);
  f.parameter(mb->array);
  const uint32_t c = f.parameter(mc->array);
  uint32_t value = c;
  if (mc->array != result->array) {
    value = new_id();
    const Words null = instruction(spv::OpConstantNull, {result->array, value});
    added_types_.insert(added_types_.end(), null.begin(), null.end());
  }
  f.statement(spv::OpReturnValue, {value});
  const uint32_t helper = add_helper(f, result->array, spv::FunctionControlDontInlineMask);
  // 8-bit operands: each one's signedness (the instruction's operands say it), "_su" for signed A, unsigned
  // B.
  const uint32_t flags = inst.operand_count() > 5 ? inst.operand(5) : 0;
  std::string name = (result->warpgroup ? warpgroup_function_prefix() : tensor_core_function_prefix()) +
                     std::to_string(result->rows) + "x" + std::to_string(result->cols) + "x" +
                     std::to_string(ma->cols);
  if (defs_.at(ma->component)->opcode == spv::OpTypeInt && !ma->bfloat16)
    name += std::string("_") + (flags & kMatrixASigned ? "s" : "u") + (flags & kMatrixBSigned ? "s" : "u");
  helper_names_.emplace_back(helper, name);
  return helper_ids_[key] = helper;
}

// The same instruction on every element: matrix operands element by element,
// scalar operands (OpMatrixTimesScalar's) as they are.
uint32_t Lowering::elementwise_helper(const Instruction& inst) {
  const Matrix* result = matrix(inst.operand(0));
  Words operand_types;
  for (size_t i = 2; i < inst.operand_count(); ++i) operand_types.push_back(type_of(inst.operand(i)));
  Words key{inst.opcode, inst.operand(0)};
  key.insert(key.end(), operand_types.begin(), operand_types.end());
  if (helper_ids_.count(key)) return helper_ids_[key];
  for (uint32_t t : operand_types)
    // Warp fragments: the same tiles too, so that a lane's components are the same positions.
    if (const Matrix* m = matrix(t);
        m && (m->rows != result->rows || m->cols != result->cols || m->length != result->length ||
              m->tile_rows != result->tile_rows || m->tile_cols != result->tile_cols))
      refuse("element-wise operands of different shapes", inst);
  // bfloat16 only converts (SPV_KHR_bfloat16): through float32.
  const Matrix* from = matrix(operand_types.empty() ? 0 : operand_types[0]);
  const bool bfloat16 = result->bfloat16 || (from && from->bfloat16);
  const bool conversion = inst.opcode == spv::OpFConvert || inst.opcode == spv::OpConvertSToF ||
                          inst.opcode == spv::OpConvertUToF || inst.opcode == spv::OpConvertFToS ||
                          inst.opcode == spv::OpConvertFToU || inst.opcode == spv::OpBitcast;
  if (bfloat16 && (!conversion || !from))
    refuse(
        "element-wise arithmetic on bfloat16 matrices (SPV_KHR_bfloat16 lets them convert and multiply only)",
        inst);
  const auto convert = [&](FunctionBuilder& f, uint32_t x) {
    const uint32_t to = result->component;
    if (inst.opcode == spv::OpBitcast) return from->component == to ? x : f.op(spv::OpBitcast, to, {x});
    return bfloat16_convert(bfloat16_ops(f, result->bfloat16 ? to : from->component), inst.opcode, x,
                            scalar(*from), scalar(*result));
  };

  const uint32_t u = uint_type(), b = bool_type();
  FunctionBuilder f([this] { return new_id(); });
  Words operands;  // a matrix's variable, or the scalar itself
  for (uint32_t t : operand_types) {
    const uint32_t p = f.parameter(t);
    operands.push_back(matrix(t) ? copy_in(f, p, *matrix(t)) : p);
  }
  const uint32_t vr = f.variable(pointer(spv::StorageClassFunction, result->array));
  const uint32_t counter = f.variable(pointer(spv::StorageClassFunction, u));
  const uint32_t opcode = inst.opcode != spv::OpMatrixTimesScalar ? inst.opcode
                          : is_float(result->component)           ? uint32_t(spv::OpFMul)
                                                                  : uint32_t(spv::OpIMul);
  f.loop(u, b, counter, uint_constant(0), uint_constant(1), uint_constant(result->length), [&](uint32_t e) {
    Words arguments;
    for (size_t i = 0; i < operand_types.size(); ++i) {
      const Matrix* m = matrix(operand_types[i]);
      arguments.push_back(m ? f.op(spv::OpLoad, m->component, {element_pointer(f, operands[i], *m, e)})
                            : operands[i]);
    }
    f.statement(spv::OpStore,
                {element_pointer(f, vr, *result, e),
                 bfloat16 ? convert(f, arguments[0]) : f.op(opcode, result->component, arguments)});
  });
  f.statement(spv::OpReturnValue, {f.op(spv::OpLoad, result->array, {vr})});
  return helper_ids_[key] = add_helper(f, result->array);
}

// The memory operands from operand `first` on, without the Vulkan memory
// model's availability, visibility and non-private bits (and their scopes).
Words Lowering::strip_memory_operands(const Instruction& inst, size_t first) {
  Words out(inst.words.begin(), inst.words.begin() + 1 + first);
  size_t at = first;
  // OpCopyMemory may carry two sets of memory operands.
  while (at < inst.operand_count()) {
    const uint32_t mask = inst.operand(at++);
    out.push_back(mask & ~(kMakePointerAvailable | kMakePointerVisible | kNonPrivatePointer));
    if (mask & spv::MemoryAccessAlignedMask) out.push_back(inst.operand(at++));
    if (mask & kMakePointerAvailable) ++at;
    if (mask & kMakePointerVisible) ++at;
  }
  out[0] = (uint32_t(out.size()) << 16) | inst.opcode;
  return out;
}

uint32_t Lowering::semantics(uint32_t id) {
  auto it = defs_.find(id);
  if (it == defs_.end() || it->second->opcode != spv::OpConstant) return id;
  const uint32_t value = it->second->operand(2);
  return (value & kVulkanSemantics) ? constant(it->second->operand(0), value & ~kVulkanSemantics) : id;
}

uint32_t Lowering::scope(uint32_t id) {
  auto it = defs_.find(id);
  if (it == defs_.end() || it->second->opcode != spv::OpConstant) return id;
  return it->second->operand(2) == kScopeQueueFamily ? constant(it->second->operand(0), kScopeDevice) : id;
}

void Lowering::lower(const Instruction& inst, Words& out) {
  const auto emit = [&](const Words& w) { out.insert(out.end(), w.begin(), w.end()); };
  const auto as_uint = [&](uint32_t id) {
    if (type_of(id) == uint_type()) return id;
    const uint32_t r = new_id();
    emit(instruction(spv::OpBitcast, {uint_type(), r, id}));
    return r;
  };
  if (inst.opcode == spv::OpLine && inst.operand_count() >= 2) {
    file_ = strings_.count(inst.operand(0)) ? strings_.at(inst.operand(0)) : "";
    line_ = inst.operand(1);
  } else if (inst.opcode == spv::OpNoLine || inst.opcode == spv::OpFunctionEnd) {
    file_.clear();
  }
  switch (inst.opcode) {
    case kOpCooperativeMatrixLoad:
    case kOpCooperativeMatrixStore: {
      const bool load = inst.opcode == kOpCooperativeMatrixLoad;
      const size_t pointer_operand = load ? 2 : 0, stride_operand = load ? 4 : 3;
      Words args;
      const uint32_t helper = transfer_helper(inst, load, args);
      const Instruction& chain = *defs_.at(inst.operand(pointer_operand));
      args.push_back(as_uint(chain.operand(chain.operand_count() - 1)));
      args.push_back(inst.operand_count() > stride_operand ? as_uint(inst.operand(stride_operand))
                                                           : uint_constant(0));
      if (!load) {
        args.push_back(inst.operand(1));
        // Where every invocation holds and stores the whole matrix, all of the
        // scope's loads before this store come first, or an in-place update
        // (load C, multiply-add, store C) would read another invocation's
        // result. The matrix's scope (its subgroup or its work-group: the
        // scope's invocations all reach the store, as a matrix of that scope
        // asks) for execution and memory, acquire-release of buffer and
        // shared memory.
        // A spread matrix's items, and a warpgroup's threads, store their own
        // elements, at the places they loaded them from in an in-place update:
        // no barrier.
        const Matrix* m = matrix(type_of(inst.operand(1)));
        const uint32_t scope = uint_constant(m ? m->scope : kScopeSubgroup);
        if (!m || (!m->spread && !m->warpgroup))
          emit(instruction(spv::OpControlBarrier, {scope, scope, uint_constant(kBarrierSemantics)}));
      }
      Words call = load ? Words{inst.operand(0), inst.operand(1), helper}
                        : Words{type(spv::OpTypeVoid, {}), new_id(), helper};
      call.insert(call.end(), args.begin(), args.end());
      return emit(instruction(spv::OpFunctionCall, call));
    }
    case kOpCooperativeMatrixMulAdd: {
      check_mul_add(inst);
      const Matrix* result = matrix(inst.operand(0));
      const uint32_t helper = fragments_                 ? tensor_core_helper(inst)
                              : result && result->spread ? spread_mul_add_helper(inst)
                                                         : mul_add_helper(inst);
      return emit(instruction(spv::OpFunctionCall, {inst.operand(0), inst.operand(1), helper, inst.operand(2),
                                                    inst.operand(3), inst.operand(4)}));
    }
    case kOpCooperativeMatrixLength: {
      const Matrix* m = matrix(inst.operand(2));
      if (!m) refuse("the length of something that is not a matrix type", inst);
      return emit(instruction(spv::OpCopyObject,
                              {inst.operand(0), inst.operand(1), constant(inst.operand(0), m->length)}));
    }
    case spv::OpLoopMerge: {
      // Where an invocation holds whole matrices (hundreds of components
      // each), unrolling a loop over them multiplies copies of those arrays
      // until NVRTC runs for minutes: [[unroll]] is a hint, and goes. Warp
      // fragments keep it (their registers want constant indices).
      bool whole = false;
      for (const auto& entry : matrices_) whole |= !entry.second.spread && !entry.second.warpgroup;
      if (fragments_ || !whole || inst.operand_count() < 3 || !(inst.operand(2) & spv::LoopControlUnrollMask))
        break;
      Words words = inst.words;
      words[3] &= ~uint32_t(spv::LoopControlUnrollMask);
      return emit(words);
    }
    case spv::OpLoad:
      return emit(vulkan_memory_model_ ? strip_memory_operands(inst, 3) : inst.words);
    case spv::OpStore:
      return emit(vulkan_memory_model_ ? strip_memory_operands(inst, 2) : inst.words);
    case spv::OpCopyMemory:
      return emit(vulkan_memory_model_ ? strip_memory_operands(inst, 2) : inst.words);
    case spv::OpControlBarrier:
      return emit(
          instruction(inst.opcode, {inst.operand(0), scope(inst.operand(1)), semantics(inst.operand(2))}));
    case spv::OpMemoryBarrier:
      return emit(instruction(inst.opcode, {scope(inst.operand(0)), semantics(inst.operand(1))}));
    default:
      break;
  }
  if (inst.opcode >= spv::OpAtomicLoad && inst.opcode <= spv::OpAtomicXor &&
      inst.opcode != spv::OpAtomicStore) {
    Words w = inst.words;
    w[4] = scope(w[4]);
    w[5] = semantics(w[5]);
    if (inst.opcode == spv::OpAtomicCompareExchange || inst.opcode == spv::OpAtomicCompareExchangeWeak)
      w[6] = semantics(w[6]);
    return emit(w);
  }
  if (inst.opcode == spv::OpAtomicStore) {
    Words w = inst.words;
    w[2] = scope(w[2]);
    w[3] = semantics(w[3]);
    return emit(w);
  }
  // Indexing into a matrix indexes its struct's array: member 0 goes in front.
  switch (inst.opcode) {
    case spv::OpAccessChain:
    case spv::OpInBoundsAccessChain:
      return emit(through_matrices(inst, 3, defs_.at(type_of(inst.operand(2)))->operand(2), false));
    case spv::OpCompositeExtract:
      return emit(through_matrices(inst, 3, type_of(inst.operand(2)), true));
    case spv::OpCompositeInsert:
      return emit(through_matrices(inst, 4, type_of(inst.operand(3)), true));
    default:
      break;
  }
  bool has_result = false, has_type = false;
  spv::HasResultAndType(static_cast<spv::Op>(inst.opcode), &has_result, &has_type);
  const Matrix* result = has_type ? matrix(inst.operand(0)) : nullptr;
  if (!result) {
    // A matrix value used by an instruction that does not make one: only those
    // an array takes as it is (OpStore, OpReturnValue, OpCompositeExtract, a
    // call) or that are lowered above. The other value instructions are checked
    // operand by operand (their operands are all ids, but OpExtInst's number).
    if (!has_result || !has_type || inst.opcode == spv::OpCompositeExtract ||
        inst.opcode == spv::OpVariable || inst.opcode == spv::OpFunctionCall ||
        inst.opcode == spv::OpAccessChain || inst.opcode == spv::OpInBoundsAccessChain ||
        inst.opcode == spv::OpVectorShuffle || inst.opcode == spv::OpFunction)
      return emit(inst.words);
    for (size_t i = inst.opcode == spv::OpExtInst ? 4 : 2; i < inst.operand_count(); ++i)
      if (matrix(type_of(inst.operand(i)))) refuse("a matrix operand of this instruction", inst);
    return emit(inst.words);
  }
  switch (inst.opcode) {
    case spv::OpLoad:
    case spv::OpCopyObject:
    case spv::OpPhi:
    case spv::OpUndef:
    case spv::OpFunctionCall:
    case spv::OpCompositeInsert:
    case spv::OpFunctionParameter:
    case spv::OpVariable:
      return emit(inst.words);
    case spv::OpCompositeConstruct: {
      // GLSL constructs a matrix from one value, which fills it.
      if (inst.operand_count() != 3) refuse("a matrix constructed from several values", inst);
      const uint32_t elements = new_id();
      Words w{result->elements, elements};
      w.insert(w.end(), result->length, inst.operand(2));
      emit(instruction(spv::OpCompositeConstruct, w));
      return emit(instruction(spv::OpCompositeConstruct, {inst.operand(0), inst.operand(1), elements}));
    }
    case spv::OpFNegate:
    case spv::OpSNegate:
    case spv::OpFAdd:
    case spv::OpFSub:
    case spv::OpFMul:
    case spv::OpFDiv:
    case spv::OpIAdd:
    case spv::OpISub:
    case spv::OpIMul:
    case spv::OpSDiv:
    case spv::OpUDiv:
    case spv::OpMatrixTimesScalar:
    case spv::OpFConvert:
    case spv::OpConvertFToS:
    case spv::OpConvertFToU:
    case spv::OpConvertSToF:
    case spv::OpConvertUToF:
    case spv::OpSConvert:
    case spv::OpUConvert:
    case spv::OpBitcast: {
      Words call{inst.operand(0), inst.operand(1), elementwise_helper(inst)};
      call.insert(call.end(), inst.words.begin() + 3, inst.words.end());
      return emit(instruction(spv::OpFunctionCall, call));
    }
    default:
      refuse("an instruction on matrices that is not lowered", inst);
  }
}

// `inst` with a 0 index in front of each index that enters a matrix (its
// struct's one member); the indices from operand `first` on walk from `type_id`
// (literal ones for OpCompositeExtract/Insert).
Words Lowering::through_matrices(const Instruction& inst, size_t first, uint32_t type_id,
                                 bool literal_indices) {
  Words operands(inst.words.begin() + 1, inst.words.begin() + 1 + first);
  for (size_t i = first; i < inst.operand_count(); ++i) {
    const uint32_t index = inst.operand(i);
    if (const Matrix* m = matrix(type_id)) {
      operands.push_back(literal_indices ? 0u : uint_constant(0));
      operands.push_back(index);
      type_id = m->component;
      continue;
    }
    operands.push_back(index);
    auto def = defs_.find(type_id);
    if (def == defs_.end()) break;
    const Instruction& t = *def->second;
    if (t.opcode == spv::OpTypeStruct) {
      const uint32_t member = literal_indices ? index : defs_.at(index)->operand(2);
      type_id = t.operand(1 + member);
    } else if (t.opcode == spv::OpTypeArray || t.opcode == spv::OpTypeRuntimeArray ||
               t.opcode == spv::OpTypeVector || t.opcode == spv::OpTypeMatrix) {
      type_id = t.operand(1);
    } else {
      break;
    }
  }
  return instruction(inst.opcode, operands);
}

Words Lowering::run() {
  Words out(in_.begin(), in_.begin() + kSpirvHeaderWords);
  const auto emit = [&](Words& to, const Words& w) { to.insert(to.end(), w.begin(), w.end()); };
  // The bodies first: what they add (the lane variable, helpers) is declared above them.
  Words functions;
  for (const Instruction& inst : functions_) lower(inst, functions);
  const auto string_words = [](uint32_t id, const std::string& name) {
    Words w{id};
    for (size_t i = 0; i <= name.size(); i += 4) {
      uint32_t word = 0;
      for (size_t b = 0; b < 4 && i + b < name.size(); ++b) word |= uint32_t(uint8_t(name[i + b])) << (8 * b);
      w.push_back(word);
    }
    return w;
  };
  // The structs' names (debug names come before the decorations): what the
  // translations call them.
  static const char* const uses[] = {"a", "b", "accumulator"};
  bool named = false;
  const auto name_matrices = [&] {
    for (const auto& [id, m] : matrices_) {
      const std::string name = "coopmat" + std::to_string(m.rows) + "x" + std::to_string(m.cols) + "_" +
                               (m.use < 3 ? uses[m.use] : "use" + std::to_string(m.use));
      emit(out, instruction(spv::OpName, string_words(id, name)));
      emit(out, instruction(spv::OpMemberName, {id, 0, 0x6d656c65, 0x73746e65, 0}));  // "elements"
    }
    for (const auto& [id, name] : helper_names_) emit(out, instruction(spv::OpName, string_words(id, name)));
  };
  // The subgroup barrier before each store of a Subgroup-scope matrix
  // (lower()) is a subgroup operation.
  bool stores = false;
  for (const Instruction& inst : functions_)
    if (inst.opcode == kOpCooperativeMatrixStore && inst.operand_count() >= 2) {
      const Matrix* m = matrix(type_of(inst.operand(1)));
      stores |= !m || m->scope == kScopeSubgroup;
    }
  // A capability the lowering's code needs, declared unless the module has it.
  const auto require = [&](uint32_t capability) {
    for (const Instruction& inst : preamble_)
      if (inst.opcode == spv::OpCapability && inst.operand(0) == capability) return;
    emit(out, instruction(spv::OpCapability, {capability}));
  };
  // So does the lane index of warp fragments.
  if (stores || lane_is_new_) require(spv::CapabilityGroupNonUniform);
  if (int16_is_new_) require(spv::CapabilityInt16);
  for (const Instruction& inst : preamble_) {
    if (inst.opcode == spv::OpCapability &&
        (inst.operand(0) == kCapabilityCooperativeMatrix || inst.operand(0) == kCapabilityVulkanMemoryModel))
      continue;
    if (inst.opcode == spv::OpExtension) {
      const std::string name = spirv_string(&inst.words[1], uint32_t(inst.words.size() - 1));
      if (name == "SPV_KHR_cooperative_matrix" || name == "SPV_KHR_vulkan_memory_model") continue;
    }
    if (!named && (inst.opcode == spv::OpModuleProcessed || inst.opcode == spv::OpDecorate ||
                   inst.opcode == spv::OpMemberDecorate || inst.opcode == spv::OpDecorateId ||
                   inst.opcode == spv::OpDecorationGroup || inst.opcode == spv::OpDecorateString ||
                   inst.opcode == spv::OpMemberDecorateString)) {
      name_matrices();
      named = true;
    }
    if (inst.opcode == spv::OpMemoryModel) {
      emit(out, instruction(spv::OpMemoryModel, {inst.operand(0), kMemoryModelGlsl450}));
      continue;
    }
    // A work-group size from spec constants as the literals it was planned for.
    if (frozen_ &&
        ((inst.opcode == spv::OpExecutionMode && inst.operand(1) == spv::ExecutionModeLocalSize) ||
         (inst.opcode == spv::OpExecutionModeId && inst.operand(1) == spv::ExecutionModeLocalSizeId))) {
      emit(out, instruction(spv::OpExecutionMode,
                            {inst.operand(0), spv::ExecutionModeLocalSize, size_[0], size_[1], size_[2]}));
      continue;
    }
    if (inst.opcode == spv::OpEntryPoint && (lane_ != 0 || local_index_ != 0 || !scratch_.empty())) {
      // The lane and item indices are Inputs the entry point's interface
      // lists (SPIR-V 1.3); from SPIR-V 1.4 it lists every global variable.
      Words w = inst.words;
      const std::string name = spirv_string(&inst.words[3], uint32_t(inst.words.size() - 3));
      const size_t interface = 3 + (name.size() + 4) / 4;
      Words listed{lane_, local_index_};
      if (in_[1] >= 0x00010400) listed.insert(listed.end(), scratch_.begin(), scratch_.end());
      for (const uint32_t id : listed)
        if (id != 0 && std::find(w.begin() + std::ptrdiff_t(interface), w.end(), id) == w.end())
          w.push_back(id);
      w[0] = (uint32_t(w.size()) << 16) | inst.opcode;
      emit(out, w);
      continue;
    }
    emit(out, inst.words);
  }
  if (!named) name_matrices();
  if (lane_is_new_)
    emit(out, instruction(spv::OpDecorate,
                          {lane_, spv::DecorationBuiltIn, spv::BuiltInSubgroupLocalInvocationId}));
  if (local_index_is_new_)
    emit(out, instruction(spv::OpDecorate,
                          {local_index_, spv::DecorationBuiltIn, spv::BuiltInLocalInvocationIndex}));
  Words types;
  for (const Instruction& inst : types_) {
    if (inst.opcode == kOpTypeCooperativeMatrix) {
      const Matrix& m = matrices_.at(inst.operand(0));
      // The length's type: the scope's (a 32-bit integer declared before the matrix type).
      const uint32_t length = new_id();
      emit(types, instruction(spv::OpConstant, {type_of(inst.operand(2)), length, m.length}));
      emit(types, instruction(spv::OpTypeArray, {m.elements, m.component, length}));
      emit(types, instruction(spv::OpTypeStruct, {m.array, m.elements}));
      continue;
    }
    if (frozen_ && inst.opcode == spv::OpSpecConstantComposite && inst.operand(1) == workgroup_size_) {
      // gl_WorkGroupSize of new constants (before it, as SPIR-V wants); the
      // spec constants stay, for any other use the kernel makes of them.
      const uint32_t component = defs_.at(inst.operand(0))->operand(1);
      Words w{inst.operand(0), inst.operand(1)};
      for (uint32_t d = 0; d < 3; ++d) {
        w.push_back(new_id());
        emit(types, instruction(spv::OpConstant, {component, w.back(), size_[d]}));
      }
      emit(types, instruction(spv::OpConstantComposite, w));
      continue;
    }
    if ((inst.opcode == spv::OpConstantComposite || inst.opcode == spv::OpSpecConstantComposite) &&
        matrix(inst.operand(0)) && inst.operand_count() == 3) {
      const Matrix& m = *matrix(inst.operand(0));
      const uint32_t elements = new_id();
      Words w{m.elements, elements};
      w.insert(w.end(), m.length, inst.operand(2));
      emit(types, instruction(inst.opcode, w));
      emit(types, instruction(inst.opcode, {inst.operand(0), inst.operand(1), elements}));
      continue;
    }
    emit(types, inst.words);
  }
  // Types and constants the helpers added go after the module's own (they use
  // only those, and each other in order of creation).
  emit(out, types);
  emit(out, added_types_);
  emit(out, functions);
  emit(out, helpers_);
  out[3] = bound_;
  return out;
}

}  // namespace

bool uses_cooperative_matrix(const std::vector<uint32_t>& spirv) {
  bool found = false;
  for_each_instruction(spirv, [&](uint32_t opcode, const uint32_t* operands, uint32_t count) {
    if (opcode == spv::OpCapability && count >= 1 && operands[0] == kCapabilityCooperativeMatrix)
      found = true;
  });
  return found;
}

bool uses_bfloat16_matrices(const std::vector<uint32_t>& spirv) {
  bool found = false;
  for_each_instruction(spirv, [&](uint32_t opcode, const uint32_t* operands, uint32_t count) {
    if (opcode == spv::OpCapability && count >= 1 && operands[0] == kBFloat16CooperativeMatrixKHR)
      found = true;
  });
  return found;
}

std::string cooperative_matrix_in_place_update(const std::vector<uint32_t>& spirv) {
  std::unordered_map<uint32_t, uint32_t> chain_base;  // access chain -> its base variable
  std::unordered_map<uint32_t, std::string> names, strings;
  std::unordered_map<uint32_t, uint32_t> pointee, variable_type;  // pointer type -> pointee; variable -> type
  std::unordered_set<uint32_t> loaded;
  // Workgroup-scope matrices are one work-group's whatever its subgroups: the
  // lowering's barrier before each store keeps their in-place updates right.
  std::unordered_map<uint32_t, uint32_t> constants, value_type;
  std::unordered_set<uint32_t> workgroup_matrices;
  std::string file;
  uint32_t line = 0;
  std::string found;
  for_each_instruction(spirv, [&](uint32_t opcode, const uint32_t* o, uint32_t count) {
    if (!found.empty()) return;
    if (opcode == spv::OpConstant && count == 3) constants[o[1]] = o[2];
    if (opcode == kOpTypeCooperativeMatrix && count >= 3 && constants.count(o[2]) &&
        constants[o[2]] == kScopeWorkgroup)
      workgroup_matrices.insert(o[0]);
    bool has_result = false, has_type = false;
    spv::HasResultAndType(static_cast<spv::Op>(opcode), &has_result, &has_type);
    if (opcode == kOpCooperativeMatrixLoad || opcode == kOpCooperativeMatrixMulAdd) has_type = true;
    if (has_type && count >= 2) value_type[o[1]] = o[0];
    if (opcode == spv::OpName && count >= 2) names[o[0]] = spirv_string(o + 1, count - 1);
    if (opcode == spv::OpString && count >= 2) strings[o[0]] = spirv_string(o + 1, count - 1);
    if (opcode == spv::OpLine && count >= 2) file = strings[o[0]], line = o[1];
    if (opcode == spv::OpTypePointer && count >= 3) pointee[o[0]] = o[2];
    if (opcode == spv::OpVariable && count >= 2) variable_type[o[1]] = o[0];
    if ((opcode == spv::OpAccessChain || opcode == spv::OpInBoundsAccessChain) && count >= 3)
      chain_base[o[1]] = chain_base.count(o[2]) ? chain_base[o[2]] : o[2];
    const auto base = [&](uint32_t pointer) {
      return chain_base.count(pointer) ? chain_base[pointer] : pointer;
    };
    if (opcode == kOpCooperativeMatrixLoad && count >= 3) loaded.insert(base(o[2]));
    if (opcode == kOpCooperativeMatrixStore && count >= 2 && loaded.count(base(o[0])) &&
        !(value_type.count(o[1]) && workgroup_matrices.count(value_type[o[1]]))) {
      const uint32_t variable = base(o[0]);
      // Its name, else its block's (`buffer C { ... };` names no instance).
      std::string name = names.count(variable) ? names[variable] : "";
      if (name.empty() && variable_type.count(variable)) name = names[pointee[variable_type[variable]]];
      found = name.empty() ? "variable %" + std::to_string(variable) : "'" + name + "'";
      if (!file.empty())
        found += " (OpCooperativeMatrixStoreKHR at " + file + ":" + std::to_string(line) + ")";
    }
  });
  return found;
}

namespace {

// The lowering looks ids up in its tables with at(): a module that uses an id
// it never defines (not valid SPIR-V, which nothing before the lowering has
// checked) ends there, and is refused as invalid rather than escaping as an
// out-of-range exception.
template <class Body>
auto refusing_undefined_ids(Body body) {
  try {
    return body();
  } catch (const std::out_of_range&) {
    throw Error(Error::Kind::InvalidSpirv,
                "cooperative matrix: the module uses an id, type or block it does not define");
  }
}

}  // namespace

std::vector<uint32_t> lower_cooperative_matrix(const std::vector<uint32_t>& spirv,
                                               const std::vector<SpecValue>& specs, bool fix_group_size) {
  if (spirv.size() < kSpirvHeaderWords || spirv[0] != kSpirvMagic)
    (void)spirv_from_bytes(spirv.data(), spirv.size() * 4);
  return refusing_undefined_ids([&] {
    const BFloat16Lowered words = lower_bfloat16(spirv);
    return Lowering(words.spirv, false, specs, false, false, words.matrices, fix_group_size).run();
  });
}

bool uses_workgroup_matrices(const std::vector<uint32_t>& spirv) {
  std::unordered_map<uint32_t, uint32_t> constants;
  bool found = false;
  for_each_instruction(spirv, [&](uint32_t opcode, const uint32_t* o, uint32_t count) {
    if (opcode == spv::OpConstant && count == 3) constants[o[1]] = o[2];
    if (opcode == kOpTypeCooperativeMatrix && count >= 3 && constants.count(o[2]) &&
        constants[o[2]] == kScopeWorkgroup)
      found = true;
  });
  return found;
}

std::vector<uint32_t> lower_cooperative_matrix_interface(const std::vector<uint32_t>& spirv) {
  if (spirv.size() < kSpirvHeaderWords || spirv[0] != kSpirvMagic)
    (void)spirv_from_bytes(spirv.data(), spirv.size() * 4);
  const Words lowered = refusing_undefined_ids([&] { return Lowering(spirv, false, {}, false, true).run(); });
  // bfloat16 declared as a plain 16-bit float, without SPV_KHR_bfloat16's
  // capabilities and extension, which the SPIRV-Tools that apply spec
  // constants to the interface do not know (callers read the feature from
  // the original module).
  Words out(lowered.begin(), lowered.begin() + kSpirvHeaderWords);
  for_each_instruction(lowered, [&](uint32_t opcode, const uint32_t* operands, uint32_t count) {
    const bool bf16_capability = opcode == spv::OpCapability && count == 1 &&
                                 operands[0] >= kBFloat16TypeKHR &&
                                 operands[0] <= kBFloat16CooperativeMatrixKHR;
    const bool bf16_extension =
        opcode == spv::OpExtension && spirv_string(operands, count) == "SPV_KHR_bfloat16";
    if (bf16_capability || bf16_extension) return;
    const uint32_t kept = opcode == spv::OpTypeFloat ? std::min(count, 2u) : count;  // result id, width
    out.push_back(((kept + 1) << 16) | opcode);
    out.insert(out.end(), operands, operands + kept);
  });
  return out;
}

std::string tensor_core_mismatch(const std::vector<uint32_t>& spirv, const std::vector<SpecValue>& specs,
                                 bool tf32, bool warpgroups) {
  if (spirv.size() < kSpirvHeaderWords || spirv[0] != kSpirvMagic)
    (void)spirv_from_bytes(spirv.data(), spirv.size() * 4);
  return refusing_undefined_ids([&]() -> std::string {
    const BFloat16Lowered words = lower_bfloat16(spirv);
    Lowering lowering(words.spirv, true, specs, tf32, false, words.matrices, true, warpgroups);
    if (!lowering.mismatch().empty()) return lowering.mismatch();
    (void)lowering.run();  // what the lowering refuses, it refuses for every target
    return "";
  });
}

std::vector<uint32_t> lower_cooperative_matrix_to_warp_fragments(const std::vector<uint32_t>& spirv,
                                                                 const std::vector<SpecValue>& specs,
                                                                 bool tf32, bool warpgroups) {
  if (spirv.size() < kSpirvHeaderWords || spirv[0] != kSpirvMagic)
    (void)spirv_from_bytes(spirv.data(), spirv.size() * 4);
  return refusing_undefined_ids([&] {
    const BFloat16Lowered words = lower_bfloat16(spirv);
    Lowering lowering(words.spirv, true, specs, tf32, false, words.matrices, true, warpgroups);
    if (!lowering.mismatch().empty())
      throw Error(Error::Kind::UnsupportedFeature,
                  "cooperative matrix: tensor cores cannot run " + lowering.mismatch());
    return lowering.run();
  });
}

}  // namespace porta::translator

namespace porta::translator {

// Phis of values that hold arrays become a Function variable: each
// predecessor stores its value before its branch, the block loads it after its
// phis. SPIRV-Cross writes an array phi of a loop as an assignment in the
// for-statement (`acc = next`), which C, C++, CUDA and OpenCL C reject for
// arrays; a variable's stores and loads are array copies, which every target
// spells. spirv-opt leaves such phis where it keeps a large array whole (a
// lowered cooperative matrix, a big local array) in a register-like SSA value.
std::vector<uint32_t> demote_array_phis(const std::vector<uint32_t>& spirv) {
  struct Inst {
    size_t at;
    uint32_t opcode, length;
  };
  std::vector<Inst> insts;
  std::unordered_map<uint32_t, std::pair<uint32_t, Words>> types;  // id -> opcode, operands
  for (size_t at = kSpirvHeaderWords; at < spirv.size();) {
    const uint32_t length = spirv[at] >> 16, opcode = spirv[at] & 0xffffu;
    if (length == 0 || at + length > spirv.size()) return spirv;
    insts.push_back({at, opcode, length});
    if (opcode >= spv::OpTypeVoid && opcode <= spv::OpTypeForwardPointer && length >= 2)
      types[spirv[at + 1]] = {opcode, Words(spirv.begin() + at + 2, spirv.begin() + at + length)};
    at += length;
  }
  std::function<bool(uint32_t)> holds_array = [&](uint32_t type_id) {
    auto it = types.find(type_id);
    if (it == types.end()) return false;
    if (it->second.first == spv::OpTypeArray) return true;
    if (it->second.first != spv::OpTypeStruct) return false;
    for (uint32_t member : it->second.second)
      if (holds_array(member)) return true;
    return false;
  };
  bool any = false;
  for (const Inst& inst : insts)
    if (inst.opcode == spv::OpPhi && holds_array(spirv[inst.at + 1])) any = true;
  if (!any) return spirv;

  uint32_t bound = spirv[3];
  std::map<uint32_t, uint32_t> pointer_types;  // pointee -> Function pointer type
  for (const auto& [id, type] : types)
    if (type.first == spv::OpTypePointer && type.second.size() == 2 &&
        type.second[0] == spv::StorageClassFunction)
      pointer_types.emplace(type.second[1], id);
  Words new_types;
  std::map<size_t, Words> before;  // instruction index -> words inserted before it
  std::map<size_t, Words> after;   // instruction index -> words inserted after it
  std::vector<bool> dropped(insts.size(), false);

  // Per function: its first label, each block's terminator (with its merge
  // instruction before it) and last phi.
  size_t function_start = 0;
  std::unordered_map<uint32_t, size_t> block_end;  // label -> index to insert before
  std::vector<size_t> phis;
  size_t first_label = 0;
  const auto finish_function = [&]() {
    for (size_t p : phis) {
      const size_t at = insts[p].at;
      const uint32_t type_id = spirv[at + 1], result = spirv[at + 2];
      uint32_t& pointer = pointer_types[type_id];
      if (pointer == 0) {
        pointer = bound++;
        const Words w = instruction(spv::OpTypePointer, {pointer, spv::StorageClassFunction, type_id});
        new_types.insert(new_types.end(), w.begin(), w.end());
      }
      const uint32_t variable = bound++;
      const Words var = instruction(spv::OpVariable, {pointer, variable, spv::StorageClassFunction});
      after[first_label].insert(after[first_label].end(), var.begin(), var.end());
      for (uint32_t i = 3; i + 1 < insts[p].length; i += 2) {
        const Words store = instruction(spv::OpStore, {variable, spirv[at + i]});
        Words& into = before[block_end.at(spirv[at + i + 1])];
        into.insert(into.end(), store.begin(), store.end());
      }
      // After the block's last phi.
      size_t last = p;
      while (last + 1 < insts.size() &&
             (insts[last + 1].opcode == spv::OpPhi || insts[last + 1].opcode == spv::OpLine ||
              insts[last + 1].opcode == spv::OpNoLine))
        ++last;
      const Words load = instruction(spv::OpLoad, {type_id, result, variable});
      after[last].insert(after[last].end(), load.begin(), load.end());
      dropped[p] = true;
    }
    phis.clear();
    block_end.clear();
  };
  uint32_t current_label = 0;
  for (size_t i = 0; i < insts.size(); ++i) {
    const Inst& inst = insts[i];
    switch (inst.opcode) {
      case spv::OpFunction:
        function_start = i, first_label = 0;
        break;
      case spv::OpLabel:
        current_label = spirv[inst.at + 1];
        if (first_label == 0 || first_label < function_start) first_label = i;
        break;
      case spv::OpPhi:
        if (holds_array(spirv[inst.at + 1])) phis.push_back(i);
        break;
      case spv::OpBranch:
      case spv::OpBranchConditional:
      case spv::OpSwitch:
      case spv::OpReturn:
      case spv::OpReturnValue:
      case spv::OpKill:
      case spv::OpUnreachable: {
        size_t end = i;
        if (end > 0 &&
            (insts[end - 1].opcode == spv::OpLoopMerge || insts[end - 1].opcode == spv::OpSelectionMerge))
          --end;
        block_end[current_label] = end;
        break;
      }
      case spv::OpFunctionEnd:
        finish_function();
        break;
      default:
        break;
    }
  }
  // A variable must come first in the entry block: after its label, before the
  // variables already there is fine. New pointer types go before the first function.
  Words out(spirv.begin(), spirv.begin() + kSpirvHeaderWords);
  bool types_placed = false;
  for (size_t i = 0; i < insts.size(); ++i) {
    if (!types_placed && insts[i].opcode == spv::OpFunction) {
      out.insert(out.end(), new_types.begin(), new_types.end());
      types_placed = true;
    }
    if (before.count(i)) out.insert(out.end(), before[i].begin(), before[i].end());
    if (!dropped[i])
      out.insert(out.end(), spirv.begin() + insts[i].at, spirv.begin() + insts[i].at + insts[i].length);
    if (after.count(i)) out.insert(out.end(), after[i].begin(), after[i].end());
  }
  out[3] = bound;
  return out;
}

}  // namespace porta::translator
