# The importer reports what it cannot reproduce exactly: for a synthetic model (seed 7, moc3
# version 4) with a blend shape under two constraints, a mesh whose colour shares a parameter
# with its deformer's, and a glue between meshes that can be disabled, `p2lrt import`'s
# report must name all three, and the file it writes must read back (`p2lrt info`).
#   cmake -DP2LRT=... -DMAKE_MOC3=... -DWORK=... -P import_report.cmake
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${MAKE_MOC3} 7 ${WORK}/seed7.moc3 --version 4 RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "p2l_make_moc3 failed: ${rc}")
endif()
execute_process(COMMAND ${P2LRT} import ${WORK}/seed7.moc3 -o ${WORK}/seed7.p2lrt
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "p2lrt import failed (${rc}):\n${all}")
endif()
foreach(expected "takes min(1, weights)" "keyed on the same parameter" "Cubism still glues" "import report: " "imported seed7.moc3")
  string(FIND "${all}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the import output lacks \"${expected}\":\n${all}")
  endif()
endforeach()
execute_process(COMMAND ${P2LRT} info ${WORK}/seed7.p2lrt RESULT_VARIABLE rc OUTPUT_VARIABLE info ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "p2lrt info refused the imported file (${rc}):\n${info}${err}")
endif()
