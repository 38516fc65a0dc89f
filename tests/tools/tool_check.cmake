# Runs COMMAND (arguments separated by @@) in DIR and checks how it ended:
#   EXPECT_RC      the exit status it must give
#   STDOUT_REGEX   a regular expression its stdout must match
#   STDERR_REGEX   a regular expression its stderr must match
#   STDOUT_EMPTY   when set, stdout must be empty (a usage error prints only to stderr)
#   JSON_KEY       stdout must be one JSON document with this top-level member
# In every case no file named "-" may appear in DIR: "-" is standard output.
string(REPLACE "@@" ";" COMMAND "${COMMAND}")
file(MAKE_DIRECTORY "${DIR}")
file(REMOVE "${DIR}/-")
execute_process(COMMAND ${COMMAND} WORKING_DIRECTORY "${DIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
message("stdout:\n${out}\nstderr:\n${err}")
if(NOT rc STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "expected exit status ${EXPECT_RC}, got ${rc}")
endif()
if(DEFINED STDOUT_REGEX AND NOT out MATCHES "${STDOUT_REGEX}")
  message(FATAL_ERROR "stdout does not match '${STDOUT_REGEX}'")
endif()
if(DEFINED STDERR_REGEX AND NOT err MATCHES "${STDERR_REGEX}")
  message(FATAL_ERROR "stderr does not match '${STDERR_REGEX}'")
endif()
if(STDOUT_EMPTY AND NOT out STREQUAL "")
  message(FATAL_ERROR "stdout should be empty")
endif()
if(DEFINED JSON_KEY)
  string(JSON type ERROR_VARIABLE json_error TYPE "${out}" "${JSON_KEY}")
  if(json_error)
    message(FATAL_ERROR "stdout is not JSON with a member '${JSON_KEY}': ${json_error}")
  endif()
endif()
if(EXISTS "${DIR}/-")
  message(FATAL_ERROR "a file named '-' was written instead of standard output")
endif()
