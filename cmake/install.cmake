# cmake --install [--prefix <prefix>]: what a user of minicudart gets.
#
#   <prefix>/include/minicudart.h
#   <prefix>/lib/libminicudart.a                 the static runtime        minicudart::cudart
#   <prefix>/lib/libminicudart12.a               the same, CUDA 12.9's ABI minicudart::cudart12
#   <prefix>/lib/libcudart.so.13, libcudart.so   the drop-in shared one    minicudart::cudart_shared
#   <prefix>/lib/libcudart.so.12                 CUDA 12.9's drop-in       minicudart::cudart_shared12
#   <prefix>/lib/minicudart-run/libcudart.so.13, libcudart.so.12
#                                                links to those two, and nothing else: the folder
#                                                `minicudart run` puts first on LD_LIBRARY_PATH
#                                                (these in the folder MINICUDART_INSTALL_DROPIN_DIR
#                                                names, if given: the Debian package's private one)
#   <prefix>/bin/fatbin                          the fatbin inspector      minicudart::fatbin
#   <prefix>/bin/minicudart                      `minicudart run -- CMD`
#   <prefix>/lib/cmake/minicudart/               find_package(minicudart) (relocatable)
#   <prefix>/lib/pkgconfig/minicudart.pc         pkg-config --static --libs minicudart
#   <prefix>/lib/pkgconfig/minicudart12.pc       the same for a CUDA 12 program: minicudart12
#
# ("lib" is CMAKE_INSTALL_LIBDIR from GNUInstallDirs, included by the top level.)  Consumers:
# examples/cmake-project.  The packages: pyproject.toml (the wheel) and cmake/package.cmake.
# The test `install_package` (registered below) installs the build tree into a scratch prefix and
# builds that example against it: tests/install/install_test.cmake.
include(CMakePackageConfigHelpers)

set(minicudart_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/minicudart)

# Exported names: minicudart::cudart, minicudart::cudart_shared, minicudart::fatbin, and CUDA
# 12.9's minicudart::cudart12 and minicudart::cudart_shared12.
set_target_properties(minicudart PROPERTIES EXPORT_NAME cudart)
set_target_properties(minicudart12 PROPERTIES EXPORT_NAME cudart12)
set_target_properties(minicudart_shared PROPERTIES EXPORT_NAME cudart_shared)
set_target_properties(minicudart_shared12 PROPERTIES EXPORT_NAME cudart_shared12)
set_target_properties(fatbin PROPERTIES EXPORT_NAME fatbin)

# The static libraries' link interface names Threads::Threads, which FindThreads only defines
# where C or C++ is enabled: the exported interface names a target that minicudartConfig.cmake
# defines on the consumer's machine instead.  The build tree keeps the original items.
foreach(library minicudart minicudart12)
  get_target_property(minicudart_link_items ${library} INTERFACE_LINK_LIBRARIES)
  set(minicudart_interface_items)
  foreach(item IN LISTS minicudart_link_items)
    if(item STREQUAL "Threads::Threads")
      list(APPEND minicudart_interface_items
           "$<BUILD_INTERFACE:${item}>" "$<INSTALL_INTERFACE:minicudart::threads>")
    elseif(IS_ABSOLUTE "${item}")
      message(FATAL_ERROR "cmake/install.cmake: ${library} links ${item} by an absolute path; "
                          "the installed package cannot carry it: map it here to a target that "
                          "minicudartConfig.cmake.in defines")
    else()
      list(APPEND minicudart_interface_items "${item}")   # dl, generator expressions
    endif()
  endforeach()
  set_property(TARGET ${library} PROPERTY INTERFACE_LINK_LIBRARIES "${minicudart_interface_items}")
endforeach()

# With MINICUDART_SANITIZE the installed libraries are instrumented: whatever links them must link
# the sanitizer runtimes too (the same options as the top level's add_link_options()).  Recorded
# in the generated config, which adds them to the imported libraries.
set(MINICUDART_SANITIZE_LINK_OPTIONS "")
if(MINICUDART_SANITIZE)
  set(MINICUDART_SANITIZE_LINK_OPTIONS "-fsanitize=address;-fsanitize=undefined")
endif()

install(TARGETS minicudart minicudart12 fatbin
  EXPORT minicudartTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS minicudart_shared
  EXPORT minicudartTargets
  LIBRARY DESTINATION ${minicudart_dropin_dir})  # libcudart.so.13 and the libcudart.so link
# libcudart.so.12 beside it, without a libcudart.so link of its own (that one is 13's).
install(TARGETS minicudart_shared12
  EXPORT minicudartTargets
  LIBRARY DESTINATION ${minicudart_dropin_dir} NAMELINK_SKIP)
# minicudart-run/: the two libraries again, as relative links to the files beside it, and nothing
# else, which `minicudart run` puts first on LD_LIBRARY_PATH for the major it does not preload.
# Not the drop-in's folder itself: by default that is the prefix's lib/, shared with whatever
# else the prefix holds (/usr/local/lib, all of a conda environment's libraries), which would then
# come before every program's RUNPATH; and even the Debian package's private folder holds the
# libcudart.so link, which would answer a dlopen("libcudart.so") in every program of CMD's tree
# with libcudart.so.13 whatever its major.  (The wheel holds no links: it carries copies.)
set(minicudart_run_links ${PROJECT_BINARY_DIR}/install-minicudart-run)
file(MAKE_DIRECTORY ${minicudart_run_links})
foreach(major 13 12)
  file(CREATE_LINK ../libcudart.so.${major} ${minicudart_run_links}/libcudart.so.${major} SYMBOLIC)
