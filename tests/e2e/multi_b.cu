// Translation unit B: the same static kernel name as TU A, a different kernel.
static __global__ void statk(int *p) { p[0] = 3; }
__global__ void only_b(int *p) { p[0] = 4; }

extern "C" void e2e_b_statk(int *p) { statk<<<3, 1>>>(p); }
extern "C" void e2e_b_only(int *p) { only_b<<<4, 4>>>(p); }
