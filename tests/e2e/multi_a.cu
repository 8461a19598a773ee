// Translation unit A: a static kernel whose mangled name TU B uses too.
static __global__ void statk(int *p) { p[0] = 1; }
__global__ void only_a(int *p) { p[0] = 2; }

extern "C" void e2e_a_statk(int *p) { statk<<<1, 1>>>(p); }
extern "C" void e2e_a_only(int *p) { only_a<<<2, 2>>>(p); }
