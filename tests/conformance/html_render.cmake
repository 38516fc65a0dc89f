# The HTML report renders in a browser: headless Chromium loads the page the
# suite wrote (HTML), lays it out (its DOM must hold the matrix with a passing
# cell) and draws it (a PNG screenshot of real size).
#   CONFORMANCE  porta-conformance     HTML  the page to write   PNG  the screenshot
find_program(chromium NAMES chromium chromium-browser google-chrome)
if(NOT chromium)
  message("SKIP: no chromium here (Debian package: chromium); the HTML report was not rendered")
  return()
endif()
execute_process(COMMAND ${CONFORMANCE} --backend cpu --op fill,mul --html ${HTML} RESULT_VARIABLE rc
                OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "porta-conformance --html exited with ${rc}")
endif()
set(flags --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir=${PNG}.profile)
execute_process(COMMAND ${chromium} ${flags} --dump-dom file://${HTML}
                RESULT_VARIABLE rc OUTPUT_VARIABLE dom ERROR_QUIET TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "chromium --dump-dom exited with ${rc}")
endif()
foreach(re "<h2>Backends [^<]+ ops</h2>" "<td class=\"pass\"" "cpu:0")
  if(NOT dom MATCHES "${re}")
    message(FATAL_ERROR "the rendered page's DOM does not match '${re}'")
  endif()
endforeach()
file(REMOVE ${PNG})
execute_process(COMMAND ${chromium} ${flags} --hide-scrollbars --window-size=1280,900 --screenshot=${PNG}
                        file://${HTML} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET TIMEOUT 120)
file(REMOVE_RECURSE ${PNG}.profile)
if(NOT rc EQUAL 0 OR NOT EXISTS ${PNG})
  message(FATAL_ERROR "chromium --screenshot exited with ${rc} and wrote no ${PNG}")
endif()
file(SIZE ${PNG} size)
file(READ ${PNG} magic LIMIT 8 HEX)
if(NOT magic STREQUAL "89504e470d0a1a0a" OR size LESS 10000)
  message(FATAL_ERROR "${PNG} is not a drawn page (magic ${magic}, ${size} bytes)")
endif()
message("rendered ${HTML} in ${chromium}: DOM holds the matrix, screenshot ${PNG} (${size} bytes)")
