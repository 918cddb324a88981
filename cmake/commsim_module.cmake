# commsim_module(NAME DEPS dep... [SLOW pattern...])
# One static library per top-level folder from every *.cc below it; every *_test.cc beside the code
# goes into one GoogleTest binary `NAME_tests`, registered with CTest (label NAME). SLOW lists
# GoogleTest filter patterns (`Suite.Test`, `Suite.*`) of the tests that take more than about a
# second: their label is NAME_slow instead, so `ctest -LE slow` runs the fast suite. Globbing (with
# CONFIGURE_DEPENDS) means adding a component is one .h/.cc pair and no build edit.
# Every *_fuzz.cc is a libFuzzer driver: never part of the library or the tests; with COMMSIM_FUZZ
# it becomes its own program (see commsim_fuzz_target).
# The sanitizer build (COMMSIM_FUZZ) leaves out the end-to-end learning tests, files named
# *acceptance_test.cc, *training_test.cc, *claim_test.cc or *convergence_test.cc: they read no
# untrusted input and take minutes under the sanitizers.
function(commsim_module NAME)
  cmake_parse_arguments(M "" "" "DEPS;TEST_DEPS;SLOW" ${ARGN})
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
    target_link_libraries(commsim_${NAME} PUBLIC ${M_DEPS})
  else()
    add_library(commsim_${NAME} INTERFACE)
    target_include_directories(commsim_${NAME} INTERFACE "${PROJECT_SOURCE_DIR}")
    target_link_libraries(commsim_${NAME} INTERFACE ${M_DEPS})
  endif()
  if(test_sources)
    add_executable(${NAME}_tests ${test_sources})
    target_link_libraries(${NAME}_tests PRIVATE commsim_${NAME} ${M_TEST_DEPS} GTest::gtest GTest::gtest_main)
    target_compile_definitions(${NAME}_tests PRIVATE
      COMMSIM_SOURCE_DIR="${PROJECT_SOURCE_DIR}" COMMSIM_BINARY_DIR="${PROJECT_BINARY_DIR}")
    if(COMMSIM_FUZZ)  # one process per binary: sanitizer start-up is slow
      add_test(NAME ${NAME}_tests COMMAND ${NAME}_tests --gtest_brief=1
        WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}")
      set_tests_properties(${NAME}_tests PROPERTIES LABELS ${NAME})
    else()
      commsim_discover_tests(${NAME}_tests ${NAME} "${M_SLOW}")
    endif()
  endif()
  if(COMMSIM_FUZZ)
    foreach(f IN LISTS fuzz_sources)
      commsim_fuzz_target("${f}" commsim_${NAME})
    endforeach()
  endif()
endfunction()

# commsim_fuzz_target(SOURCE LIB): the driver <name>_fuzz.cc becomes build/fuzz/<name>_fuzz, linked
# with libFuzzer's main and LIB. Its corpus is <module>/fuzz_corpus/<name>/ (seeds and regression
# inputs); CTest runs every corpus input once (test `fuzz_corpus.<name>`, label fuzz).
# scripts/fuzz.sh fuzzes.
function(commsim_fuzz_target SOURCE LIB)
  get_filename_component(target "${SOURCE}" NAME_WE)
  string(REGEX REPLACE "_fuzz$" "" short "${target}")
  add_executable(${target} "${SOURCE}")
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
# cannot pass a list-valued property.)
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
    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}" PROPERTIES LABELS ${LABEL}_slow)
endfunction()
