# conftest.py for PyTorch's CUDA test files run by minicudart's tests/frameworks/run.sh.
# Written for minicudart (not PyTorch's test/conftest.py); kept in tests/frameworks/pytorch/ and
# copied beside the test files (.gpu/pytorch/test, git-ignored) by run.sh at every run.
#
# The stored test files are a little newer than the installed PyTorch 2.11.0 wheel. Any name they
# import from torch.testing._internal that this wheel lacks is defined here, before the test
# modules are imported, on the module they import it from. Only names that are missing are set;
# each one set is listed in pytest's header ("minicudart shims: ...") and in
# $FRAMEWORK_SHIM_LOG when set. Candidates (names the stored files import that are recent):
#   common_utils: TEST_CUDAMALLOCASYNC (known missing in 2.11; 2.11 computed it as
#                 TEST_CUDA and torch.cuda.get_allocator_backend() == "cudaMallocAsync"),
#                 EXPANDABLE_SEGMENTS, TEST_CUDA_PYTHON_BINDINGS, cuda_python_error_check,
#                 recover_orig_fp32_precision, setBlasBackendsToDefaultFinally, gcIfJetson,
#                 serialTest, skipIfRocmArch, MI200_ARCH, MI300_ARCH, IS_JETSON
#   common_cuda:  PLATFORM_SUPPORTS_GREEN_CONTEXT, IS_JETSON, IS_WINDOWS
#   test_cuda:    TestCudaAllocator (FRAMEWORK_EXPANDABLE=1 only): the stored
#                 test_cuda_expandable_segments.py imports it; the stored test_cuda.py still calls
#                 that class TestCudaMallocAsync, so it is aliased.
#
# Also:
#   - registers pytest's "serial" mark (serialTest() puts it on tests PyTorch's CI runs alone;
#     run.sh runs "not serial" under xdist, then "serial" in one process, as run_test.py does);
#   - FRAMEWORK_EXPANDABLE=1 (run.sh sets it for test_cuda_expandable_segments.py only) does what
#     that file's __main__ does, which pytest never runs: EXPANDABLE_SEGMENTS = True (this file
#     imports common_utils before the test file could set PYTORCH_CUDA_ALLOC_CONF) and
#     torch.cuda.memory._set_allocator_settings("expandable_segments:True").
import functools
import importlib.util
import os
import sys

import torch
import torch.testing._internal.common_utils as cu

try:
    import torch.testing._internal.common_cuda as cc
except Exception:  # noqa: BLE001 - reported by the test module's own import
    cc = None

SHIMS = []


def _shim(mod, name, value):
    if mod is not None and not hasattr(mod, name):
        setattr(mod, name, value() if callable(value) and name.isupper() else value)
        SHIMS.append(f"{mod.__name__.rsplit('.', 1)[-1]}.{name}")


def _test_cudamallocasync():
    try:
        return bool(cu.TEST_CUDA) and torch.cuda.get_allocator_backend() == "cudaMallocAsync"
    except Exception:  # noqa: BLE001
        return False


def _expandable_segments():
    conf = os.environ.get("PYTORCH_CUDA_ALLOC_CONF", "") + "," + os.environ.get(
        "PYTORCH_ALLOC_CONF", "")
    return "expandable_segments:true" in conf.replace(" ", "").lower()


def _cuda_python_bindings():
    try:
        return bool(cu.TEST_CUDA) and importlib.util.find_spec("cuda.bindings") is not None
    except Exception:  # noqa: BLE001
        return False


def cuda_python_error_check(function_call_output):
    """Raise if a cuda-python call's status is not success; return the rest."""
    if isinstance(function_call_output, tuple):
        err, *rest = function_call_output
    else:
        err, rest = function_call_output, []
    if int(getattr(err, "value", err)) != 0:
        raise RuntimeError(f"CUDA Python error: {err}")
    if not rest:
        return None
    return rest[0] if len(rest) == 1 else tuple(rest)


def _identity_decorator(fn):
    return fn


def setBlasBackendsToDefaultFinally(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        finally:
            torch.backends.cuda.preferred_blas_library("default")
    return wrapper


def recover_orig_fp32_precision(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        saved = torch.get_float32_matmul_precision()
        try:
            return fn(*args, **kwargs)
        finally:
            torch.set_float32_matmul_precision(saved)
    return wrapper


def serialTest(condition=True):
    def decorator(fn):
        import pytest
        return pytest.mark.serial(fn) if condition else fn
    return decorator


def skipIfRocmArch(arch):
    return _identity_decorator


_shim(cu, "TEST_CUDAMALLOCASYNC", _test_cudamallocasync)
_shim(cu, "EXPANDABLE_SEGMENTS", _expandable_segments)
_shim(cu, "TEST_CUDA_PYTHON_BINDINGS", _cuda_python_bindings)
_shim(cu, "IS_JETSON", lambda: False)
_shim(cu, "MI200_ARCH", lambda: ("gfx90a", "gfx942"))
_shim(cu, "MI300_ARCH", lambda: ("gfx942",))
_shim(cu, "cuda_python_error_check", cuda_python_error_check)
_shim(cu, "setBlasBackendsToDefaultFinally", setBlasBackendsToDefaultFinally)
_shim(cu, "recover_orig_fp32_precision", recover_orig_fp32_precision)
_shim(cu, "gcIfJetson", _identity_decorator)
_shim(cu, "serialTest", serialTest)
_shim(cu, "skipIfRocmArch", skipIfRocmArch)
_shim(cc, "PLATFORM_SUPPORTS_GREEN_CONTEXT", lambda: False)
_shim(cc, "IS_JETSON", lambda: cu.IS_JETSON)
_shim(cc, "IS_WINDOWS", lambda: cu.IS_WINDOWS)

# test_cuda_expandable_segments.py does "from test_cuda import ...": the test directory is on
# sys.path under pytest's default rootdir-relative import mode, but make it certain.
_here = os.path.dirname(os.path.abspath(__file__))
if _here not in sys.path:
    sys.path.insert(0, _here)

if os.environ.get("FRAMEWORK_EXPANDABLE") == "1":
    cu.EXPANDABLE_SEGMENTS = True
    torch.cuda.memory._set_allocator_settings("expandable_segments:True")
    # The stored test_cuda_expandable_segments.py is newer than the stored test_cuda.py: it
    # imports TestCudaAllocator, the later name of test_cuda.py's TestCudaMallocAsync.
    import test_cuda as _tc

    if not hasattr(_tc, "TestCudaAllocator") and hasattr(_tc, "TestCudaMallocAsync"):
        _tc.TestCudaAllocator = _tc.TestCudaMallocAsync
        SHIMS.append("test_cuda.TestCudaAllocator=TestCudaMallocAsync")

if os.environ.get("FRAMEWORK_SHIM_LOG") and SHIMS:
    try:
        with open(os.environ["FRAMEWORK_SHIM_LOG"], "a") as f:
            f.write(" ".join(SHIMS) + "\n")
    except OSError:
        pass


def pytest_configure(config):
    config.addinivalue_line("markers", "serial: run this test alone (PyTorch's serialTest)")


def pytest_report_header(config):
    extra = " (expandable_segments:True)" if os.environ.get("FRAMEWORK_EXPANDABLE") == "1" else ""
    return f"minicudart shims: {' '.join(SHIMS) or 'none'}{extra}"
