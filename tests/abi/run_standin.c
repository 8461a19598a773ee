/* run_standin.c - a stand-in for NVIDIA's libcudart.so.12 and libcudart.so.13 in the tests of
 * `minicudart run` (run12_test.sh): built once per major, with that SONAME and version node
 * (tests/abi/CMakeLists.txt), it answers cudaRuntimeGetVersion with NVIDIA's 12.4 or 13.0 and
 * has no GPU.  `minicudart run` must replace it with minicudart's library of the same major
 * wherever the preload or LD_LIBRARY_PATH wins, and the test shows where it is kept. */
#ifndef STANDIN_VERSION
#error "STANDIN_VERSION: the release this stand-in answers, 12040 or 13000"
#endif

int cudaRuntimeGetVersion(int *version);
int cudaGetDeviceCount(int *count);

int cudaRuntimeGetVersion(int *version)
{
    *version = STANDIN_VERSION;
    return 0;                   /* cudaSuccess */
}

int cudaGetDeviceCount(int *count)
{
    *count = 0;
    return 100;                 /* cudaErrorNoDevice */
}
