# cmake/aarch64-linux-gnu.cmake - minicudart for 64-bit Arm Linux, cross-compiled on x86-64 with
# Debian's cross compilers, its tests run under qemu-user (docs/arm.md):
#
#   cmake -S . -B build/aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
#   cmake --build build/aarch64 -j2 && ctest --test-dir build/aarch64
#
# tools/install-deps.sh installs what it needs: gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu and
# qemu-user, and the arm64 development packages of cmocka, zstd, LZ4 and zlib (Debian multiarch,
# under /usr/lib/aarch64-linux-gnu, where the cross compilers look).
#
# CUDA: the toolkit under /usr/local/cuda is x86-64 only (its nvcc refuses the Arm host
# compiler), so the CUDA programs (examples, end-to-end tests) are built by CUDA 13.5's nvcc from
# NVIDIA's wheels, whose layout lets it take the cross host compiler (nvcc -ccbin
# aarch64-linux-gnu-g++): the tree tools/install-deps.sh unpacks (cmake/cuda135.cmake).  CMake
# identifies nvcc by linking a program with NVIDIA's static runtime, so the target's libcudart_static.a
# and libcudadevrt.a must be on the link path for that one check: install-deps.sh unpacks them
# from NVIDIA's aarch64 nvidia-cuda-runtime wheel.  Nothing of NVIDIA's runtime reaches the
# project's programs (CMAKE_CUDA_RUNTIME_LIBRARY None).  Without that nvcc, the libraries, the
# commands and the tests that need no nvcc are built (MINICUDART_CUDA OFF).

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# ctest runs each test program through it; qemu finds the Arm loader and libc where multiarch put
# them (/lib/ld-linux-aarch64.so.1, /usr/lib/aarch64-linux-gnu).
find_program(MINICUDART_QEMU_AARCH64 qemu-aarch64)
if(MINICUDART_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${MINICUDART_QEMU_AARCH64})
endif()

include(${CMAKE_CURRENT_LIST_DIR}/toolkit-dirs.cmake)
minicudart_toolkit_dir(minicudart_cuda135 MINICUDART_CUDA135_DIR cuda-13.5.37)
minicudart_toolkit_dir(minicudart_cuda135_arm MINICUDART_CUDA135_AARCH64_DIR cuda-13.5.37-aarch64)
set(minicudart_nvcc_root "${minicudart_cuda135}/nvidia/cu13")
set(minicudart_arm_runtime "${minicudart_cuda135_arm}/nvidia/cu13/lib")

if(EXISTS "${minicudart_nvcc_root}/bin/nvcc" AND EXISTS "${minicudart_arm_runtime}/libcudart_static.a")
  set(CMAKE_CUDA_COMPILER "${minicudart_nvcc_root}/bin/nvcc")
  set(CMAKE_CUDA_HOST_COMPILER aarch64-linux-gnu-g++)
  # For CMake's check of nvcc only (see above); the linker skips the x86-64 copies nvcc's own
  # -L finds first.
  set(CMAKE_CUDA_FLAGS_INIT "-L${minicudart_arm_runtime}")
else()
  set(MINICUDART_CUDA OFF CACHE BOOL "Use nvcc for examples, fixtures and end-to-end tests")
  message(STATUS "aarch64: no nvcc 13.5 with NVIDIA's aarch64 runtime under "
    "${MINICUDART_TOOLKIT_CACHE} "
    "(tools/install-deps.sh): the CUDA programs and their tests are left out")
endif()
