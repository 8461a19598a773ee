// many_main.cuh - main() of the generated many-kernel program (runtime variants): one launch of
// one kernel out of N, sync, print VmRSS, exit.  run.sh times the whole process.
#include "common.h"
#include <cuda_runtime.h>

#define MANY_CHECK(call)                                                                      \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess) {                                                              \
            printf("FAIL %s -> %d %s\n", #call, (int)e_, cudaGetErrorName(e_));               \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

#define MANY_MAIN(K)                                                                          \
    int main(void)                                                                            \
    {                                                                                         \
        int count = 0;                                                                        \
        cudaError_t e = cudaGetDeviceCount(&count);                                           \
        if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice ||                     \
            (e == cudaSuccess && count < 1)) {                                                \
            printf("rt_many: no CUDA driver or GPU here: %d %s\n", (int)e,                   \
                   cudaGetErrorName(e));                                                      \
            return 2;                                                                         \
        }                                                                                     \
        MANY_CHECK(e);                                                                        \
        K<<<1, 32>>>(nullptr);                                                                \
        MANY_CHECK(cudaGetLastError());                                                       \
        MANY_CHECK(cudaDeviceSynchronize());                                                  \
        result("rss_kb", (double)rss_kb(), "kB");                                             \
        return 0;                                                                             \
    }
