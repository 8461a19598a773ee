/* check_cudart12.c - a stand-in for CUDA 12's libcudart.so.12 (SONAME and version node
 * libcudart.so.12, see check_cudart12.map), only for linking check_plain.c's old-runtime
 * program; `fatbin check` must say minicudart (13) cannot serve that program. */
int cudaMalloc(void **ptr, unsigned long size);

int cudaMalloc(void **ptr, unsigned long size)
{
    (void)size;
    *ptr = 0;
    return 2;                   /* cudaErrorMemoryAllocation */
}
