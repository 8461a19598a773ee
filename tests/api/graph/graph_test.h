/*
 * graph_test.h - what the graph test programs (test_graph.c, test_graph_nodes.c) share: the
 * kernels of graph_kernels.cu, a host implementation of add_one for the fake driver to run, device
 * buffers of N ints, and a launch of a whole graph.
 */
#ifndef MINICUDART_GRAPH_TEST_H
#define MINICUDART_GRAPH_TEST_H

#include "e2e.h"

const void *graph_add_one(void);
const void *graph_scale(void);
const void *graph_countdown(void);
const void *graph_table_symbol(void);

#define N 8

/* add_one(int *p, int n), as the fake driver runs it. */
static inline void host_add_one(const void *params, size_t size, const unsigned grid[3],
                                const unsigned block[3])
{
    (void)size, (void)grid, (void)block;
    int *p = NULL, n = 0;
    memcpy(&p, params, sizeof p);
    memcpy(&n, (const char *)params + 8, sizeof n);
    for (int i = 0; i < n; i++)
        p[i] += 1;
}

static inline int *device_ints(void)
{
    int *d = NULL;
    assert_cuda(cudaMalloc((void **)&d, N * sizeof(int)), cudaSuccess);
    return d;
}

static inline void host_mark(void *user)
{
    (*(int *)user)++;
}

static inline void assert_all(const int *d, int value)
{
    int h[N];
    assert_cuda(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < N; i++)
        assert_int_equal(h[i], value);
}

static inline void launch_once(cudaGraph_t graph)
{
    cudaGraphExec_t exec = NULL;
    assert_cuda(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    assert_cuda(cudaGraphLaunch(exec, 0), cudaSuccess);
    assert_cuda(cudaStreamSynchronize(0), cudaSuccess);
    assert_cuda(cudaGraphExecDestroy(exec), cudaSuccess);
}

#endif
