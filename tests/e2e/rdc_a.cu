// -rdc=true, object A: calls a __device__ function and reads a variable defined in object B.
extern __device__ int shared_counter;
__device__ int bump(int x);

__global__ void kernA(int *p) { p[0] = bump(shared_counter); }

extern "C" void e2e_rdc_launch_a(int *p) { kernA<<<1, 1>>>(p); }
