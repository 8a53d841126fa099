# tests.cmake: every tests/<suite>/test_*.c is one cmocka executable and one
# CTest test named <suite>/<file>.  Workloads are verified through the
# command line at small and medium sizes in functional mode, and at small size
# through the timing model.  PTX regeneration is checked when
# nvcc is available, and reported as skipped (SKIP_RETURN_CODE) otherwise; the
# reason is a configure-time NOTICE (stderr, so scripts that silence the
# configure output still show it).

# Every test program links the test policy table (cmake/policies.cmake): the
# real policies and the test-only ones of tests/policy/fixtures/<kind>/.
add_library(warpsim_test_policies OBJECT ${WS_TEST_POLICY_SOURCES}
            ${CMAKE_BINARY_DIR}/embed/policy_table_test.c)
target_include_directories(warpsim_test_policies PRIVATE ${PROJECT_SOURCE_DIR}/tests)
target_link_libraries(warpsim_test_policies PRIVATE warpsim_core)

file(GLOB WS_TEST_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/*/test_*.c)
list(SORT WS_TEST_SOURCES)
# tests/ptx/test_float_math.c computes its half-precision references with the
# host's _Float16 (gcc 12, clang 15+); clang 14 lacks it on x86-64.
include(CheckCSourceCompiles)
check_c_source_compiles("int main(void) { volatile _Float16 h = (_Float16)1.5f; return (int)(float)h - 1; }"
                        WS_HAVE_FLOAT16)
if(NOT WS_HAVE_FLOAT16)
  list(FILTER WS_TEST_SOURCES EXCLUDE REGEX "/tests/ptx/test_float_math\\.c$")
  add_test(NAME ptx/test_float_math COMMAND sh -c
           "echo 'skipped: the compiler has no _Float16 (half-precision references need it)'; exit 77")
  set_tests_properties(ptx/test_float_math PROPERTIES SKIP_RETURN_CODE 77)
endif()
foreach(src ${WS_TEST_SOURCES})
  get_filename_component(name ${src} NAME_WE)
  get_filename_component(dir ${src} DIRECTORY)
  get_filename_component(suite ${dir} NAME)
  set(target ${suite}_${name})
  add_executable(${target} ${src})
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  target_link_libraries(${target} PRIVATE warpsim_test_policies warpsim_workloads warpsim_core
                        PkgConfig::CMOCKA)
  target_compile_definitions(${target} PRIVATE WS_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  add_test(NAME ${suite}/${name} COMMAND ${target} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endforeach()

foreach(name ${WS_WORKLOAD_NAMES})
  foreach(size small medium)
    add_test(NAME workload/${name}/${size}
             COMMAND warpsim run ${name} --size ${size} --mode functional)
  endforeach()
  # the same checks through the cycle-level timing model (daws preset)
  add_test(NAME workload/${name}/small-timing
           COMMAND warpsim run ${name} --size small --config daws)
  # and with loads hoisted as a scheduling compiler places them (ptx.hoist_loads)
  add_test(NAME workload/${name}/small-hoisted
           COMMAND warpsim run ${name} --size small --config gtx480 --set ptx.hoist_loads=1)
endforeach()

find_program(NVCC nvcc PATHS /usr/local/cuda/bin)
if(NVCC)
  add_test(NAME ptx/regenerate COMMAND ${PROJECT_SOURCE_DIR}/scripts/gen-ptx.sh --check
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(ptx/regenerate PROPERTIES ENVIRONMENT "NVCC=${NVCC}")
else()
  # registered all the same, so that ctest reports it as skipped (exit 77)
  set(why "nvcc not found: ptx/regenerate is skipped (the committed PTX is used as is)")
  message(NOTICE "warpsim: ${why}")
  add_test(NAME ptx/regenerate COMMAND sh -c "echo 'skipped: ${why}'; exit 77")
  set_tests_properties(ptx/regenerate PROPERTIES SKIP_RETURN_CODE 77)
endif()

add_test(NAME cli/commands COMMAND ${PROJECT_SOURCE_DIR}/tests/cli/run.sh $<TARGET_FILE:warpsim>
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME cli/hostile COMMAND ${PROJECT_SOURCE_DIR}/tests/cli/hostile.sh $<TARGET_FILE:warpsim>
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

# the parallel engine: identical statistics at 1, 2 and 3 host threads (docs/parallel.md),
# one test per workload and configuration; the sanitizer builds run 1 and 3 threads
# only (tests/parallel/threads.sh)
foreach(point "gtx480 gto" "daws ccws" "medic gto")
  string(REPLACE " " ";" args "${point}")
  string(REPLACE " " "-" pname "${point}")
  foreach(name ${WS_WORKLOAD_NAMES})
    add_test(NAME parallel/threads/${pname}/${name}
             COMMAND ${PROJECT_SOURCE_DIR}/tests/parallel/threads.sh $<TARGET_FILE:warpsim>
                     ${args} ${name}
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    if(WS_SANITIZE)
      set_tests_properties(parallel/threads/${pname}/${name} PROPERTIES ENVIRONMENT "WS_THREAD_COUNTS=3")
    endif()
  endforeach()
endforeach()

# sweeps (tools/sweep, run through the warpsim command): local pool and index
add_test(NAME sweep/local COMMAND ${PROJECT_SOURCE_DIR}/tests/sweep/run.sh $<TARGET_FILE:warpsim>
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
# the same on a real single-node Slurm started by the test (root only; 77 = skipped)
add_test(NAME sweep/slurm COMMAND ${PROJECT_SOURCE_DIR}/tests/sweep/slurm.sh $<TARGET_FILE:warpsim>
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(sweep/slurm PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# the sweep report in headless Chromium (77 = skipped without chromium/matplotlib)
add_test(NAME sweep/report COMMAND ${PROJECT_SOURCE_DIR}/tests/sweep/report.sh $<TARGET_FILE:warpsim>
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(sweep/report PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
