/*
 * cuda135.h - what CUDA 13.5 added to the runtime's and the driver's ABI, for a build against an
 * older toolkit's headers.
 *
 * minicudart implements NVIDIA's 13.5 runtime (the same SONAME and version node as 13.0's, 36
 * more functions), but it must still build on a machine that has only the 13.0 toolkit.  So this
 * header declares, when the installed headers are older, the types, enumerators and prototypes
 * of 13.5 that the runtime uses, with the layouts of 13.5's headers; with 13.5 headers installed
 * it declares nothing new and checks (at compile time) that the two agree.
 *
 * Two kinds of declarations:
 *
 *   new names        types, enumerators and functions 13.0 does not have: declared only when
 *                    CUDART_VERSION (runtime) or CUDA_VERSION (driver) is below 13050, under the
 *                    names 13.5 gives them, so that code reads the same with either header set.
 *   changed layouts  structs 13.0 also has, to which 13.5 added members (a context in every
 *                    node's parameters, two function attributes, ...): a program built by nvcc
 *                    13.5 passes the larger form.  The runtime reads them through rt135_* mirrors
 *                    of the 13.5 layout, whatever headers it was built with.
 *
 * The enumerators that are new in 13.5 are macros of the enum's type here (an enum cannot be
 * extended), which is why the runtime compares against them but never switches on them.
 */
#ifndef MINICUDART_CUDA135_H
#define MINICUDART_CUDA135_H

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#include <stddef.h>

/* ==== the driver (cuda.h, cudaTypedefs.h) ==================================================== */

#if CUDA_VERSION < 13050
#define CUDA_ERROR_MULTICAST_RESOURCE_FULL ((CUresult)47)
#define CUDA_ERROR_INSUFFICIENT_LOADER_VERSION ((CUresult)227)
#define CUDA_ERROR_STREAM_DETACHED ((CUresult)917)
#define CUDA_ERROR_GRAPH_RECAPTURE_FAILURE ((CUresult)918)
#define CUDA_ERROR_FABRIC_NOT_READY ((CUresult)919)

#define CU_DEV_RESOURCE_TYPE_WORKQUEUE_CONFIG ((CUdevResourceType)1000)
#define CU_DEV_RESOURCE_TYPE_WORKQUEUE ((CUdevResourceType)10000)
#define CU_FUNC_ATTRIBUTE_DEVICE_NODE_UPDATE_SUPPORTED ((CUfunction_attribute)16)
#define CU_FUNC_ATTRIBUTE_SHARED_MEMORY_MODE ((CUfunction_attribute)17)
#define CU_POINTER_ATTRIBUTE_LOCALITY_DOMAIN_ORDINAL ((CUpointer_attribute)22)
#define CU_GRAPH_NODE_TYPE_MEMCPY_BATCH ((CUgraphNodeType)14)

/* cuDevSmResourceSplit's description of one group (driver 13.1). */
typedef struct CU_DEV_SM_RESOURCE_GROUP_PARAMS_st {
    unsigned int smCount;
    unsigned int coscheduledSmCount;
    unsigned int preferredCoscheduledSmCount;
    unsigned int flags;
    unsigned int localityDomainId;
    unsigned int reserved[11];
} CU_DEV_SM_RESOURCE_GROUP_PARAMS;

typedef enum CUgraphRecaptureStatus_enum {
    CU_GRAPH_RECAPTURE_ELIGIBLE_FOR_UPDATE = 0,
    CU_GRAPH_RECAPTURE_INELIGIBLE_FOR_UPDATE = 1,
    CU_GRAPH_RECAPTURE_ERROR = 2,
} CUgraphRecaptureStatus;

/* Called by cuStreamBeginRecaptureToGraph for every node whose parameters changed. */
typedef CUresult (CUDA_CB *CUgraphRecaptureCallback)(void *data, CUgraphNode node,
                                                      const CUgraphNodeParams *originalParams,
                                                      const CUgraphNodeParams *recaptureParams,
                                                      CUgraphRecaptureStatus status);

