// Kernels for the stream tests: a launch on a given stream, through <<<>>>.
#include <cuda_runtime.h>

__global__ void on_stream(int tag) {}

extern "C" void stream_test_launch(cudaStream_t s, int tag) { on_stream<<<1, 1, 0, s>>>(tag); }
