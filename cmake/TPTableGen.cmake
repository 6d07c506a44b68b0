#===- TPTableGen.cmake - run tp-tblgen like LLVM's tablegen() ------------===#
#
# tp_tablegen(<output.inc> <-gen-action> [extra tp-tblgen args])
#
# Generates <output.inc> in the current binary dir from td/SM86.td.  The
# output depends on every .td file under td/, so editing any of them
# regenerates (and rebuilds) everything that includes the output.  The
# name of the output is appended to TABLEGEN_OUTPUT in the caller's scope.
set(TP_TD_DIR ${CMAKE_SOURCE_DIR}/td)
file(GLOB_RECURSE TP_TD_FILES CONFIGURE_DEPENDS ${TP_TD_DIR}/*.td)

function(tp_tablegen ofn action)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${ofn})
  add_custom_command(OUTPUT ${out}
    COMMAND tp-tblgen ${action} ${ARGN} -I ${TP_TD_DIR}
            ${TP_TD_DIR}/SM86.td -o ${out}.tmp
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${out}.tmp ${out}
    DEPENDS tp-tblgen ${TP_TD_FILES}
    COMMENT "tp-tblgen ${action} -> ${ofn}"
    VERBATIM)
  set(TABLEGEN_OUTPUT ${TABLEGEN_OUTPUT} ${out} PARENT_SCOPE)
endfunction()

# tp_tablegen_to(<absolute output path> <-gen-action> [args]): like
# tp_tablegen, for outputs that live elsewhere (generated public headers
# under ${CMAKE_BINARY_DIR}/include).
function(tp_tablegen_to out action)
  add_custom_command(OUTPUT ${out}
    COMMAND tp-tblgen ${action} ${ARGN} -I ${TP_TD_DIR}
            ${TP_TD_DIR}/SM86.td -o ${out}.tmp
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${out}.tmp ${out}
    DEPENDS tp-tblgen ${TP_TD_FILES}
    COMMENT "tp-tblgen ${action} -> ${out}"
    VERBATIM)
  set(TABLEGEN_OUTPUT ${TABLEGEN_OUTPUT} ${out} PARENT_SCOPE)
endfunction()
