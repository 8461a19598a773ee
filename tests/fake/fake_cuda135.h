/*
 * fake_cuda135.h - lib/core/cuda135.h (the types and codes of CUDA 13.1-13.5 for a build against
 * 13.0's headers) and what the fake and its tests need of 13.5's cuda.h that cuda135.h does not
 * declare (yet): under a FAKE_ prefix, with the 13.5 name beside each.  Layouts are 13.5's.
 */
#ifndef MINICUDART_FAKE_CUDA135_H
#define MINICUDART_FAKE_CUDA135_H

#include <cuda.h>

#include "../../lib/core/cuda135.h"

#define FAKE_HOST_TASK_BLOCKING 0u                         /* CU_HOST_TASK_BLOCKING */
#define FAKE_HOST_TASK_SPINWAIT 1u                         /* CU_HOST_TASK_SPINWAIT */
#define FAKE_GREEN_CTX_NONE 0u                             /* CU_GREEN_CTX_NONE */
#define FAKE_DEV_SM_RESOURCE_GROUP_BACKFILL 0x1u           /* CU_DEV_SM_RESOURCE_GROUP_BACKFILL */
#define FAKE_DEV_SM_RESOURCE_GROUP_LOCALITY_DOMAIN_ID 0x2u /* ..._GROUP_LOCALITY_DOMAIN_ID */
#define FAKE_DEV_SM_RESOURCE_GROUP_LOCALITY_DOMAIN_SUPPLEMENTAL_SMS 0x4u
#define FAKE_DEV_SM_RESOURCE_GROUP_LOCALITY_DOMAIN_ID_ANY (~0u)
/* CU_GRAPH_CHILD_GRAPH_OWNERSHIP_INVALID: what cuGraphNodeGetParams says of a child graph. */
#define FAKE_GRAPH_CHILD_GRAPH_OWNERSHIP_INVALID ((CUgraphChildGraphNodeOwnership)-1)

/* CUdevSmResource of 13.5 (CUdevResource's member `sm`): 13.0's three fields, then two. */
typedef struct FAKE_DEV_SM_RESOURCE {
    unsigned int smCount;
    unsigned int minSmPartitionSize;
    unsigned int smCoscheduledAlignment;
    unsigned int flags;                 /* the group's CU_DEV_SM_RESOURCE_GROUP_* flags */
    unsigned int localityDomainId;
} FAKE_DEV_SM_RESOURCE;

/* CUDA_HOST_NODE_PARAMS_v2, CUDA_EVENT_RECORD_NODE_PARAMS and CUDA_EXT_SEM_*_NODE_PARAMS_v2 of
 * 13.5: a preferred context (CUcontext or CUgreenCtx) after 13.0's members, and a host node's
 * sync mode.  cuGraphAddNode / cuGraphNodeSetParams of ABI 13040 and cuGraphNodeGetParams read
 * and write CUgraphNodeParams with these. */
typedef struct FAKE_HOST_NODE_PARAMS_135 {
    CUhostFn fn;
    void *userData;
    unsigned int syncMode;
    CUcontext ctx;
} FAKE_HOST_NODE_PARAMS_135;

typedef struct FAKE_EVENT_RECORD_NODE_PARAMS_135 {
    CUevent event;
    CUcontext ctx;
} FAKE_EVENT_RECORD_NODE_PARAMS_135;

typedef struct FAKE_EXT_SEM_NODE_PARAMS_135 {
    CUexternalSemaphore *extSemArray;
    const void *paramsArray;
    unsigned int numExtSems;
    CUcontext ctx;
} FAKE_EXT_SEM_NODE_PARAMS_135;

_Static_assert(sizeof(FAKE_HOST_NODE_PARAMS_135) <= sizeof(((CUgraphNodeParams *)0)->reserved1),
               "13.5's host node parameters fit the union");
_Static_assert(sizeof(FAKE_DEV_SM_RESOURCE) <= sizeof(((CUdevResource *)0)->_oversize),
               "13.5's SM resource fits 13.0's union");

#endif
