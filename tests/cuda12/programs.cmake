# tests/cuda12/programs.cmake - tests/e2e's programs and tests/gpu's misuse programs, built by
# nvcc 12.4 and run against the fake driver through our libcudart.so.12, as tests/e2e runs their
# nvcc 13.0 builds through libminicudart.a.  Included by tests/cuda12/CMakeLists.txt once its
# functions exist (cuda12_objects, cuda12_program) and nvcc 12.4 was found.
#
#   misuse     every tests/gpu/conf_misuse_<area>.cu that a CUDA 12 toolkit compiles: every
#              case answered, traced (run12.sh: the imports checked) and untraced, where each
#              case's line must also be the one tests/e2e's nvcc 13.0 build of the program prints
#              (same12.sh).  A program that calls __cudaGetKernel itself is built with
#              -U__NV_LEGACY_LAUNCH (12.4 declares it only there); one that needs API of 12.5 to
#              12.9 with 12.9's headers.  The list below says what each of the others needs of 13.
#   e2e        tests/e2e's test_<name>.c drivers with their .cu files in the legacy launch form
#              (12.4's default: cudaLaunchKernel), each test as tests/e2e runs it; errors and
#              ptsz again in the get-kernel form (__cudaGetKernel, __cudaLaunchKernel[_ptsz]).
#
# Objects are shared wherever two programs link the same ones (vadd's, multigpu's).  Eighteen
# nvcc 12.4 runs, about 1.5 s each at -arch=sm_90; every test runs in well under a second.  Left
# out, as adding little: vadd's other image tests of tests/e2e (CMakeLists.txt's tests load its
# SASS and its PTX already), conf_misuse_reset started at case 5 (run.sh's restart, not the ABI),
# tests/e2e's names test (the 13 libraries only), and tests/gpu's stress_, life_, soak_ and fault_
# programs (long, about threads rather than the ABI).

set(gpu_dir ${PROJECT_SOURCE_DIR}/tests/gpu)
set(e2e_dir ${PROJECT_SOURCE_DIR}/tests/e2e)
set(sanitizer_report "AddressSanitizer|LeakSanitizer|runtime error:")

# cuda12_e2e_test(<test> <program> [IMPORTS <name | !name...>] [ARGS <args...>]
#                 [ENV <VAR=value...>] [PLAIN] [SAME <program13>]): run12.sh checks the program's
# imports and runs it, with ARGS, on our libcudart.so.12 with the trace on.  PLAIN runs it
# untraced, as it is, with LD_LIBRARY_PATH naming our library (no libcudart.so.12 is on the
# loader's own path, and the programs carry no run path: run12.sh's ldd check of the same
# program shows which one loads); SAME does so through same12.sh, which wants every line of its
# output to be <program13>'s (the same source built by nvcc 13.0, tests/e2e's).
function(cuda12_e2e_test test program)
  cmake_parse_arguments(T "PLAIN" "SAME" "IMPORTS;ARGS;ENV" ${ARGN})
  set(ours $<TARGET_FILE_DIR:minicudart_shared12>)
  set(env "")
  if(T_SAME)
    add_test(NAME ${test}
      COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/same12.sh $<TARGET_FILE:${program}> ${ours}
              $<TARGET_FILE:${T_SAME}>)
  elseif(T_PLAIN)
    add_test(NAME ${test} COMMAND ${program} ${T_ARGS})
    set(env "LD_LIBRARY_PATH=${ours}")
  else()
    add_test(NAME ${test}
      COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/run12.sh $<TARGET_FILE:${program}> shared ${ours}
              ${T_IMPORTS} -- ${T_ARGS})
  endif()
  set_tests_properties(${test} PROPERTIES
    ENVIRONMENT "MINICUDART_DRIVER=$<TARGET_FILE:fakecuda>;${env};${T_ENV}"
    FAIL_REGULAR_EXPRESSION "${sanitizer_report}")
  set(cuda12_tests ${cuda12_tests} ${test} PARENT_SCOPE)
endfunction()

# cuda12_whole_program(<name> <form>): cuda12_program of a program whose code is all in the
# objects of cuda12_objects(<form>) (main included): they are its sources, built by their own
# target first (cuda12_<form>_objects drives their commands).
function(cuda12_whole_program name form)
  cuda12_program(${name} shared SOURCES ${cuda12_${form}_objects})
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CUDA)
  add_dependencies(${name} cuda12_${form}_objects)
endfunction()