/* The entry points of drivers 13.1 to 13.5 that the runtime asks for (all optional: driver 580,
 * CUDA 13.0, has none of them).  The version in each name is the ABI that cuGetProcAddress is
 * asked for, as in cudaTypedefs.h. */
typedef CUresult (CUDAAPI *PFN_cuDevSmResourceSplit_v13010)(
    CUdevResource *result, unsigned int nbGroups, const CUdevResource *input,
    CUdevResource *remainder, unsigned int flags, CU_DEV_SM_RESOURCE_GROUP_PARAMS *groupParams);
typedef CUresult (CUDAAPI *PFN_cuStreamGetDevResource_v13010)(CUstream hStream,
                                                               CUdevResource *result,
                                                               CUdevResourceType type);
typedef PFN_cuStreamGetDevResource_v13010 PFN_cuStreamGetDevResource_v13010_ptsz;
typedef CUresult (CUDAAPI *PFN_cuLaunchHostFunc_v13010)(CUstream hStream, CUhostFn fn,
                                                         void *userData, unsigned int syncMode);
typedef PFN_cuLaunchHostFunc_v13010 PFN_cuLaunchHostFunc_v13010_ptsz;
typedef CUresult (CUDAAPI *PFN_cuGraphNodeGetContainingGraph_v13010)(CUgraphNode hNode,
                                                                      CUgraph *phGraph);
typedef CUresult (CUDAAPI *PFN_cuGraphNodeGetLocalId_v13010)(CUgraphNode hNode,
                                                              unsigned int *nodeId);
typedef CUresult (CUDAAPI *PFN_cuGraphNodeGetToolsId_v13010)(CUgraphNode hNode,
                                                              unsigned long long *nodeId);
typedef CUresult (CUDAAPI *PFN_cuGraphGetId_v13010)(CUgraph hGraph, unsigned int *graphId);
typedef CUresult (CUDAAPI *PFN_cuGraphExecGetId_v13010)(CUgraphExec hGraphExec,
                                                         unsigned int *graphId);
typedef CUresult (CUDAAPI *PFN_cuFuncGetParamCount_v13020)(CUfunction func, size_t *paramCount);
typedef CUresult (CUDAAPI *PFN_cuKernelGetParamCount_v13020)(CUkernel kernel,
                                                              size_t *paramCount);
typedef CUresult (CUDAAPI *PFN_cuGraphNodeGetParams_v13020)(CUgraphNode hNode,
                                                             CUgraphNodeParams *nodeParams);
typedef CUresult (CUDAAPI *PFN_cuMemcpyWithAttributesAsync_v13020)(CUdeviceptr dst,
                                                                    CUdeviceptr src, size_t size,
                                                                    CUmemcpyAttributes *attr,
                                                                    CUstream hStream);
typedef PFN_cuMemcpyWithAttributesAsync_v13020 PFN_cuMemcpyWithAttributesAsync_v13020_ptsz;
typedef CUresult (CUDAAPI *PFN_cuMemcpy3DWithAttributesAsync_v13020)(CUDA_MEMCPY3D_BATCH_OP *op,
                                                                      unsigned long long flags,
                                                                      CUstream hStream);
typedef PFN_cuMemcpy3DWithAttributesAsync_v13020 PFN_cuMemcpy3DWithAttributesAsync_v13020_ptsz;
typedef CUresult (CUDAAPI *PFN_cuStreamBeginRecaptureToGraph_v13030)(
    CUstream hStream, CUstreamCaptureMode mode, CUgraph hGraph,
    CUgraphRecaptureCallback callbackFunc, void *userData);
typedef PFN_cuStreamBeginRecaptureToGraph_v13030 PFN_cuStreamBeginRecaptureToGraph_v13030_ptsz;
/* 13.4 reads CUgraphNodeParams with 13.5's members (a host node's sync mode and context); the
 * 12.3 forms read those bytes as unused ones of the union, which must be zero (graph_params.c). */
