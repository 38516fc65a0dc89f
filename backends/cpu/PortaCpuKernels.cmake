# Built-in CPU kernels: each GLSL compute shader goes glslc → porta-translate
# --target cpp (the same prepare() + translate() libporta applies at run time)
# → C++ compiled into the plugin, with its exact text embedded beside it, so
# kernel_create() recognises the text the core hands it and needs no compiler.
# Each kernel is translated twice, as the core translates for the CPU backend:
# with bounds checks (the default) and without (PORTA_CPU_BOUNDS=off).
#
# On x86-64 each kernel is also compiled for x86-64-v3 (AVX2, FMA) and
# x86-64-v4 (AVX-512), where the compiler knows those levels; the plugin picks
# the widest its processor runs (builtin.cpp). -mprefer-vector-width=128: the
# kernels' vec4 arithmetic is 128-bit, and wider preferred vectors made GCC
# pack four vec4 results into one 512-bit store through shuffles (matmul's
# accumulators; 1.1-1.3x slower single-threaded). -ffp-contract=off in every
# variant: no a * b + c becomes an fma (and porta_glsl.hpp rounds fma() once
# on every host), so the variants round alike and the reference backend's
# results do not depend on the machine. -fopenmp-simd and -fno-trapping-math,
# as at run time (compiler.cpp): a group's work-items run as SIMD lanes.
#
# PORTA_CPU_FULL_WIDTH_KERNELS take the level's full vector width instead:
# kernels whose hot code is scalar arithmetic the compiler vectorises itself
# and that hold no vec4 arithmetic (matmul_cpu's register blocks: 512-bit
# multiply-adds, where 128 gave 128-bit ones and spilled the block).
set(PORTA_CPU_FULL_WIDTH_KERNELS matmul_cpu)
#
# porta_cpu_builtin_kernels(<target> <file.comp>...)
include(CheckCXXCompilerFlag)
set(PORTA_CPU_ISA_LEVELS "")
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  foreach(level v3 v4)
    string(TOUPPER ${level} upper)
    check_cxx_compiler_flag(-march=x86-64-${level} PORTA_CXX_HAS_X86_64_${upper})
    if(PORTA_CXX_HAS_X86_64_${upper})
      list(APPEND PORTA_CPU_ISA_LEVELS ${level})
    endif()
  endforeach()
endif()

