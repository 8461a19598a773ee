/*
 * check_plain.c - host programs for `fatbin check`, one source built three ways:
 *   plain                       no CUDA at all
 *   -DCHECK_DRIVER_API          calls cuInit from libcuda.so.1 (the toolkit's stub; never run)
 *   -DCHECK_OLD_RUNTIME         calls cudaMalloc from a stand-in libcudart.so.12 (versioned
 *                               libcudart.so.12, as CUDA 12 binaries need it; never run), or
 *                               from CUDA 11's libcudart.so.11.0
 */
#include <stdio.h>

#if defined(CHECK_DRIVER_API)
int cuInit(unsigned int flags);
#elif defined(CHECK_OLD_RUNTIME)
int cudaMalloc(void **ptr, unsigned long size);
#endif

int main(int argc, char **argv)
{
#if defined(CHECK_DRIVER_API)
    return cuInit(0);
#elif defined(CHECK_OLD_RUNTIME)
    void *p;
    return cudaMalloc(&p, 16);
#else
    printf("%s: %d arguments\n", argv[0], argc);
    return 0;
#endif
}