typedef CUresult (CUDAAPI *PFN_cuGraphAddNode_v13040)(CUgraphNode *phGraphNode, CUgraph hGraph,
                                                       const CUgraphNode *dependencies,
                                                       const CUgraphEdgeData *dependencyData,
                                                       size_t numDependencies,
                                                       CUgraphNodeParams *nodeParams);
typedef CUresult (CUDAAPI *PFN_cuGraphNodeSetParams_v13040)(CUgraphNode hNode,
                                                             CUgraphNodeParams *nodeParams);
typedef CUresult (CUDAAPI *PFN_cuMemGetLocationInfo_v13040)(CUdeviceptr ptr, size_t size,
                                                             size_t summaryGranularity,
                                                             size_t samplingGranularity,
                                                             CUmemLocation *location_out);
#endif /* CUDA_VERSION < 13050 */

/* ==== the runtime (driver_types.h, cuda_runtime_api.h) ======================================= */

#if CUDART_VERSION < 13050
#define cudaErrorVersionTranslation ((cudaError_t)10)
#define cudaErrorInsufficientLoaderVersion ((cudaError_t)227)
#define cudaErrorStreamDetached ((cudaError_t)917)
#define cudaErrorGraphRecaptureFailure ((cudaError_t)918)
#define cudaErrorFabricNotReady ((cudaError_t)919)

#define cudaFuncAttributeSharedMemoryMode ((enum cudaFuncAttribute)16)
#define cudaLimitPerBlockMemorySize ((enum cudaLimit)0x0A)
#define cudaMemLocationTypeInvisible ((enum cudaMemLocationType)5)
#define cudaMemLocationTypeDeviceLocalityDomain ((enum cudaMemLocationType)6)
#define cudaGraphNodeTypeMemcpyBatch ((enum cudaGraphNodeType)0x0e)
#define cudaGraphChildGraphOwnershipInvalid ((enum cudaGraphChildGraphNodeOwnership)-1)
#define cudaLaunchAttributePortableClusterSizeMode ((cudaLaunchAttributeID)17)
#define cudaLaunchAttributeSharedMemoryMode ((cudaLaunchAttributeID)18)

/* Opaque handles: a descriptor made by cudaDevResourceGenerateDesc (the driver's
 * CUdevResourceDesc), and an execution context (the primary context of a device, or a green
 * context, a CUcontext either way: exec_ctx.c). */
typedef struct CUdevResourceDesc_st *cudaDevResourceDesc_t;
typedef struct cudaExecutionContext_st *cudaExecutionContext_t;

enum cudaGraphRecaptureStatus {
    cudaGraphRecaptureEligibleForUpdate = 0,
    cudaGraphRecaptureIneligibleForUpdate = 1,
    cudaGraphRecaptureError = 2,
};

enum cudaHostTaskSyncMode {
    cudaHostTaskBlocking = 0x0,
    cudaHostTaskSpinWait = 0x1,
};

typedef enum cudaSharedMemoryMode {
    cudaSharedMemoryModeDefault = 0,
    cudaSharedMemoryModeRequirePortable = 1,
    cudaSharedMemoryModeAllowNonPortable = 2,
    cudaSharedMemoryModeAllowOversizedSharedMemory = 3,
    cudaSharedMemoryModePreferOversizedSharedMemory = 4,
} cudaSharedMemoryMode;

enum cudaDevSmResourceGroup_flags {
    cudaDevSmResourceGroupDefault = 0,
    cudaDevSmResourceGroupBackfill = 0x1 << 0,
    cudaDevSmResourceGroupLocalityDomainId = 0x1 << 1,
    cudaDevSmResourceGroupLocalityDomainSupplementalSms = 0x1 << 2,
};
#define cudaDevSmResourceGroupLocalityDomainIdAny (~0u)

