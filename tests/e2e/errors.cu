// Kernels for the error-path program.
__global__ void small(int *p) {}

extern "C" void e2e_err_launch(int *p, unsigned grid, unsigned block) { small<<<grid, block>>>(p); }