# ---- misuse ----------------------------------------------------------------------------------
# The misuse programs 12.4's headers do not compile: each with the oldest CUDA whose API it needs
# (as a "// gpu-cuda: <version>" mark would say it; a mark in the source wins) and what that is.
# One that needs 12.9 at most is built by nvcc 12.4 with 12.9's runtime headers before its own and
# in the get-kernel form, as a 12.9 toolkit builds it (no nvcc 12.9 runs on this project's
# machines, cmake/cuda12.cmake); one that needs 13 is left out.
set(cuda12_misuse_needs
  "conf_misuse_array 13.0: cudaMemcpy3DBatchAsync in 13's form (12.8's has a failIdx)"
  "conf_misuse_device 13.0: cudaDeviceGetHostAtomicCapabilities (13.0), cudaLogs* (12.9)"
  "conf_misuse_external 13.0: 13's external memory descriptor (reserved[]), cudaGraphAddNode's"
  "conf_misuse_graph 13.0: edge data under the plain names (cudaGraphAddDependencies...)"
  "conf_misuse_graph_nodes 13.0: cudaGraphAddNode in 13's form (edge data; 12.9's _v2)"
  "conf_misuse_graph_params 13.0: cudaGraphAddNode, cudaGraphRemoveDependencies in 13's forms"
  "conf_misuse_host 13.0: cudaMemAdvise, cudaMemPrefetchAsync with a cudaMemLocation (13's forms)"
  "conf_misuse_library 12.5: cudaLibrary_t and the cudaLibrary* functions"
  "conf_misuse_memory 13.0: cudaMemDiscardBatchAsync... (13.0), cudaMemcpyBatchAsync (12.8)"
  "conf_misuse_mempool 13.0: cudaMemGetDefaultMemPool, cudaMemGetMemPool, cudaMemSetMemPool"
  "conf_misuse_stream 12.8: cudaStreamGetDevice")
set(headers_12_9 "")
foreach(dir IN LISTS CUDA129_INCLUDE_DIRS)
  list(APPEND headers_12_9 -I${dir})
endforeach()
set(cuda12_misuse_skipped "")
set(cuda12_misuse_12_9 "")
file(GLOB misuse_sources CONFIGURE_DEPENDS ${gpu_dir}/conf_misuse_*.cu)
foreach(source IN LISTS misuse_sources)
  get_filename_component(name ${source} NAME_WE)
  set(needs 12.4)
  foreach(entry IN LISTS cuda12_misuse_needs)
    if(entry MATCHES "^${name} ([0-9.]+):")
      set(needs ${CMAKE_MATCH_1})
    endif()
  endforeach()
  file(STRINGS ${source} mark REGEX "^// gpu-cuda: *[0-9]+\\.[0-9]+" LIMIT_COUNT 1)
  if(mark MATCHES "gpu-cuda: *([0-9]+\\.[0-9]+)")
    set(needs ${CMAKE_MATCH_1})
  endif()
  # 12.4's crt/host_runtime.h declares __cudaGetKernel and __cudaLaunchKernel only for the stubs
  # that call them (without __NV_LEGACY_LAUNCH): a program calling them itself needs that form.
  file(STRINGS ${source} own_launch REGEX "__cudaGetKernel|__cudaLaunchKernel" LIMIT_COUNT 1)
  set(options -I${gpu_dir})
  set(imports "")
  if(own_launch)
    set(imports __cudaGetKernel __cudaLaunchKernel)
  endif()
  if(needs VERSION_GREATER 12.9)
    list(APPEND cuda12_misuse_skipped ${name})
    continue()
  elseif(needs VERSION_GREATER 12.4)
    set(form ${name}_12_9_headers)
    list(APPEND options ${headers_12_9} -Xcompiler -U__NV_LEGACY_LAUNCH)
    list(APPEND cuda12_misuse_12_9 ${name})
  elseif(own_launch)
    set(form ${name}_get_kernel)
    list(APPEND options -Xcompiler -U__NV_LEGACY_LAUNCH)
  else()
    set(form ${name})
    set(imports !__cudaGetKernel !__cudaLaunchKernel)
  endif()
  cuda12_objects(${form} SOURCES ${source} OPTIONS ${options})
  # The runner exits 0 only after its last case (tests/gpu/misuse.h).  Untraced, each case's
  # line is also the one tests/e2e's build of the program prints (the same fake under both).
  cuda12_whole_program(cuda12_${form} ${form})
  if(TARGET e2e_${name})
    cuda12_e2e_test(cuda12_${form}_every_case_answered_as_by_13 cuda12_${form}
                    SAME e2e_${name})
  else()
    cuda12_e2e_test(cuda12_${form}_every_case_answered cuda12_${form} PLAIN)
  endif()
  cuda12_e2e_test(cuda12_${form}_every_case_answered_traced cuda12_${form} IMPORTS ${imports})
