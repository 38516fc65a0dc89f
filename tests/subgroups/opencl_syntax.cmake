# Translates each subgroup kernel to OpenCL C and compiles it with clang's
# OpenCL front end, the subgroup extensions declared (clang's opencl-c.h is
# what PoCL and other clang-based compilers build against). This checks the
# built-ins' names and signatures where no OpenCL device here has them.
# The translation for subgroups of one work-item (--subgroup-size 1, what the
# OpenCL backend runs on devices without those extensions) must compile as
# OpenCL C 1.2 with no subgroup extension at all (a check of an operation
# against the own value, true in one work-item, is a self-comparison there).
# -DTRANSLATE=porta-translate -DCLANG=clang -DKERNELS=dir -DWORK=dir
file(GLOB kernels ${KERNELS}/*.comp)
set(extensions "+cl_khr_subgroups,+cl_khr_subgroup_ballot,+cl_khr_subgroup_non_uniform_vote,+cl_khr_subgroup_non_uniform_arithmetic,+cl_khr_subgroup_shuffle,+cl_khr_subgroup_shuffle_relative,+cl_khr_subgroup_clustered_reduce,+__opencl_c_subgroups,+cl_khr_fp64,+__opencl_c_fp64")
file(MAKE_DIRECTORY ${WORK})
foreach(kernel ${kernels})
  get_filename_component(name ${kernel} NAME_WE)
  execute_process(COMMAND ${TRANSLATE} --target opencl -o ${WORK}/${name}.cl ${kernel} RESULT_VARIABLE failed
                  ERROR_VARIABLE error)
  if(failed)
    message(FATAL_ERROR "${name}: porta-translate --target opencl failed: ${error}")
  endif()
  foreach(std CL2.0 CL3.0)
    execute_process(COMMAND ${CLANG} -cl-std=${std} -Xclang -finclude-default-header -Xclang -cl-ext=${extensions}
                            -target spir64 -fsyntax-only -Wall -Werror -x cl ${WORK}/${name}.cl
                    RESULT_VARIABLE failed ERROR_VARIABLE error)
    if(failed)
      message(FATAL_ERROR "${name} (-cl-std=${std}): clang rejects the translation:\n${error}")
    endif()
  endforeach()
  execute_process(COMMAND ${TRANSLATE} --target opencl --subgroup-size 1 -o ${WORK}/${name}.single.cl ${kernel}
                  RESULT_VARIABLE failed ERROR_VARIABLE error)
  if(failed)
    message(FATAL_ERROR "${name}: porta-translate --target opencl --subgroup-size 1 failed: ${error}")
  endif()
  execute_process(COMMAND ${CLANG} -cl-std=CL1.2 -Xclang -finclude-default-header -Xclang -cl-ext=-all,+cl_khr_fp64
                          -target spir64 -fsyntax-only -Wall -Werror -Wno-tautological-compare -x cl
                          ${WORK}/${name}.single.cl
                  RESULT_VARIABLE failed ERROR_VARIABLE error)
  if(failed)
    message(FATAL_ERROR "${name} (subgroups of one work-item, -cl-std=CL1.2): clang rejects the translation:\n${error}")
  endif()
  message(STATUS "${name}: compiles as OpenCL C 2.0 and 3.0, and for subgroups of one work-item as OpenCL C 1.2")
endforeach()
