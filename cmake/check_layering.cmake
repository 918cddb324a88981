# Run by the ctest `layering` (see commsim_layering_test): builds every probe, each an include of
# a module that the including module may not use, and checks that each one failed because that
# header was not found. Any probe that compiles, or fails for another reason, fails the test.
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --target ${PROBES} -- -k 0
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
set(out "${out}${err}")
set(failed)
foreach(header IN LISTS HEADERS)
  # gcc: "fatal error: a/b.h: No such file or directory"; clang: "fatal error: 'a/b.h' file not found"
  string(FIND "${out}" "${header}: No such file" gcc_at)
  string(FIND "${out}" "'${header}' file not found" clang_at)
  if(gcc_at LESS 0 AND clang_at LESS 0)
    list(APPEND failed "${header}")
  endif()
endforeach()
list(LENGTH PROBES n)
if(failed OR rc EQUAL 0)
  message(FATAL_ERROR "layering: these includes were not refused as not found: ${failed}\n${out}")
endif()
message(STATUS "layering: all ${n} forbidden includes refused")
