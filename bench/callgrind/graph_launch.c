/*
 * graph_launch.c - instructions per cudaGraphLaunch against per cuGraphLaunch, counted with
 * callgrind against the fake driver (no GPU).  bench/callgrind/run.sh builds and runs it.
 *
 * One executable graph (one empty node) on one stream; loop_runtime calls cudaGraphLaunch N
 * times, loop_driver calls the driver's cuGraphLaunch (taken from the runtime with
 * cudaGetDriverEntryPointByVersion, the same function minicudart calls) N times on the same
 * exec and stream.  run.sh counts each loop alone (--toggle-collect) and takes out what the fake
 * driver's own functions cost (inclusive), so what is left is the runtime's code per call.
 */
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                           \
    do {                                                                                      \
        int e_ = (int)(call);                                                                 \
        if (e_ != 0) {                                                                        \
            printf("FAIL %s:%d: %s -> %d\n", __FILE__, __LINE__, #call, e_);                  \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

typedef CUresult (*graph_launch_fn)(CUgraphExec, CUstream);

__attribute__((noinline)) void loop_runtime(cudaGraphExec_t ge, cudaStream_t s, int n)
{
    for (int i = 0; i < n; i++)
        CHECK(cudaGraphLaunch(ge, s));
}

__attribute__((noinline)) void loop_driver(graph_launch_fn launch, cudaGraphExec_t ge,
                                           cudaStream_t s, int n)
{
    for (int i = 0; i < n; i++)
        CHECK(launch((CUgraphExec)ge, (CUstream)s));
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    cudaStream_t s;
    cudaGraph_t g;
    cudaGraphNode_t node;
    cudaGraphExec_t ge;
    graph_launch_fn launch = NULL;
    enum cudaDriverEntryPointQueryResult q;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphAddEmptyNode(&node, g, NULL, 0));
    CHECK(cudaGraphInstantiate(&ge, g, 0));
    CHECK(cudaGetDriverEntryPointByVersion("cuGraphLaunch", (void **)&launch, 10000,
                                           cudaEnableDefault, &q));
    CHECK(cudaGraphLaunch(ge, s));            /* warm: every first-call path taken */
    CHECK(launch((CUgraphExec)ge, (CUstream)s));
    loop_runtime(ge, s, n);
    loop_driver(launch, ge, s, n);
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaGraphExecDestroy(ge));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaStreamDestroy(s));
    printf("graph_launch: %d launches each way: ok\n", n);
    return 0;
}
