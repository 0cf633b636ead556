# What `p2lrt import` reports, for a synthetic model (seed 7, moc3 version 4) with a blend
# shape under two constraints, a mesh whose colour shares a parameter with its deformer's, and
# a glue between meshes that can be disabled:
# - under Cubism's rules (the default) the rig evaluates as the Core does, so none of the
#   three is an approximation and the report must not name them;
# - under the format's own rules (--rules original) the report must name all three;
# and each file it writes must read back (`p2lrt info`) with the rules it was written with.
#   cmake -DP2LRT=... -DMAKE_MOC3=... -DWORK=... -P import_report.cmake
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${MAKE_MOC3} 7 ${WORK}/seed7.moc3 --version 4 RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "p2l_make_moc3 failed: ${rc}")
endif()
set(approximations "takes min(1, weights)" "keyed on the same parameter" "Cubism still glues")
foreach(rules cubism original)
  execute_process(COMMAND ${P2LRT} import ${WORK}/seed7.moc3 -o ${WORK}/seed7-${rules}.p2lrt --rules ${rules}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(all "${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "p2lrt import --rules ${rules} failed (${rc}):\n${all}")
  endif()
  foreach(expected ${approximations} "imported seed7.moc3")
    string(FIND "${all}" "${expected}" at)
    if(rules STREQUAL "original" AND at EQUAL -1)
      message(FATAL_ERROR "the import output (--rules original) lacks \"${expected}\":\n${all}")
    elseif(rules STREQUAL "cubism" AND NOT at EQUAL -1 AND NOT expected STREQUAL "imported seed7.moc3")
      message(FATAL_ERROR "the import output (Cubism's rules) reports \"${expected}\", which they reproduce:\n${all}")
    endif()
  endforeach()
  execute_process(COMMAND ${P2LRT} info ${WORK}/seed7-${rules}.p2lrt RESULT_VARIABLE rc OUTPUT_VARIABLE info ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "p2lrt info refused the imported file (${rc}):\n${info}${err}")
  endif()
  string(FIND "${info}" "rules        Cubism's" cubism_rules)
  if(rules STREQUAL "cubism" AND cubism_rules EQUAL -1)
    message(FATAL_ERROR "p2lrt info does not show Cubism's rules for the default import:
${info}")
  elseif(rules STREQUAL "original" AND NOT cubism_rules EQUAL -1)
    message(FATAL_ERROR "p2lrt info shows Cubism's rules for --rules original:
${info}")
  endif()
endforeach()

# A model3.json that lists fewer texture pages than the moc3's meshes use: seed 7's meshes use
# pages 0 (ArtMesh1, 3, 6) and 1 (ArtMesh0, 2, 4, 5); listing page 0 alone, the import names
# page 1 and what its meshes draw (nothing), and says nothing of page 0.
file(COPY_FILE ${CMAKE_CURRENT_LIST_DIR}/../../examples/character/golden/default.png ${WORK}/page0.png)
file(WRITE ${WORK}/seed7.model3.json
     "{\"Version\": 3, \"FileReferences\": {\"Moc\": \"seed7.moc3\", \"Textures\": [\"page0.png\"]}}")
execute_process(COMMAND ${P2LRT} import ${WORK}/seed7.model3.json -o ${WORK}/seed7-model3.p2lrt
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "p2lrt import seed7.model3.json failed (${rc}):\n${all}")
endif()
set(expected "seed7.model3.json: FileReferences.Textures: page 1 is not listed (the list has 1), yet 4 art meshes use it (\"ArtMesh0\" first): they draw nothing\n")
string(FIND "${all}" "${expected}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the import report lacks \"${expected}\":\n${all}")
endif()
string(FIND "${all}" "page 0" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "the import report names page 0, which the model3.json lists:\n${all}")
endif()
