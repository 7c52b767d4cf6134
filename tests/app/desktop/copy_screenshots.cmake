# Copies the named screenshots FROM the build tree TO docs/screenshots/; a
# picture the tests did not take is an error, never a stale copy kept.
foreach(name IN LISTS NAMES)
    if(NOT EXISTS "${FROM}/${name}")
        message(FATAL_ERROR "${FROM}/${name} was not taken by the tests")
    endif()
    file(COPY_FILE "${FROM}/${name}" "${TO}/${name}" ONLY_IF_DIFFERENT)
endforeach()
