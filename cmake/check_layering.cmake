# Run by the ctest `layering` (see commsim_layering_test): builds every probe, each an include of
# a module that the including module may not use, and checks that each one was refused with its
# rule ("M/ may not include F/"). A probe that compiles, or fails otherwise, fails the test.
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --target ${PROBES} -- -k 0
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
set(out "${out}${err}")
set(missing)
foreach(rule IN LISTS RULES)
  string(FIND "${out}" "${rule}" at)
  if(at LESS 0)
    list(APPEND missing "${rule}")
  endif()
endforeach()
list(LENGTH PROBES n)
if(missing OR rc EQUAL 0)
  message(FATAL_ERROR "layering: these includes were not refused: ${missing}\n${out}")
endif()
message(STATUS "layering: all ${n} forbidden includes refused")