endforeach()
install(FILES ${minicudart_run_links}/libcudart.so.13 ${minicudart_run_links}/libcudart.so.12
        DESTINATION ${minicudart_dropin_dir}/minicudart-run)
install(TARGETS minicudart_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/minicudart.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

install(EXPORT minicudartTargets
  NAMESPACE minicudart::
  FILE minicudartTargets.cmake
  DESTINATION ${minicudart_cmake_dir})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/minicudartConfig.cmake.in
  ${PROJECT_BINARY_DIR}/minicudartConfig.cmake
  INSTALL_DESTINATION ${minicudart_cmake_dir})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/minicudartConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)   # 0.x: minor versions may break the API
install(FILES ${PROJECT_BINARY_DIR}/minicudartConfig.cmake
              ${PROJECT_BINARY_DIR}/minicudartConfigVersion.cmake
        DESTINATION ${minicudart_cmake_dir})

# pkg-config: prefix= is the prefix given to `cmake --install --prefix`, known only at install
# time.  Stage 1 (now) fills in everything else and leaves @MINICUDART_PC_PREFIX@ in place;
# stage 2 (install(CODE)) fills in the prefix.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(MINICUDART_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  set(MINICUDART_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(MINICUDART_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(MINICUDART_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
if(IS_ABSOLUTE "${minicudart_dropin_dir}")
  set(MINICUDART_PC_DROPINDIR "${minicudart_dropin_dir}")
else()
  set(MINICUDART_PC_DROPINDIR "\${prefix}/${minicudart_dropin_dir}")
endif()
list(JOIN MINICUDART_SANITIZE_LINK_OPTIONS " " MINICUDART_PC_SANITIZE)
set(MINICUDART_PC_PREFIX "@MINICUDART_PC_PREFIX@")
# Two files from one template: minicudart.pc (libminicudart.a, libcudart.so.13) and
# minicudart12.pc (libminicudart12.a, libcudart.so.12), for programs of a CUDA 12 toolkit.
set(minicudart_pc_names minicudart minicudart12)
foreach(MINICUDART_PC_NAME IN LISTS minicudart_pc_names)
  if(MINICUDART_PC_NAME STREQUAL "minicudart12")
    set(MINICUDART_PC_ABI "${MINICUDART_RUNTIME_ABI12}")
    set(MINICUDART_PC_SONAME libcudart.so.12)
  else()
    set(MINICUDART_PC_ABI "${MINICUDART_RUNTIME_ABI}")
    set(MINICUDART_PC_SONAME libcudart.so.13)
  endif()
  configure_file(${CMAKE_CURRENT_LIST_DIR}/minicudart.pc.in
                 ${PROJECT_BINARY_DIR}/${MINICUDART_PC_NAME}.pc.stage @ONLY)
endforeach()
# A wheel (scikit-build-core sets SKBUILD) is installed into whatever environment pip is given,
# not where it was staged: its prefix is the .pc file's folder, two up (pkg-config's pcfiledir).
if(SKBUILD)
  file(RELATIVE_PATH minicudart_pc_up /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
  string(REGEX REPLACE "/$" "" minicudart_pc_up "${minicudart_pc_up}")
  set(minicudart_pc_prefix "\\\${pcfiledir}/${minicudart_pc_up}")
else()
  set(minicudart_pc_prefix "\${CMAKE_INSTALL_PREFIX}")
endif()
foreach(name IN LISTS minicudart_pc_names)
  install(CODE "
    set(MINICUDART_PC_PREFIX \"${minicudart_pc_prefix}\")
    configure_file(\"${PROJECT_BINARY_DIR}/${name}.pc.stage\" \"${PROJECT_BINARY_DIR}/${name}.pc\"
                   @ONLY)")
  install(FILES ${PROJECT_BINARY_DIR}/${name}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()

# The test: install this build tree into a scratch prefix, check it, build examples/cmake-project
# against it.  Needs nvcc (MINICUDART_CUDA); kept here so that tests/CMakeLists.txt needs no line.
# Not in a cross build: the layout is the same as the native trees', and the project it builds
# would run under the emulator to no new end (docs/arm.md).
if(MINICUDART_TESTS AND MINICUDART_CUDA AND NOT CMAKE_CROSSCOMPILING)
  get_property(minicudart_multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  add_test(NAME install_package
    COMMAND ${CMAKE_COMMAND}
      -DBUILD_DIR=${PROJECT_BINARY_DIR}
      -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
      -DWORK_DIR=${PROJECT_BINARY_DIR}/install_package.tmp
      -DCONFIG=$<CONFIG>
      -DLIBDIR=${CMAKE_INSTALL_LIBDIR}
      -DINCLUDEDIR=${CMAKE_INSTALL_INCLUDEDIR}
      -DBINDIR=${CMAKE_INSTALL_BINDIR}
      -DGENERATOR=${CMAKE_GENERATOR}
      -DC_COMPILER=${CMAKE_C_COMPILER}
      -DCUDA_COMPILER=${CMAKE_CUDA_COMPILER}
      -DCUDA_HOST_COMPILER=${CMAKE_CUDA_HOST_COMPILER}
      -DSANITIZE=${MINICUDART_SANITIZE}
      -DRUNTIME_VERSION12=${MINICUDART_RUNTIME_VERSION12}
      -P ${PROJECT_SOURCE_DIR}/tests/install/install_test.cmake)
  # It configures and builds a CUDA project (compiler detection included): ~30 s on 2 cores.
  set_tests_properties(install_package PROPERTIES TIMEOUT 300)
endif()
