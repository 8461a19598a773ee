/* test_graph12.c - graphs and stream capture through the CUDA 12 face (lib/cuda12/graph12.c),
 * as a CUDA 12 program calls them: the edge functions of 12.9's header without edge data (and
 * their _v2 with it), cudaStreamGetCaptureInfo as the header's 6-argument _v2, the legacy
 * 3-argument plain name and its _ptsz as a binding finds them (dlsym), _v3, and
 * cudaStreamUpdateCaptureDependencies with and without edge data, on a stream and on the
 * per-thread stream (ptsz12.c).  Every call asserted on its result and on the thread's last
 * error; what reached the driver read from the fake's call log. */
#include "cuda12_test.h"
#include "ptsz12.h"

/* 12.9's header makes every call of cudaStreamGetCaptureInfo one of the 6-argument _v2. */
#ifndef cudaStreamGetCaptureInfo
#error "12.9's cuda_runtime_api.h defines cudaStreamGetCaptureInfo as cudaStreamGetCaptureInfo_v2"
#endif

/* The legacy plain names' prototype (CUDA 11.0's), which 12.9's header hides. */
typedef cudaError_t (*capture_info_3)(cudaStream_t, enum cudaStreamCaptureStatus *,
                                      unsigned long long *);

static cudaGraphNode_t empty_node(cudaGraph_t g, const cudaGraphNode_t *deps, size_t count)
{
    cudaGraphNode_t n = NULL;
    assert_cuda(cudaGraphAddEmptyNode(&n, g, deps, count), cudaSuccess);
    return n;
}

/* ---- edges ---------------------------------------------------------------------------------- */

