# The Debian package, made by CPack from a tree that tools/build-deb.sh configures for /usr
# (Release, CMAKE_INSTALL_LIBDIR lib/<multiarch>, MINICUDART_INSTALL_DROPIN_DIR
# lib/<multiarch>/minicudart): minicudart_<version>_<arch>.deb holds what `cmake --install`
# installs (cmake/install.cmake), stripped:
#
#   /usr/bin/minicudart, /usr/bin/fatbin          the commands
#   /usr/include/minicudart.h
#   /usr/lib/<multiarch>/libminicudart.a, libminicudart12.a    and pkgconfig/minicudart.pc,
#       minicudart12.pc, cmake/minicudart/
#   /usr/lib/<multiarch>/minicudart/libcudart.so.13 (and the libcudart.so link), libcudart.so.12
#       and minicudart-run/ (links to the two, which `minicudart run` puts on LD_LIBRARY_PATH):
#       a private folder, on no path the loader searches, so that installing the package never
#       shadows NVIDIA's runtimes for a program that did not ask for minicudart; `minicudart
#       run`, the CMake package and pkg-config's dropindir name it
#   /usr/share/doc/minicudart/copyright, changelog.gz   (the "debian" component: this package
#       only, never `cmake --install` or the wheel)
#
# Depends: what dpkg-shlibdeps finds the binaries need, libc6 alone; Recommends: the zstd, LZ4
# and zlib libraries the runtime and `fatbin` load with dlopen for a compressed image.  The
# version says the runtime ABI (MINICUDART_PACKAGE_VERSION, the top level's).  The test
# package_deb (tests/install/deb_test.sh) checks all of it, runs lintian and installs it.
set(MINICUDART_DEB_MAINTAINER "The minicudart authors <maintainers@minicudart.example>"
    CACHE STRING "The Debian package's Maintainer field: a name and an address")

set(CPACK_PACKAGE_NAME minicudart)
set(CPACK_PACKAGE_VERSION ${MINICUDART_PACKAGE_VERSION})
set(CPACK_PACKAGE_VENDOR "The minicudart authors")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "small C replacement for NVIDIA's CUDA runtime")
set(CPACK_PACKAGE_DESCRIPTION [[
minicudart implements NVIDIA's CUDA runtime API (libcudart) in readable C,
on the CUDA driver API (libcuda, loaded at run time), the ABI of CUDA
${MINICUDART_RUNTIME_ABI}'s runtime.

It carries the same runtime with CUDA 12.9's ABI as well: libcudart.so.12
and libminicudart12.a, for programs built by a CUDA 12 toolkit.

Programs built with nvcc -cudart=shared run on it unrebuilt through
`minicudart run -- CMD`, which preloads its libcudart.so.13 (its
libcudart.so.12 for a program of a CUDA 12 toolkit) and puts both first
on the library search path of CMD's processes (they are installed in a
private folder, where no other program finds them).  Programs and build
systems link it instead of NVIDIA's runtime: libminicudart.a
(libminicudart12.a) with its header, a CMake package
(find_package(minicudart)) and pkg-config files.
The fatbin command inspects the GPU code that nvcc embeds in binaries.]])
string(CONFIGURE "${CPACK_PACKAGE_DESCRIPTION}" CPACK_PACKAGE_DESCRIPTION)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)   # minicudart_<version>_<arch>.deb
# The machine the package is for, in Debian's words (tools/build-deb.sh --arch arm64 sets it for
# its cross build); empty: this machine's, CPack's default (dpkg --print-architecture).
set(MINICUDART_DEB_ARCHITECTURE "" CACHE STRING "The Debian package's Architecture (empty: this machine's)")
if(MINICUDART_DEB_ARCHITECTURE)
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE ${MINICUDART_DEB_ARCHITECTURE})
endif()
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${MINICUDART_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libzstd1, liblz4-1, zlib1g")

# Everything `cmake --install` installs, and the "debian" component besides.
set(CPACK_INSTALL_CMAKE_PROJECTS
    "${PROJECT_BINARY_DIR};${PROJECT_NAME};ALL;/"
    "${PROJECT_BINARY_DIR};${PROJECT_NAME};debian;/")

# Debian policy's two files in /usr/share/doc/<package>: the licence as copyright, and a changelog
# (a native package's: changelog.gz, compressed with gzip -9n).
set(minicudart_deb_changelog ${PROJECT_BINARY_DIR}/debian/changelog)
string(TIMESTAMP minicudart_deb_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(WRITE ${minicudart_deb_changelog}
  "minicudart (${MINICUDART_PACKAGE_VERSION}) unstable; urgency=medium\n\n"
  "  * minicudart ${PROJECT_VERSION}, with NVIDIA's CUDA ${MINICUDART_RUNTIME_ABI} runtime ABI "
  "(libcudart.so.13)\n    and CUDA ${MINICUDART_RUNTIME_ABI12}'s (libcudart.so.12).\n\n"
  " -- ${MINICUDART_DEB_MAINTAINER}  ${minicudart_deb_date}\n")
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR}
        RENAME copyright COMPONENT debian EXCLUDE_FROM_ALL)
install(CODE "
  execute_process(COMMAND gzip -9nc \"${minicudart_deb_changelog}\"
                  OUTPUT_FILE \"${minicudart_deb_changelog}.gz\" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR \"gzip ${minicudart_deb_changelog}: \${rc}\")
  endif()" COMPONENT debian EXCLUDE_FROM_ALL)
install(FILES ${minicudart_deb_changelog}.gz DESTINATION ${CMAKE_INSTALL_DOCDIR}
        COMPONENT debian EXCLUDE_FROM_ALL)

# cpack -G DEB in a tree not configured for /usr (a development tree) would make a package with
# the wrong layout: refused, with the command that does it.
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_BINARY_DIR}/CPackProjectConfig.cmake)
file(WRITE ${CPACK_PROJECT_CONFIG_FILE} "
if(CPACK_GENERATOR STREQUAL \"DEB\" AND NOT \"${CMAKE_INSTALL_PREFIX}\" STREQUAL \"/usr\")
  message(FATAL_ERROR \"minicudart: this tree installs into ${CMAKE_INSTALL_PREFIX}, not /usr: \"
                      \"make the Debian package with tools/build-deb.sh\")
endif()
")
set(CPACK_GENERATOR DEB)
set(CPACK_SOURCE_GENERATOR "")   # the source package is pyproject.toml's sdist
include(CPack)
