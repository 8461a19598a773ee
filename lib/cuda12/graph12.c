/*
 * cuda12/graph12.c - graphs and stream capture as CUDA 12.9's plain names have them: edges
 * without edge data, and cudaStreamGetCaptureInfo's older forms.
 *
 * 12.3 added edge data (ports and types of programmatic dependencies) under _v2/_v3 names; 13
 * gave those forms the plain names.  Each plain 12.9 form is 13's with no edge data (NULL), which
 * 13 documents as default, zeroed data: a query of edges that carry data then fails with
 * cudaErrorLossyQuery rather than drop it, as the driver's older entries answer.  Each calls the
 * body by its 12.9 name (cuda12/names12.h), which names the errors it traces; the summary counts
 * the call under the name the program called.
 */
#include "cuda12/cuda12.h"

RT_API cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                    struct cudaGraphNodeParams *nodeParams)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaGraphAddNode_v2(pGraphNode, graph, pDependencies, NULL, numDependencies,
                                           nodeParams));
}

RT_API cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                            const cudaGraphNode_t *to, size_t numDependencies)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaGraphAddDependencies_v2(graph, from, to, NULL, numDependencies));
}

RT_API cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                               const cudaGraphNode_t *to, size_t numDependencies)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaGraphRemoveDependencies_v2(graph, from, to, NULL, numDependencies));
}

RT_API cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                     size_t *numEdges)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaGraphGetEdges_v2(graph, from, to, NULL, numEdges));
}

RT_API cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node,
                                                cudaGraphNode_t *pDependencies,
                                                size_t *pNumDependencies)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaGraphNodeGetDependencies_v2(node, pDependencies, NULL,
                                                       pNumDependencies));
}

RT_API cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node,
                                                  cudaGraphNode_t *pDependentNodes,
                                                  size_t *pNumDependentNodes)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaGraphNodeGetDependentNodes_v2(node, pDependentNodes, NULL,
                                                         pNumDependentNodes));
}

RT_API cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
                                                       cudaGraphNode_t *dependencies,
                                                       size_t numDependencies, unsigned int flags)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaStreamUpdateCaptureDependencies_v2(stream, dependencies, NULL,
                       numDependencies, flags));
}

RT_API cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
                                                            cudaGraphNode_t *dependencies,
                                                            size_t numDependencies,
                                                            unsigned int flags)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaStreamUpdateCaptureDependencies_v2_ptsz(stream, dependencies, NULL,
                       numDependencies, flags));
}

/* ---- cudaStreamGetCaptureInfo: three forms in 12.9 ------------------------------------------ */

/* _v2 (11.3): what 12.9's header makes every call of cudaStreamGetCaptureInfo import. */
RT_API cudaError_t cudaStreamGetCaptureInfo_v2(cudaStream_t stream,
                                               enum cudaStreamCaptureStatus *captureStatus_out,
                                               unsigned long long *id_out, cudaGraph_t *graph_out,
                                               const cudaGraphNode_t **dependencies_out,
                                               size_t *numDependencies_out)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaStreamGetCaptureInfo_v3(stream, captureStatus_out, id_out, graph_out,
                                                   dependencies_out, NULL, numDependencies_out));
}

RT_API cudaError_t cudaStreamGetCaptureInfo_v2_ptsz(
    cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
    unsigned long long *id_out, cudaGraph_t *graph_out, const cudaGraphNode_t **dependencies_out,
    size_t *numDependencies_out)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaStreamGetCaptureInfo_v3_ptsz(stream, captureStatus_out, id_out,
                                                        graph_out, dependencies_out, NULL,
                                                        numDependencies_out));
}

/* The plain name: CUDA 11.0's three arguments, for callers that bypass the header.  Its id is
 * written only while the stream captures: NVIDIA's 12.9 library leaves it as it was otherwise
 * (H200, tests/gpu/conf_cuda12.cu), where the body writes 0. */
static cudaError_t rt12_capture_info_api(cudaStream_t stream,
                                         enum cudaStreamCaptureStatus *captureStatus_out,
                                         unsigned long long *id_out, bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    unsigned long long id = 0;
    cudaError_t e = per_thread
        ? cudaStreamGetCaptureInfo_v3_ptsz(stream, captureStatus_out ? &status : NULL, &id, NULL,
                                           NULL, NULL, NULL)
        : cudaStreamGetCaptureInfo_v3(stream, captureStatus_out ? &status : NULL, &id, NULL, NULL,
                                      NULL, NULL);
    if (e == cudaSuccess && captureStatus_out)
        *captureStatus_out = status;
    if (e == cudaSuccess && id_out && status != cudaStreamCaptureStatusNone)
        *id_out = id;
    RT12_RETURN_CALLED(e);
}

RT_API cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                            enum cudaStreamCaptureStatus *captureStatus_out,
                                            unsigned long long *id_out)
{
    RT_FORWARD(rt12_capture_info_api(stream, captureStatus_out, id_out, false, RT_SELF));
}

RT_API cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                                 enum cudaStreamCaptureStatus *captureStatus_out,
                                                 unsigned long long *id_out)
{
    RT_FORWARD(rt12_capture_info_api(stream, captureStatus_out, id_out, true, RT_SELF));
}

/* ---- events --------------------------------------------------------------------------------- */

/* 12.8 added _v2, whose errors for pending work are relaxed, and 13 made it the plain one.  The
 * runtime has one behaviour for both: the driver's answer for the two events. */
RT_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaEventElapsedTime_v2(ms, start, end));
}
