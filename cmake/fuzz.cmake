# fuzz.cmake: the libFuzzer targets of tests/fuzz (only with -DWS_FUZZ=ON and
# clang).  Each links the instrumented simulator library; scripts/fuzz.sh
# builds and runs them with seed corpora taken from the repository.
set(WS_FUZZ_TARGETS ptx launch fatbin config)
foreach(t ${WS_FUZZ_TARGETS})
  add_executable(fuzz_${t} ${PROJECT_SOURCE_DIR}/tests/fuzz/fuzz_${t}.c)
  target_link_libraries(fuzz_${t} PRIVATE warpsim_fatbin warpsim_core)
  target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer)
endforeach()
