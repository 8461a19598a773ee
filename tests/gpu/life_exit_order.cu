// life_exit_order.cu - when does the runtime's own exit handler join the queue of exit handlers?
//
// Exit handlers and static destructors run in the reverse order of their registration, and from
// the runtime's handler on, runtime calls answer cudaErrorCudartUnloading
// (life_static_dtor.cu).  So what a handler registered between the program's fatbin registration
// (nvcc's constructor, before main) and its first runtime call gets at exit says when the
// runtime registered its own: at the registration (then the handler runs before the runtime's
// and is served) or at the first call (then after it).  This is the order a framework meets: its
// libraries' static objects are made while their fatbins register, long before the first call
// (PyTorch's CUDA IPC bookkeeping destroys events from such a destructor).
//
// The handler is registered first thing in main; the program then uses the GPU.  At exit the
// handler prints what cudaMalloc, cudaFree, cudaEventDestroy and cudaGetDevice answer there.
#include "gpu_check.h"

#include <stdlib.h>

extern "C" __global__ void exit_order_fill(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = i + 1;
}

static cudaEvent_t event;

static void handler_registered_before_the_first_call(void)
{
    void *p = nullptr;
    cudaError_t malloc_result = cudaMalloc(&p, 16);
    cudaError_t free_result = cudaFree(p);
    cudaError_t event_result = cudaEventDestroy(event);
    int device = -7;
    cudaError_t device_result = cudaGetDevice(&device);
    printf("exit handler registered before the first runtime call: cudaMalloc -> " ERR_FMT
           ", cudaFree -> " ERR_FMT ", cudaEventDestroy -> " ERR_FMT ", cudaGetDevice -> "
           ERR_FMT " (%d)\n",
           ERR_ARGS(malloc_result), ERR_ARGS(free_result), ERR_ARGS(event_result),
           ERR_ARGS(device_result), device);
    fflush(stdout);
}

int main(void)
{
    atexit(handler_registered_before_the_first_call);
    gpu_require("life_exit_order");
    int *d = nullptr, h[64];
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaEventCreate(&event));
    exit_order_fill<<<1, 64>>>(d, 64);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(event, 0));
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++)
        if (h[i] != i + 1) {
            printf("FAIL element %d\n", i);
            return 1;
        }
    CHECK(cudaFree(d));
    printf("main: kernel ok; an event is left for the exit handler\n");
    return 0;
}
