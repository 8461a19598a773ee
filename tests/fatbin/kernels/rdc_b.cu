// rdc_b.cu - calls twice() from rdc_a.cu, which only links with -rdc=true.
__device__ int twice(int x);
__global__ void kern_b(int *p) { p[threadIdx.x] = twice(p[threadIdx.x]) + 1; }
void run_a(int *p);
int main() { kern_b<<<1, 1>>>(0); run_a(0); return 0; }
