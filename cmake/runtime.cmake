# runtime.cmake: warpsim's replacement CUDA runtime (src/runtime).
#   warpsim_fatbin  static library: fatbinary parsing (also used by the tests)
#   cudart13        lib/libcudart.so.13   (version node libcudart.so.13)
#   cudart12        lib/libcudart.so.12   (version node libcudart.so.12)
#   cudart11        lib/libcudart.so.11.0 (version node libcudart.so.11.0)
# The shared libraries link warpsim_core, which is therefore built with -fPIC.
# CUDA test programs (tests/cuda/*.cu) are built with nvcc when it is found;
# without nvcc the test cuda/programs is reported as skipped.
find_package(PkgConfig REQUIRED)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
pkg_check_modules(LZ4 REQUIRED IMPORTED_TARGET liblz4)

set_target_properties(warpsim_core PROPERTIES POSITION_INDEPENDENT_CODE ON)

add_library(warpsim_fatbin STATIC ${PROJECT_SOURCE_DIR}/src/runtime/fatbin.c)
set_target_properties(warpsim_fatbin PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(warpsim_fatbin PUBLIC ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(warpsim_fatbin PUBLIC warpsim_core PkgConfig::ZSTD PkgConfig::LZ4)

set(WS_CUDART_SOURCES
  ${PROJECT_SOURCE_DIR}/src/runtime/cudart.c
  ${PROJECT_SOURCE_DIR}/src/runtime/cudart_launch.c
  ${PROJECT_SOURCE_DIR}/src/runtime/cudart_memory.c
  ${PROJECT_SOURCE_DIR}/src/runtime/cudart_array.c
  ${PROJECT_SOURCE_DIR}/src/runtime/cudart_texture.c
  ${PROJECT_SOURCE_DIR}/src/runtime/cudart_device.c
  ${PROJECT_SOURCE_DIR}/src/runtime/cudart_report.c
  ${PROJECT_SOURCE_DIR}/src/runtime/cudart_stubs.c)
add_library(warpsim_cudart_objs OBJECT ${WS_CUDART_SOURCES})
set_target_properties(warpsim_cudart_objs PROPERTIES POSITION_INDEPENDENT_CODE ON
                      C_VISIBILITY_PRESET hidden)
target_include_directories(warpsim_cudart_objs PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)

set(WS_CUDART_LIBDIR ${CMAKE_BINARY_DIR}/lib)
function(ws_add_cudart target soname node abi)
  set(WS_CUDART_NODE ${node})
  configure_file(${PROJECT_SOURCE_DIR}/src/runtime/libcudart.map.in
                 ${CMAKE_BINARY_DIR}/runtime/${target}.map @ONLY)
  add_library(${target} SHARED $<TARGET_OBJECTS:warpsim_cudart_objs>
              ${PROJECT_SOURCE_DIR}/src/runtime/cudart_abi.c)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)
  set_target_properties(${target} PROPERTIES C_VISIBILITY_PRESET hidden)
  target_link_libraries(${target} PRIVATE warpsim_fatbin warpsim_core PkgConfig::ZSTD m)
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME cudart SUFFIX "" PREFIX ""
    LIBRARY_OUTPUT_NAME ${soname}
    NO_SONAME ON
    LIBRARY_OUTPUT_DIRECTORY ${WS_CUDART_LIBDIR}
    LINK_DEPENDS ${CMAKE_BINARY_DIR}/runtime/${target}.map)
  target_link_options(${target} PRIVATE
    "LINKER:--version-script=${CMAKE_BINARY_DIR}/runtime/${target}.map"
    "LINKER:-soname,${soname}" "LINKER:--no-undefined")
  target_compile_definitions(${target} PRIVATE WS_CUDART_ABI=${abi})
endfunction()
ws_add_cudart(cudart13 libcudart.so.13 libcudart.so.13 13)
ws_add_cudart(cudart12 libcudart.so.12 libcudart.so.12 12)
ws_add_cudart(cudart11 libcudart.so.11.0 libcudart.so.11.0 11)
add_dependencies(warpsim cudart13 cudart12 cudart11)

# ---- tests ----
# the fatbinary parser test (tests/cuda/test_fatbin.c, built by tests.cmake)
target_link_libraries(cuda_test_fatbin PRIVATE warpsim_fatbin)
# the runtime's copy and set calls with hostile pointers, through the real library
target_link_libraries(cuda_test_cudart_memory PRIVATE cudart13)
# sticky kernel faults, stream and event handles, through the real library
target_link_libraries(cuda_test_cudart_errors PRIVATE cudart13)

# CUDA programs of tests/cuda, built with nvcc and run through `warpsim exec`
find_program(NVCC nvcc PATHS /usr/local/cuda/bin)
set(WS_CUDA_PROGRAMS
  "api_basic:api_basic.cu"
  "multi:multi_main.cu,multi_a.cu,multi_b.cu"
  "spin:spin.cu"
  "nw_wrap:nw_wrap.cu"
  "texture:texture.cu")
if(WS_SANITIZE)
  if(CMAKE_C_COMPILER_ID STREQUAL "Clang")
    set(WS_ASAN_LIB libclang_rt.asan-x86_64.so)
  else()
    set(WS_ASAN_LIB libasan.so)
  endif()
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=${WS_ASAN_LIB}
                  OUTPUT_VARIABLE WS_ASAN_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
