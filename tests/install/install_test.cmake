# install_package (registered by cmake/install.cmake): cmake -P this script.
#
# Installs the build tree into a scratch prefix, checks what landed there (header, the libraries
# of both ABIs and their SONAMEs, the libcudart.so link, minicudart-run/ with its two links,
# fatbin, the `minicudart` command, the libraries and the folder it finds and the environment it
# gives CMD, the CMake package without build-machine paths,
# the .pc file through pkg-config and a C program linked with it), then configures and builds
# examples/cmake-project against the prefix and runs its two programs: PASS (exit 0) on a GPU,
# exit 2 with "no GPU" without one; and exit 2 again with the driver forced missing.  A CUDA 12
# project links the 12.9 runtime the same ways: minicudart12.pc, and minicudart::cudart12 and
# minicudart::cudart_shared12 (tests/install/cuda12-project), each answering RUNTIME_VERSION12.
#
# -D inputs: BUILD_DIR SOURCE_DIR WORK_DIR CONFIG LIBDIR INCLUDEDIR BINDIR GENERATOR C_COMPILER
#            CUDA_COMPILER CUDA_HOST_COMPILER SANITIZE RUNTIME_VERSION12
cmake_minimum_required(VERSION 3.25)

foreach(var BUILD_DIR SOURCE_DIR WORK_DIR LIBDIR INCLUDEDIR BINDIR GENERATOR CUDA_COMPILER
    RUNTIME_VERSION12)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "install_test.cmake: -D${var}=... is missing")
  endif()
endforeach()

set(prefix ${WORK_DIR}/prefix)
set(example_build ${WORK_DIR}/example)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

