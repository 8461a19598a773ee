# The part the zig toolchain files share (cmake/zig-x86_64.cmake, cmake/zig-aarch64.cmake): C
# compiled and linked by `zig cc` for MINICUDART_ZIG_TARGET, which names the glibc to link
# against (x86_64-linux-gnu.2.28: the symbols of glibc 2.28, whatever the build machine's), so
# that the packages run on any glibc from 2.28 on (manylinux_2_28) and build on any machine.
# zig is the ziglang package of PyPI (pinned in tools/install-deps.sh: tools/build-wheel.sh and
# tools/build-deb.sh pass its path as ZIG), or `zig` on PATH.
#
# zig also archives (`zig ar`, `zig ranlib`: LLVM's, which read the LLVM bitcode of a
# link-time-optimised build, as binutils' ar does not); CMake runs archivers by a path alone, so
# two two-line scripts in the build tree call them.  There is no strip: `zig objcopy` cannot
# strip a linked program, and binutils' strip knows only the host's machine.  Instead the
# release builds link with -s (no symbol table), zig's default debug information is turned off
# (-g0, before CMake's flags: a debug build's -g still wins), and CMAKE_STRIP is empty, so that
# `cmake --install --strip` and CPack's stripping have nothing to run.
if(NOT MINICUDART_ZIG_TARGET)
  message(FATAL_ERROR "zig-common.cmake: include it from a file that sets MINICUDART_ZIG_TARGET")
endif()
set(CMAKE_SYSTEM_NAME Linux)

if(NOT ZIG)
  if(DEFINED ENV{ZIG})
    set(ZIG "$ENV{ZIG}")
  else()
    find_program(ZIG zig)
  endif()
endif()
if(NOT ZIG OR NOT EXISTS "${ZIG}")
  message(FATAL_ERROR "zig not found (ZIG='${ZIG}'): tools/install-deps.sh installs the ziglang "
                      "package; pass its zig as ZIG")
endif()
set(ZIG "${ZIG}" CACHE FILEPATH "zig, which compiles, links and archives")
# try_compile's projects read this file again: they get ZIG too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES ZIG)

# A list: the compiler and its mandatory arguments.  The build machine's headers (those of the
# codecs, zstd.h, lz4frame.h and zlib.h) come after zig's glibc's: see cmake/zig-rules.cmake.
set(CMAKE_C_COMPILER "${ZIG}" cc -target ${MINICUDART_ZIG_TARGET} -idirafter /usr/include)
set(CMAKE_USER_MAKE_RULES_OVERRIDE_C ${CMAKE_CURRENT_LIST_DIR}/zig-rules.cmake)
set(CMAKE_C_FLAGS_INIT -g0)
# Programs position-independent, as Debian's gcc makes them (lintian's hardening-no-pie): CMake
# compiles them with -fPIE, and they link with -pie.
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
set(CMAKE_EXE_LINKER_FLAGS_INIT -pie)
foreach(kind EXE SHARED MODULE)
  set(CMAKE_${kind}_LINKER_FLAGS_RELEASE_INIT -s)
  set(CMAKE_${kind}_LINKER_FLAGS_MINSIZEREL_INIT -s)
endforeach()

set(minicudart_zig_tools ${CMAKE_BINARY_DIR}/zig-tools)
foreach(tool ar ranlib)
  file(WRITE ${minicudart_zig_tools}/${tool} "#!/bin/sh\nexec \"${ZIG}\" ${tool} \"$@\"\n")
  file(CHMOD ${minicudart_zig_tools}/${tool}
       PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                   WORLD_READ WORLD_EXECUTE)
endforeach()
set(CMAKE_AR ${minicudart_zig_tools}/ar CACHE FILEPATH "zig ar")
set(CMAKE_RANLIB ${minicudart_zig_tools}/ranlib CACHE FILEPATH "zig ranlib")
# Those of a link-time-optimised build (CMake's Clang rules use these names).
set(CMAKE_C_COMPILER_AR ${minicudart_zig_tools}/ar CACHE FILEPATH "zig ar")
set(CMAKE_C_COMPILER_RANLIB ${minicudart_zig_tools}/ranlib CACHE FILEPATH "zig ranlib")
set(CMAKE_STRIP "" CACHE FILEPATH "none: the release builds link with -s")

# Link-time optimisation (MINICUDART_LTO, CMakeLists.txt) works with zig, but is off by default
# here: clang's ThinLTO at -O3 inlines across files far more than gcc's, and doubles
# libcudart.so.13 (x86-64 Release: 630 KB of code with it, 318 KB without; gcc's 297 KB).
# -DMINICUDART_LTO=ON still asks for it.
set(MINICUDART_LTO OFF CACHE STRING "Link-time optimisation of libcudart.so.13: AUTO, ON or OFF")

# Only headers are taken from the build machine (the CUDA toolkit's, the codecs'): the
# libraries are found there too, but the runtime loads the codecs with dlopen and links nothing
# of them.