endforeach()
string(REPLACE ";" " " cuda12_misuse_skipped "${cuda12_misuse_skipped}")
string(REPLACE ";" " " cuda12_misuse_12_9 "${cuda12_misuse_12_9}")
message(STATUS "tests/cuda12: misuse programs built with 12.9's headers: ${cuda12_misuse_12_9}; "
  "left out, needing CUDA 13 (programs.cmake says why): ${cuda12_misuse_skipped}")

# ---- e2e -------------------------------------------------------------------------------------
# tests/e2e's programs, with its drivers (compiled against 12.9's headers), each test as
# tests/e2e/CMakeLists.txt runs it.  The legacy launch form (12.4's default) unless named.
set(legacy cudaLaunchKernel !__cudaLaunchKernel)
cuda12_objects(errors SOURCES ${e2e_dir}/errors.cu)
cuda12_objects(errors_get_kernel SOURCES ${e2e_dir}/errors.cu
               OPTIONS -Xcompiler -U__NV_LEGACY_LAUNCH)
cuda12_objects(managed SOURCES ${e2e_dir}/managed.cu)
cuda12_objects(many_kernels SOURCES ${e2e_dir}/many_kernels.cu)
cuda12_objects(multi_tu SOURCES ${e2e_dir}/multi_a.cu ${e2e_dir}/multi_b.cu ${e2e_dir}/multi_c.cu)
cuda12_objects(multigpu SOURCES ${e2e_dir}/multigpu.cu)
cuda12_objects(nested SOURCES ${e2e_dir}/nested.cu)
# -default-stream per-thread: the stubs launch through cudaLaunchKernel_ptsz, and in the
# get-kernel form __cudaLaunchKernel_ptsz.
cuda12_objects(ptsz SOURCES ${e2e_dir}/ptsz.cu OPTIONS -default-stream per-thread)
cuda12_objects(ptsz_get_kernel SOURCES ${e2e_dir}/ptsz.cu
               OPTIONS -default-stream per-thread -Xcompiler -U__NV_LEGACY_LAUNCH)
cuda12_objects(symbols SOURCES ${e2e_dir}/symbols.cu)

# Each scenario of test_errors.c in its own process, in both launch forms.
foreach(form errors errors_get_kernel)
  cuda12_program(cuda12_${form} shared OBJECTS ${form} SOURCES ${e2e_dir}/test_errors.c)
  # test_errors.c calls cudaLaunchKernel itself (a function never registered).
  if(form STREQUAL "errors")
    set(imports ${legacy})
  else()
    set(imports __cudaGetKernel __cudaLaunchKernel)
  endif()
  cuda12_e2e_test(cuda12_${form}_no_driver cuda12_${form} IMPORTS ${imports} ARGS no_driver
                  ENV MINICUDART_DRIVER=/nonexistent/libcuda.so.1)
  cuda12_e2e_test(cuda12_${form}_no_device_zero_devices cuda12_${form} ARGS no_device
                  ENV FAKECUDA_DEVICES=0 FAKECUDA_INIT_RESULT=0)
  cuda12_e2e_test(cuda12_${form}_no_device_init_fails cuda12_${form} ARGS init_fails
                  ENV FAKECUDA_INIT_RESULT=100)
  cuda12_e2e_test(cuda12_${form}_no_image cuda12_${form} ARGS no_image ENV FAKECUDA_SM=75)
  foreach(scenario load_failure launch_failure unregistered_function invalid_configuration sticky)
    cuda12_e2e_test(cuda12_${form}_${scenario} cuda12_${form} ARGS ${scenario})
  endforeach()
endforeach()

cuda12_program(cuda12_managed shared OBJECTS managed SOURCES ${e2e_dir}/test_managed.c)
cuda12_e2e_test(cuda12_managed_variable cuda12_managed IMPORTS __cudaRegisterManagedVar)
cuda12_e2e_test(cuda12_managed_variable_one_instance_for_two_devices cuda12_managed
                ARGS two_devices ENV FAKECUDA_DEVICES=2)

cuda12_whole_program(cuda12_many_kernels many_kernels)
cuda12_e2e_test(cuda12_registration_tables_grow_and_lose_nothing cuda12_many_kernels
                IMPORTS cudaFuncGetAttributes)

