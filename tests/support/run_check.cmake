# Runs COMMAND (arguments separated by @@) and checks how it ended:
#   EXPECT_RC         the exit status it must give (a number), or "nonzero"
#   REGEX             regular expressions its output (stdout and stderr) must all match
#   NOT_REGEX         regular expressions its output must not match
#   STDERR_REGEX      regular expressions its stderr alone must match
#   STDOUT_NOT_REGEX  regular expressions its stdout must not match
#   REPLAY            when set, the first "replay: ..." line of the output is run
#                     too and must also exit non-zero and match REPLAY
#   FILES             FILE=REGEX pairs: FILE must exist and match
#   HEXFILE           FILE=HEX: FILE's bytes, in hex, must equal HEX
# Lists separate their items with @@ (a ;-list would not survive add_test).
# Fails unless `text` matches every regular expression of `regexes`; `what`
# names the text in the message.
function(require_match text what regexes)
  foreach(re IN LISTS regexes)
    if(NOT text MATCHES "${re}")
      message(FATAL_ERROR "${what} does not match '${re}'")
    endif()
  endforeach()
endfunction()

# Fails if `text` matches any regular expression of `regexes`.
function(forbid_match text what regexes)
  foreach(re IN LISTS regexes)
    if(text MATCHES "${re}")
      message(FATAL_ERROR "${what} matches '${re}': '${CMAKE_MATCH_0}'")
    endif()
  endforeach()
endfunction()

# Splits "NAME=VALUE" at its first "=".
function(split_pair pair name_var value_var)
  string(FIND "${pair}" "=" eq)
  string(SUBSTRING "${pair}" 0 ${eq} name)
  math(EXPR start "${eq} + 1")
  string(SUBSTRING "${pair}" ${start} -1 value)
  set(${name_var} "${name}" PARENT_SCOPE)
  set(${value_var} "${value}" PARENT_SCOPE)
endfunction()

string(REPLACE "@@" ";" COMMAND "${COMMAND}")
string(REPLACE "@@" ";" REGEX "${REGEX}")
string(REPLACE "@@" ";" FILES "${FILES}")
string(REPLACE "@@" ";" NOT_REGEX "${NOT_REGEX}")
string(REPLACE "@@" ";" STDERR_REGEX "${STDERR_REGEX}")
string(REPLACE "@@" ";" STDOUT_NOT_REGEX "${STDOUT_NOT_REGEX}")
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
message("${all}")
if(EXPECT_RC STREQUAL "nonzero")
  if(rc EQUAL 0)
    message(FATAL_ERROR "expected a non-zero exit status, got 0")
  endif()
elseif(NOT rc STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "expected exit status ${EXPECT_RC}, got ${rc}")
endif()
require_match("${all}" "the output" "${REGEX}")
forbid_match("${all}" "the output" "${NOT_REGEX}")
require_match("${err}" "stderr" "${STDERR_REGEX}")
forbid_match("${out}" "stdout" "${STDOUT_NOT_REGEX}")
if(DEFINED REPLAY)
  if(NOT all MATCHES "replay: ([^\n]*)")
    message(FATAL_ERROR "no replay command in the output")
  endif()
  set(replay "${CMAKE_MATCH_1}")
  message("replaying: ${replay}")
  execute_process(COMMAND sh -c "${replay}" RESULT_VARIABLE rc2 OUTPUT_VARIABLE out2 ERROR_VARIABLE err2)
  message("${out2}${err2}")
  if(rc2 EQUAL 0)
    message(FATAL_ERROR "the replay command passed; it should fail the same way")
  endif()
  if(NOT "${out2}${err2}" MATCHES "${REPLAY}")
    message(FATAL_ERROR "the replay's output does not match '${REPLAY}'")
  endif()
  if(NOT "${out2}${err2}" MATCHES "1 failed")
    message(FATAL_ERROR "the replay should run exactly the one failing case")
  endif()
endif()
foreach(pair IN LISTS FILES)
  split_pair("${pair}" file re)
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "${file} was not written")
  endif()
  file(READ "${file}" content)
  require_match("${content}" "${file}" "${re}")
endforeach()
if(DEFINED HEXFILE)
  split_pair("${HEXFILE}" file want)
  file(READ "${file}" got HEX)
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "${file} holds ${got}, expected ${want}")
  endif()
endif()
