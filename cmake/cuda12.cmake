# cmake/cuda12.cmake - the CUDA 12 toolchains, for the tests of the runtime's CUDA 12 face
# (lib/cuda12: libcudart.so.12, libminicudart12.a; tests/cuda12).  tools/install-deps.sh puts
# both into cache folders; nothing of them is linked into the libraries.
#
#   CUDA 12.9: NVIDIA's PyPI wheels nvidia-cuda-runtime-cu12 (the runtime's headers and its
#     libcudart.so.12) and nvidia-cuda-nvcc-cu12 (crt/, which the runtime's headers include),
#     unpacked as <root>/nvidia/{cuda_runtime/{include,lib},cuda_nvcc/include}: the ABI that
#     lib/cuda12 implements, to compare with.
#   CUDA 12.4: nvcc from Debian's non-free nvidia-cuda-toolkit, unpacked privately by
#     tools/cuda12-toolkit.sh; <root>/bin/nvcc is a wrapper that picks its host compiler.
#     No 12.9 nvcc runs on this project's machines without NVIDIA's apt repository; 12.4's
#     host stubs are what programs built by a CUDA 12 toolkit call.
#
# In:  MINICUDART_CUDA129_ROOT, MINICUDART_CUDA124_ROOT (caches; defaults: install-deps.sh's)
# Out: CUDA12_FOUND, CUDA12_NVCC (nvcc 12.4);
#      CUDA129_FOUND, CUDA129_INCLUDE_DIR (cuda_runtime_api.h's folder), CUDA129_INCLUDE_DIRS
#      (every folder a C file including <cuda_runtime_api.h> of 12.9 needs: crt/ is in the
#      second), CUDA129_LIBRARY_DIR (NVIDIA's libcudart.so.12).

include(${CMAKE_CURRENT_LIST_DIR}/toolkit-dirs.cmake)
minicudart_toolkit_dir(cuda129_default MINICUDART_CUDA129_DIR cuda-12.9)
minicudart_toolkit_dir(cuda124_default MINICUDART_CUDA124_DIR cuda-12.4)
set(MINICUDART_CUDA129_ROOT "${cuda129_default}" CACHE PATH
  "Folder holding CUDA 12.9's runtime wheels unpacked (tools/install-deps.sh fetches them)")
set(MINICUDART_CUDA124_ROOT "${cuda124_default}" CACHE PATH
  "Folder holding nvcc 12.4 unpacked (tools/cuda12-toolkit.sh, run by tools/install-deps.sh)")

# ---- 12.9: headers and NVIDIA's libcudart.so.12 ----------------------------------------------
set(CUDA129_FOUND OFF)
set(CUDA129_INCLUDE_DIR ${MINICUDART_CUDA129_ROOT}/nvidia/cuda_runtime/include)
set(CUDA129_INCLUDE_DIRS ${CUDA129_INCLUDE_DIR} ${MINICUDART_CUDA129_ROOT}/nvidia/cuda_nvcc/include)
set(CUDA129_LIBRARY_DIR ${MINICUDART_CUDA129_ROOT}/nvidia/cuda_runtime/lib)
if(EXISTS ${CUDA129_INCLUDE_DIR}/cuda_runtime_api.h
   AND EXISTS ${MINICUDART_CUDA129_ROOT}/nvidia/cuda_nvcc/include/crt/host_defines.h
   AND EXISTS ${CUDA129_LIBRARY_DIR}/libcudart.so.12)
  # The version is read rather than assumed from the folder's name.
  file(STRINGS ${CUDA129_INCLUDE_DIR}/cuda_runtime_api.h cuda129_version
       REGEX "^#define CUDART_VERSION +[0-9]+")
  if(cuda129_version MATCHES "CUDART_VERSION +12090")
    set(CUDA129_FOUND ON)
    message(STATUS "CUDA 12.9 runtime: ${MINICUDART_CUDA129_ROOT}")
  else()
    message(WARNING "MINICUDART_CUDA129_ROOT=${MINICUDART_CUDA129_ROOT}: its cuda_runtime_api.h "
      "is not 12.9's (${cuda129_version}): the tests against NVIDIA's 12.9 runtime "
      "(tests/cuda12) are skipped.")
  endif()
else()
  message(WARNING "No CUDA 12.9 runtime at MINICUDART_CUDA129_ROOT=${MINICUDART_CUDA129_ROOT} "
    "(nvidia/cuda_runtime/{include,lib}, nvidia/cuda_nvcc/include/crt): the tests against "
    "NVIDIA's 12.9 runtime (tests/cuda12) are skipped.  tools/install-deps.sh fetches it.")
endif()

# ---- 12.4: nvcc ------------------------------------------------------------------------------
set(CUDA12_FOUND OFF)
set(CUDA12_NVCC ${MINICUDART_CUDA124_ROOT}/bin/nvcc)
if(EXISTS ${CUDA12_NVCC})
  execute_process(COMMAND ${CUDA12_NVCC} --version OUTPUT_VARIABLE cuda12_version
                  RESULT_VARIABLE cuda12_result ERROR_QUIET)
  if(cuda12_result EQUAL 0 AND cuda12_version MATCHES "release 12\\.4,")
    set(CUDA12_FOUND ON)
    message(STATUS "CUDA 12.4 nvcc: ${CUDA12_NVCC}")
  else()
    message(WARNING "MINICUDART_CUDA124_ROOT=${MINICUDART_CUDA124_ROOT}: bin/nvcc does not run "
      "as nvcc 12.4: the tests of CUDA 12 programs (tests/cuda12) are skipped.")
  endif()
else()
  message(WARNING "No nvcc 12.4 at MINICUDART_CUDA124_ROOT=${MINICUDART_CUDA124_ROOT} "
    "(bin/nvcc): the tests of CUDA 12 programs (tests/cuda12) are skipped.  "
    "tools/install-deps.sh installs it (tools/cuda12-toolkit.sh).")
endif()
