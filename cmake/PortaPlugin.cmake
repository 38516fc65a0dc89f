# porta_add_plugin(NAME sources...): builds libporta-NAME.so into lib/porta/
# (build tree) and installs it into <libdir>/porta/.
function(porta_add_plugin name)
  set(target porta-${name})
  add_library(${target} MODULE ${ARGN})
  target_link_libraries(${target} PRIVATE porta_headers porta_common Threads::Threads ${CMAKE_DL_LIBS})
  set_target_properties(${target} PROPERTIES
    PREFIX lib
    OUTPUT_NAME porta-${name}
    LIBRARY_OUTPUT_DIRECTORY ${PORTA_PLUGIN_OUTPUT_DIR}
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  target_link_options(${target} PRIVATE -Wl,--no-undefined)
  install(TARGETS ${target} LIBRARY DESTINATION ${PORTA_PLUGIN_INSTALL_DIR})
endfunction()

# porta_plugin_embed_runtime_headers(TARGET NAMESPACE HEADER FILES...): the
# translator's runtime headers FILES, carried inside the plugin TARGET as
# NAMESPACE::kRuntimeHeaders (plugin::EmbeddedFile, backends/common/
# embedded_file.hpp) and NAMESPACE::kRuntimeHeaderCount, which HEADER declares.
function(porta_plugin_embed_runtime_headers target namespace header)
  set(output ${CMAKE_CURRENT_BINARY_DIR}/runtime_headers.cpp)
  add_custom_command(OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DMODE=table "-DINPUTS=${ARGN}" -DOUTPUT=${output}
            -DNAMESPACE=${namespace} -DINCLUDE=${header} -DTYPE=plugin::EmbeddedFile -DTABLE=kRuntimeHeaders
            -DCOUNT=kRuntimeHeaderCount -P ${PORTA_EMBED_FILES_SCRIPT}
    DEPENDS ${ARGN} ${PORTA_EMBED_FILES_SCRIPT} VERBATIM
    COMMENT "Embedding the translator's runtime headers into ${target}")
  target_sources(${target} PRIVATE ${output})
endfunction()
