"""minicudart: a small C replacement for NVIDIA's CUDA runtime.

The package installs the C library and commands into the environment's prefix; this module
only finds them.  `python -m minicudart run -- CMD` is `minicudart run -- CMD`.
"""
import os
import sys


def prefix_path(*parts):
    """A path under the environment's prefix, where the wheel's data went."""
    return os.path.join(sys.prefix, *parts)


def command():
    """The installed `minicudart` command."""
    return prefix_path("bin", "minicudart")


def library(major=13):
    """The installed libcudart.so.13 (the drop-in for NVIDIA's), or with major=12 the
    libcudart.so.12 of CUDA 12.9's ABI beside it."""
    name = "libcudart.so.%d" % major
    for lib in ("lib", "lib64"):
        path = prefix_path(lib, name)
        if os.path.exists(path):
            return path
    return prefix_path("lib", name)