static void edge_functions_without_edge_data_reach_the_driver_with_none(void **state)
{
    (void)state;
    cudaGraph_t g = NULL;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    cudaGraphNode_t a = empty_node(g, NULL, 0), b = empty_node(g, NULL, 0),
                    c = empty_node(g, NULL, 0);
    fk.fake_reset_log();
    cudaGraphNode_t from[2] = {a, b}, to[2] = {b, c};
    assert_cuda(cudaGraphAddDependencies(g, from, to, 2), cudaSuccess);
    assert_last_call_has("cuGraphAddDependencies", "count=2 edgeData=no");

    size_t n = 0;
    assert_cuda(cudaGraphGetEdges(g, NULL, NULL, &n), cudaSuccess);
    assert_int_equal(n, 2);
    assert_last_call_has("cuGraphGetEdges", "from=NULL to=NULL edgeData=NULL");
    cudaGraphNode_t ef[4] = {NULL}, et[4] = {NULL};
    n = 4;
    assert_cuda(cudaGraphGetEdges(g, ef, et, &n), cudaSuccess);
    assert_int_equal(n, 2);
    assert_last_call_has("cuGraphGetEdges", "from=array to=array edgeData=NULL");
    assert_true((ef[0] == a && et[0] == b && ef[1] == b && et[1] == c) ||
                (ef[0] == b && et[0] == c && ef[1] == a && et[1] == b));

    cudaGraphNode_t nodes[4] = {NULL};
    n = 4;
    assert_cuda(cudaGraphNodeGetDependencies(b, nodes, &n), cudaSuccess);
    assert_int_equal(n, 1);
    assert_ptr_equal(nodes[0], a);
    assert_last_call_has("cuGraphNodeGetDependencies", "deps=array edgeData=NULL");
    n = 4;
    assert_cuda(cudaGraphNodeGetDependentNodes(b, nodes, &n), cudaSuccess);
    assert_int_equal(n, 1);
    assert_ptr_equal(nodes[0], c);
    assert_last_call_has("cuGraphNodeGetDependentNodes", "nodes=array edgeData=NULL");

    assert_cuda(cudaGraphRemoveDependencies(g, &a, &b, 1), cudaSuccess);
    assert_last_call_has("cuGraphRemoveDependencies", "count=1 edgeData=no");
    n = 0;
    assert_cuda(cudaGraphGetEdges(g, NULL, NULL, &n), cudaSuccess);
    assert_int_equal(n, 1);

    /* 12.9's cudaGraphAddNode has no edge data either */
    struct cudaGraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeEmpty;
    cudaGraphNode_t d = NULL;
    assert_cuda(cudaGraphAddNode(&d, g, &c, 1, &p), cudaSuccess);
    assert_non_null(d);
    assert_last_call_has("cuGraphAddNode", "deps=1 edgeData=no");
    n = 4;
    assert_cuda(cudaGraphNodeGetDependencies(d, nodes, &n), cudaSuccess);
    assert_int_equal(n, 1);
    assert_ptr_equal(nodes[0], c);

    /* errors the driver or the runtime find, through the face */
    assert_cuda(cudaGraphAddDependencies(g, &b, &c, 1), cudaErrorInvalidValue);   /* b->c again */
    assert_cuda(cudaGraphGetEdges(g, ef, NULL, &n), cudaErrorInvalidValue);
    assert_cuda(cudaGraphGetEdges(g, NULL, NULL, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphRemoveDependencies(g, &a, &c, 1), cudaErrorInvalidValue);  /* no edge */
    assert_cuda(cudaGraphNodeGetDependencies(b, nodes, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphAddNode(&d, g, NULL, 0, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
}

static void edge_functions_v2_pass_their_edge_data(void **state)
{
    (void)state;
    cudaGraph_t g = NULL;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    cudaGraphNode_t a = empty_node(g, NULL, 0), b = empty_node(g, NULL, 0);
    cudaGraphEdgeData edge;
    memset(&edge, 0, sizeof edge);
    fk.fake_reset_log();
    assert_cuda(cudaGraphAddDependencies_v2(g, &a, &b, &edge, 1), cudaSuccess);
    assert_last_call_has("cuGraphAddDependencies", "count=1 edgeData=yes");
    cudaGraphNode_t ef[2], et[2];
    cudaGraphEdgeData data[2];
    memset(data, 0xff, sizeof data);
    size_t n = 2;
    assert_cuda(cudaGraphGetEdges_v2(g, ef, et, data, &n), cudaSuccess);
    assert_int_equal(n, 1);
    assert_last_call_has("cuGraphGetEdges", "edgeData=array");
    assert_ptr_equal(ef[0], a);
    assert_ptr_equal(et[0], b);
    assert_memory_equal(&data[0], &edge, sizeof edge);
    n = 2;
    assert_cuda(cudaGraphNodeGetDependencies_v2(b, ef, data, &n), cudaSuccess);
    assert_last_call_has("cuGraphNodeGetDependencies", "deps=array edgeData=array");
    n = 2;
    assert_cuda(cudaGraphNodeGetDependentNodes_v2(a, et, data, &n), cudaSuccess);
    assert_last_call_has("cuGraphNodeGetDependentNodes", "nodes=array edgeData=array");
    assert_cuda(cudaGraphRemoveDependencies_v2(g, &a, &b, &edge, 1), cudaSuccess);
    assert_last_call_has("cuGraphRemoveDependencies", "count=1 edgeData=yes");
    struct cudaGraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeEmpty;
    cudaGraphNode_t d = NULL;
    assert_cuda(cudaGraphAddNode_v2(&d, g, &a, &edge, 1, &p), cudaSuccess);
    assert_last_call_has("cuGraphAddNode", "deps=1 edgeData=yes");
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
}

/* ---- stream capture ------------------------------------------------------------------------- */

static void capture_info_v2_legacy_and_v3_agree_on_a_stream(void **state)
{
    (void)state;
    capture_info_3 legacy = (capture_info_3)runtime_symbol("cudaStreamGetCaptureInfo");
    capture_info_3 legacy_ptsz = (capture_info_3)runtime_symbol("cudaStreamGetCaptureInfo_ptsz");
    cudaStream_t s = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusInvalidated;
    unsigned long long id = 1, legacy_id = 2;
    /* not capturing: the legacy form leaves the id as it was (NVIDIA's 12.9, H200) */
    assert_cuda(legacy(s, &status, &legacy_id), cudaSuccess);
    assert_int_equal(status, cudaStreamCaptureStatusNone);
    assert_int_equal(legacy_id, 2);

    assert_cuda(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    fk.fake_reset_log();
    cudaGraph_t graph = NULL;
    const cudaGraphNode_t *deps = (const cudaGraphNode_t *)&id;
    size_t count = 99;
    /* the header's name: 6 arguments (_v2) */
    assert_cuda(cudaStreamGetCaptureInfo(s, &status, &id, &graph, &deps, &count), cudaSuccess);
    assert_int_equal(status, cudaStreamCaptureStatusActive);
    assert_true(id != 0);
    assert_non_null(graph);
    assert_null(deps);
    assert_int_equal(count, 0);
    char want[48];
    snprintf(want, sizeof want, "stream=%p", (void *)s);
    assert_last_call_has("cuStreamGetCaptureInfo", want);
    /* the legacy plain name and its _ptsz (a stream of its own: the same in both) */
    status = cudaStreamCaptureStatusNone;
    assert_cuda(legacy(s, &status, &legacy_id), cudaSuccess);
    assert_int_equal(status, cudaStreamCaptureStatusActive);
    assert_int_equal(legacy_id, id);
    legacy_id = 0;
    assert_cuda(legacy_ptsz(s, &status, &legacy_id), cudaSuccess);
    assert_int_equal(legacy_id, id);
    assert_int_equal(fk.fake_count_calls("cuStreamGetCaptureInfo"), 3);
    assert_cuda(legacy(s, NULL, &legacy_id), cudaErrorInvalidValue);

    /* a node captured, then the dependencies replaced by the 4-argument update */
    cudaGraphNode_t added = empty_node(graph, NULL, 0);
    assert_cuda(cudaStreamUpdateCaptureDependencies(s, &added, 1, cudaStreamSetCaptureDependencies),
                cudaSuccess);
    assert_last_call_has("cuStreamUpdateCaptureDependencies", "count=1 edgeData=no flags=1");
    assert_cuda(cudaStreamGetCaptureInfo(s, &status, &id, &graph, &deps, &count), cudaSuccess);
    assert_int_equal(count, 1);
    assert_ptr_equal(deps[0], added);
    /* _v3 (the 13 form) gives the same, with (default) edge data */
    const cudaGraphEdgeData *edges = NULL;
    count = 0;
    assert_cuda(cudaStreamGetCaptureInfo_v3(s, &status, &id, &graph, &deps, &edges, &count),
                cudaSuccess);
    assert_int_equal(count, 1);
    assert_ptr_equal(deps[0], added);
    /* _v2 of the update takes edge data */
    cudaGraphNode_t second = empty_node(graph, NULL, 0);
    cudaGraphEdgeData edge;
    memset(&edge, 0, sizeof edge);
    assert_cuda(cudaStreamUpdateCaptureDependencies_v2(s, &second, &edge, 1,
                                                       cudaStreamAddCaptureDependencies),
                cudaSuccess);
    assert_last_call_has("cuStreamUpdateCaptureDependencies", "count=1 edgeData=yes flags=0");
    assert_cuda(cudaStreamGetCaptureInfo(s, &status, &id, &graph, &deps, &count), cudaSuccess);
    assert_int_equal(count, 2);
    assert_cuda(cudaStreamUpdateCaptureDependencies(s, &added, 1, 7), cudaErrorInvalidValue);

    cudaGraph_t captured = NULL;
    assert_cuda(cudaStreamEndCapture(s, &captured), cudaSuccess);
    assert_ptr_equal(captured, graph);
    assert_cuda(legacy(s, &status, &legacy_id), cudaSuccess);
    assert_int_equal(status, cudaStreamCaptureStatusNone);
    assert_cuda(cudaStreamGetCaptureInfo(s, NULL, NULL, NULL, NULL, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphDestroy(captured), cudaSuccess);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
}

static void capture_info_and_updates_on_the_per_thread_stream(void **state)
{
    (void)state;
    capture_info_3 legacy = (capture_info_3)runtime_symbol("cudaStreamGetCaptureInfo");
    capture_info_3 legacy_ptsz = (capture_info_3)runtime_symbol("cudaStreamGetCaptureInfo_ptsz");
    fk.fake_reset_log();
    assert_cuda(ptsz_begin_capture(0, cudaStreamCaptureModeThreadLocal), cudaSuccess);
    assert_last_call_has("cuStreamBeginCapture", "stream=0x2 mode=1");
    enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    unsigned long long id = 0, legacy_id = 0;
    cudaGraph_t graph = NULL;
    const cudaGraphNode_t *deps = NULL;
    size_t count = 99;
    assert_cuda(ptsz_get_capture_info(0, &status, &id, &graph, &deps, &count), cudaSuccess);
    assert_last_call_has("cuStreamGetCaptureInfo", "stream=0x2");
    assert_int_equal(status, cudaStreamCaptureStatusActive);
    assert_int_equal(count, 0);
    /* the legacy _ptsz: stream 0 is the per-thread stream, which is capturing */
    assert_cuda(legacy_ptsz(0, &status, &legacy_id), cudaSuccess);
    assert_int_equal(status, cudaStreamCaptureStatusActive);
    assert_int_equal(legacy_id, id);
    /* the legacy plain name: stream 0 is the legacy stream, which is not */
    assert_cuda(legacy(0, &status, &legacy_id), cudaSuccess);
    assert_int_equal(status, cudaStreamCaptureStatusNone);

    cudaGraphNode_t node = empty_node(graph, NULL, 0);
    assert_cuda(ptsz_update_capture_dependencies(0, &node, 1, cudaStreamSetCaptureDependencies),
                cudaSuccess);
    assert_last_call_has("cuStreamUpdateCaptureDependencies",
                         "stream=0x2 count=1 edgeData=no flags=1");
    cudaGraphEdgeData edge;
    memset(&edge, 0, sizeof edge);
    assert_cuda(ptsz_update_capture_dependencies_v2(0, &node, &edge, 1,
                                                    cudaStreamSetCaptureDependencies),
                cudaSuccess);
    assert_last_call_has("cuStreamUpdateCaptureDependencies",
                         "stream=0x2 count=1 edgeData=yes flags=1");
    assert_cuda(ptsz_get_capture_info(0, &status, &id, &graph, &deps, &count), cudaSuccess);
    assert_int_equal(count, 1);
    assert_ptr_equal(deps[0], node);
    cudaGraph_t captured = NULL;
    assert_cuda(ptsz_end_capture(0, &captured), cudaSuccess);
    assert_ptr_equal(captured, graph);
    count = 0;
    assert_cuda(cudaGraphGetNodes(captured, NULL, &count), cudaSuccess);
    assert_int_equal(count, 1);
    assert_cuda(ptsz_get_capture_info(0, &status, &id, NULL, NULL, NULL), cudaSuccess);
    assert_int_equal(status, cudaStreamCaptureStatusNone);
    assert_cuda(ptsz_update_capture_dependencies(0, &node, 1, 0), cudaErrorIllegalState);
    assert_cuda(cudaGraphDestroy(captured), cudaSuccess);
}

/* ---- events --------------------------------------------------------------------------------- */

static void event_elapsed_time_and_v2_ask_the_driver(void **state)
{
    (void)state;
    cudaEvent_t start = NULL, end = NULL;
    assert_cuda(cudaEventCreate(&start), cudaSuccess);
    assert_cuda(cudaEventCreate(&end), cudaSuccess);
    assert_cuda(cudaEventRecord(start, 0), cudaSuccess);
    assert_cuda(cudaEventRecord(end, 0), cudaSuccess);
    assert_cuda(cudaEventSynchronize(end), cudaSuccess);
    fk.fake_reset_log();
    float ms = -1.0f, ms2 = -1.0f;
    assert_cuda(cudaEventElapsedTime(&ms, start, end), cudaSuccess);
    assert_cuda(cudaEventElapsedTime_v2(&ms2, start, end), cudaSuccess);
    assert_true(ms >= 0.0f && ms2 >= 0.0f);
    assert_int_equal(fk.fake_count_calls("cuEventElapsedTime"), 2);
    assert_cuda(cudaEventElapsedTime(NULL, start, end), cudaErrorInvalidValue);
    assert_cuda(cudaEventDestroy(start), cudaSuccess);
    assert_cuda(cudaEventDestroy(end), cudaSuccess);
}

#define T(name) cmocka_unit_test(name)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(edge_functions_without_edge_data_reach_the_driver_with_none),
        T(edge_functions_v2_pass_their_edge_data),
        T(capture_info_v2_legacy_and_v3_agree_on_a_stream),
        T(capture_info_and_updates_on_the_per_thread_stream),
        T(event_elapsed_time_and_v2_ask_the_driver),
    };
    return cmocka_run_group_tests_name("graph12", tests, e2e_setup, NULL);
}