enum cudaDevSmResourceSplitByCount_flags {
    cudaDevSmResourceSplitIgnoreSmCoscheduling = 0x1,
    cudaDevSmResourceSplitMaxPotentialClusterSize = 0x2,
};

enum cudaDevResourceType {
    cudaDevResourceTypeInvalid = 0,
    cudaDevResourceTypeSm = 1,
    cudaDevResourceTypeWorkqueueConfig = 1000,
    cudaDevResourceTypeWorkqueue = 10000,
};

struct cudaDevSmResource {
    unsigned int smCount;
    unsigned int minSmPartitionSize;
    unsigned int smCoscheduledAlignment;
    unsigned int flags;
    unsigned int localityDomainId;
};

enum cudaDevWorkqueueConfigScope {
    cudaDevWorkqueueConfigScopeDeviceCtx = 0,
    cudaDevWorkqueueConfigScopeGreenCtxBalanced = 1,
};

struct cudaDevWorkqueueConfigResource {
    int device;
    unsigned int wqConcurrencyLimit;
    enum cudaDevWorkqueueConfigScope sharingScope;
};

struct cudaDevWorkqueueResource {
    unsigned char reserved[40];
};

typedef struct cudaDevSmResourceGroupParams_st {
    unsigned int smCount;
    unsigned int coscheduledSmCount;
    unsigned int preferredCoscheduledSmCount;
    unsigned int flags;
    unsigned int localityDomainId;
    unsigned int reserved[11];
} cudaDevSmResourceGroupParams;

/* A resource: 13.5's cudaDevResource, the same 144 bytes as the driver's CUdevResource of 13.0
 * and 13.5 (checked below), so the runtime hands the user's struct to the driver as it is. */
typedef struct cudaDevResource_st {
    enum cudaDevResourceType type;
    unsigned char _internal_padding[92];
    union {
        struct cudaDevSmResource sm;
        struct cudaDevWorkqueueConfigResource wqConfig;
        struct cudaDevWorkqueueResource wq;
        unsigned char _oversize[40];
    };
    struct cudaDevResource_st *nextResource;
} cudaDevResource;

enum cudaKernelFunctionType {
    cudaKernelFunctionTypeUnspecified = 0x00,
    cudaKernelFunctionTypeDeviceEntry = 0x01,
    cudaKernelFunctionTypeKernel = 0x02,
    cudaKernelFunctionTypeFunction = 0x03,
};

typedef cudaError_t (CUDART_CB *cudaGraphRecaptureCallback_t)(
    void *data, cudaGraphNode_t node, const struct cudaGraphNodeParams *originalParams,
    const struct cudaGraphNodeParams *recaptureParams, enum cudaGraphRecaptureStatus status);

struct cudaGraphRecaptureCallbackData {
    cudaGraphRecaptureCallback_t callbackFunc;
    void *userData;
};

/* The 33 functions of 13.5 that its headers declare (cudaSubgrid* are exported undeclared). */
extern cudaError_t CUDARTAPI cudaDevResourceGenerateDesc(cudaDevResourceDesc_t *phDesc,
                                                         cudaDevResource *resources,
                                                         unsigned int nbResources);
extern cudaError_t CUDARTAPI cudaDevSmResourceSplit(cudaDevResource *result, unsigned int nbGroups,
                                                    const cudaDevResource *input,
                                                    cudaDevResource *remainder, unsigned int flags,
                                                    cudaDevSmResourceGroupParams *groupParams);
extern cudaError_t CUDARTAPI cudaDevSmResourceSplitByCount(cudaDevResource *result,
                                                           unsigned int *nbGroups,
                                                           const cudaDevResource *input,
                                                           cudaDevResource *remaining,
                                                           unsigned int flags,
                                                           unsigned int minCount);
extern cudaError_t CUDARTAPI cudaDeviceGetDevResource(int device, cudaDevResource *resource,
                                                      enum cudaDevResourceType type);
