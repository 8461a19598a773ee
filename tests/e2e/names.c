/*
 * names.c - the runtime names the call it is in.  Each case below calls one public function with
 * an argument it refuses, after a line "names: call NAME" on stderr; the runtime's trace (also on
 * stderr) must then name NAME in its error line, and in any "NAME: the driver has no ..." line.
 * Built twice (tests/e2e/CMakeLists.txt): on libminicudart.a, whose names are __func__, and on
 * libcudart.so.13, whose names come from its dynamic symbol table (RT_SELF, lib/core/core.h);
 * names_test.sh reads both transcripts.  The cases reach the helpers that take the name from
 * their caller: the per-thread twins, the batch, semaphore, graphics, execution-context and
 * launch paths.
 */
#include <cuda_runtime_api.h>
#include <stdio.h>

/* The per-thread twins (the header declares them only under --default-stream per-thread), and
 * 13.5 functions the 13.0 header lacks, with the types they take reduced to what is passed. */
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream);
cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch,
                                   size_t width, size_t height, enum cudaMemcpyKind kind,
                                   cudaStream_t stream);
cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count);
cudaError_t cudaExecutionCtxSynchronize(void *ctx);
cudaError_t cudaExecutionCtxRecordEvent(void *ctx, cudaEvent_t event);

#define CALL(name, ...)                                                                           \
    do {                                                                                          \
        fprintf(stderr, "names: call %s\n", #name);                                               \
        cudaError_t e_ = name(__VA_ARGS__);                                                       \
        fprintf(stderr, "names: %s -> %d\n", #name, (int)e_);                                     \
    } while (0)

int main(void)
{
    void *p = NULL;
    size_t size = 16;
    CALL(cudaMalloc, NULL, 16);
    CALL(cudaStreamCreate, NULL);
    CALL(cudaEventCreate, NULL);
    CALL(cudaGraphCreate, NULL, 0);
    CALL(cudaMemcpy, &p, &p, 8, (enum cudaMemcpyKind)99);
    CALL(cudaMemcpy2DAsync_ptsz, &p, 8, &p, 8, 8, 1, (enum cudaMemcpyKind)99, 0);
    CALL(cudaStreamSynchronize_ptsz, (cudaStream_t)(void *)&size);
    CALL(cudaMemset_ptds, NULL, 0, 16);
    CALL(cudaMemPrefetchBatchAsync, NULL, NULL, 1, NULL, NULL, 0, 0, 0);
    CALL(cudaSignalExternalSemaphoresAsync, NULL, NULL, 1, 0);
    CALL(cudaGraphicsMapResources, 1, NULL, 0);
    CALL(cudaExecutionCtxSynchronize, NULL);
    CALL(cudaExecutionCtxRecordEvent, NULL, NULL);
    CALL(cudaLaunchKernel, NULL, (dim3){ 1, 1, 1 }, (dim3){ 1, 1, 1 }, NULL, 0, 0);
    CALL(cudaFuncGetAttributes, NULL, NULL);
    fprintf(stderr, "names: done\n");
    return 0;
}
