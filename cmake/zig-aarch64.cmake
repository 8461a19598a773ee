# CMake toolchain: minicudart for 64-bit Arm Linux (aarch64, Debian's arm64) with glibc 2.28 or
# newer (manylinux_2_28), cross-built by `zig cc` (cmake/zig-common.cmake says how).
# tools/build-wheel.sh --arch aarch64 and tools/build-deb.sh --arch arm64 use it.
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(MINICUDART_ZIG_TARGET aarch64-linux-gnu.2.28)
# Where Debian's arm64 packages keep their libraries (multiarch): the codecs' libraries, which
# the configure looks for (only the tests link them), are zlib1g-dev:arm64 and the like there.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
include(${CMAKE_CURRENT_LIST_DIR}/zig-common.cmake)
