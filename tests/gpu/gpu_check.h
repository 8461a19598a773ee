/*
 * gpu_check.h - helpers shared by the self-checking GPU programs in tests/gpu/.
 *
 * Every program prints lines that must be identical under NVIDIA's runtime and under minicudart:
 * results, checksums, and error codes as number and name.  Never pointers, timings or anything
 * that depends on which runtime ran it.  Exit codes: 0 pass, 1 failure, 2 no driver or GPU here.
 */
#ifndef MINICUDART_GPU_CHECK_H
#define MINICUDART_GPU_CHECK_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define GPU_EXIT_NO_GPU 2

/* Stop the program when a CUDA call that must succeed does not. */
#define CHECK(call)                                                                           \
    do {                                                                                      \
        cudaError_t check_err_ = (call);                                                      \
        if (check_err_ != cudaSuccess) {                                                      \
            printf("FAIL %s:%d: %s -> %d %s\n", __FILE__, __LINE__, #call, (int)check_err_,   \
                   cudaGetErrorName(check_err_));                                             \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

/* "code name" of an error, for lines compared between the two runtimes. */
#define ERR_FMT "%d %s"
#define ERR_ARGS(e) (int)(e), cudaGetErrorName(e)

/*
 * The first CUDA call of every program.  Without a driver or a GPU both runtimes fail here
 * (cudaErrorInsufficientDriver or cudaErrorNoDevice); say so plainly and exit with code 2, so
 * that scripts can tell "no GPU on this machine" from a real failure.
 */
static inline void gpu_require(const char *program)
{
    /* Unbuffered, so that a crash (of either runtime) shows how far the program got. */
    setvbuf(stdout, NULL, _IONBF, 0);
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice) {
        printf("%s: no CUDA driver or GPU here: %s (%s)\n", program, cudaGetErrorName(err),
               cudaGetErrorString(err));
        exit(GPU_EXIT_NO_GPU);
    }
    if (err != cudaSuccess) {
        printf("%s: cudaGetDeviceCount -> " ERR_FMT "\n", program, ERR_ARGS(err));
        exit(1);
    }
    if (count < 1) {
        printf("%s: no CUDA device (count %d)\n", program, count);
        exit(GPU_EXIT_NO_GPU);
    }
}

#endif
