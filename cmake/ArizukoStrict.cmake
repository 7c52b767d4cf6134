# Our own targets build with every common warning as an error; third-party
# headers come in as system includes and are not held to this.
function(arizuko_strict target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror)
    if(TARGET Qt6::Core)
        target_compile_definitions(${target} PRIVATE
            QT_NO_CONTEXTLESS_CONNECT QT_NO_CAST_FROM_ASCII QT_NO_URL_CAST_FROM_STRING
            QT_NO_NARROWING_CONVERSIONS_IN_CONNECT)
    endif()
endfunction()

# Registers a test with its labels. Every test carries exactly one of the
# suite's labels so `./dev test -L unit` and friends select honestly.
set(ARIZUKO_TEST_LABELS unit integration e2e gui fuzz)
function(arizuko_add_test name label)
    if(NOT label IN_LIST ARIZUKO_TEST_LABELS)
        message(FATAL_ERROR "test ${name}: label '${label}' is not one of ${ARIZUKO_TEST_LABELS}")
    endif()
    add_test(NAME ${name} COMMAND ${ARGN})
    # Widgets draw offscreen in every test; tests that need a real X server
    # (WebEngine) start their own Xvfb.
    # A skip is never a pass: exit 77 (tests/support/unittest_outcome.py, the
    # fuzzers) and a QSKIP or unittest skip in the output show as skipped, and
    # `./dev test` fails on every skipped test not in tests/allowed-skips.txt.
    set_tests_properties(${name} PROPERTIES LABELS ${label}
        ENVIRONMENT QT_QPA_PLATFORM=offscreen
        ENVIRONMENT_MODIFICATION "PYTHONPATH=path_list_prepend:${PROJECT_SOURCE_DIR}/tests/support"
        SKIP_RETURN_CODE 77
        SKIP_REGULAR_EXPRESSION "(^|\n)SKIP   : ;\\.\\.\\. skipped ")
endfunction()
