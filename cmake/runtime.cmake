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
  ${PROJECT_SOURCE_DIR}/src/runtime/cudart_ptxas.c
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
# a CUDA 12 program's calls (LZ4 fatbinary, __managed__, two threads), through libcudart.so.12
target_link_libraries(cuda_test_cudart12 PRIVATE cudart12 PkgConfig::LZ4 pthread)

# every exported entry point takes the runtime lock (host threads)
add_test(NAME cuda/locks COMMAND ${PROJECT_SOURCE_DIR}/tests/cuda/locks.sh ${PROJECT_SOURCE_DIR})

# CUDA programs of tests/cuda, built with nvcc and run through `warpsim exec`
find_program(NVCC nvcc PATHS /usr/local/cuda/bin)
set(WS_CUDA_PROGRAMS
  "api_basic:api_basic.cu"
  "multi:multi_main.cu,multi_a.cu,multi_b.cu"
  "nw_wrap:nw_wrap.cu"
  "coop:coop.cu"
  "atomic_ext:atomic_ext.cu"
  "printf_fmt:printf_fmt.cu"
  "managed:managed.cu"
  "threads:threads.cu"
  "texture:texture.cu"
  "refused:refused_main.cu,refused_wmma.cu,refused_grid.cu")
# built only (tests/cuda/sigint.sh runs it)
set(WS_CUDA_HELPERS "spin:spin.cu")
# also built the CUDA 12 way: LZ4-compressed PTX (nvcc --compress-mode=speed,
# the CUDA 11/12 fatbinary format) and linked against lib/libcudart.so.12
# (programs that read no cudaDeviceProp field past the ones CUDA 12 shares)
set(WS_CUDA12_PROGRAMS coop managed threads)
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
  foreach(spec ${WS_CUDA_PROGRAMS} ${WS_CUDA_HELPERS})
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
  endforeach()
  # every program in both modes: cuda/<prog> (functional), cuda/<prog>/timing
  foreach(spec ${WS_CUDA_PROGRAMS})
    string(REPLACE ":" ";" parts ${spec})
    list(GET parts 0 prog)
    foreach(mode functional timing)
      set(tname cuda/${prog})
      if(mode STREQUAL "timing")
        set(tname cuda/${prog}/timing)
      endif()
      add_test(NAME ${tname}
               COMMAND warpsim exec --mode ${mode} -- ${WS_CUDA_OUT}/${prog}
               WORKING_DIRECTORY ${WS_CUDA_OUT})
      set_tests_properties(${tname} PROPERTIES PASS_REGULAR_EXPRESSION "PASS"
                           FAIL_REGULAR_EXPRESSION "FAIL")
      if(WS_SANITIZE)
        # nvcc's program is not instrumented but loads our instrumented
        # libcudart: the ASan runtime must be loaded first.
        set_tests_properties(${tname} PROPERTIES ENVIRONMENT "LD_PRELOAD=${WS_ASAN_RUNTIME}")
      endif()
    endforeach()
  endforeach()
  foreach(prog ${WS_CUDA12_PROGRAMS})
    set(out ${WS_CUDA_OUT}/cuda12/${prog})
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${WS_CUDA_OUT}/cuda12
      COMMAND ${NVCC} -c -gencode arch=compute_75,code=compute_75 -O2 --compress-mode=speed
              -Wno-deprecated-gpu-targets ${PROJECT_SOURCE_DIR}/tests/cuda/${prog}.cu -o ${out}.o
      COMMAND ${NVCC} -cudart none ${out}.o -o ${out} -L${WS_CUDART_LIBDIR} -l:libcudart.so.12
      DEPENDS ${PROJECT_SOURCE_DIR}/tests/cuda/${prog}.cu cudart12 VERBATIM
      COMMENT "nvcc ${prog} (CUDA 12 way)")
    list(APPEND WS_CUDA_BINS ${out})
    foreach(mode functional timing)
      add_test(NAME cuda12/${prog}/${mode}
               COMMAND ${PROJECT_SOURCE_DIR}/tests/cuda/cuda12.sh $<TARGET_FILE:warpsim> ${out} ${mode}
               WORKING_DIRECTORY ${WS_CUDA_OUT})
      set_tests_properties(cuda12/${prog}/${mode} PROPERTIES PASS_REGULAR_EXPRESSION "PASS"
                           FAIL_REGULAR_EXPRESSION "FAIL" SKIP_RETURN_CODE 77)
      if(WS_SANITIZE)
        set_tests_properties(cuda12/${prog}/${mode} PROPERTIES ENVIRONMENT "WS_PRELOAD=${WS_ASAN_RUNTIME}")
      endif()
    endforeach()
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
  add_test(NAME cuda/fault COMMAND ${PROJECT_SOURCE_DIR}/tests/cuda/fault.sh
           $<TARGET_FILE:warpsim> ${WS_CUDA_OUT}/fault ${WS_CUDA_OUT}/fault_lines)
  add_custom_target(cuda_programs ALL DEPENDS ${WS_CUDA_BINS})
  # Ctrl-C during a kernel of a program under `warpsim exec`
  add_test(NAME cuda/sigint COMMAND ${PROJECT_SOURCE_DIR}/tests/cuda/sigint.sh
           $<TARGET_FILE:warpsim> ${WS_CUDA_OUT}/spin)
  # the timeline of a two-launch program under `warpsim exec --timeline`
  add_test(NAME cuda/timeline COMMAND ${PROJECT_SOURCE_DIR}/tests/cuda/timeline.sh
           $<TARGET_FILE:warpsim> ${WS_CUDA_OUT}/multi)
  # ptx.ptxas_regs: the registers of an exec'd program's kernels from ptxas -v
  get_filename_component(WS_NVCC_DIR ${NVCC} DIRECTORY)
  add_test(NAME cuda/ptxas_regs COMMAND ${PROJECT_SOURCE_DIR}/tests/cuda/ptxas_regs.sh
           $<TARGET_FILE:warpsim> ${WS_CUDA_OUT}/multi)
  set_tests_properties(cuda/ptxas_regs PROPERTIES ENVIRONMENT "WARPSIM_PTXAS=${WS_NVCC_DIR}/ptxas")
  if(WS_SANITIZE)
    # preloaded into the program only (the script's own shell is not instrumented)
    set_tests_properties(cuda/sigint cuda/fault cuda/timeline PROPERTIES ENVIRONMENT "WS_PRELOAD=${WS_ASAN_RUNTIME}")
    set_tests_properties(cuda/ptxas_regs PROPERTIES ENVIRONMENT
                         "WARPSIM_PTXAS=${WS_NVCC_DIR}/ptxas;WS_PRELOAD=${WS_ASAN_RUNTIME}")
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
