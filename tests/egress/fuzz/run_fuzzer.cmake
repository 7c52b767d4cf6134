# Runs a fuzzer for MAX_TOTAL_TIME seconds on a fresh copy of the seed corpus (so the
# committed corpus never changes) and fails on any crash, leak or sanitizer report.
foreach(required FUZZER SEED_CORPUS DICTIONARY WORK_DIR MAX_TOTAL_TIME)
    if(NOT DEFINED ${required})
        message(FATAL_ERROR "run_fuzzer.cmake needs -D${required}=...")
    endif()
endforeach()
if(NOT EXISTS "${FUZZER}")
    message(FATAL_ERROR "fuzzer not built: ${FUZZER}")
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/corpus" "${WORK_DIR}/artifacts")
file(GLOB seeds "${SEED_CORPUS}/*")
file(COPY ${seeds} DESTINATION "${WORK_DIR}/corpus")

execute_process(
    COMMAND "${FUZZER}" -max_total_time=${MAX_TOTAL_TIME} -max_len=4096 -timeout=10
            -dict=${DICTIONARY} -artifact_prefix=${WORK_DIR}/artifacts/ -print_final_stats=1
            "${WORK_DIR}/corpus"
    RESULT_VARIABLE result)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "${FUZZER} failed (exit ${result}); reproducer in ${WORK_DIR}/artifacts")
endif()
