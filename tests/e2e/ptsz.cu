// Built with -default-stream per-thread: stream 0 in <<<>>> means the per-thread stream.
#include <cuda_runtime.h>

__global__ void on_stream(int tag) {}

extern "C" void e2e_ptsz_default(void) { on_stream<<<1, 1>>>(1); }
extern "C" void e2e_ptsz_legacy(void) { on_stream<<<1, 1, 0, cudaStreamLegacy>>>(2); }
extern "C" void e2e_ptsz_per_thread(void) { on_stream<<<1, 1, 0, cudaStreamPerThread>>>(3); }
