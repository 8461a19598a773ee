/*
 * arm_program.c - the aarch64 program of wheel_aarch64_test.sh, which the aarch64 wheel's
 * `minicudart run` serves under qemu-aarch64.  Linked with libcudart.so.13 by its SONAME and no
 * search path (so it starts only where someone supplies the library), it prints the runtime
 * version that answered, the file of the cudaRuntimeGetVersion that the loader resolved first
 * (the preloaded library's when `run` preloads it), and what cudaGetDeviceCount answers with no
 * driver.  The prototypes are the runtime API's (cudaError_t is an int-sized enum); no CUDA
 * header is needed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

int cudaRuntimeGetVersion(int *runtime_version);
int cudaGetDeviceCount(int *count);
const char *cudaGetErrorName(int error);

int main(void)
{
    int version = 0;
    int error = cudaRuntimeGetVersion(&version);
    printf("runtime version %d (%s)\n", version, cudaGetErrorName(error));

    Dl_info info;
    void *first = dlsym(RTLD_DEFAULT, "cudaRuntimeGetVersion");
    if (first && dladdr(first, &info) && info.dli_fname)
        printf("library: %s\n", info.dli_fname);
    else
        printf("library: not found (%s)\n", dlerror());

    int count = -1;
    error = cudaGetDeviceCount(&count);
    printf("cudaGetDeviceCount: %s\n", cudaGetErrorName(error));
    return 0;
}
