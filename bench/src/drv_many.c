/*
 * drv_many.c - the raw-driver variant of the many-kernel start-up program: loads the embedded
 * many.fatbin (N trivial kernels), gets one (MANY_PICK_NAME) and launches it once, sync, exit.
 * Honours CUDA_MODULE_LOADING=LAZY/EAGER like the runtimes do.
 */
#include "drv_common.h"
#ifndef MANY_PICK_NAME
#error "compile with -DMANY_PICK_NAME='\"mN\"'"
#endif

int main(void)
{
    CUmodule mod = drv_start("drv_many");
    CUfunction f;
    CUdeviceptr p = 0;
    void *params[1] = {&p};
    CHECK_CU(cuModuleGetFunction(&f, mod, MANY_PICK_NAME));
    CHECK_CU(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
    CHECK_CU(cuCtxSynchronize());
    result("rss_kb", (double)rss_kb(), "kB");
    return 0;
}
