# cmake/cuda135.cmake - CUDA 13.5's toolkit, for the tests that need it: programs built by its
# nvcc (tests/cuda135), NVIDIA's 13.5 runtime to compare with (tests/abi).  The project builds
# with one CUDA compiler, the installed 13.0 nvcc; 13.5's comes from NVIDIA's PyPI wheels,
# which tools/install-deps.sh unpacks into a cache folder as <root>/nvidia/cu13/{bin,nvvm,
# include,lib}.  Included by the top level when tests are built; nothing of it is linked into
# the library.
#
# In:  MINICUDART_CUDA135_ROOT (cache; default: where install-deps.sh puts it)
# Out: CUDA135_FOUND, CUDA135_NVCC, CUDA135_INCLUDE_DIR, CUDA135_LIBRARY_DIR,
#      CUDA135_CUOBJDUMP (empty when the tree has none: the wheel is separate),
#      cuda135_source_needs_13_5(<source> <var>) for tests/gpu's "// gpu-cuda: 13.5" header.

include(${CMAKE_CURRENT_LIST_DIR}/toolkit-dirs.cmake)
minicudart_toolkit_dir(cuda135_default MINICUDART_CUDA135_DIR cuda-13.5.37)
set(MINICUDART_CUDA135_ROOT "${cuda135_default}" CACHE PATH
  "Folder holding CUDA 13.5's nvidia/cu13 tree (tools/install-deps.sh fetches it)")

set(CUDA135_FOUND OFF)
set(cuda135_tree ${MINICUDART_CUDA135_ROOT}/nvidia/cu13)
set(CUDA135_NVCC ${cuda135_tree}/bin/nvcc)
set(CUDA135_INCLUDE_DIR ${cuda135_tree}/include)
set(CUDA135_LIBRARY_DIR ${cuda135_tree}/lib)
set(CUDA135_CUOBJDUMP "")
if(MINICUDART_CUDA AND EXISTS ${CUDA135_NVCC})
  # The version is asked rather than assumed from the folder's name: a root pointed at another
  # toolkit must not pass for 13.5.
  execute_process(COMMAND ${CUDA135_NVCC} --version OUTPUT_VARIABLE cuda135_version
                  RESULT_VARIABLE cuda135_result ERROR_QUIET)
  if(cuda135_result EQUAL 0 AND cuda135_version MATCHES "release 13\\.5,"
     AND EXISTS ${CUDA135_INCLUDE_DIR}/cuda_runtime_api.h
     AND EXISTS ${CUDA135_LIBRARY_DIR}/libcudart.so)
    set(CUDA135_FOUND ON)
    if(EXISTS ${cuda135_tree}/bin/cuobjdump)
      set(CUDA135_CUOBJDUMP ${cuda135_tree}/bin/cuobjdump)
    endif()
    message(STATUS "CUDA 13.5: ${CUDA135_NVCC}")
  else()
    message(WARNING "MINICUDART_CUDA135_ROOT=${MINICUDART_CUDA135_ROOT} has no working nvcc "
      "13.5 with its headers and a lib/libcudart.so link: the tests of CUDA 13.5 programs "
      "(tests/cuda135) are skipped.  tools/install-deps.sh fetches it.")
  endif()
elseif(MINICUDART_CUDA)
  message(WARNING "No CUDA 13.5 at MINICUDART_CUDA135_ROOT=${MINICUDART_CUDA135_ROOT} (no "
    "nvidia/cu13/bin/nvcc): the tests of CUDA 13.5 programs (tests/cuda135) are skipped.  "
    "tools/install-deps.sh fetches it (from PyPI).")
endif()

# cuda135_source_needs_13_5(<source> <var>): <var> is TRUE when the source's header says
# "// gpu-cuda: 13.5", the mark of a tests/gpu program that only 13.5's nvcc compiles (it uses
# 13.5's API); tests/e2e leaves such programs to tests/cuda135.  Only the first 4 KiB are read:
# the mark belongs to the header comment.
function(cuda135_source_needs_13_5 source var)
  file(READ ${source} head LIMIT 4096)
  if(head MATCHES "(^|\n)// gpu-cuda: *13\\.5[ \t\r]*(\n|$)")
    set(${var} TRUE PARENT_SCOPE)
  else()
    set(${var} FALSE PARENT_SCOPE)
  endif()
endfunction()
