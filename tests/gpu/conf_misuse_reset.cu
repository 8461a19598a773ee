// conf_misuse_reset.cu - calls around cudaDeviceReset: one of every kind of handle is made, the
// device is reset (case 0, which runs even when the program starts after it: misuse.h), and each
// later case uses one handle from before the reset, or makes a call that must bring the device
// back (the runner and the line format: misuse.h).  The handles are dead after the reset
// (SEMANTICS.md 1.9), so several of these calls are undefined behaviour in both runtimes; they
// are here because programs make them, and run.sh isolates the crashes.
#include <cuda_profiler_api.h>

#include "misuse.h"

__global__ void k_params(int *p, int v)
{
    if (p)
        *p = v;
}

__device__ int symbol[4];

static const void *const K = (const void *)k_params;
static int *null_pointer = NULL;
static int one = 1;
static void *args[] = {&null_pointer, &one};

// Handles made before the reset.
static cudaStream_t s;
static cudaEvent_t e;
static char *d;                       // cudaMalloc
static char *pinned;                  // cudaMallocHost
static char *managed;                 // cudaMallocManaged
static void *pool_ptr;                // cudaMallocAsync, from the default pool
static cudaMemPool_t pool;            // cudaMemPoolCreate
static cudaArray_t arr;
static cudaTextureObject_t tex;
static cudaSurfaceObject_t surf;
static cudaGraph_t graph;             // one kernel node
static cudaGraphExec_t exec;
static cudaKernel_t handle;           // __cudaGetKernel
alignas(4096) static unsigned char registered[4096];   // cudaHostRegister'ed

static unsigned flags;
static cudaPointerAttributes attributes;
static cudaFuncAttributes fattr;
static void *out_ptr;

static void setup(void)
{
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaEventCreate(&e));
    CHECK(cudaMalloc((void **)&d, 4096));
    CHECK(cudaMallocHost((void **)&pinned, 4096));
    CHECK(cudaMallocManaged((void **)&managed, 4096, cudaMemAttachGlobal));
    CHECK(cudaMallocAsync(&pool_ptr, 4096, s));
    CHECK(cudaHostRegister(registered, sizeof registered, cudaHostRegisterDefault));
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    CHECK(cudaMemPoolCreate(&pool, &props));

    cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
    CHECK(cudaMallocArray(&arr, &fdesc, 16, 4, cudaArraySurfaceLoadStore));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = arr;
    cudaTextureDesc t;
    memset(&t, 0, sizeof t);
    t.readMode = cudaReadModeElementType;
    CHECK(cudaCreateTextureObject(&tex, &r, &t, NULL));
    CHECK(cudaCreateSurfaceObject(&surf, &r));

    CHECK(cudaGraphCreate(&graph, 0));
    cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    kp.func = (void *)k_params;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(32);
    kp.kernelParams = args;
    cudaGraphNode_t node;
    CHECK(cudaGraphAddKernelNode(&node, graph, NULL, 0, &kp));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CHECK(__cudaGetKernel(&handle, K));

    CHECK(cudaEventRecord(e, s));
    k_params<<<1, 32, 0, s>>>(NULL, 0);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(s));
}

