# Runs the example character's generator into WORK and compares what it writes with the
# committed files. cmake -DGENERATOR=... -DCOMMITTED=... -DWORK=... -P example_reproducible.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND "${GENERATOR}" "${WORK}" RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "the generator failed (exit ${code}):\n${out}${err}")
endif()
foreach(name character.p2lrt character.json)
  file(SHA256 "${WORK}/${name}" made)
  file(SHA256 "${COMMITTED}/${name}" committed)
  if(NOT made STREQUAL committed)
    message(FATAL_ERROR "${name}: the generator now writes something else than the committed file; "
                        "rebuild it (examples/character/README.md) and the golden renders")
  endif()
endforeach()
