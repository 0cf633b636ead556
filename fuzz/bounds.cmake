# p2l_fuzz_bounds (fuzz/bounds.cpp): the heap and time each corpus input costs its entry
# point, in a build without sanitizers; scripts/fuzz_bounds.sh runs it on the fuzz corpora.
add_executable(p2l_fuzz_bounds ${CMAKE_CURRENT_LIST_DIR}/bounds.cpp)
target_include_directories(p2l_fuzz_bounds PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
target_link_libraries(p2l_fuzz_bounds PRIVATE p2l_cubism p2l_csm p2l nlohmann_json::nlohmann_json p2l_warnings)