if(NVCC)
  set(WS_CUDA_OUT ${CMAKE_BINARY_DIR}/cuda)
  file(MAKE_DIRECTORY ${WS_CUDA_OUT})
  set(WS_CUDA_BINS)
  foreach(spec ${WS_CUDA_PROGRAMS})
    string(REPLACE ":" ";" parts ${spec})
    list(GET parts 0 prog)
    list(GET parts 1 srcs)
    string(REPLACE "," ";" srcs ${srcs})
    list(TRANSFORM srcs PREPEND ${PROJECT_SOURCE_DIR}/tests/cuda/)
    add_custom_command(OUTPUT ${WS_CUDA_OUT}/${prog}
      COMMAND ${NVCC} -cudart shared -gencode arch=compute_75,code=compute_75 -O2
              -Wno-deprecated-gpu-targets ${srcs} -o ${WS_CUDA_OUT}/${prog}
      DEPENDS ${srcs} VERBATIM COMMENT "nvcc ${prog}")
    list(APPEND WS_CUDA_BINS ${WS_CUDA_OUT}/${prog})
    add_test(NAME cuda/${prog}
             COMMAND warpsim exec --mode functional -- ${WS_CUDA_OUT}/${prog}
             WORKING_DIRECTORY ${WS_CUDA_OUT})
    set_tests_properties(cuda/${prog} PROPERTIES PASS_REGULAR_EXPRESSION "PASS"
                         FAIL_REGULAR_EXPRESSION "FAIL")
    if(WS_SANITIZE)
      # nvcc's program is not instrumented but loads our instrumented
      # libcudart: the ASan runtime must be loaded first.
      set_tests_properties(cuda/${prog} PROPERTIES ENVIRONMENT "LD_PRELOAD=${WS_ASAN_RUNTIME}")
    endif()
  endforeach()
  # a program whose kernel faults (issue 15), built without and with -lineinfo:
  # exit status, the one summary, the CUDA line, --dump-ptx, oob_read_zero
  foreach(prog fault fault_lines)
    set(flags)
    if(prog STREQUAL "fault_lines")
      set(flags -lineinfo)
    endif()
    add_custom_command(OUTPUT ${WS_CUDA_OUT}/${prog}
      COMMAND ${NVCC} -cudart shared -gencode arch=compute_75,code=compute_75 -O2
              -Wno-deprecated-gpu-targets ${flags} ${PROJECT_SOURCE_DIR}/tests/cuda/fault.cu
              -o ${WS_CUDA_OUT}/${prog}
      DEPENDS ${PROJECT_SOURCE_DIR}/tests/cuda/fault.cu VERBATIM COMMENT "nvcc ${prog}")
    list(APPEND WS_CUDA_BINS ${WS_CUDA_OUT}/${prog})
  endforeach()
  # the wrapping shared addresses through the timing model too
  add_test(NAME cuda/nw_wrap-timing COMMAND warpsim exec --config gtx480 -- ${WS_CUDA_OUT}/nw_wrap
           WORKING_DIRECTORY ${WS_CUDA_OUT})
  set_tests_properties(cuda/nw_wrap-timing PROPERTIES PASS_REGULAR_EXPRESSION "PASS"
                       FAIL_REGULAR_EXPRESSION "FAIL")
  if(WS_SANITIZE)
    set_tests_properties(cuda/nw_wrap-timing PROPERTIES ENVIRONMENT "LD_PRELOAD=${WS_ASAN_RUNTIME}")
  endif()
  add_test(NAME cuda/fault COMMAND ${PROJECT_SOURCE_DIR}/tests/cuda/fault.sh
           $<TARGET_FILE:warpsim> ${WS_CUDA_OUT}/fault ${WS_CUDA_OUT}/fault_lines)
  add_custom_target(cuda_programs ALL DEPENDS ${WS_CUDA_BINS})
  # texture and surface objects through the timing model as well
  add_test(NAME cuda/texture-timing COMMAND warpsim exec --mode timing -- ${WS_CUDA_OUT}/texture
           WORKING_DIRECTORY ${WS_CUDA_OUT})
  set_tests_properties(cuda/texture-timing PROPERTIES PASS_REGULAR_EXPRESSION "PASS all"
                       FAIL_REGULAR_EXPRESSION "FAIL")
  if(WS_SANITIZE)
    set_tests_properties(cuda/texture-timing PROPERTIES ENVIRONMENT "LD_PRELOAD=${WS_ASAN_RUNTIME}")
  endif()
  # Ctrl-C during a kernel of a program under `warpsim exec`
  add_test(NAME cuda/sigint COMMAND ${PROJECT_SOURCE_DIR}/tests/cuda/sigint.sh
           $<TARGET_FILE:warpsim> ${WS_CUDA_OUT}/spin)
  if(WS_SANITIZE)
    # preloaded into the program only (the script's own shell is not instrumented)
    set_tests_properties(cuda/sigint cuda/fault PROPERTIES ENVIRONMENT "WS_PRELOAD=${WS_ASAN_RUNTIME}")
    # the sweep test's program points run these programs too
    set_tests_properties(sweep/local PROPERTIES ENVIRONMENT "WS_PRELOAD=${WS_ASAN_RUNTIME}")
  endif()
else()
  # registered all the same, so that ctest reports it as skipped (exit 77)
  set(why "nvcc not found: cuda/programs is skipped (the CUDA test programs are not built; the fatbinary parser is still tested on tests/cuda/fixtures)")
  message(NOTICE "warpsim: ${why}")
  add_test(NAME cuda/programs COMMAND sh -c "echo 'skipped: ${why}'; exit 77")
  set_tests_properties(cuda/programs PROPERTIES SKIP_RETURN_CODE 77)
endif()
