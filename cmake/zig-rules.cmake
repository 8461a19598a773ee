# Read after CMake has asked the compiler its own folders (CMAKE_USER_MAKE_RULES_OVERRIDE_C, set
# by cmake/zig-common.cmake): /usr/include counts as one of zig's, so that CMake never passes it
# as -I (the codecs' headers are found there: their include folder is /usr/include).  zig
# searches it after its own glibc's headers instead (-idirafter, zig-common.cmake): an -I
# /usr/include would put the build machine's glibc headers before those of the glibc the build
# links against.
list(APPEND CMAKE_C_IMPLICIT_INCLUDE_DIRECTORIES /usr/include)
