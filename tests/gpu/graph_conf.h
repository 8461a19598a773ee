// graph_conf.h - what the graph conformance programs (conf_graphs.cu, conf_graph_nodes.cu,
// conf_graph_memory.cu) share: the PASS flag, probes that print a call's code and the last error,
// a check of device results, and node counts and types printed by name.  Only results, counts,
// booleans and error codes are printed, so that both runtimes' transcripts compare line by line.
#ifndef MINICUDART_GPU_GRAPH_CONF_H
#define MINICUDART_GPU_GRAPH_CONF_H

#include "gpu_check.h"

#include <string.h>

#define N 256
#define GRID ((N + 127) / 128)

static int ok = 1;

static inline void probe(const char *what, cudaError_t e)
{
    cudaError_t last = cudaGetLastError();
    printf("%-56s -> " ERR_FMT ", last error " ERR_FMT "\n", what, ERR_ARGS(e), ERR_ARGS(last));
}

/* Every element of d[0..N) equals want. */
static inline void expect_all(const char *what, const int *d, int want)
{
    static int h[N];
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    long long sum = 0;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        sum += h[i];
        bad += h[i] != want;
    }
    printf("%-56s: sum %lld, %d wrong (want %d each)\n", what, sum, bad, want);
    ok &= bad == 0;
}

static inline size_t node_count(cudaGraph_t g)
{
    size_t n = 0;
    CHECK(cudaGraphGetNodes(g, NULL, &n));
    return n;
}

static inline size_t edge_count(cudaGraph_t g)
{
    size_t n = 0;
    CHECK(cudaGraphGetEdges(g, NULL, NULL, NULL, &n));
    return n;
}

static inline const char *type_name(cudaGraphNodeType t)
{
    static const char *const names[] = {"kernel", "memcpy", "memset", "host", "graph", "empty",
                                        "wait_event", "event_record", "ext_sem_signal",
                                        "ext_sem_wait", "mem_alloc", "mem_free", "?12",
                                        "conditional"};
    return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

static inline cudaGraphNodeType type_of(cudaGraphNode_t node)
{
    cudaGraphNodeType t = cudaGraphNodeTypeCount;
    CHECK(cudaGraphNodeGetType(node, &t));
    return t;
}

// "what: N nodes: kernel 2, mem_alloc 1, ..." in type order; returns the first node of type
// `find` (or NULL).
static inline cudaGraphNode_t print_types(const char *what, cudaGraph_t g, cudaGraphNodeType find)
{
    cudaGraphNode_t nodes[64], found = NULL;
    size_t n = 64;
    CHECK(cudaGraphGetNodes(g, nodes, &n));
    int count[cudaGraphNodeTypeCount + 1] = {0};
    for (size_t i = 0; i < n; i++) {
        cudaGraphNodeType t = type_of(nodes[i]);
        count[t]++;
        if (t == find && !found)
            found = nodes[i];
    }
    printf("%s: %zu nodes:", what, n);
    for (int t = 0; t <= cudaGraphNodeTypeCount; t++)
        if (count[t])
            printf(" %s %d", type_name((cudaGraphNodeType)t), count[t]);
    printf("\n");
    return found;
}

static inline bool contains(const cudaGraphNode_t *nodes, size_t n, cudaGraphNode_t want)
{
    for (size_t i = 0; i < n; i++)
        if (nodes[i] == want)
            return true;
    return false;
}

#endif