extern cudaError_t CUDARTAPI cudaDeviceGetExecutionCtx(cudaExecutionContext_t *ctx, int device);
extern cudaError_t CUDARTAPI cudaExecutionCtxDestroy(cudaExecutionContext_t ctx);
extern cudaError_t CUDARTAPI cudaExecutionCtxGetDevResource(cudaExecutionContext_t ctx,
                                                            cudaDevResource *resource,
                                                            enum cudaDevResourceType type);
extern cudaError_t CUDARTAPI cudaExecutionCtxGetDevice(int *device, cudaExecutionContext_t ctx);
extern cudaError_t CUDARTAPI cudaExecutionCtxGetId(cudaExecutionContext_t ctx,
                                                   unsigned long long *ctxId);
extern cudaError_t CUDARTAPI cudaExecutionCtxRecordEvent(cudaExecutionContext_t ctx,
                                                         cudaEvent_t event);
extern cudaError_t CUDARTAPI cudaExecutionCtxStreamCreate(cudaStream_t *phStream,
                                                          cudaExecutionContext_t ctx,
                                                          unsigned int flags, int priority);
extern cudaError_t CUDARTAPI cudaExecutionCtxSynchronize(cudaExecutionContext_t ctx);
extern cudaError_t CUDARTAPI cudaExecutionCtxWaitEvent(cudaExecutionContext_t ctx,
                                                       cudaEvent_t event);
extern cudaError_t CUDARTAPI cudaFuncGetParamCount(const void *func, size_t *paramCount);
extern cudaError_t CUDARTAPI cudaGraphConditionalHandleCreate_v2(
    cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph, cudaExecutionContext_t ctx,
    unsigned int defaultLaunchValue, unsigned int flags);
extern cudaError_t CUDARTAPI cudaGraphExecGetId(cudaGraphExec_t hGraphExec, unsigned int *graphID);
extern cudaError_t CUDARTAPI cudaGraphGetId(cudaGraph_t hGraph, unsigned int *graphID);
extern cudaError_t CUDARTAPI cudaGraphNodeGetContainingGraph(cudaGraphNode_t hNode,
                                                             cudaGraph_t *phGraph);
extern cudaError_t CUDARTAPI cudaGraphNodeGetLocalId(cudaGraphNode_t hNode, unsigned int *nodeId);
extern cudaError_t CUDARTAPI cudaGraphNodeGetParams(cudaGraphNode_t node,
                                                    struct cudaGraphNodeParams *nodeParams);
extern cudaError_t CUDARTAPI cudaGraphNodeGetToolsId(cudaGraphNode_t hNode,
                                                     unsigned long long *toolsNodeId);
extern cudaError_t CUDARTAPI cudaGreenCtxCreate(cudaExecutionContext_t *phCtx,
                                                cudaDevResourceDesc_t desc, int device,
                                                unsigned int flags);
extern cudaError_t CUDARTAPI cudaLaunchHostFunc_v2(cudaStream_t stream, cudaHostFn_t fn,
                                                   void *userData, unsigned int syncMode);
extern cudaError_t CUDARTAPI cudaMemGetLocationInfo(void *devPtr, size_t size,
                                                    size_t summaryGranularity,
                                                    size_t samplingGranularity,
                                                    struct cudaMemLocation *location_out);
