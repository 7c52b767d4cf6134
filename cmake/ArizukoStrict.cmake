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

# A skip is never a pass: exit 77 (tests/support/unittest_outcome.py, the
# fuzzers) or a skip in the output marks a test skipped, and `./dev test`
# fails on every skipped test not in tests/allowed-skips.txt. The output
# markers: QtTest's QSKIP, Python unittest's, and GoogleTest's GTEST_SKIP
# (which exits 0).
set(ARIZUKO_SKIP_RETURN_CODE 77)
set(ARIZUKO_SKIP_OUTPUT "(^|\n)SKIP   : " "\\.\\.\\. skipped " "(^|\n)\\[  SKIPPED \\] ")

# Registers a test with its labels. Every test carries exactly one of the
# suite's labels so `./dev test -L unit` and friends select honestly.
set(ARIZUKO_TEST_LABELS unit integration e2e gui fuzz)
function(arizuko_add_test name label)
    if(NOT label IN_LIST ARIZUKO_TEST_LABELS)
        message(FATAL_ERROR "test ${name}: label '${label}' is not one of ${ARIZUKO_TEST_LABELS}")
    endif()
    # The turn and window end-to-end tests run as a normal user in group
    # libvirt (tests/as-test-user), as the app is used; a directory whose
    # tests need root sets ARIZUKO_TESTS_NEED_ROOT to the reason.
    if((label STREQUAL "e2e" OR ARIZUKO_TEST_AS_USER) AND NOT ARIZUKO_TESTS_NEED_ROOT)
        set(writable)
        foreach(directory IN LISTS ARIZUKO_TEST_USER_WRITABLE)
            list(APPEND writable --writable ${directory})
        endforeach()
        add_test(NAME ${name} COMMAND ${PROJECT_SOURCE_DIR}/tests/as-test-user ${writable} -- ${ARGN})
        set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED test-user)
    else()
        add_test(NAME ${name} COMMAND ${ARGN})
    endif()
    # Widgets draw offscreen in every test; tests that need a real X server
    # (WebEngine) start their own Xvfb.
    set_tests_properties(${name} PROPERTIES LABELS ${label}
        ENVIRONMENT QT_QPA_PLATFORM=offscreen
        ENVIRONMENT_MODIFICATION "PYTHONPATH=path_list_prepend:${PROJECT_SOURCE_DIR}/tests/support"
        SKIP_RETURN_CODE ${ARIZUKO_SKIP_RETURN_CODE}
        SKIP_REGULAR_EXPRESSION "${ARIZUKO_SKIP_OUTPUT}"
        TIMEOUT ${ARIZUKO_TEST_TIMEOUT_${label}})
endfunction()

# CTest's TIMEOUT by label, for tests that take seconds: a hang ends in
# minutes, not in CTest's default 25. A test that takes longer declares its
# usual time instead (arizuko_test_usual_time).
set(ARIZUKO_TEST_TIMEOUT_unit 60)
set(ARIZUKO_TEST_TIMEOUT_fuzz 120)
set(ARIZUKO_TEST_TIMEOUT_integration 120)
set(ARIZUKO_TEST_TIMEOUT_gui 120)
set(ARIZUKO_TEST_TIMEOUT_e2e 300)

# A test's usual time, in seconds, on the machine CI runs on (2 cores, TCG
# VMs, the suite running two tests at once; `./dev test` prints the ten
# slowest). Its deadline is three times that: a Python test then fails with
# its own reason and the stack it hung in (tests/support/test_deadline.py), a
# QtTest function with QtTest's timeout. CTest's TIMEOUT, a minute later,
# ends a test whose cleanup hangs too. Call it after the test's ENVIRONMENT
# is set.
function(arizuko_test_usual_time name seconds)
    math(EXPR deadline "${seconds} * 3")
    math(EXPR timeout "${deadline} + 60")
    math(EXPR deadline_ms "${deadline} * 1000")
    set_tests_properties(${name} PROPERTIES TIMEOUT ${timeout})
    set_property(TEST ${name} APPEND PROPERTY ENVIRONMENT
        ARIZUKO_TEST_DEADLINE=${deadline} QTEST_FUNCTION_TIMEOUT=${deadline_ms})
endfunction()
