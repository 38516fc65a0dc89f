# Dependencies come from Debian's packages (scripts/setup installs them) and,
# for the CUDA backend, the CUDA Toolkit when present. Everything the kernel
# front end needs is linked statically into libporta.
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)
find_program(PORTA_GLSLC glslc REQUIRED)

function(porta_find_static_lib var name)
  find_library(${var} NAMES lib${name}.a REQUIRED)
endfunction()

foreach(lib shaderc_combined glslang MachineIndependent OSDependent GenericCodeGen OGLCompiler SPIRV
            glslang-default-resource-limits SPIRV-Tools-opt SPIRV-Tools spirv-cross-glsl spirv-cross-core)
  string(MAKE_C_IDENTIFIER ${lib} id)
  porta_find_static_lib(PORTA_LIB_${id} ${lib})
endforeach()

add_library(porta_shader_deps INTERFACE)
target_link_libraries(porta_shader_deps INTERFACE
  ${PORTA_LIB_shaderc_combined}
  -Wl,--start-group
  ${PORTA_LIB_glslang} ${PORTA_LIB_MachineIndependent} ${PORTA_LIB_OSDependent} ${PORTA_LIB_GenericCodeGen}
  ${PORTA_LIB_OGLCompiler} ${PORTA_LIB_SPIRV} ${PORTA_LIB_glslang_default_resource_limits}
  ${PORTA_LIB_SPIRV_Tools_opt} ${PORTA_LIB_SPIRV_Tools}
  -Wl,--end-group
  ${PORTA_LIB_spirv_cross_glsl} ${PORTA_LIB_spirv_cross_core}
  Threads::Threads)
target_include_directories(porta_shader_deps SYSTEM INTERFACE /usr/include/spirv_cross)

# Vendor headers for the GPU plugins (runtimes themselves are dlopen'ed).
find_path(PORTA_VULKAN_INCLUDE vulkan/vulkan.h)
find_path(PORTA_OPENCL_INCLUDE CL/cl.h)
find_path(PORTA_CUDA_INCLUDE cuda.h HINTS /usr/local/cuda/include ENV CUDA_HOME PATH_SUFFIXES include)
find_path(PORTA_NVRTC_INCLUDE nvrtc.h HINTS /usr/local/cuda/include ENV CUDA_HOME PATH_SUFFIXES include)