# run(<what> COMMAND ... [EXPECT <rc>] [OUTPUT <var>]): the command must exit with <rc> (0).
function(run what)
  cmake_parse_arguments(RUN "" "EXPECT;OUTPUT" "COMMAND" ${ARGN})
  if(NOT DEFINED RUN_EXPECT)
    set(RUN_EXPECT 0)
  endif()
  execute_process(COMMAND ${RUN_COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE out)
  if(NOT rc STREQUAL RUN_EXPECT)
    list(JOIN RUN_COMMAND " " text)
    message(FATAL_ERROR "FAIL: ${what}: exit ${rc}, want ${RUN_EXPECT}\n  ${text}\n${out}")
  endif()
  message(STATUS "ok: ${what}")
  if(RUN_OUTPUT)
    set(${RUN_OUTPUT} "${out}" PARENT_SCOPE)
  endif()
endfunction()

function(expect_file path)
  if(NOT EXISTS ${prefix}/${path})
    message(FATAL_ERROR "FAIL: cmake --install did not install ${path}")
  endif()
endfunction()

# 1. Install.
set(config_args)
if(CONFIG)
  set(config_args --config ${CONFIG})
endif()
run("cmake --install" COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
    ${config_args})

# 2. The installed tree.
set(cmake_dir ${LIBDIR}/cmake/minicudart)
foreach(path ${INCLUDEDIR}/minicudart.h ${LIBDIR}/libminicudart.a ${LIBDIR}/libcudart.so.13
        ${LIBDIR}/libcudart.so.12
        ${BINDIR}/fatbin ${BINDIR}/minicudart ${cmake_dir}/minicudartConfig.cmake
        ${cmake_dir}/minicudartConfigVersion.cmake ${cmake_dir}/minicudartTargets.cmake
        ${LIBDIR}/libminicudart12.a ${LIBDIR}/pkgconfig/minicudart.pc
        ${LIBDIR}/pkgconfig/minicudart12.pc)
  expect_file(${path})
endforeach()
if(NOT IS_SYMLINK ${prefix}/${LIBDIR}/libcudart.so)
  message(FATAL_ERROR "FAIL: ${LIBDIR}/libcudart.so is not a symbolic link")
endif()
file(READ_SYMLINK ${prefix}/${LIBDIR}/libcudart.so link)
if(NOT link STREQUAL "libcudart.so.13")
  message(FATAL_ERROR "FAIL: ${LIBDIR}/libcudart.so -> ${link}, want libcudart.so.13")
endif()
find_program(OBJDUMP NAMES objdump)
foreach(major 13 12)
  if(OBJDUMP)
    run("objdump -p libcudart.so.${major}" OUTPUT dynamic
        COMMAND ${OBJDUMP} -p ${prefix}/${LIBDIR}/libcudart.so.${major})
    if(NOT dynamic MATCHES "SONAME +libcudart\\.so\\.${major}\n")
      message(FATAL_ERROR "FAIL: the installed libcudart.so.${major} has no SONAME "
                          "libcudart.so.${major}:\n${dynamic}")
    endif()
  endif()
  message(STATUS "ok: SONAME libcudart.so.${major}")
endforeach()
# minicudart-run/: links to the two libraries beside it, and nothing else.
set(run_dir ${prefix}/${LIBDIR}/minicudart-run)
file(GLOB run_dir_files LIST_DIRECTORIES true RELATIVE ${run_dir} ${run_dir}/*)
if(NOT run_dir_files STREQUAL "libcudart.so.12;libcudart.so.13")
  message(FATAL_ERROR "FAIL: ${LIBDIR}/minicudart-run holds '${run_dir_files}', want the two "
                      "libraries alone")
endif()
foreach(major 13 12)
  if(NOT IS_SYMLINK ${run_dir}/libcudart.so.${major})
    message(FATAL_ERROR "FAIL: ${LIBDIR}/minicudart-run/libcudart.so.${major} is not a link")
  endif()
  file(READ_SYMLINK ${run_dir}/libcudart.so.${major} link)
  if(NOT link STREQUAL "../libcudart.so.${major}")
    message(FATAL_ERROR "FAIL: ${LIBDIR}/minicudart-run/libcudart.so.${major} -> ${link}, "
                        "want ../libcudart.so.${major}")
  endif()
endforeach()
message(STATUS "ok: ${LIBDIR}/minicudart-run: links to libcudart.so.12 and libcudart.so.13")
# The installed command finds both libraries and the folder beside it, in the prefix; CMD (env,
# no CUDA 12 program) gets libcudart.so.13 preloaded and the folder first on LD_LIBRARY_PATH.
run("minicudart --version" COMMAND ${prefix}/${BINDIR}/minicudart --version OUTPUT version)
file(REAL_PATH ${run_dir} run_dir_real)
foreach(major 13 12)
  file(REAL_PATH ${prefix}/${LIBDIR}/libcudart.so.${major} library)
  string(FIND "${version}" "library: ${library}\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "FAIL: minicudart --version does not name ${library}:\n${version}")
  endif()
endforeach()
string(FIND "${version}" "search folder: ${run_dir_real} " at)
if(at EQUAL -1)
  message(FATAL_ERROR "FAIL: minicudart --version does not name ${run_dir_real}:\n${version}")
endif()
file(REAL_PATH ${prefix}/${LIBDIR}/libcudart.so.13 library13)
run("minicudart run -- env" OUTPUT environment
    COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0
            LD_PRELOAD= LD_LIBRARY_PATH=/nonexistent ${prefix}/${BINDIR}/minicudart run -- env)
set(environment "\n${environment}")
string(FIND "${environment}" "\nLD_PRELOAD=${library13}\n" preload_at)
string(FIND "${environment}" "\nLD_LIBRARY_PATH=${run_dir_real}:/nonexistent\n" path_at)
if(preload_at EQUAL -1 OR path_at EQUAL -1)
  message(FATAL_ERROR "FAIL: minicudart run -- env: not LD_PRELOAD=${library13} and "
                      "LD_LIBRARY_PATH=${run_dir_real}:/nonexistent:\n${environment}")
endif()
run("fatbin --help" COMMAND ${prefix}/${BINDIR}/fatbin --help OUTPUT help)
if(NOT help MATCHES "usage: fatbin")
  message(FATAL_ERROR "FAIL: fatbin --help printed:\n${help}")
endif()

# The package carries no path of this machine's build: everything through ${_IMPORT_PREFIX} or
# found by minicudartConfig.cmake.
file(GLOB package_files ${prefix}/${cmake_dir}/*.cmake)
foreach(file IN LISTS package_files)
  file(READ ${file} text)
  foreach(path ${BUILD_DIR} ${SOURCE_DIR} /usr/lib /usr/local/lib /lib/x86_64-linux-gnu)
    string(FIND "${text}" "${path}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "FAIL: ${file} names ${path}")
    endif()
  endforeach()
endforeach()
file(READ ${prefix}/${cmake_dir}/minicudartConfig.cmake text)
if(SANITIZE AND NOT text MATCHES "minicudart_SANITIZE_LINK_OPTIONS \"-fsanitize=address")
  message(FATAL_ERROR "FAIL: sanitized build, but minicudartConfig.cmake records no -fsanitize")
endif()
message(STATUS "ok: CMake package files name no build-machine path")

# pkg-config, where installed: the flags, and a C program linked with them.
find_program(PKG_CONFIG NAMES pkg-config pkgconf)
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
  run("pkg-config --static --libs --cflags minicudart" OUTPUT flags
      COMMAND ${PKG_CONFIG} --static --libs --cflags minicudart)
  string(STRIP "${flags}" flags)
  foreach(want "-I${prefix}/${INCLUDEDIR}" "-L${prefix}/${LIBDIR}" -lminicudart
          -lpthread -ldl)
    if(NOT " ${flags} " MATCHES " ${want} ")
      message(FATAL_ERROR "FAIL: pkg-config --static --libs --cflags minicudart: no ${want} in "
                          "'${flags}'")
    endif()
  endforeach()
  if(C_COMPILER)
    separate_arguments(flags UNIX_COMMAND "${flags}")
    file(WRITE ${WORK_DIR}/pc.c [[
#include <minicudart.h>
int main(void) { return minicudart_set_launch_params("no-such-mode") == -1 ? 0 : 1; }
]])
    run("a C program built with pkg-config's flags" COMMAND ${C_COMPILER} ${WORK_DIR}/pc.c
        -o ${WORK_DIR}/pc ${flags})
    run("that program" COMMAND ${WORK_DIR}/pc)
  endif()
  # minicudart12: the static runtime of CUDA 12.9's ABI, and the folder of its libcudart.so.12.
  run("pkg-config --static --libs --cflags minicudart12" OUTPUT flags12
      COMMAND ${PKG_CONFIG} --static --libs --cflags minicudart12)
  string(STRIP "${flags12}" flags12)
  if(NOT " ${flags12} " MATCHES " -lminicudart12 " OR " ${flags12} " MATCHES " -lminicudart ")
    message(FATAL_ERROR "FAIL: pkg-config --static --libs minicudart12: '${flags12}'")
  endif()
  run("pkg-config --variable=dropindir minicudart12" OUTPUT dropin12
      COMMAND ${PKG_CONFIG} --variable=dropindir minicudart12)
  string(STRIP "${dropin12}" dropin12)
  if(NOT EXISTS ${dropin12}/libcudart.so.12)
    message(FATAL_ERROR "FAIL: minicudart12.pc's dropindir ${dropin12} has no libcudart.so.12")
  endif()
  if(C_COMPILER)
    separate_arguments(flags12 UNIX_COMMAND "${flags12}")
    run("a C program built with minicudart12's flags" COMMAND ${C_COMPILER}
        ${SOURCE_DIR}/tests/install/cuda12-project/app12.c -o ${WORK_DIR}/pc12 ${flags12})
    run("that program" COMMAND ${WORK_DIR}/pc12 OUTPUT out12)
    if(NOT out12 MATCHES "cudaRuntimeGetVersion 0, version ${RUNTIME_VERSION12}\n")
      message(FATAL_ERROR "FAIL: a program linked with minicudart12.pc answered: ${out12}")
    endif()
  endif()
else()
  message(STATUS "skipped: pkg-config is not installed")
endif()

# 3. examples/cmake-project against the prefix.
set(cuda_args -DCMAKE_CUDA_COMPILER=${CUDA_COMPILER})
if(CUDA_HOST_COMPILER)
  list(APPEND cuda_args -DCMAKE_CUDA_HOST_COMPILER=${CUDA_HOST_COMPILER})
endif()
run("configure examples/cmake-project"
    COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/cmake-project -B ${example_build}
            -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CUDA_ARCHITECTURES=90
            ${cuda_args})
run("build examples/cmake-project" COMMAND ${CMAKE_COMMAND} --build ${example_build} -j 2)

# The programs: minicudart's, never NVIDIA's runtime (not linked, not imported).
find_program(NM nm)
foreach(program saxpy saxpy_shared)
  set(exe ${example_build}/${program})
  file(GET_RUNTIME_DEPENDENCIES EXECUTABLES ${exe} RESOLVED_DEPENDENCIES_VAR deps
       UNRESOLVED_DEPENDENCIES_VAR missing DIRECTORIES ${prefix}/${LIBDIR})
  if(program STREQUAL "saxpy")
    if(deps MATCHES "libcudart")
      message(FATAL_ERROR "FAIL: ${program} (static minicudart) loads ${deps}")
    endif()
  elseif(NOT deps MATCHES "${prefix}/${LIBDIR}/libcudart.so.13")
    message(FATAL_ERROR "FAIL: ${program} does not load ${prefix}/${LIBDIR}/libcudart.so.13: "
                        "${deps} (missing: ${missing})")
  endif()

  if(NM)   # NVIDIA's static runtime, had it been linked in, brings its C++ namespace cudart::
    execute_process(COMMAND ${NM} -C ${exe} OUTPUT_VARIABLE symbols ERROR_QUIET)
    if(symbols MATCHES "cudart::")
      message(FATAL_ERROR "FAIL: ${program} carries NVIDIA's static runtime (cudart:: symbols)")
    endif()
  endif()

  # As it comes: PASS on a GPU machine, exit 2 on one without.
  execute_process(COMMAND ${exe} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_STRIP_TRAILING_WHITESPACE)
  if(rc EQUAL 0 AND out MATCHES "PASS")
    message(STATUS "ok: ${program}: ${out}")
  elseif(rc EQUAL 2 AND out MATCHES "no GPU")
    message(STATUS "ok: ${program} (no GPU here): ${out}")
  else()
    message(FATAL_ERROR "FAIL: ${program}: exit ${rc}\n${out}")
  endif()
  # With the driver forced missing: exit 2, everywhere.
  execute_process(COMMAND ${CMAKE_COMMAND} -E env MINICUDART_DRIVER=/nonexistent/libcuda.so.1
                  ${exe} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 2 OR NOT out MATCHES "no GPU: cudaGetDeviceCount: cudaErrorInsufficientDriver")
    message(FATAL_ERROR "FAIL: ${program} without a driver: exit ${rc}, want 2\n${out}")
  endif()
  message(STATUS "ok: ${program} without a driver exits 2")
endforeach()

# 4. A CUDA 12 project: minicudart::cudart12 and minicudart::cudart_shared12.
set(cuda12_build ${WORK_DIR}/cuda12-project)
set(c_args)
if(C_COMPILER)
  set(c_args -DCMAKE_C_COMPILER=${C_COMPILER})
endif()
run("configure tests/install/cuda12-project"
    COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/install/cuda12-project -B ${cuda12_build}
            -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix} ${c_args})
run("build tests/install/cuda12-project" COMMAND ${CMAKE_COMMAND} --build ${cuda12_build})
foreach(program app12 app12_shared)
  set(exe ${cuda12_build}/${program})
  file(GET_RUNTIME_DEPENDENCIES EXECUTABLES ${exe} RESOLVED_DEPENDENCIES_VAR deps
       UNRESOLVED_DEPENDENCIES_VAR missing DIRECTORIES ${prefix}/${LIBDIR})
  if(program STREQUAL "app12" AND deps MATCHES "libcudart")
    message(FATAL_ERROR "FAIL: ${program} (static minicudart12) loads ${deps}")
  elseif(program STREQUAL "app12_shared" AND NOT deps MATCHES "${prefix}/${LIBDIR}/libcudart.so.12")
    message(FATAL_ERROR "FAIL: ${program} does not load ${prefix}/${LIBDIR}/libcudart.so.12: "
                        "${deps} (missing: ${missing})")
  endif()
  run("${program}" COMMAND ${exe} OUTPUT out)
  if(NOT out MATCHES "cudaRuntimeGetVersion 0, version ${RUNTIME_VERSION12}\n")
    message(FATAL_ERROR "FAIL: ${program} answered: ${out}")
  endif()
  message(STATUS "ok: ${program} answers ${RUNTIME_VERSION12}")
endforeach()

message(STATUS "PASS: install_package")
