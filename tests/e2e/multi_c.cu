// Translation unit C: several kernels of different signatures, one of them a template.
__global__ void k_scalars(float f, double d, char c) {}
__global__ void k_none() {}
template <typename T> __global__ void k_tmpl(T *p, T v) { p[0] = v; }

extern "C" void e2e_c_scalars(void) { k_scalars<<<5, 32>>>(1.5f, 2.25, 'x'); }
extern "C" void e2e_c_none(void) { k_none<<<6, 64>>>(); }
extern "C" void e2e_c_tmpl(long *p) { k_tmpl<long><<<7, 128>>>(p, 0x1122334455667788L); }
