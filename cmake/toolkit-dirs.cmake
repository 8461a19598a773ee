# cmake/toolkit-dirs.cmake - where tools/install-deps.sh unpacks the toolkits the build and the
# tests use: a folder of its cache (${XDG_CACHE_HOME:-~/.cache}/minicudart/<name>), unless the
# environment variable that names it is set.  Included by cuda135.cmake, cuda12.cmake and the
# aarch64 toolchain file (which CMake reads before project(), hence a plain include by path).
#
#   minicudart_toolkit_dir(<out> <ENV_VAR> <folder in the cache>)

if(DEFINED ENV{XDG_CACHE_HOME})
  set(MINICUDART_TOOLKIT_CACHE "$ENV{XDG_CACHE_HOME}/minicudart")
else()
  set(MINICUDART_TOOLKIT_CACHE "$ENV{HOME}/.cache/minicudart")
endif()

function(minicudart_toolkit_dir out env_var folder)
  if(DEFINED ENV{${env_var}})
    set(${out} "$ENV{${env_var}}" PARENT_SCOPE)
  else()
    set(${out} "${MINICUDART_TOOLKIT_CACHE}/${folder}" PARENT_SCOPE)
  endif()
endfunction()