static const misuse_case cases[] = {
    // Case 0, always run: every case after it depends on it.
    {"cudaDeviceReset.with_live_resources", [] { return cudaDeviceReset(); }, NULL, true},

    // ---- what the reset left, before anything brings the device back ----
    {"cudaGetDeviceFlags.after_reset",
     [] {
         flags = 99;
         cudaError_t r = cudaGetDeviceFlags(&flags);
         misuse_note("flags_0x%x", flags);
         return r;
     }},

    // ---- handles from before the reset ----
    {"cudaStreamQuery.stream_from_before_reset", [] { return cudaStreamQuery(s); }},
    {"cudaStreamSynchronize.stream_from_before_reset", [] { return cudaStreamSynchronize(s); }},
    {"cudaStreamDestroy.stream_from_before_reset", [] { return cudaStreamDestroy(s); }},
    {"cudaEventQuery.event_from_before_reset", [] { return cudaEventQuery(e); }},
    {"cudaEventRecord.event_from_before_reset", [] { return cudaEventRecord(e, 0); }},
    {"cudaEventDestroy.event_from_before_reset", [] { return cudaEventDestroy(e); }},
    {"cudaMemset.pointer_from_before_reset", [] { return cudaMemset(d, 0, 16); }},
    {"cudaMemcpy.pointer_from_before_reset",
     [] { return cudaMemcpy(misuse_host_page, d, 16, cudaMemcpyDeviceToHost); }},
    {"cudaPointerGetAttributes.pointer_from_before_reset",
     [] {
         memset(&attributes, 0, sizeof attributes);
         cudaError_t r = cudaPointerGetAttributes(&attributes, d);
         misuse_note("type_%d", (int)attributes.type);
         return r;
     }},
    {"cudaFree.pointer_from_before_reset", [] { return cudaFree(d); }},
    {"cudaFree.managed_from_before_reset", [] { return cudaFree(managed); }},
    {"cudaFreeHost.pinned_from_before_reset", [] { return cudaFreeHost(pinned); }},
    {"cudaHostUnregister.registered_before_reset",
     [] { return cudaHostUnregister(registered); }},
    {"cudaFreeAsync.pool_allocation_from_before_reset",
     [] { return cudaFreeAsync(pool_ptr, cudaStreamPerThread); },
     [] { cudaStreamSynchronize(cudaStreamPerThread); }},
    {"cudaMallocFromPoolAsync.pool_from_before_reset",
     [] { return cudaMallocFromPoolAsync(&out_ptr, 16, pool, cudaStreamPerThread); },
     [] { cudaStreamSynchronize(cudaStreamPerThread); }},
    {"cudaMemPoolDestroy.pool_from_before_reset", [] { return cudaMemPoolDestroy(pool); }},
    {"cudaDestroyTextureObject.texture_from_before_reset",
     [] { return cudaDestroyTextureObject(tex); }},
    {"cudaDestroySurfaceObject.surface_from_before_reset",
     [] { return cudaDestroySurfaceObject(surf); }},
    {"cudaFreeArray.array_from_before_reset", [] { return cudaFreeArray(arr); }},
    {"cudaGraphLaunch.exec_from_before_reset", [] { return cudaGraphLaunch(exec, 0); },
     [] { cudaDeviceSynchronize(); }},
    {"cudaGraphExecDestroy.exec_from_before_reset", [] { return cudaGraphExecDestroy(exec); }},
    {"cudaGraphDestroy.graph_from_before_reset", [] { return cudaGraphDestroy(graph); }},

    // ---- the device comes back: kernels, symbols and the handle nvcc's stubs cached ----
    {"__cudaLaunchKernel.kernel_handle_from_before_reset",
     [] { return __cudaLaunchKernel(handle, dim3(1), dim3(32), args, 0, 0); },
     [] { cudaDeviceSynchronize(); }},
    {"__cudaLaunchKernel.chevrons_after_reset",
     [] {
         k_params<<<1, 32>>>(NULL, 0);
         return MISUSE_VOID;
     },
     [] { cudaDeviceSynchronize(); }},
    {"cudaLaunchKernel.after_reset",
     [] { return cudaLaunchKernel(K, dim3(1), dim3(32), args, 0, 0); },
     [] { cudaDeviceSynchronize(); }},
    {"cudaFuncGetAttributes.after_reset", [] { return cudaFuncGetAttributes(&fattr, K); }},
    {"cudaMemcpyToSymbol.after_reset",
     [] { return cudaMemcpyToSymbol(symbol, &one, sizeof one, 0, cudaMemcpyHostToDevice); }},
    {"cudaDeviceSynchronize.after_reset", [] { return cudaDeviceSynchronize(); }},
    {"cudaSetDevice.after_reset", [] { return cudaSetDevice(0); }},
    {"cudaProfilerStart.after_reset", [] { return cudaProfilerStart(); },
     [] { cudaProfilerStop(); }},
    {"cudaProfilerStop.after_reset", [] { return cudaProfilerStop(); }},
    {"cudaCtxResetPersistingL2Cache.after_reset", [] { return cudaCtxResetPersistingL2Cache(); }},

    // ---- a second reset, with nothing left to destroy ----
    {"cudaDeviceReset.twice", [] { return cudaDeviceReset(); }},
};

int main(int argc, char **argv)
{
    return misuse_main("conf_misuse_reset", argc, argv, setup, cases, MISUSE_COUNT(cases));
}
