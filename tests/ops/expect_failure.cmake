# Runs COMMAND (one string, arguments separated by spaces) and passes when it exits non-zero and its output
# matches REGEX: a refusal must be both reported and signalled.
separate_arguments(command UNIX_COMMAND "${COMMAND}")
execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(rc EQUAL 0)
  message(FATAL_ERROR "expected a non-zero exit status, got 0")
endif()
if(NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}'")
endif()