function(porta_cpu_builtin_kernels target)
  set(comps ${ARGN})
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/builtin)
  file(MAKE_DIRECTORY ${out_dir})
  if(comps AND NOT TARGET porta-translate)
    message(STATUS "porta-cpu: porta-translate is not built; no built-in CPU kernels (kernels compile at run time)")
    set(comps "")
  endif()
  get_property(runtime_dir GLOBAL PROPERTY PORTA_CPU_RUNTIME_DIR)
  # Kernels run at -O2 even in Debug builds: tests dispatch real work.
  # -Wno-format -Wno-nonnull -Wno-restrict: with any of these warnings on (the
  # project's -Wall), GCC 12 loses the `omp simd` loop's promise that its
  # lanes are independent and keeps the loop over work-items scalar (sigmoid
  # 3.4x slower per element).
  set(kernel_options -O2 -fwrapv -ffp-contract=off -fno-trapping-math -fopenmp-simd -Wno-unused
      -Wno-format -Wno-nonnull -Wno-restrict)

  set(decls "")
  set(rows "")
  set(seen "")
  set(count 0)
  foreach(comp ${comps})
    get_filename_component(comp ${comp} ABSOLUTE)
    get_filename_component(name ${comp} NAME_WE)
    string(MAKE_C_IDENTIFIER ${name} id)
    if(id IN_LIST seen)
      message(FATAL_ERROR "porta-cpu: two built-in kernels are named '${id}' (${comp})")
    endif()
    list(APPEND seen ${id})
    set(spv ${out_dir}/${id}.spv)
    add_custom_command(OUTPUT ${spv}
      # The options translator::compile_glsl() gives shaderc, so the text
      # matches the one the core translates at run time.
      COMMAND ${PORTA_GLSLC} --target-env=vulkan1.1 --target-spv=spv1.3 -g -fshader-stage=compute -o ${spv} ${comp}
      DEPENDS ${comp} VERBATIM COMMENT "glslc ${name}.comp")
    # Twice, as the core translates for the CPU backend: with bounds checks
    # (the default) and without (PORTA_CPU_BOUNDS=off), both with cancel polls.
    foreach(checks on off)
      if(checks STREQUAL "on")
        set(vid ${id})
        set(vname ${name})
        set(translate_options --bounds-checks --cancel-polls)
      else()
        set(vid ${id}_unchecked)
        set(vname "${name} (PORTA_CPU_BOUNDS=off)")
        set(translate_options --cancel-polls)
      endif()
      set(cpp ${out_dir}/${vid}.cpp)
      set(text ${out_dir}/${vid}_text.cpp)
      add_custom_command(OUTPUT ${cpp}
        COMMAND porta-translate --target cpp ${translate_options} -o ${cpp} ${spv}
        DEPENDS ${spv} porta-translate VERBATIM COMMENT "porta-translate --target cpp ${vname}")
      add_custom_command(OUTPUT ${text}
        COMMAND ${CMAKE_COMMAND} -DMODE=source -DINPUT=${cpp} -DSYMBOL=kSource_${vid} -DNAMESPACE=porta::cpu -DOUTPUT=${text}
                -P ${PORTA_CPU_EMBED_SCRIPT}
        DEPENDS ${cpp} ${PORTA_CPU_EMBED_SCRIPT} VERBATIM)
      set_source_files_properties(${cpp} PROPERTIES
        COMPILE_DEFINITIONS PORTA_CPU_KERNEL_NAME=porta_cpu_kernel_${vid}
        COMPILE_OPTIONS "${kernel_options}")
      target_sources(${target} PRIVATE ${cpp} ${text})
      string(APPEND decls "extern \"C\" const porta_cpu_kernel_entry porta_cpu_kernel_${vid};\n"
             "namespace porta::cpu { extern const char kSource_${vid}[]; extern const size_t kSource_${vid}_size; }\n")
      # The same translated text again, once per instruction-set level.
      set(entries "&porta_cpu_kernel_${vid}")
      set(width 128)
      if(name IN_LIST PORTA_CPU_FULL_WIDTH_KERNELS)
        set(width 512)
      endif()
      foreach(level v3 v4)
        if(level IN_LIST PORTA_CPU_ISA_LEVELS)
          set(variant ${out_dir}/${vid}_${level}.cpp)
          file(CONFIGURE OUTPUT ${variant} CONTENT "// Generated by porta_cpu_builtin_kernels(); do not edit.\n#include \"${vid}.cpp\"\n")
          set_source_files_properties(${variant} PROPERTIES
            OBJECT_DEPENDS ${cpp}
            COMPILE_DEFINITIONS PORTA_CPU_KERNEL_NAME=porta_cpu_kernel_${vid}_${level}
            COMPILE_OPTIONS "${kernel_options};-march=x86-64-${level};-mprefer-vector-width=${width}")
          target_sources(${target} PRIVATE ${variant})
          string(APPEND decls "extern \"C\" const porta_cpu_kernel_entry porta_cpu_kernel_${vid}_${level};\n")
          string(APPEND entries ", &porta_cpu_kernel_${vid}_${level}")
        else()
          string(APPEND entries ", nullptr")
        endif()
      endforeach()
      string(APPEND rows "    {\"${vname}\", kSource_${vid}, kSource_${vid}_size, {${entries}}},\n")
      math(EXPR count "${count} + 1")
    endforeach()
  endforeach()
  if(count EQUAL 0)
    set(rows "    {nullptr, nullptr, 0, {nullptr, nullptr, nullptr}},\n")
  endif()
  set(registry ${out_dir}/registry.cpp)
  file(CONFIGURE OUTPUT ${registry} CONTENT
"// Generated by porta_cpu_builtin_kernels(); do not edit.
#include \"builtin.hpp\"

@decls@
namespace porta::cpu {
const BuiltinKernel kBuiltinKernels[] = {
@rows@};
const size_t kBuiltinKernelCount = @count@;
}  // namespace porta::cpu
" @ONLY)
  target_sources(${target} PRIVATE ${registry})
  set_property(TARGET ${target} PROPERTY PORTA_CPU_BUILTIN_KERNELS "${seen}")
  set_property(TARGET ${target} PROPERTY PORTA_CPU_ISA_LEVELS "${PORTA_CPU_ISA_LEVELS}")
endfunction()
