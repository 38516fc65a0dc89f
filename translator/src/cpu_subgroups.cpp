// Subgroup operations on target cpp: where each lane waits.
//
// The CPU backend runs a group's work-items as fibers; a subgroup operation
// is a meeting of the subgroup's lanes (runtime/porta_cpu_kernel.inc,
// "subgroup_types"). Lanes that diverged must meet at the same dynamic
// instance of an operation, in the order a SIMD machine that reconverges at
// every merge would run them: a lane still in iteration 2 of a loop runs its
// operations before a lane that left the loop, and two lanes at one operation
// in different iterations are two instances. So each operation passes its
// site: for every loop around it, outer first, the loop's place in the
// translation and the lane's iteration count of it, then the operation's own
// place. Places are numbered in emission order, which for structured control
// flow is the order of execution within one iteration; the iteration counts
// are private counters this file adds to the module before translation,
// counted up in each loop header and reset in its merge block. Modules
// without subgroup operations are left exactly as they are.
#include <algorithm>

#include "cpp_compiler.hpp"
#include "spirv_words.hpp"

namespace porta::translator::detail {

namespace {

void append(std::vector<uint32_t>& out, spv::Op opcode, std::initializer_list<uint32_t> operands) {
  out.push_back(uint32_t(operands.size() + 1) << 16 | uint32_t(opcode));
  out.insert(out.end(), operands);
}

}  // namespace

CppCompiler::CountedModule CppCompiler::count_loop_iterations(std::vector<uint32_t> spirv) {
  CountedModule module;
  bool subgroups = false;
  uint32_t uint_type = 0;
  std::unordered_map<uint32_t, std::vector<uint32_t>> successors;  // block → blocks it branches to
  uint32_t block = 0;
  for_each_instruction(spirv, [&](uint32_t opcode, const uint32_t* w, uint32_t count) {
    switch (opcode) {
      case spv::OpCapability:
        if (count >= 1 && is_group_non_uniform(static_cast<spv::Capability>(w[0]))) subgroups = true;
        break;
      case spv::OpTypeInt:
        if (count >= 3 && w[1] == 32 && w[2] == 0) uint_type = w[0];
        break;
      case spv::OpLabel:
        block = w[0];
        break;
      case spv::OpLoopMerge:
        module.loops.push_back({block, w[0], 0, {}});
        break;
      case spv::OpBranch:
        successors[block].push_back(w[0]);
        break;
      case spv::OpBranchConditional:
        successors[block].insert(successors[block].end(), {w[1], w[2]});
        break;
      case spv::OpSwitch:
        // Targets follow the default in (literal, label) pairs; a 64-bit
        // selector's literals take two words, and a literal read as a
        // label that is none adds no block.
        for (uint32_t i = 1; i < count; ++i) successors[block].push_back(w[i]);
        break;
      default:
        break;
    }
  });
  if (!subgroups || module.loops.empty()) {
    module.loops.clear();
    module.spirv = std::move(spirv);
    return module;
  }

  // The blocks of each loop construct: those reached from the header
  // without passing its merge block.
  for (Loop& loop : module.loops) {
    std::vector<uint32_t> stack = {loop.header};
    while (!stack.empty()) {
      const uint32_t b = stack.back();
      stack.pop_back();
      if (b == loop.merge || !loop.blocks.insert(b).second) continue;
      auto next = successors.find(b);
      if (next != successors.end()) stack.insert(stack.end(), next->second.begin(), next->second.end());
    }
  }

  uint32_t bound = spirv[3];
  const bool new_uint = uint_type == 0;
  if (new_uint) uint_type = bound++;
  const uint32_t pointer_type = bound++, zero = bound++, one = bound++;
  for (Loop& loop : module.loops) loop.counter = bound++;

  std::vector<uint32_t> out(spirv.begin(), spirv.begin() + kSpirvHeaderWords);
  bool declared = false;
  size_t at = kSpirvHeaderWords;
  while (at < spirv.size()) {
    const uint32_t length = spirv[at] >> 16, opcode = spirv[at] & 0xffffu;
    if (length == 0 || at + length > spirv.size()) break;
    if (opcode == spv::OpFunction && !declared) {
      if (new_uint) append(out, spv::OpTypeInt, {uint_type, 32, 0});
      append(out, spv::OpTypePointer, {pointer_type, spv::StorageClassPrivate, uint_type});
      append(out, spv::OpConstant, {uint_type, zero, 0});
      append(out, spv::OpConstant, {uint_type, one, 1});
      for (const Loop& loop : module.loops)
        append(out, spv::OpVariable, {pointer_type, loop.counter, spv::StorageClassPrivate, zero});
      declared = true;
    }
    out.insert(out.end(), spirv.begin() + at, spirv.begin() + at + length);
    at += length;
    if (opcode != spv::OpLabel) continue;
    // After the label and the block's OpPhi (and OpLine) instructions.
    const uint32_t label = spirv[at - length + 1];
    while (at < spirv.size()) {
      const uint32_t next_length = spirv[at] >> 16, next = spirv[at] & 0xffffu;
      if (next_length == 0 || (next != spv::OpPhi && next != spv::OpLine && next != spv::OpNoLine)) break;
      out.insert(out.end(), spirv.begin() + at, spirv.begin() + at + next_length);
      at += next_length;
    }
    for (const Loop& loop : module.loops)
      if (loop.merge == label) append(out, spv::OpStore, {loop.counter, zero});
    for (const Loop& loop : module.loops) {
      if (loop.header != label) continue;
      const uint32_t loaded = bound++, incremented = bound++;
      append(out, spv::OpLoad, {uint_type, loaded, loop.counter});
      append(out, spv::OpIAdd, {uint_type, incremented, loaded, one});
      append(out, spv::OpStore, {loop.counter, incremented});
    }
  }
  out[3] = bound;
  module.spirv = std::move(out);
  return module;
}

std::string CppCompiler::subgroup_site() {
  if (current_function == nullptr || current_function->self != ir.default_entry_point)
    unsupported("a subgroup operation outside the entry point (target cpp needs it inlined)");
  const uint32_t block = current_emitting_block->self;
  std::vector<const Loop*> around;
  for (const Loop& loop : loops_)
    if (loop.blocks.count(block)) around.push_back(&loop);
  // An outer loop's construct holds every block of the inner one.
  std::sort(around.begin(), around.end(),
            [](const Loop* a, const Loop* b) { return a->blocks.size() > b->blocks.size(); });
  std::string site = "{";
  for (const Loop* loop : around) {
    auto place = loop_places_.find(uint32_t(loop - loops_.data()));
    if (place == loop_places_.end())
      unsupported("a subgroup operation in a loop whose header was not emitted first");
    site += std::to_string(place->second) + "u, " + to_name(loop->counter) + ", ";
  }
  return site + std::to_string(next_place_++) + "u}";
}

std::string CppCompiler::subgroup_expression(const SubgroupOperation& operation, uint32_t result_type) {
  if (!operation.exchanges) return TargetCompiler::subgroup_expression(operation, result_type);
  std::string call = operation.function;
  if (operation.generic)
    call.append("<").append(type_to_glsl(expression_type(operation.operands[0]))).append(">");
  call.append("(").append(subgroup_site());
  for (uint32_t operand : operation.operands) call += ", " + to_unpacked_expression(operand);
  if (operation.cluster_size) call += ", " + std::to_string(operation.cluster_size) + "u";
  return call + ")";
}

std::string CppCompiler::subgroup_barrier_statement(bool control) {
  if (!control) return TargetCompiler::subgroup_barrier_statement(control);
  return "subgroupBarrier(" + subgroup_site() + ");";
}

}  // namespace porta::translator::detail
