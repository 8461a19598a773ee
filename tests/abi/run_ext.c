/* run_ext.c - the extensions of `minicudart run`'s CUDA-major tests (run12_test.sh): a shared
 * library that needs libcudart.so.12 or libcudart.so.13 (the stand-in of that major), the way a
 * framework's extension module needs NVIDIA's runtime from its wheel.  Built three times
 * (tests/abi/CMakeLists.txt): run_ext12 and run_ext13 find their stand-in by DT_RPATH, which the
 * loader searches before LD_LIBRARY_PATH; run_ext12_search by DT_RUNPATH, which comes after it.
 * run_host loads them with dlopen, as python loads an extension. */
int cudaRuntimeGetVersion(int *version);
int run_ext_version(void);

int run_ext_version(void)
{
    int version = -1;
    cudaRuntimeGetVersion(&version);
    return version;
}
