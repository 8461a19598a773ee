/*
 * test_unloading.c - calls made at exit, after the runtime has begun to unload, answer
 * cudaErrorCudartUnloading (as NVIDIA's runtime does from a static destructor), and never
 * reach the driver.  The check runs in an exit handler, so its verdict is the exit status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

static void check_at_exit(void)
{
    void *p = NULL;
    cudaError_t malloc_result = cudaMalloc(&p, 16);
    cudaError_t free_result = cudaFree(NULL);
    printf("at exit: cudaMalloc -> %d, cudaFree -> %d\n", (int)malloc_result, (int)free_result);
    fflush(stdout);
    _exit(malloc_result == cudaErrorCudartUnloading && free_result == cudaErrorCudartUnloading
              ? 0 : 1);
}

int main(void)
{
    /* Registered before the runtime's first use, like a static object's destructor. */
    atexit(check_at_exit);
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    printf("in main: cudaGetDeviceCount -> %d\n", (int)e);
    /* No driver in this test: the answer in main is cudaErrorInsufficientDriver, not unloading. */
    return e == cudaErrorInsufficientDriver ? 0 : 1;
}