extern cudaError_t CUDARTAPI cudaMemcpy3DWithAttributesAsync(struct cudaMemcpy3DBatchOp *op,
                                                             unsigned long long flags,
                                                             cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMemcpyWithAttributesAsync(void *dst, const void *src,
                                                           size_t size,
                                                           struct cudaMemcpyAttributes *attr,
                                                           cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaStreamBeginRecaptureToGraph(
    cudaStream_t stream, enum cudaStreamCaptureMode mode, cudaGraph_t graph,
    struct cudaGraphRecaptureCallbackData *callbackData);
extern cudaError_t CUDARTAPI cudaStreamGetDevResource(cudaStream_t hStream,
                                                      cudaDevResource *resource,
                                                      enum cudaDevResourceType type);
#endif /* CUDART_VERSION < 13050 */

/* The per-thread-default-stream forms: declared by the toolkit only in such builds. */
extern cudaError_t CUDARTAPI cudaLaunchHostFunc_v2_ptsz(cudaStream_t stream, cudaHostFn_t fn,
                                                        void *userData, unsigned int syncMode);
extern cudaError_t CUDARTAPI cudaMemcpyWithAttributesAsync_ptsz(void *dst, const void *src,
                                                                size_t size,
                                                                struct cudaMemcpyAttributes *attr,
                                                                cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMemcpy3DWithAttributesAsync_ptsz(struct cudaMemcpy3DBatchOp *op,
                                                                  unsigned long long flags,
                                                                  cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaStreamBeginRecaptureToGraph_ptsz(
    cudaStream_t stream, enum cudaStreamCaptureMode mode, cudaGraph_t graph,
    struct cudaGraphRecaptureCallbackData *callbackData);
extern cudaError_t CUDARTAPI cudaStreamGetDevResource_ptsz(cudaStream_t hStream,
                                                           cudaDevResource *resource,
                                                           enum cudaDevResourceType type);

_Static_assert(sizeof(cudaDevResource) == sizeof(CUdevResource),
               "a runtime resource is handed to the driver as it is");

/* ==== layouts that 13.5 changed ============================================================= */

/* The members a program built by nvcc 13.5 may set in a node's parameters (cudaGraphNodeParams,
 * whose union keeps its size), each read by the runtime from these mirrors.  A program built
 * by nvcc 13.0 leaves them zero: the union's padding "must be zero" in both versions. */

/* cudaKernelNodeParamsV2: func is a host stub, a cudaKernel_t or a cudaFunction_t, as
 * functionType says (0: the runtime finds out); ctx is the execution context (NULL: current). */
struct rt135_kernel_node_params {
    void *func;
    dim3 gridDim;
    dim3 blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
    cudaExecutionContext_t ctx;
    enum cudaKernelFunctionType functionType;
};

/* cudaMemcpyNodeParams: ctx took the place of two of the three reserved ints. */
struct rt135_memcpy_node_params {
    int flags;
    int reserved;
    cudaExecutionContext_t ctx;
    struct cudaMemcpy3DParms copyParams;
};

/* cudaMemsetParamsV2: a context after the 13.0 members. */
struct rt135_memset_node_params {
    void *dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
    cudaExecutionContext_t ctx;
};

/* cudaHostNodeParamsV2: the sync mode of cudaLaunchHostFunc_v2, and a context. */
struct rt135_host_node_params {
    cudaHostFn_t fn;
    void *userData;
    unsigned int syncMode;
    cudaExecutionContext_t ctx;
};

/* cudaEventRecordNodeParams, cudaConditionalNodeParams and the external semaphore nodes: a
 * context after the 13.0 members (their 13.0 sizes are the offsets of ctx). */
struct rt135_event_record_node_params {
    cudaEvent_t event;
    cudaExecutionContext_t ctx;
};
struct rt135_conditional_node_params {
    cudaGraphConditionalHandle handle;
    enum cudaGraphConditionalNodeType type;
    unsigned int size;
    cudaGraph_t *phGraph_out;
    cudaExecutionContext_t ctx;
};
struct rt135_ext_sem_node_params {
    cudaExternalSemaphore_t *extSemArray;
    const void *paramsArray;
    unsigned int numExtSems;
    cudaExecutionContext_t ctx;
};

/* cudaFuncAttributes: two members taken from the reserved ints at its end. */
#define RT135_FUNC_ATTR_DEVICE_NODE_UPDATE_STATUS 76   /* byte offsets in 13.5's layout */
#define RT135_FUNC_ATTR_SHARED_MEMORY_MODE 80
/* cudaPointerAttributes: the locality domain ordinal, in the first reserved long. */
#define RT135_POINTER_ATTR_LOCALITY_DOMAIN_ORDINAL 24

_Static_assert(offsetof(struct rt135_kernel_node_params, ctx) ==
                   sizeof(struct cudaKernelNodeParams),
               "13.5 appended the context to 13.0's kernel node parameters");
_Static_assert(offsetof(struct rt135_memcpy_node_params, copyParams) ==
                   offsetof(struct cudaMemcpyNodeParams, copyParams),
               "13.5 kept the copy's parameters in place");
_Static_assert(offsetof(struct rt135_memset_node_params, ctx) == sizeof(struct cudaMemsetParams),
               "13.5 appended the context to 13.0's memset node parameters");
_Static_assert(offsetof(struct rt135_host_node_params, syncMode) ==
                   sizeof(struct cudaHostNodeParams),
               "13.5 appended the sync mode to 13.0's host node parameters");
_Static_assert(sizeof(struct cudaFuncAttributes) >= RT135_FUNC_ATTR_SHARED_MEMORY_MODE + 4 &&
                   sizeof(struct cudaPointerAttributes) >=
                       RT135_POINTER_ATTR_LOCALITY_DOMAIN_ORDINAL + sizeof(long),
               "13.5's new attribute members lie inside 13.0's structs");

#if CUDART_VERSION >= 13050
/* Built against 13.5's headers: the mirrors must be what they declare. */
_Static_assert(sizeof(struct rt135_kernel_node_params) == sizeof(struct cudaKernelNodeParamsV2) &&
                   offsetof(struct rt135_kernel_node_params, ctx) ==
                       offsetof(struct cudaKernelNodeParamsV2, ctx) &&
                   offsetof(struct rt135_kernel_node_params, functionType) ==
                       offsetof(struct cudaKernelNodeParamsV2, functionType),
               "kernel node parameters of 13.5");
_Static_assert(offsetof(struct rt135_memcpy_node_params, ctx) ==
                   offsetof(struct cudaMemcpyNodeParams, ctx),
               "memcpy node parameters of 13.5");
_Static_assert(offsetof(struct rt135_memset_node_params, ctx) ==
                   offsetof(struct cudaMemsetParamsV2, ctx),
               "memset node parameters of 13.5");
_Static_assert(offsetof(struct rt135_host_node_params, syncMode) ==
                       offsetof(struct cudaHostNodeParamsV2, syncMode) &&
                   offsetof(struct rt135_host_node_params, ctx) ==
                       offsetof(struct cudaHostNodeParamsV2, ctx),
               "host node parameters of 13.5");
_Static_assert(offsetof(struct rt135_event_record_node_params, ctx) ==
                   offsetof(struct cudaEventRecordNodeParams, ctx),
               "event record node parameters of 13.5");
_Static_assert(offsetof(struct rt135_conditional_node_params, ctx) ==
                   offsetof(struct cudaConditionalNodeParams, ctx),
               "conditional node parameters of 13.5");
_Static_assert(offsetof(struct rt135_ext_sem_node_params, ctx) ==
                       offsetof(struct cudaExternalSemaphoreSignalNodeParamsV2, ctx) &&
                   offsetof(struct rt135_ext_sem_node_params, ctx) ==
                       offsetof(struct cudaExternalSemaphoreWaitNodeParamsV2, ctx),
               "external semaphore node parameters of 13.5");
_Static_assert(offsetof(struct cudaFuncAttributes, deviceNodeUpdateStatus) ==
                       RT135_FUNC_ATTR_DEVICE_NODE_UPDATE_STATUS &&
                   offsetof(struct cudaFuncAttributes, sharedMemoryMode) ==
                       RT135_FUNC_ATTR_SHARED_MEMORY_MODE,
               "function attributes of 13.5");
_Static_assert(offsetof(struct cudaPointerAttributes, localityDomainOrdinal) ==
                   RT135_POINTER_ATTR_LOCALITY_DOMAIN_ORDINAL,
               "pointer attributes of 13.5");
#endif

#endif
