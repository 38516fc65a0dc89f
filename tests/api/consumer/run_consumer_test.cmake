# Installs porta from BUILD_DIR into a scratch prefix, then builds and runs a
# consumer through find_package(porta CONFIG) and one through pkg-config; with
# -DMODE=cxx17, instead a C++ consumer built as C++17 (-std=c++17 -pedantic).
# Arguments: -DBUILD_DIR= -DSOURCE_DIR= -DWORK_DIR= [-DMODE=cxx17 -DCXX=] and, for
# a sanitizer build, -DSANITIZER_FLAGS= (the -fsanitize options every consumer
# compiles and links with).
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("$ ${ARGN}\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f include/porta/porta.h include/porta/porta.hpp include/porta/plugin.h include/porta/version.h
          lib/pkgconfig/porta.pc
          lib/cmake/porta/portaConfig.cmake lib/porta/libporta-cpu.so bin/porta-info)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "install is missing ${f}")
  endif()
endforeach()
file(GLOB sonames ${prefix}/lib/libporta.so.*)
if(NOT sonames)
  message(FATAL_ERROR "install has no versioned libporta.so.N")
endif()

# The installed porta finds its plugins next to itself, not in the build tree.
set(ENV{PORTA_PLUGIN_PATH} "")
set(ENV{PORTA_CACHE_DIR} ${WORK_DIR}/cache)
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
execute_process(COMMAND pkg-config --cflags --libs porta OUTPUT_VARIABLE flags RESULT_VARIABLE rc
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config does not know porta")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
separate_arguments(sanitizer_flags UNIX_COMMAND "${SANITIZER_FLAGS}")

if(MODE STREQUAL "cxx17")
  run(${CXX} -std=c++17 -pedantic -Wall -Wextra -Werror ${sanitizer_flags} ${SOURCE_DIR}/consumer17.cpp ${flags}
      -Wl,-rpath,${prefix}/lib -o ${WORK_DIR}/consumer17)
  run(${WORK_DIR}/consumer17)
  return()
endif()

run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G Ninja -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_BUILD_RPATH=${prefix}/lib "-DCMAKE_C_FLAGS=${SANITIZER_FLAGS}" "-DCMAKE_CXX_FLAGS=${SANITIZER_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${SANITIZER_FLAGS}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)

run(cc ${sanitizer_flags} ${SOURCE_DIR}/consumer.c ${flags} -Wl,-rpath,${prefix}/lib -o ${WORK_DIR}/consumer_c)
run(${WORK_DIR}/consumer_c)
run(${prefix}/bin/porta-info)
