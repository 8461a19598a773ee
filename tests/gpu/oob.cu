// oob.cu - a kernel stores through a bad pointer: the context gets a sticky error.
//
// Every code after it is printed; NVIDIA's runtime and minicudart must agree line by line.
// NVIDIA gave cudaErrorInvalidAddressSpace (717) on the H200 for such a store
// (reference/SEMANTICS.md section 0).  The program passes when the sync reports a sticky error.
#include "gpu_check.h"

__global__ void store(int *p, int v)
{
    *p = v;
}

static cudaError_t show(const char *what, cudaError_t e)
{
    printf("%-36s -> " ERR_FMT "\n", what, ERR_ARGS(e));
    return e;
}

static int is_sticky(cudaError_t e)
{
    switch ((int)e) {
    case 226: case 700: case 702: case 710: case 714: case 715: case 716:
    case 717: case 718: case 719: case 721: case 911:
        return 1;
    }
    return 0;
}

int main(void)
{
    gpu_require("oob");
    int *good = NULL;
    CHECK(cudaMalloc((void **)&good, 256));
    store<<<1, 1>>>(good, 1);
    show("good store, cudaDeviceSynchronize", cudaDeviceSynchronize());

    store<<<1, 1>>>((int *)0x10, 2);
    show("launch, cudaPeekAtLastError", cudaPeekAtLastError());
    cudaError_t sync = show("bad store, cudaDeviceSynchronize", cudaDeviceSynchronize());
    printf("sticky: %s\n", is_sticky(sync) ? "yes" : "no");
    show("cudaGetLastError", cudaGetLastError());
    show("cudaGetLastError again", cudaGetLastError());
    show("cudaPeekAtLastError", cudaPeekAtLastError());
    int *p = NULL;
    cudaError_t m = show("cudaMalloc", cudaMalloc((void **)&p, 256));
    show("cudaMemset(old allocation)", cudaMemset(good, 0, 256));
    int count = 0;
    show("cudaGetDeviceCount", cudaGetDeviceCount(&count));
    printf("device count %d\n", count);
    show("cudaGetLastError", cudaGetLastError());
    show("cudaDeviceReset", cudaDeviceReset());
    show("cudaGetLastError", cudaGetLastError());
    show("cudaMalloc after reset", cudaMalloc((void **)&p, 256));
    show("cudaGetLastError", cudaGetLastError());

    int ok = is_sticky(sync) && m != cudaSuccess;
    printf("oob: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
