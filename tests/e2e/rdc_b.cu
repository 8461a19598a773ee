// -rdc=true, object B: defines what object A uses, and a kernel of its own.
__device__ int shared_counter = 5;
__device__ int bump(int x) { return x + 1; }

__global__ void kernB(int *p) { p[1] = bump(p[0]); }

extern "C" void e2e_rdc_launch_b(int *p) { kernB<<<2, 2>>>(p); }
