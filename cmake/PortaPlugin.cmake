# porta_add_plugin(NAME sources...): builds libporta-NAME.so into lib/porta/
# (build tree) and installs it into <libdir>/porta/.
function(porta_add_plugin name)
  set(target porta-${name})
  add_library(${target} MODULE ${ARGN})
  target_link_libraries(${target} PRIVATE porta_headers Threads::Threads ${CMAKE_DL_LIBS})
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
