/*
 * drv_common.h - the raw-driver side: CHECK_CU, start-up (cuInit, device count, primary
 * context, exit 2 without a driver or GPU) and the fatbin embedded into the executable with
 * .incbin (the runtime variants embed theirs too), loaded with cuModuleLoadData.
 * Compile with -DFATBIN_PATH='"/abs/path/x.fatbin"'.
 */
#ifndef BENCH_DRV_COMMON_H
#define BENCH_DRV_COMMON_H
#define _POSIX_C_SOURCE 200112L /* clock_gettime, pthread barriers */
#include <cuda.h>
#include "common.h"

#define CHECK_CU(call)                                                                        \
    do {                                                                                      \
        CUresult r_ = (call);                                                                 \
        if (r_ != CUDA_SUCCESS) {                                                             \
            const char *n_ = "?";                                                             \
            cuGetErrorName(r_, &n_);                                                          \
            printf("FAIL %s:%d: %s -> %d %s\n", __FILE__, __LINE__, #call, (int)r_, n_);      \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

#ifndef FATBIN_PATH
#error "compile with -DFATBIN_PATH='\"path.fatbin\"'"
#endif
__asm__(".section .rodata\n"
        ".balign 64\n"
        ".global bench_fatbin\n"
        "bench_fatbin:\n"
        ".incbin \"" FATBIN_PATH "\"\n"
        ".byte 0\n"
        ".previous\n");
extern const char bench_fatbin[];

static CUmodule drv_start(const char *prog)
{
    CUresult r = cuInit(0);
    int count = 0;
    if (r == CUDA_SUCCESS)
        r = cuDeviceGetCount(&count);
    if (r == CUDA_ERROR_NO_DEVICE || r == CUDA_ERROR_STUB_LIBRARY ||
        (r == CUDA_SUCCESS && count < 1)) {
        const char *n = "?";
        cuGetErrorName(r, &n);
        printf("%s: no CUDA driver or GPU here: %d %s\n", prog, (int)r, n ? n : "?");
        exit(2);
    }
    CHECK_CU(r);
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CHECK_CU(cuDeviceGet(&dev, 0));
    CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK_CU(cuCtxSetCurrent(ctx));
    CHECK_CU(cuModuleLoadData(&mod, bench_fatbin));
    return mod;
}
#endif