cuda12_program(cuda12_multi_tu shared OBJECTS multi_tu SOURCES ${e2e_dir}/test_multi_tu.c)
cuda12_e2e_test(cuda12_multi_tu_kernels cuda12_multi_tu IMPORTS ${legacy})

cuda12_program(cuda12_multigpu shared OBJECTS multigpu SOURCES ${e2e_dir}/test_multigpu.c)
cuda12_e2e_test(cuda12_two_devices_contexts_modules_peers_and_reset cuda12_multigpu
                IMPORTS ${legacy} ENV FAKECUDA_DEVICES=2)
cuda12_program(cuda12_primary_context shared OBJECTS multigpu
               SOURCES ${e2e_dir}/test_primary_context.c)
cuda12_e2e_test(cuda12_primary_context_made_current_by_a_library_is_the_device_s
                cuda12_primary_context ENV FAKECUDA_DEVICES=2)
# vadd's objects, of CMakeLists.txt.
cuda12_program(cuda12_foreign_context shared OBJECTS vadd SOURCES ${e2e_dir}/test_foreign_context.c)
cuda12_e2e_test(cuda12_runtime_follows_a_context_created_with_the_driver cuda12_foreign_context)

cuda12_program(cuda12_nested shared OBJECTS nested SOURCES ${e2e_dir}/test_nested.c)
cuda12_e2e_test(cuda12_nested_launch_order cuda12_nested IMPORTS ${legacy})

cuda12_program(cuda12_ptsz shared OBJECTS ptsz SOURCES ${e2e_dir}/test_ptsz.c)
cuda12_e2e_test(cuda12_per_thread_default_stream cuda12_ptsz
                IMPORTS cudaLaunchKernel_ptsz !__cudaLaunchKernel_ptsz)
cuda12_program(cuda12_ptsz_get_kernel shared OBJECTS ptsz_get_kernel SOURCES ${e2e_dir}/test_ptsz.c)
cuda12_e2e_test(cuda12_per_thread_default_stream_get_kernel cuda12_ptsz_get_kernel
                IMPORTS __cudaGetKernel __cudaLaunchKernel_ptsz !cudaLaunchKernel_ptsz)

cuda12_program(cuda12_symbols shared OBJECTS symbols SOURCES ${e2e_dir}/test_symbols.c)
cuda12_e2e_test(cuda12_symbol_copies cuda12_symbols IMPORTS __cudaRegisterVar)

# Run only, on CMakeLists.txt's programs: vadd's image chosen for a device newer than its SASS
# (12.4's PTX, JIT-compiled), the launch misuse cases with the parameters as an array, and the
# exit summary of a get-kernel program agreeing with its trace (the summary names the calls from
# libcudart.so.12's own symbol table).
cuda12_e2e_test(cuda12_image_sm100_picks_ptx cuda12_vadd
                ENV FAKECUDA_SM=100 E2E_EXPECT_JIT=1 E2E_EXPECT_SM=90)
# The driver CUDA 12 programs meet most: a 12.x one.  On a fake of 12.8 (no entry point of 13.x)
# vadd runs through libcudart.so.12; a 12.4 driver is refused as no driver is
# (cuda12/names12.h: RT_DRIVER_MIN_VERSION).
cuda12_e2e_test(cuda12_vadd_on_a_12_8_driver cuda12_vadd ENV FAKECUDA_DRIVER_VERSION=12080)
cuda12_e2e_test(cuda12_a_12_4_driver_is_insufficient cuda12_errors ARGS no_driver
                ENV FAKECUDA_DRIVER_VERSION=12040)
if(TARGET cuda12_conf_misuse_launch_get_kernel)
  cuda12_e2e_test(cuda12_conf_misuse_launch_get_kernel_every_case_answered_array_params
                  cuda12_conf_misuse_launch_get_kernel ENV MINICUDART_LAUNCH_PARAMS=array)
endif()
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/summary)
add_test(NAME cuda12_exit_summary_agrees_with_the_trace
  COMMAND ${e2e_dir}/summary_test.sh $<TARGET_FILE:cuda12_vadd_get_kernel>)
set(ours $<TARGET_FILE_DIR:minicudart_shared12>)
set_tests_properties(cuda12_exit_summary_agrees_with_the_trace PROPERTIES
  ENVIRONMENT "MINICUDART_DRIVER=$<TARGET_FILE:fakecuda>;LD_LIBRARY_PATH=${ours}"
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/summary
  PASS_REGULAR_EXPRESSION "summary: agrees with the trace"
  FAIL_REGULAR_EXPRESSION "${sanitizer_report}")
list(APPEND cuda12_tests cuda12_exit_summary_agrees_with_the_trace)
