/* check_cudart12.c - a stand-in for CUDA 12's libcudart.so.12 (SONAME and version node
 * libcudart.so.12, see check_cudart12.map), only for linking check_plain.c's old-runtime
 * program; `fatbin check` must say minicudart's libcudart.so.12 serves that program.  Built
 * again as CUDA 11's libcudart.so.11.0 (tests/fatbin/CMakeLists.txt), which no library of
 * minicudart's serves. */
int cudaMalloc(void **ptr, unsigned long size);

int cudaMalloc(void **ptr, unsigned long size)
{
    (void)size;
    *ptr = 0;
    return 2;                   /* cudaErrorMemoryAllocation */
}
