/* run_ext12.c - a CUDA 12 extension for the tests of `minicudart run` (run12_test.sh): a shared
 * library that needs libcudart.so.12 and finds it by its RPATH (the stand-in's folder), the way a
 * framework's extension module finds NVIDIA's runtime in its wheel.  run_host loads it with
 * dlopen, as python loads an extension. */
int cudaRuntimeGetVersion(int *version);
int run_ext12_version(void);

int run_ext12_version(void)
{
    int version = -1;
    cudaRuntimeGetVersion(&version);
    return version;
}
