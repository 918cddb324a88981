# commsim_module(NAME [UNITY] DEPS package-target... PRIVATE_DEPS package-target...
#                TEST_DEPS target... [SLOW pattern...] [SANITIZER_ALONE Suite.Test...])
# One static library per top-level folder from every *.cc below it; every *_test.cc beside the code
# goes into one GoogleTest binary `NAME_tests`, registered with CTest (label NAME). SLOW lists
# GoogleTest filter patterns (`Suite.Test`, `Suite.*`) of the tests that take more than about a
# second: their label is NAME_slow instead, so `ctest -LE slow` runs the fast suite. UNITY compiles
# the test files COMMSIM_UNITY_BATCH at a time (see commsim_unity_tests). Globbing (with
# CONFIGURE_DEPENDS) means adding a component is one .h/.cc pair and no build edit.
# The modules it may use come from the graph in the top-level CMakeLists.txt
# (COMMSIM_MODULE_DEPS_<NAME>), linked PUBLIC; DEPS are outside packages its headers expose (PUBLIC),
# PRIVATE_DEPS those only its .cc files use. Includes are checked against the same graph: the
# module's own code (library, tests, fuzz drivers) first searches build/layering/NAME, which holds
# a stand-in for every header of every module NAME may not use, each an #error naming the rule,
# so an upward or sideways include fails to compile (see commsim_forbidden_headers).
# Every *_fuzz.cc is a libFuzzer driver: never part of the library or the tests; with COMMSIM_FUZZ
# it becomes its own program (see commsim_fuzz_target).
# The sanitizer build (COMMSIM_FUZZ) leaves out the end-to-end learning tests, files named
# *acceptance_test.cc, *training_test.cc, *claim_test.cc or *convergence_test.cc, and the SLOW
# tests: they read no untrusted input the fuzz drivers do not cover, and take minutes there.
# There each module's tests run in one process (sanitizer start-up is slow), except the tests named
# in SANITIZER_ALONE (each takes tens of seconds there): each is its own CTest entry, started first,
# so that `ctest -j` runs it beside the rest instead of after it on one core.
function(commsim_module NAME)
  cmake_parse_arguments(M "UNITY" "" "DEPS;PRIVATE_DEPS;TEST_DEPS;SLOW;SANITIZER_ALONE" ${ARGN})
  commsim_forbidden_headers(${NAME} forbidden)
  set(module_deps ${COMMSIM_MODULE_DEPS_${NAME}})
  list(TRANSFORM module_deps PREPEND commsim_)
  file(GLOB_RECURSE all_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.cc")
  set(lib_sources)
  set(test_sources)
  set(fuzz_sources)
  foreach(f IN LISTS all_sources)
    if(f MATCHES "(acceptance|training|claim|convergence)_test\\.cc$" AND COMMSIM_FUZZ)
      continue()
    elseif(f MATCHES "_test\\.cc$")
      list(APPEND test_sources "${f}")
    elseif(f MATCHES "_fuzz\\.cc$")
      list(APPEND fuzz_sources "${f}")
    else()
      list(APPEND lib_sources "${f}")
    endif()
  endforeach()
  if(lib_sources)
    add_library(commsim_${NAME} STATIC ${lib_sources})
    target_include_directories(commsim_${NAME} PUBLIC "${PROJECT_SOURCE_DIR}")
    target_include_directories(commsim_${NAME} BEFORE PRIVATE "${forbidden}")
    target_link_libraries(commsim_${NAME} PUBLIC ${module_deps} ${M_DEPS} PRIVATE ${M_PRIVATE_DEPS})
    if(COMMSIM_PIC)  # linked into the Python module (python/) too
      set_target_properties(commsim_${NAME} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    endif()
    commsim_precompiled_headers(commsim_${NAME} library)
  else()
    add_library(commsim_${NAME} INTERFACE)
    target_include_directories(commsim_${NAME} INTERFACE "${PROJECT_SOURCE_DIR}")
    target_link_libraries(commsim_${NAME} INTERFACE ${module_deps} ${M_DEPS})
  endif()
  if(test_sources)
    add_executable(${NAME}_tests ${test_sources})
    target_include_directories(${NAME}_tests BEFORE PRIVATE "${forbidden}")
    target_link_libraries(${NAME}_tests PRIVATE commsim_${NAME} ${M_TEST_DEPS} GTest::gtest GTest::gtest_main)
    if(M_UNITY)
      commsim_unity_tests(${NAME}_tests)
    endif()
    target_compile_definitions(${NAME}_tests PRIVATE
      COMMSIM_SOURCE_DIR="${PROJECT_SOURCE_DIR}" COMMSIM_BINARY_DIR="${PROJECT_BINARY_DIR}")
    commsim_test_optimisation(${NAME}_tests)
    commsim_precompiled_headers(${NAME}_tests test)
    if(COMMSIM_FUZZ)
      commsim_sanitizer_tests(${NAME} "${M_SLOW}" "${M_SANITIZER_ALONE}")
    else()
      commsim_discover_tests(${NAME}_tests ${NAME} "${M_SLOW}")
    endif()
  endif()
  if(COMMSIM_FUZZ)
    foreach(f IN LISTS fuzz_sources)
      commsim_fuzz_target("${f}" commsim_${NAME} "${forbidden}")
    endforeach()
  endif()
endfunction()

# commsim_sanitizer_tests(NAME SLOW_PATTERNS ALONE): the sanitizer build's CTest entries for
# NAME_tests: one process for all tests except the SLOW ones and those in ALONE, then one entry per
# test in ALONE. COST orders them: the lone tests first, then the binaries, then the corpora.
function(commsim_sanitizer_tests NAME SLOW_PATTERNS ALONE)
  list(JOIN SLOW_PATTERNS ":" slow)
  list(JOIN ALONE ":" alone)
  add_test(NAME ${NAME}_tests COMMAND ${NAME}_tests --gtest_brief=1
    "--gtest_filter=-${slow}:${alone}" WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}")
  set_tests_properties(${NAME}_tests PROPERTIES LABELS ${NAME} COST 100)
  foreach(test IN LISTS ALONE)
    add_test(NAME ${test} COMMAND ${NAME}_tests --gtest_brief=1 "--gtest_filter=${test}"
      WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}")
    set_tests_properties(${test} PROPERTIES LABELS ${NAME} COST 1000)
  endforeach()
endfunction()

# commsim_fuzz_target(SOURCE LIB FORBIDDEN): a driver <name>_fuzz.cc becomes build/fuzz/<name>_fuzz,
# linked with libFuzzer's main and LIB, checked for layering like its module (FORBIDDEN, see
# commsim_forbidden_headers). Its corpus is <module>/fuzz_corpus/<name>/ (seeds and regression
# inputs); CTest runs every corpus input once (test `fuzz_corpus.<name>`, label fuzz).
# scripts/fuzz.sh fuzzes.
function(commsim_fuzz_target SOURCE LIB FORBIDDEN)
  get_filename_component(target "${SOURCE}" NAME_WE)
  string(REGEX REPLACE "_fuzz$" "" short "${target}")
  add_executable(${target} "${SOURCE}")
  target_include_directories(${target} BEFORE PRIVATE "${FORBIDDEN}")
  target_link_libraries(${target} PRIVATE ${LIB})
  target_link_options(${target} PRIVATE -fsanitize=fuzzer)
  target_compile_definitions(${target} PRIVATE COMMSIM_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/fuzz")
  add_dependencies(commsim_fuzzers ${target})
  set(corpus "${CMAKE_CURRENT_SOURCE_DIR}/fuzz_corpus/${short}")
  if(NOT IS_DIRECTORY "${corpus}")
    message(FATAL_ERROR "${SOURCE}: no corpus folder ${corpus} (add at least one seed input)")
  endif()
  add_test(NAME fuzz_corpus.${short} COMMAND ${target} -runs=0 "${corpus}")
  set_tests_properties(fuzz_corpus.${short} PROPERTIES LABELS fuzz)
endfunction()

# commsim_discover_tests(TARGET LABEL SLOW_PATTERNS): registers TARGET's tests with CTest, labelled
# LABEL, except those matching one of SLOW_PATTERNS (GoogleTest filter patterns): LABEL_slow.
# Labels are matched as regular expressions, so `ctest -LE slow` runs the fast suite, `-L slow` the
# slow tests, `-L LABEL` all of the module's tests. (One label per test: gtest_discover_tests
# cannot pass a list-valued property.) The slow tests get a COST, so that a first run (no timings
# from earlier runs in Testing/) starts them first instead of ending on one of them.
function(commsim_discover_tests TARGET LABEL SLOW_PATTERNS)
  if(NOT SLOW_PATTERNS)
    gtest_discover_tests(${TARGET} DISCOVERY_TIMEOUT 120
      WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}" PROPERTIES LABELS ${LABEL})
    return()
  endif()
  list(JOIN SLOW_PATTERNS ":" slow)
  gtest_discover_tests(${TARGET} DISCOVERY_TIMEOUT 120 TEST_FILTER "-${slow}"
    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}" PROPERTIES LABELS ${LABEL})
  gtest_discover_tests(${TARGET} DISCOVERY_TIMEOUT 120 TEST_FILTER "${slow}"
    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}" PROPERTIES LABELS ${LABEL}_slow COST 100)
endfunction()

# commsim_forbidden_headers(NAME OUT): writes build/layering/NAME/<F>/<path>.h, an #error, for every
# header <F>/<path>.h of every module F that NAME may not use, and sets OUT to build/layering/NAME.
# Headers are globbed with CONFIGURE_DEPENDS, so a new header is covered at the next build.
function(commsim_forbidden_headers NAME OUT)
  set(root "${PROJECT_BINARY_DIR}/layering/${NAME}")
  commsim_module_closure(${NAME} allowed)
  foreach(f IN LISTS COMMSIM_MODULES)
    if(f STREQUAL NAME OR f IN_LIST allowed)
      continue()
    endif()
    file(GLOB_RECURSE headers CONFIGURE_DEPENDS RELATIVE "${PROJECT_SOURCE_DIR}"
      "${PROJECT_SOURCE_DIR}/${f}/*.h")
    foreach(h IN LISTS headers)
      file(CONFIGURE OUTPUT "${root}/${h}" CONTENT "#error \"${NAME}/ may not include ${f}/ \
(the module graph: top-level CMakeLists.txt, CONTRIBUTING.md)\"\n")
    endforeach()
  endforeach()
  file(MAKE_DIRECTORY "${root}")
  set(${OUT} "${root}" PARENT_SCOPE)
endfunction()

# commsim_module_closure(NAME OUT): NAME's dependencies in the module graph, direct and indirect.
function(commsim_module_closure NAME OUT)
  set(todo ${COMMSIM_MODULE_DEPS_${NAME}})
  set(seen)
  while(todo)
    list(POP_FRONT todo m)
    if(NOT m IN_LIST seen)
      list(APPEND seen ${m})
      list(APPEND todo ${COMMSIM_MODULE_DEPS_${m}})
    endif()
  endwhile()
  set(${OUT} ${seen} PARENT_SCOPE)
endfunction()

# commsim_check_module_graph(DOC): the fenced block after "Dependencies point one way" in DOC
# draws the graph as chains "a → b → c"; its edges must be exactly COMMSIM_MODULE_DEPS_*.
function(commsim_check_module_graph DOC)
  file(READ "${DOC}" text)
  string(FIND "${text}" "Dependencies point one way" at)
  if(at LESS 0)
    message(FATAL_ERROR "${DOC}: no \"Dependencies point one way\" section with the module graph")
  endif()
  string(SUBSTRING "${text}" ${at} -1 text)
  string(REGEX MATCH "```\n([^`]*)```" block "${text}")
  string(REPLACE "\n" ";" lines "${CMAKE_MATCH_1}")
  set(drawn)
  foreach(line IN LISTS lines)
    string(REPLACE "→" ";" chain "${line}")
    list(TRANSFORM chain STRIP)
    list(LENGTH chain n)
    math(EXPR last "${n} - 2")
    foreach(i RANGE 0 ${last})
      if(n LESS 2)
        break()
      endif()
      math(EXPR j "${i} + 1")
      list(GET chain ${i} from)
      list(GET chain ${j} to)
      list(APPEND drawn "${from}->${to}")
    endforeach()
  endforeach()
  set(declared)
  foreach(m IN LISTS COMMSIM_MODULES)
    foreach(d IN LISTS COMMSIM_MODULE_DEPS_${m})
      list(APPEND declared "${m}->${d}")
    endforeach()
  endforeach()
  list(SORT drawn)
  list(REMOVE_DUPLICATES drawn)
  list(SORT declared)
  if(NOT drawn STREQUAL declared)
    message(FATAL_ERROR "The module graph in ${DOC} (${drawn}) differs from the one in "
                        "CMakeLists.txt (${declared}): change both")
  endif()
endfunction()

# commsim_layering_test(): for every module M and every module F that M may not use, an object
# library (never built by default) whose one source includes a header of F and links M; the ctest
# `layering` builds them all and expects each to fail with "M/ may not include F/".
function(commsim_layering_test)
  set(probes)
  set(rules)
  foreach(m IN LISTS COMMSIM_MODULES)
    commsim_module_closure(${m} allowed)
    foreach(f IN LISTS COMMSIM_MODULES)
      if(f STREQUAL m OR f IN_LIST allowed OR NOT TARGET commsim_${m})
        continue()
      endif()
      file(GLOB f_headers RELATIVE "${PROJECT_SOURCE_DIR}" "${PROJECT_SOURCE_DIR}/${f}/*.h")
      list(SORT f_headers)
      list(GET f_headers 0 header)
      set(source "${PROJECT_BINARY_DIR}/layering/probes/${m}_includes_${f}.cc")
      file(CONFIGURE OUTPUT "${source}" CONTENT "#include \"${header}\"\n")
      add_library(layering_${m}_includes_${f} OBJECT EXCLUDE_FROM_ALL "${source}")
      target_include_directories(layering_${m}_includes_${f} BEFORE PRIVATE
        "${PROJECT_BINARY_DIR}/layering/${m}")
      target_link_libraries(layering_${m}_includes_${f} PRIVATE commsim_${m})
      list(APPEND probes layering_${m}_includes_${f})
      list(APPEND rules "${m}/ may not include ${f}/")
    endforeach()
  endforeach()
  add_test(NAME layering COMMAND "${CMAKE_COMMAND}" -D "BUILD_DIR=${PROJECT_BINARY_DIR}"
    -D "PROBES=${probes}" -D "RULES=${rules}"
    -P "${PROJECT_SOURCE_DIR}/cmake/check_layering.cmake")
  set_tests_properties(layering PROPERTIES LABELS layering RESOURCE_LOCK build_tree)
endfunction()

# commsim_unity_tests(TARGET): compiles TARGET's sources COMMSIM_UNITY_BATCH at a time (0 = one by
# one), each batch one compiler run (CMake's unity build). Most of a test file's compile time goes
# to the headers (GoogleTest, Eigen, fmt, nlohmann/json) and the template instantiations it shares
# with its neighbours; a batch parses and instantiates them once. The price: the files of a batch
# share one scope, so two test files may not define the same file-local name (an anonymous
# namespace is per batch, not per file): give helpers names of their own. Nothing a test does or
# checks changes.
function(commsim_unity_tests TARGET)
  if(COMMSIM_UNITY_BATCH GREATER 0)
    set_target_properties(${TARGET} PROPERTIES UNITY_BUILD ON
      UNITY_BUILD_BATCH_SIZE ${COMMSIM_UNITY_BATCH})
  endif()
endfunction()

# commsim_test_optimisation(TARGET): a test binary's own code compiles at -O1 in the Release build
# and -O0 in the sanitizer build, while the library code it tests keeps the build's flags (-O3,
# or -O1 under the sanitizers). Most of a test file's compile time is the optimiser's work on
# test bodies that run once; the time they run is spent in the library (docs/performance_log.md,
# "Test optimisation levels"). Other build types (Debug, RelWithDebInfo) keep their own flags.
function(commsim_test_optimisation TARGET)
  if(COMMSIM_FUZZ)
    target_compile_options(${TARGET} PRIVATE $<$<CONFIG:Release>:-O0>)
  else()
    target_compile_options(${TARGET} PRIVATE $<$<CONFIG:Release>:-O1>)
  endif()
endfunction()

# commsim_precompiled_headers(TARGET KIND [header...]): TARGET's sources are compiled with the
# standard and outside headers most of them include (and the extra ones given) parsed once, into a
# precompiled header, instead of once per source. KIND "library" or "test": the header is built once
# per kind, by an object library of its own (commsim_pch_KIND, no definitions of any module: a
# header built with a definition TARGET lacks is refused), and reused by every target of the kind
# (the kinds differ in optimisation level, which a precompiled header must match, and tests add
# GoogleTest); KIND "": TARGET's own. The headers each source includes stay its own business: the
# sanitizer build (COMMSIM_FUZZ) compiles without them, so a missing #include still fails there.
# COMMSIM_PCH=OFF turns them off.
function(commsim_precompiled_headers TARGET KIND)
  if(NOT COMMSIM_PCH OR COMMSIM_FUZZ)
    return()
  endif()
  set(headers
    <algorithm> <array> <cmath> <cstdint> <cstring> <filesystem> <fstream> <functional> <limits>
    <map> <memory> <optional> <set> <span> <sstream> <string> <string_view> <utility> <vector>
    <Eigen/Core> <fmt/format.h> <nlohmann/json.hpp>)
  if(NOT KIND)
    target_precompile_headers(${TARGET} PRIVATE ${headers} ${ARGN})
    return()
  endif()
  set(owner commsim_pch_${KIND})
  if(NOT TARGET ${owner})
    set(source "${PROJECT_BINARY_DIR}/generated/${owner}.cc")
    file(CONFIGURE OUTPUT "${source}" CONTENT "// The owner of the ${KIND} precompiled header.\n")
    add_library(${owner} OBJECT "${source}")
    if(KIND STREQUAL "library" AND COMMSIM_PIC)  # as position-independent as its libraries
      set_target_properties(${owner} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    endif()
    target_link_libraries(${owner} PRIVATE Eigen3::Eigen fmt::fmt nlohmann_json::nlohmann_json)
    if(KIND STREQUAL "test")
      target_link_libraries(${owner} PRIVATE GTest::gtest)
      commsim_test_optimisation(${owner})
      list(APPEND headers <gtest/gtest.h>)
    endif()
    target_precompile_headers(${owner} PRIVATE ${headers})
  endif()
  target_precompile_headers(${TARGET} REUSE_FROM ${owner})
endfunction()
