# Build step (cmake -P): installs the pinned highlight.js package with
# `npm ci --offline`, from npm's cache only, and writes what the transcript
# page loads: one script (the browser build and the languages it lacks) and
# the light and dark themes. Never reaches the network: `./dev setup` fills
# the cache from the npm registry once.
# -D SOURCE=<dir with package.json and package-lock.json>
# -D WORK=<npm's working directory> -D OUT=<directory of the bundle>
# -D NPM=<npm program>
foreach(variable SOURCE WORK OUT NPM)
    if(NOT DEFINED ${variable})
        message(FATAL_ERROR "BundleHighlight.cmake: -D ${variable}=… is missing")
    endif()
endforeach()

file(MAKE_DIRECTORY "${WORK}" "${OUT}")
file(COPY "${SOURCE}/package.json" "${SOURCE}/package-lock.json" DESTINATION "${WORK}")
execute_process(
    COMMAND "${NPM}" ci --offline --ignore-scripts --no-audit --no-fund --loglevel=error
    WORKING_DIRECTORY "${WORK}"
    RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "npm ci --offline failed for ${SOURCE}/package-lock.json: npm's cache "
        "lacks the pinned highlight.js. Fill it once from the npm registry with `./dev setup` "
        "(or `npm ci` in a copy of that directory), then build again.")
endif()

set(package "${WORK}/node_modules/@highlightjs/cdn-assets")
# The browser build holds the common languages; these add the build files
# an agent writes most that it lacks.
set(script "")
foreach(part highlight.min.js languages/cmake.min.js languages/dockerfile.min.js)
    file(READ "${package}/${part}" text)
    string(APPEND script "${text}\n")
endforeach()
file(WRITE "${OUT}/highlight.js" "${script}")
file(COPY_FILE "${package}/styles/github.min.css" "${OUT}/light.css")
file(COPY_FILE "${package}/styles/github-dark.min.css" "${OUT}/dark.css")
file(COPY_FILE "${package}/LICENSE" "${OUT}/LICENSE")
