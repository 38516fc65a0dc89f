// Target cpp. The translation unit, in order:
//   includes; namespace {; spec constants, gl_WorkGroupSize, structs, the
//   push-constant struct; buffer views; porta_group_shared; porta_work_item
//   (built-ins, views, push constants, shared memory, private globals,
//   barrier(), helper functions, main()); porta_run_group; }; the exported
//   porta_cpu_kernel_entry.
// A work-item is a small struct built on the stack, so its built-ins and
// views are plain members the optimiser keeps in registers; run_group loops
// over the group (no barriers) or hands the items to the scheduler's fibers.
#include "cpp_compiler.hpp"

namespace porta::translator::detail {

std::string CppCompiler::buffer_pointer_type(const std::string& element, Access access) const {
  return (access == Access::Read ? "const " : "") + element + "*";
}

const std::unordered_set<std::string>& CppCompiler::reserved_words() const {
  // The C++ words, and the names porta_cpu.h and the generated code use.
  static const std::unordered_set<std::string> words = [] {
    std::unordered_set<std::string> all = cxx_reserved_words();
    all.insert({"porta_group", "porta_run_item", "porta_run_group", "porta_scheduler", "args", "local_id",
                "local_index", "group"});
    return all;
  }();
  return words;
}

void CppCompiler::emit_translation_unit() {
  statement("// Translated by porta-translate (target cpp) from SPIR-V. The CPU backend compiles");
  statement("// this file; the contract is translator/runtime/porta_cpu.h.");
  statement("#include \"porta_glsl.hpp\"");
  statement("#include \"porta_cpu.h\"");
  statement("");
  statement("namespace");
  statement("{");
  statement("");
  statement("using namespace porta_glsl;");
  statement("");
  emit_constants_and_types();
  emit_buffer_views();
  emit_shared_struct();
  emit_work_item();
  emit_group_entry();
  statement("} // namespace");
  statement("");
  const auto& size = get_entry_point();
  (void)size;
  statement("PORTA_CPU_EXPORT_KERNEL const porta_cpu_kernel_entry PORTA_CPU_KERNEL_NAME = {");
  statement("    PORTA_CPU_KERNEL_ABI_VERSION,");
  statement("    porta_run_group,");
  statement("    {gl_WorkGroupSize.x, gl_WorkGroupSize.y, gl_WorkGroupSize.z},");
  statement("    ", kernel_uses_barrier() ? "1u" : "0u", ",  // uses_barrier");
  statement("    ", shared_variables().empty() ? "0u" : "uint32_t(sizeof(porta_group_shared))",
            ",  // shared_memory_bytes");
  statement("};");
}

void CppCompiler::emit_work_item() {
  statement("// One work-item: GLSL's built-ins and resources as members, the kernel as main().");
  statement("struct porta_work_item");
  begin_scope();
  statement("uvec3 gl_NumWorkGroups;");
  statement("uvec3 gl_WorkGroupID;");
  statement("uvec3 gl_LocalInvocationID;");
  statement("uvec3 gl_GlobalInvocationID;");
  statement("uint gl_LocalInvocationIndex;");
  for (const BufferView& view : buffer_views()) statement(view.type_name, " ", to_name(view.variable), ";");
  if (push_constant_variable())
    statement("const ", push_constant_type_name(), "& ", to_name(push_constant_variable()), ";");
  statement("porta_group_shared& shared;");
  statement("const porta_cpu_scheduler* porta_scheduler;");
  emit_private_variables();
  statement("");

  statement(
      "porta_work_item(const porta_cpu_group_args* args, porta_group_shared& group_shared, uvec3 local_id)");
  statement("    : gl_NumWorkGroups(args->num_groups[0], args->num_groups[1], args->num_groups[2]),");
  statement("      gl_WorkGroupID(args->group_id[0], args->group_id[1], args->group_id[2]),");
  statement("      gl_LocalInvocationID(local_id),");
  statement("      gl_GlobalInvocationID(gl_WorkGroupID * gl_WorkGroupSize + local_id),");
  statement(
      "      gl_LocalInvocationIndex(local_id.x + gl_WorkGroupSize.x * (local_id.y + gl_WorkGroupSize.y * "
      "local_id.z)),");
  for (const BufferView& view : buffer_views())
    statement("      ", to_name(view.variable), "(args->buffers[", view.parameter, "]),");
  if (push_constant_variable())
    statement("      ", to_name(push_constant_variable()), "(*static_cast<const ", push_constant_type_name(),
              "*>(args->push)),");
  statement("      shared(group_shared),");
  statement("      porta_scheduler(args->scheduler)");
  statement("{");
  statement("}");
  statement("");
  if (kernel_uses_barrier()) {
    statement("// Every work-item of the group reaches this point before any goes on.");
    statement("void barrier()");
    begin_scope();
    statement("porta_scheduler->barrier(porta_scheduler->self);");
    end_scope();
    statement("");
  }
  emit_kernel_functions();
  end_scope_decl();
  statement("");
}

void CppCompiler::emit_group_entry() {
  if (!kernel_uses_barrier()) {
    statement("// No barriers: the work-items of a group run one after another.");
    statement("void porta_run_group(const porta_cpu_group_args* args)");
    begin_scope();
    statement("porta_group_shared group_shared{};");
    statement("for (uint z = 0u; z < gl_WorkGroupSize.z; ++z)");
    statement("    for (uint y = 0u; y < gl_WorkGroupSize.y; ++y)");
    statement("        for (uint x = 0u; x < gl_WorkGroupSize.x; ++x)");
    statement("            porta_work_item(args, group_shared, uvec3(x, y, z)).main();");
    end_scope();
    statement("");
    return;
  }
  statement("struct porta_group");
  begin_scope();
  statement("const porta_cpu_group_args* args;");
  statement("porta_group_shared group_shared;");
  end_scope_decl();
  statement("");
  statement("void porta_run_item(void* context, uint32_t local_index)");
  begin_scope();
  statement("porta_group& group = *static_cast<porta_group*>(context);");
  statement(
      "const uvec3 local_id(local_index % gl_WorkGroupSize.x, local_index / gl_WorkGroupSize.x % "
      "gl_WorkGroupSize.y,");
  statement("                     local_index / (gl_WorkGroupSize.x * gl_WorkGroupSize.y));");
  statement("porta_work_item(group.args, group.group_shared, local_id).main();");
  end_scope();
  statement("");
  statement("// Barriers: each work-item runs as a fiber of the scheduler, which switches at barrier().");
  statement("void porta_run_group(const porta_cpu_group_args* args)");
  begin_scope();
  statement("porta_group group{args, {}};");
  statement(
      "args->scheduler->run_items(args->scheduler->self, gl_WorkGroupSize.x * gl_WorkGroupSize.y * "
      "gl_WorkGroupSize.z,");
  statement("                           porta_run_item, &group);");
  end_scope();
  statement("");
}

}  // namespace porta::translator::detail
