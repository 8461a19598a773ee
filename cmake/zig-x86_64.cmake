# CMake toolchain: minicudart for x86-64 Linux with glibc 2.28 or newer (manylinux_2_28), built
# by `zig cc` on any machine (cmake/zig-common.cmake says how).  tools/build-wheel.sh and
# tools/build-deb.sh use it: cmake -DCMAKE_TOOLCHAIN_FILE=cmake/zig-x86_64.cmake -DZIG=...
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(MINICUDART_ZIG_TARGET x86_64-linux-gnu.2.28)
# Where Debian keeps the machine's libraries (CMake then finds them in /usr/lib/x86_64-linux-gnu).
set(CMAKE_LIBRARY_ARCHITECTURE x86_64-linux-gnu)
include(${CMAKE_CURRENT_LIST_DIR}/zig-common.cmake)
