// rdc_a.cu - separate compilation: kern_a here, device function twice() used by rdc_b.cu.
__device__ int twice(int x) { return 2 * x; }
__global__ void kern_a(int *p) { p[threadIdx.x] = twice(p[threadIdx.x]); }
void run_a(int *p) { kern_a<<<1, 1>>>(p); }
