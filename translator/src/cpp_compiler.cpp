// Target cpp. The translation unit, in order:
//   includes; namespace {; spec constants, gl_WorkGroupSize, structs, the
//   push-constant struct; buffer views; porta_group_shared; porta_work_item
//   (built-ins, views, push constants, shared memory, private globals,
//   barrier(), helper functions, main()); porta_run_group; }; the exported
//   porta_cpu_kernel_entry.
// A work-item is a small struct built on the stack, so its built-ins and
// views are plain members the optimiser keeps in registers; run_group loops
// over the group (no barriers) or hands the items to the scheduler's fibers.
// The parts that do not depend on the kernel (the includes, barrier(),
// porta_run_group, the end) are sections of runtime/porta_cpu_kernel.inc.
#include "cpp_compiler.hpp"

#include <unordered_map>

#include "spirv_words.hpp"

namespace porta::translator::detail {

using spirv_cross::SPIRExpression;

CppCompiler::CppCompiler(std::vector<uint32_t> spirv, const TranslateOptions& options)
    : CppCompiler(count_loop_iterations(std::move(spirv)), options) {}

CppCompiler::CppCompiler(CountedModule module, const TranslateOptions& options)
    : TargetCompiler(module.spirv, options), loops_(std::move(module.loops)) {
  for (size_t i = 0; i < loops_.size(); ++i) set_name(loops_[i].counter, "porta_loop_" + std::to_string(i));
  find_register_variables(module.spirv);
}

// GCC keeps a vec4 struct that its operators read through memcpy in memory;
// matmul's accumulators then cost a load and a store per multiply-add. A
// variable qualifies when every use is one the translation can spell for
// vec4_register: a whole load or store of a vec4 (through a chain that picks
// one vec4), a load of one component, the declaration's constant initial
// store. Anything else (a chain to a sub-array, a component store, a pointer
// passed to a function) leaves it a vec4. Operand words are compared with ids
// without decoding literals: a literal that happens to equal an id only
// disqualifies a variable, never admits one.
void CppCompiler::find_register_variables(const std::vector<uint32_t>& spirv) {
  struct TypeInfo {
    uint32_t opcode = 0;
    uint32_t a = 0, b = 0;  // vector: component type, size; array: element type; pointer: storage, pointee
  };
  std::unordered_map<uint32_t, TypeInfo> types;
  std::unordered_set<uint32_t> constants;
  std::unordered_map<uint32_t, uint32_t> depth;  // candidate variable → array depth
  std::unordered_set<uint32_t> rejected;
  bool in_function = false;
  // The vec4-of-float32 depth of a pointee type, or -1.
  auto vec4_depth = [&](uint32_t type) {
    int arrays = 0;
    for (;;) {
      auto it = types.find(type);
      if (it == types.end()) return -1;
      if (it->second.opcode == spv::OpTypeArray) {
        ++arrays;
        type = it->second.a;
        continue;
      }
      if (it->second.opcode != spv::OpTypeVector || it->second.b != 4) return -1;
      auto component = types.find(it->second.a);
      if (component == types.end() || component->second.opcode != spv::OpTypeFloat ||
          component->second.a != 32)
        return -1;
      return arrays;
    }
  };
  for_each_instruction(spirv, [&](uint32_t opcode, const uint32_t* w, uint32_t count) {
    switch (opcode) {
      case spv::OpTypeFloat:
      case spv::OpTypeArray:
        if (count >= 2) types[w[0]] = {opcode, w[1], 0};
        return;
      case spv::OpTypeVector:
      case spv::OpTypePointer:
        if (count >= 3) types[w[0]] = {opcode, w[1], w[2]};
        return;
      case spv::OpConstant:
      case spv::OpConstantComposite:
      case spv::OpConstantNull:
        if (count >= 2) constants.insert(w[1]);
        return;
      case spv::OpFunction:
        in_function = true;
        return;
      case spv::OpFunctionEnd:
        in_function = false;
        return;
      default:
        break;
    }
    // Line numbers are literals that would often equal some id.
    if (!in_function || opcode == spv::OpLine || opcode == spv::OpNoLine) return;
    auto variable_of = [&](uint32_t id) -> uint32_t {
      if (depth.count(id)) return id;
      auto chain = register_chains_.find(id);
      return chain == register_chains_.end() ? 0 : chain->second.variable;
    };
    if (opcode == spv::OpVariable && count >= 3 && w[2] == spv::StorageClassFunction) {
      auto pointer = types.find(w[0]);
      if (pointer == types.end()) return;
      const int d = vec4_depth(pointer->second.b);
      if (d >= 0) depth[w[1]] = uint32_t(d);
      return;
    }
    if ((opcode == spv::OpAccessChain || opcode == spv::OpInBoundsAccessChain) && count >= 3 &&
        depth.count(w[2])) {
      const uint32_t indices = count - 3;
      if (indices == depth[w[2]] || indices == depth[w[2]] + 1)
        register_chains_[w[1]] = {w[2], indices == depth[w[2]] + 1};
      else
        rejected.insert(w[2]);
      for (uint32_t i = 3; i < count; ++i)
        if (uint32_t v = variable_of(w[i])) rejected.insert(v);
      return;
    }
    if (opcode == spv::OpLoad && count >= 3) {
      if (depth.count(w[2]) && depth[w[2]] != 0) rejected.insert(w[2]);
      for (uint32_t i = 3; i < count; ++i)
        if (uint32_t v = variable_of(w[i])) rejected.insert(v);
      return;
    }
    if (opcode == spv::OpStore && count >= 2) {
      if (const uint32_t v = variable_of(w[0])) {
        auto chain = register_chains_.find(w[0]);
        if (chain != register_chains_.end() ? chain->second.component
                                            : depth[v] != 0 && !constants.count(w[1]))
          rejected.insert(v);
      }
      for (uint32_t i = 1; i < count; ++i)
        if (uint32_t v = variable_of(w[i])) rejected.insert(v);
      return;
    }
    // OpExtInst: skip the set and the instruction number, both literals.
    for (uint32_t i = opcode == spv::OpExtInst ? 4u : 0u; i < count; ++i)
      if (uint32_t v = variable_of(w[i])) rejected.insert(v);
  });
  for (const auto& [variable, d] : depth)
    if (!rejected.count(variable)) register_variables_.insert(variable);
}

void CppCompiler::drop_register_variable(uint32_t variable) {
  register_variables_.erase(variable);
  force_recompile();
}

std::string CppCompiler::variable_decl(const SPIRType& type, const std::string& name, uint32_t id) {
  if (!register_variables_.count(id)) return TargetCompiler::variable_decl(type, name, id);
  return "porta_glsl::vec4_register " + name + type_to_array_glsl(type);
}

void CppCompiler::emit_target_instruction(const spirv_cross::Instruction& instruction) {
  const uint32_t* ops = stream(instruction);
  const auto opcode = static_cast<spv::Op>(instruction.op);
  if ((opcode == spv::OpAccessChain || opcode == spv::OpInBoundsAccessChain) &&
      register_chains_.count(ops[1]) && register_variables_.count(ops[2]) &&
      register_chains_[ops[1]].component) {
    TargetCompiler::emit_target_instruction(instruction);
    // The emitter names a constant component .x .y .z .w; vec4_register
    // reads it with [i] (a dynamic index is already [i]).
    auto* chain = maybe_get<SPIRExpression>(ops[1]);
    std::string* text = chain ? &chain->expression : nullptr;
    static const std::string names = "xyzw";
    if (text && text->size() > 2 && (*text)[text->size() - 2] == '.' &&
        names.find(text->back()) != std::string::npos) {
      const auto lane = names.find(text->back());
      text->resize(text->size() - 2);
      text->append("[").append(std::to_string(lane)).append("u]");
    } else if (!text || text->back() != ']') {
      drop_register_variable(ops[2]);
    }
    return;
  }
  if (opcode == spv::OpLoad && kernel_uses_subgroups()) {
    // A loop's counter is read first in its header: the loop's place.
    for (size_t i = 0; i < loops_.size(); ++i)
      if (loops_[i].counter == ops[2] && !loop_places_.count(uint32_t(i)))
        loop_places_[uint32_t(i)] = next_place_++;
  }
  if (opcode == spv::OpLoad) {
    const uint32_t pointer = ops[2];
    auto chain = register_chains_.find(pointer);
    const uint32_t variable = chain != register_chains_.end() ? chain->second.variable : pointer;
    const bool whole = chain == register_chains_.end() || !chain->second.component;
    if (register_variables_.count(variable) && whole) {
      TargetCompiler::emit_target_instruction(instruction);
      // A forwarded load is the variable's own expression; templates (fma,
      // min, ...) need a vec4, so it becomes load_register(...). A load kept
      // in a temporary converted on its declaration.
      auto* loaded = maybe_get<SPIRExpression>(ops[1]);
      if (loaded && loaded->expression != to_name(ops[1]))
        loaded->expression = "porta_glsl::load_register(" + loaded->expression + ")";
      return;
    }
  }
  TargetCompiler::emit_target_instruction(instruction);
}

const std::unordered_set<std::string>& CppCompiler::reserved_words() const {
  // The C++ words, and the names porta_cpu.h and the generated code use.
  static const std::unordered_set<std::string> words = cxx_reserved_words(
      {"porta_group", "porta_run_item", "porta_run_group", "porta_scheduler", "args", "local_id",
       "local_index", "group", "subgroups", "porta_subgroup_state", "porta_cancel", "items_in_bounds",
       "porta_items_in_bounds", "porta_group_in_bounds"});
  return words;
}

void CppCompiler::emit_translation_unit() {
  WorkItemConstructor constructor;
  constructor.comment = "// One work-item: GLSL's built-ins and resources as members, the kernel as main().";
  constructor.parameters =
      "const porta_cpu_group_args* args, porta_group_shared& group_shared, uvec3 local_id";
  constructor.built_ins = {
      "args->num_groups[0], args->num_groups[1], args->num_groups[2]",
      "args->group_id[0], args->group_id[1], args->group_id[2]", "local_id",
      "gl_WorkGroupID * gl_WorkGroupSize + local_id",
      "local_id.x + gl_WorkGroupSize.x * (local_id.y + gl_WorkGroupSize.y * local_id.z)"};
  constructor.view_base = [](uint32_t parameter) {
    return "args->buffers[" + std::to_string(parameter) + "]";
  };
  constructor.view_size = [](uint32_t parameter) {
    return "args->buffer_sizes[" + std::to_string(parameter) + "]";
  };
  constructor.push_constants = "*static_cast<const " + push_constant_type_name() + "*>(args->push)";
  constructor.extra_members = {"const porta_cpu_scheduler* porta_scheduler;"};
  constructor.extra_initialisers = {"porta_scheduler(args->scheduler)"};
  if (cancel_polls()) {
    constructor.extra_members.push_back("const uint32_t* porta_cancel;");
    constructor.extra_initialisers.push_back("porta_cancel(args->cancel)");
  }
  if (kernel_uses_subgroups()) {
    constructor.parameters += ", porta_subgroups& subgroups";
    constructor.extra_members.push_back("porta_subgroups& porta_subgroup_state;");
    constructor.extra_initialisers.push_back("porta_subgroup_state(subgroups)");
  }
  // Group bounds (bounds_checks.cpp): true only where run_group_loop knows the
  // whole group passes, as a constant the compiler folds into each check.
  constructor.parameters += ", bool items_in_bounds = false";
  constructor.extra_members.push_back("const bool porta_items_in_bounds;");
  constructor.extra_initialisers.push_back("porta_items_in_bounds(items_in_bounds)");
  loop_places_.clear();
  next_place_ = 0;
  emit_cxx_kernel(kRuntimeFile, constructor);
  emit_group_entry();
  // Subgroup operations run the work-items as fibers, as barriers do.
  const bool fibers = kernel_uses_barrier() || kernel_uses_subgroups();
  emit_runtime_section(
      kRuntimeFile, "end",
      {{"USES_BARRIER", fibers ? "1u" : "0u"},
       {"SHARED_MEMORY_BYTES", shared_variables().empty() ? "0u" : "uint32_t(sizeof(porta_group_shared))"}});
}

void CppCompiler::emit_group_entry() {
  emit_runtime_section(kRuntimeFile, kernel_uses_subgroups() ? "run_group_subgroups"
                                     : kernel_uses_barrier() ? "run_group_fibers"
                                                             : "run_group_loop");
  statement("");
}

}  // namespace porta::translator::detail
