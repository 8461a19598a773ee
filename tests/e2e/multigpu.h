/*
 * multigpu.h - what the C tests over multigpu.cu (test_multigpu.c, test_primary_context.c) share:
 * its extern "C" wrappers, and the host twin of its kernel for the fake driver.  Include after
 * cmocka.h.
 */
#ifndef MINICUDART_E2E_MULTIGPU_H
#define MINICUDART_E2E_MULTIGPU_H

#include <cuda_runtime_api.h>
#include <string.h>

#define N 1024
#define BYTES (N * sizeof(int))

void e2e_launch_fill(int *out, int base, int n, cudaStream_t stream);
cudaError_t e2e_set_value(int value);
cudaError_t e2e_get_value(int *value);

/* multigpu_fill's parameters as the driver lays them out, and the kernel run on the host. */
typedef struct fill_params {
    int *out;
    int base;
    int n;
} fill_params;

static inline void host_fill(const void *params, size_t size, const unsigned grid[3],
                             const unsigned block[3])
{
    fill_params p;
    memset(&p, 0, sizeof p);
    memcpy(&p, params, size < sizeof p ? size : sizeof p);
    for (unsigned long long i = 0; i < (unsigned long long)grid[0] * block[0]; i++)
        if (i < (unsigned long long)p.n)
            p.out[i] = p.base + (int)i;
}

/* The device buffer holds base, base + 1, ... */
static inline void assert_holds(const int *device_buffer, int base)
{
    static int host[N];
    memset(host, 0, sizeof host);
    assert_int_equal(cudaMemcpy(host, device_buffer, BYTES, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < N; i++)
        assert_int_equal(host[i], base + i);
}

#endif
