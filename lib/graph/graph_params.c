/*
 * graph_params.c - a node's parameters as the runtime gives them, translated to the driver's and
 * back.  Most node kinds have the driver's layout already (checked below) and pass through; the
 * ones that differ:
 *
 *   cudaKernelNodeParams  func is a host stub (or a cudaKernel_t): resolved to the CUfunction of
 *                         the current device, as a launch would; GetParams maps it back
 *   cudaMemcpy3DParms     becomes CUDA_MEMCPY3D: the memory type of a pointer side follows the
 *                         copy kind, and an array side counts elements, so positions and widths
 *                         are scaled by the array's element size (and scaled back on the way out)
 *   cudaMemsetParams      becomes CUDA_MEMSET_NODE_PARAMS (a CUdeviceptr, and a context)
 *   cudaGraphNodeParams   the generic form: a union of the above per node type, with a context
 *                         added where the driver's struct has one
 *
 * Each translation has its way back, for the Gets: the driver keeps only its own form of a node,
 * so what a Get answers is rebuilt from it (the host stub from the CUfunction, element counts
 * from bytes, the copy kind from the memory types).  The generic form is read in 13.5's layout
 * whatever headers the runtime was built with (cuda135.h's rt135_* mirrors): 13.5 put its new
 * members into bytes that were padding or reserved in 13.0, which a program built by nvcc 13.0
 * leaves zero, and zero means "as before" in every one of them.
 */
#include <string.h>

#include "launch/launch.h"
#include "graph/graph.h"
#include "memory/memory.h"

/* What passes through or is copied in place rests on these: a toolkit whose layouts differ
 * fails to build instead of handing the driver misplaced members. */
_Static_assert(sizeof(struct cudaGraphNodeParams) == sizeof(CUgraphNodeParams),
               "generic node parameters differ");
_Static_assert(offsetof(struct cudaGraphNodeParams, kernel) == offsetof(CUgraphNodeParams, kernel),
               "generic node parameters differ in layout");
/* The generic form's V2 members are read through the first-generation structs, which are their
 * beginnings (13.5's headers add members after them: cuda135.h). */
_Static_assert(sizeof(struct cudaKernelNodeParamsV2) >= sizeof(struct cudaKernelNodeParams) &&
                   offsetof(struct cudaKernelNodeParamsV2, extra) ==
                       offsetof(struct cudaKernelNodeParams, extra),
               "kernel node parameter versions differ");
_Static_assert(sizeof(struct cudaMemsetParamsV2) >= sizeof(struct cudaMemsetParams) &&
                   offsetof(struct cudaMemsetParamsV2, height) ==
                       offsetof(struct cudaMemsetParams, height),
               "memset node parameter versions differ");
_Static_assert(sizeof(struct cudaHostNodeParams) == sizeof(CUDA_HOST_NODE_PARAMS),
               "host node parameters differ");
_Static_assert(sizeof(struct cudaMemsetParams) == sizeof(CUDA_MEMSET_NODE_PARAMS),
               "memset node parameters differ");
_Static_assert(sizeof(struct cudaChildGraphNodeParams) == sizeof(CUDA_CHILD_GRAPH_NODE_PARAMS),
               "child graph node parameters differ");
_Static_assert(sizeof(struct cudaMemAllocNodeParamsV2) == sizeof(CUDA_MEM_ALLOC_NODE_PARAMS_v2) &&
                   offsetof(struct cudaMemAllocNodeParamsV2, dptr) ==
                       offsetof(CUDA_MEM_ALLOC_NODE_PARAMS_v2, dptr),
               "memory allocation node parameters differ");
_Static_assert(sizeof(struct cudaExternalSemaphoreSignalNodeParamsV2) ==
                       sizeof(CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v2) &&
                   sizeof(struct cudaExternalSemaphoreSignalParams) ==
                       sizeof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS) &&
                   sizeof(struct cudaExternalSemaphoreWaitParams) ==
                       sizeof(CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS) &&
                   offsetof(struct cudaExternalSemaphoreWaitNodeParamsV2, numExtSems) ==
                       offsetof(struct cudaExternalSemaphoreSignalNodeParamsV2, numExtSems) &&
                   offsetof(struct cudaExternalSemaphoreWaitNodeParamsV2, paramsArray) ==
                       offsetof(struct cudaExternalSemaphoreSignalNodeParamsV2, paramsArray),
               "external semaphore node parameters differ");
_Static_assert(offsetof(struct cudaConditionalNodeParams, phGraph_out) ==
                   offsetof(CUDA_CONDITIONAL_NODE_PARAMS, phGraph_out),
               "conditional node parameters differ");
_Static_assert((int)cudaGraphNodeTypeConditional == (int)CU_GRAPH_NODE_TYPE_CONDITIONAL &&
                   (int)cudaGraphNodeTypeMemFree == (int)CU_GRAPH_NODE_TYPE_MEM_FREE,
               "node types differ");

/* ---- kernels -------------------------------------------------------------------------------- */

/* A kernel node's `func` that names no kernel: NULL is cudaErrorInvalidDeviceFunction, as for a
 * launch; any other pointer is cudaErrorInvalidValue in NVIDIA's 13.5 runtime (its 13.0 answered
 * cudaErrorInvalidResourceHandle, as a launch still does; both measured on the H200): 13.5
 * deduces what kind of handle `func` is, and finds none.  A launch keeps the older answer
 * (load.h: rt_kernel_unknown), so the graph paths have this function of their own. */
static cudaError_t rt_graph_kernel_unknown(const void *func)
{
    RT_TRACE("kernel node: %p is not a registered kernel", func);
    return func ? cudaErrorInvalidValue : cudaErrorInvalidDeviceFunction;
}

/* Everything of a kernel node but its function.  The runtime's dim3s become the driver's three
 * unsigned ints each; the argument arrays go as they are, for the driver to copy. */
static void rt_graph_kernel_shape(const struct cudaKernelNodeParams *p,
                                  CUDA_KERNEL_NODE_PARAMS *out)
{
    /* kern and ctx stay NULL: with func set the driver ignores ctx (cuda.h), and the node runs
     * in the context of the function's module. */
    memset(out, 0, sizeof *out);
    out->gridDimX = p->gridDim.x;
    out->gridDimY = p->gridDim.y;
    out->gridDimZ = p->gridDim.z;
    out->blockDimX = p->blockDim.x;
    out->blockDimY = p->blockDim.y;
    out->blockDimZ = p->blockDim.z;
    out->sharedMemBytes = p->sharedMemBytes;
    out->kernelParams = p->kernelParams;
    out->extra = p->extra;
}

/* What a launch does before it launches (launch.c, step 7): the record behind func (a host
 * stub, or a cudaKernel_t of a registered or a library's kernel: one lookup takes both), its
 * module loaded on d, its CUfunction there with cudaFuncSetAttribute's settings applied. */
cudaError_t rt_graph_kernel_params(const struct cudaKernelNodeParams *p, rt_device *d,
                                   CUDA_KERNEL_NODE_PARAMS *out)
{
    if (!p)
        return cudaErrorInvalidValue;
    rt_kernel *k = rt_kernel_find(p->func);
    if (!k)
        return rt_graph_kernel_unknown(p->func);
    rt_kernel_dev *kd;
    cudaError_t e = rt_kernel_resolve(k, d, &kd);
    if (e == cudaSuccess)
        e = rt_function_apply(k, d, kd);     /* cudaFuncSetAttribute's settings, per device */
    if (e != cudaSuccess)
        return e;
    rt_graph_kernel_shape(p, out);
    /* Relaxed: rt_kernel_resolve has just read the published function with acquire. */
    out->func = atomic_load_explicit(&kd->function, memory_order_relaxed);
    return cudaSuccess;
}

/* The way back: which registered kernel has, in one context slot, a given CUfunction.  A walk
 * over every kernel of every module, under the registry lock: a getter is not on the launch
 * path. */
struct rt_function_search {
    CUfunction function;
    size_t slot;
    const void *host_fun;
};

static void rt_function_search_module(rt_module *m, void *user)
{
    struct rt_function_search *s = user;
    for (rt_kernel *k = m->kernels; k && !s->host_fun; k = k->next) {
        rt_kernel_dev *devs = atomic_load_explicit(&k->dev, memory_order_acquire);
        if (devs && devs[s->slot].generation &&
            atomic_load_explicit(&devs[s->slot].function, memory_order_acquire) == s->function)
            s->host_fun = k->host_fun;
    }
}

void rt_graph_kernel_params_back(const CUDA_KERNEL_NODE_PARAMS *in, rt_device *d,
                                 struct cudaKernelNodeParams *out)
{
    /* The host stub registered for the CUfunction is the runtime's name for the kernel, which
     * is what users compare with their own kernel pointers.  A kernel that was not registered
     * with this runtime (captured from a library, say) keeps the driver's handle: the only name
     * it has.  Only d's slot is searched: a node made while another device was current comes
     * back with its CUfunction. */
    struct rt_function_search s = { in->func, rt_slot_index(d), NULL };
    if (in->func)
        rt_module_foreach(rt_function_search_module, &s);
    out->func = s.host_fun ? (void *)s.host_fun : (void *)in->func;
    out->gridDim = (dim3){ in->gridDimX, in->gridDimY, in->gridDimZ };
    out->blockDim = (dim3){ in->blockDimX, in->blockDimY, in->blockDimZ };
    out->sharedMemBytes = in->sharedMemBytes;
    out->kernelParams = in->kernelParams;
    out->extra = in->extra;
}

/* ---- copies --------------------------------------------------------------------------------- */

/* The element size of an array operand, for positions and widths counted in elements.  The
 * driver's CUDA_MEMCPY3D counts X and the width in bytes always, so the format is asked of the
 * driver (one descriptor query per translation). */
static cudaError_t rt_graph_array_element(CUarray array, size_t *element)
{
    CUDA_ARRAY3D_DESCRIPTOR desc;
    cudaError_t e = rt_error_from_cu(rt_drv.cuArray3DGetDescriptor(&desc, array));
    if (e != cudaSuccess)
        return e;
    *element = rt_array_element_size(&desc);
    if (*element == 0) {
        RT_TRACE("memcpy node: array format 0x%x: copies of it not implemented",
                 (unsigned)desc.Format);
        return cudaErrorNotSupported;
    }
    return cudaSuccess;
}

/* One side of a copy: an array, or a pitched pointer whose memory type follows the copy kind as
 * cudaMemcpy3D's does in NVIDIA's runtime (a host side is host memory even when the pointer is
 * registered, so that the driver takes the kind at its word). */
static void rt_copy_side(cudaArray_t array, const struct cudaPitchedPtr *ptr,
                         const struct cudaPos *pos, size_t element, CUmemorytype pointer_type,
                         CUmemorytype *type, const void **host, CUdeviceptr *device,
                         CUarray *cu_array, size_t *x, size_t *y, size_t *z, size_t *pitch,
                         size_t *height)
{
    if (array) {
        *type = CU_MEMORYTYPE_ARRAY;
        *cu_array = (CUarray)array;
        *x = pos->x * element;             /* elements of the array, in bytes */
    } else {
        *type = pointer_type;
        if (pointer_type == CU_MEMORYTYPE_HOST)
            *host = ptr->ptr;
        else
            *device = rt_dptr(ptr->ptr);
        /* ysize, the rows of one slice, is the driver's height; xsize has no place there.  A
         * pointer's position counts bytes already (its elements are unsigned char). */
        *pitch = ptr->pitch;
        *height = ptr->ysize;
        *x = pos->x;
    }
    *y = pos->y;
    *z = pos->z;
}

cudaError_t rt_graph_memcpy_params(const struct cudaMemcpy3DParms *p, CUDA_MEMCPY3D *out)
{
    if (!p)
        return cudaErrorInvalidValue;
    /* The kind fixes the memory type of each pointer side; cudaMemcpyDefault leaves it to the
     * driver (unified: the pointer's own type).  The types are also all the node keeps of the
     * kind: rt_graph_memcpy_params_back rebuilds it from them. */
    CUmemorytype src_type, dst_type;
    switch (p->kind) {
    case cudaMemcpyHostToHost: src_type = dst_type = CU_MEMORYTYPE_HOST; break;
    case cudaMemcpyHostToDevice:
        src_type = CU_MEMORYTYPE_HOST, dst_type = CU_MEMORYTYPE_DEVICE;
        break;
    case cudaMemcpyDeviceToHost:
        src_type = CU_MEMORYTYPE_DEVICE, dst_type = CU_MEMORYTYPE_HOST;
        break;
    case cudaMemcpyDeviceToDevice: src_type = dst_type = CU_MEMORYTYPE_DEVICE; break;
    case cudaMemcpyDefault: src_type = dst_type = CU_MEMORYTYPE_UNIFIED; break;
    default: return cudaErrorInvalidMemcpyDirection;
    }
    /* A side is an array or a pointer, never both.  Neither (a NULL pointer) is the driver's
     * to judge. */
    if ((p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr))
        return cudaErrorInvalidValue;
    /* When both sides are arrays they share a format, as for cudaMemcpy3D. */
    size_t element = 1;
    cudaArray_t array = p->srcArray ? p->srcArray : p->dstArray;
    if (array) {
        cudaError_t e = rt_graph_array_element((CUarray)array, &element);
        if (e != cudaSuccess)
            return e;
    }
    memset(out, 0, sizeof *out);
    rt_copy_side(p->srcArray, &p->srcPtr, &p->srcPos, element, src_type, &out->srcMemoryType,
                 &out->srcHost, &out->srcDevice, &out->srcArray, &out->srcXInBytes, &out->srcY,
                 &out->srcZ, &out->srcPitch, &out->srcHeight);
    /* rt_copy_side serves both sides through a const host pointer; the destination's is the one
     * the copy writes, hence the cast back below. */
    const void *dst_host = NULL;
    rt_copy_side(p->dstArray, &p->dstPtr, &p->dstPos, element, dst_type, &out->dstMemoryType,
                 &dst_host, &out->dstDevice, &out->dstArray, &out->dstXInBytes, &out->dstY,
                 &out->dstZ, &out->dstPitch, &out->dstHeight);
    out->dstHost = (void *)dst_host;
    out->WidthInBytes = p->extent.width * element;
    out->Height = p->extent.height;
    out->Depth = p->extent.depth;
    return cudaSuccess;
}

/* A side as the runtime names it: whether it is host memory in the kind's terms, or unified. */
static void rt_side_back(CUmemorytype type, const void *host, CUdeviceptr device, CUarray array,
                         size_t x, size_t y, size_t z, size_t pitch, size_t height,
                         size_t width, size_t element, cudaArray_t *array_out,
                         struct cudaPitchedPtr *ptr, struct cudaPos *pos)
{
    *array_out = type == CU_MEMORYTYPE_ARRAY ? (cudaArray_t)array : NULL;
    if (type == CU_MEMORYTYPE_ARRAY) {
        *ptr = (struct cudaPitchedPtr){ NULL, 0, 0, 0 };
        *pos = (struct cudaPos){ x / element, y, z };
        return;
    }
    void *p = type == CU_MEMORYTYPE_HOST ? (void *)host : (void *)(uintptr_t)device;
    /* xsize, which the driver does not keep, comes back as the copy's width in bytes. */
    *ptr = (struct cudaPitchedPtr){ p, pitch, width, height };
    *pos = (struct cudaPos){ x, y, z };
}

cudaError_t rt_graph_memcpy_params_back(const CUDA_MEMCPY3D *c, struct cudaMemcpy3DParms *out)
{
    size_t element = 1;
    CUarray array = c->srcMemoryType == CU_MEMORYTYPE_ARRAY   ? c->srcArray
                    : c->dstMemoryType == CU_MEMORYTYPE_ARRAY ? c->dstArray
                                                              : NULL;
    if (array) {
        cudaError_t e = rt_graph_array_element(array, &element);
        if (e != cudaSuccess)
            return e;
    }
    memset(out, 0, sizeof *out);
    size_t width = c->WidthInBytes;
    rt_side_back(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, c->srcXInBytes,
                 c->srcY, c->srcZ, c->srcPitch, c->srcHeight, width, element, &out->srcArray,
                 &out->srcPtr, &out->srcPos);
    rt_side_back(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, c->dstXInBytes,
                 c->dstY, c->dstZ, c->dstPitch, c->dstHeight, width, element, &out->dstArray,
                 &out->dstPtr, &out->dstPos);
    out->extent = (struct cudaExtent){ width / element, c->Height, c->Depth };
    /* The kind, from the memory types the node was made with (rt_graph_memcpy_params). */
    bool src_host = c->srcMemoryType == CU_MEMORYTYPE_HOST;
    bool dst_host = c->dstMemoryType == CU_MEMORYTYPE_HOST;
    if (c->srcMemoryType == CU_MEMORYTYPE_UNIFIED || c->dstMemoryType == CU_MEMORYTYPE_UNIFIED)
        out->kind = cudaMemcpyDefault;
    else
        out->kind = src_host ? (dst_host ? cudaMemcpyHostToHost : cudaMemcpyHostToDevice)
                             : (dst_host ? cudaMemcpyDeviceToHost : cudaMemcpyDeviceToDevice);
    return cudaSuccess;
}

/* One row of count bytes: the pitch and the width are count, a slice has one row, and no array
 * takes part, so every count is in bytes.  The 3D translation then picks the memory types. */
cudaError_t rt_graph_memcpy_1d(void *dst, const void *src, size_t count,
                               enum cudaMemcpyKind kind, CUDA_MEMCPY3D *out)
{
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = (struct cudaPitchedPtr){ (void *)src, count, count, 1 };
    p.dstPtr = (struct cudaPitchedPtr){ dst, count, count, 1 };
    p.extent = (struct cudaExtent){ count, 1, 1 };
    p.kind = kind;
    return rt_graph_memcpy_params(&p, out);
}

cudaError_t rt_graph_memcpy_symbol(const void *symbol, const void *other, size_t count,
                                   size_t offset, enum cudaMemcpyKind kind, bool to_symbol,
                                   CUDA_MEMCPY3D *out)
{
    /* An unknown symbol first, before the direction (and in the setters before the node):
     * NVIDIA's order (H200; graph_nodes.c).  Then the variable's address on the current device
     * (its module loaded there if need be) and the span checked against its size; the kind must
     * name the device on the symbol's side. */
    if (!rt_var_find(symbol))
        return cudaErrorInvalidSymbol;
    CUdeviceptr address = 0;
    cudaError_t e = rt_symbol_side(symbol, count, offset, kind, to_symbol, &address);
    if (e != cudaSuccess)
        return e;
    void *device = (void *)(uintptr_t)address;
    return to_symbol ? rt_graph_memcpy_1d(device, other, count, kind, out)
                     : rt_graph_memcpy_1d((void *)other, device, count, kind, out);
}

/* ---- sets ----------------------------------------------------------------------------------- */

/* The same six members both ways; only dst's type differs.  No context here: the per-kind Add
 * passes it to the driver beside the struct, and the generic form adds it (below). */

void rt_graph_memset_params(const struct cudaMemsetParams *p, CUDA_MEMSET_NODE_PARAMS *out)
{
    *out = (CUDA_MEMSET_NODE_PARAMS){
        .dst = rt_dptr(p->dst),
        .pitch = p->pitch,
        .value = p->value,
        .elementSize = p->elementSize,
        .width = p->width,
        .height = p->height,
    };
}

void rt_graph_memset_params_back(const CUDA_MEMSET_NODE_PARAMS *in, struct cudaMemsetParams *out)
{
    *out = (struct cudaMemsetParams){
        .dst = (void *)(uintptr_t)in->dst,
        .pitch = in->pitch,
        .value = in->value,
        .elementSize = in->elementSize,
        .width = in->width,
        .height = in->height,
    };
}

/* ---- the generic form ----------------------------------------------------------------------- */

/*
 * 13.5's members (cuda135.h's rt135_* mirrors).  A program built by nvcc 13.0 leaves them zero,
 * and every one of them means "as before" when zero.  An execution context is a CUcontext
 * (exec_ctx.c), so a node's ctx goes to the driver as it is; where it is NULL the current
 * context is used, as before.  A kernel in d's context is its CUfunction there, as before; in
 * any other context (a green one) it must be a context-independent CUkernel, which the driver
 * runs in the node's context (rt_kernel_context_free).
 *
 * Drivers of 13.4 take a host node's sync mode and context, an external semaphore node's and an
 * event record node's context, in cuGraphAddNode_v3 / cuGraphNodeSetParams_v2.  The 12.3 forms
 * read them as unused bytes of the union, which must be zero: a driver of 13.0 answers
 * cudaErrorInvalidValue for such a node, and so does NVIDIA's 13.5 runtime, which passes them
 * through (H200).  So they go to the driver as they are, and the driver answers.
 */
static cudaError_t rt_graph_kernel_params_135(const struct cudaGraphNodeParams *p, rt_device *d,
                                              CUgraphNodeParams *out)
{
    struct rt135_kernel_node_params k135;     /* copied: the union member is 13.0's type */
    memcpy(&k135, &p->kernel, sizeof k135);
    const struct cudaKernelNodeParams *v1 = (const struct cudaKernelNodeParams *)&p->kernel;
    CUcontext current = atomic_load_explicit(&d->context, memory_order_acquire);
    CUDA_KERNEL_NODE_PARAMS k;
    CUkernel handle = NULL;
    cudaError_t e;
    /* DeviceEntry (a host stub) and Kernel (a cudaKernel_t) need no telling apart:
     * rt_kernel_find takes both.  A value past Function is no type at all. */
    if ((unsigned)k135.functionType > cudaKernelFunctionTypeFunction)
        return cudaErrorInvalidValue;
    if ((int)k135.functionType == cudaKernelFunctionTypeFunction) {
        /* A cudaFunction_t is the driver's CUfunction (cudaGetFuncBySymbol): no resolution. */
        rt_graph_kernel_shape(v1, &k);
        k.func = (CUfunction)k135.func;
    } else if (k135.ctx && (CUcontext)k135.ctx != current) {
        /* Unspecified, a host stub or a cudaKernel_t, in another context than d's: a
         * context-independent kernel (rt_kernel_context_free), which runs in the node's. */
        rt_kernel *kernel = rt_kernel_find(k135.func);
        if (!kernel)
            return rt_graph_kernel_unknown(k135.func);
        if ((e = rt_kernel_context_free(kernel, d, &handle)) != cudaSuccess)
            return e;
        rt_graph_kernel_shape(v1, &k);
    } else if ((e = rt_graph_kernel_params(v1, d, &k)) != cudaSuccess) {
        /* Unspecified, a host stub or a cudaKernel_t, in d's context: its function there. */
        return e;
    }
    /* The driver's per-kind struct and the generic one's agree up to extra.  In the branch of
     * another context k.func stayed NULL, which makes the driver take kern (cuda.h). */
    memset(&out->kernel, 0, sizeof out->kernel);
    memcpy(&out->kernel, &k, offsetof(CUDA_KERNEL_NODE_PARAMS_v3, kern));
    out->kernel.kern = handle;
    out->kernel.ctx = k135.ctx ? (CUcontext)k135.ctx : current;
    return cudaSuccess;
}

cudaError_t rt_graph_node_params(const struct cudaGraphNodeParams *p, rt_device *d,
                                 CUgraphNodeParams *out)
{
    if (!p)
        return cudaErrorInvalidValue;
    /* Everything first, reserved fields and padding included: the driver checks that they are
     * zero.  Then the members whose layout differs. */
    memcpy(out, p, sizeof *out);
    cudaError_t e = cudaSuccess;
    CUcontext ctx = atomic_load_explicit(&d->context, memory_order_acquire);
    switch (p->type) {
    case cudaGraphNodeTypeKernel:
        e = rt_graph_kernel_params_135(p, d, out);
        break;
    case cudaGraphNodeTypeMemcpy: {
        /* 13.0's reserved[3] are 13.5's reserved and ctx, in the bytes of the driver's reserved
         * and copyCtx; the copy itself (cudaMemcpy3DParms, 160 bytes against CUDA_MEMCPY3D's 200)
         * must be translated.  flags and reserved go to the driver, which wants them zero. */
        struct rt135_memcpy_node_params m135;
        memcpy(&m135, &p->memcpy, sizeof m135);
        memset(&out->memcpy, 0, sizeof out->memcpy);
        out->memcpy.flags = m135.flags;
        out->memcpy.reserved = m135.reserved;
        out->memcpy.copyCtx = m135.ctx ? (CUcontext)m135.ctx : ctx;
        e = rt_graph_memcpy_params(&p->memcpy.copyParams, &out->memcpy.copyParams);
        break;
    }
    case cudaGraphNodeTypeMemset: {
        struct rt135_memset_node_params s135;
        memcpy(&s135, &p->memset, sizeof s135);
        CUDA_MEMSET_NODE_PARAMS set;
        rt_graph_memset_params((const struct cudaMemsetParams *)&p->memset, &set);
        /* 13.5's ctx follows the six members, where the driver's v2 has its ctx. */
        memset(&out->memset, 0, sizeof out->memset);
        memcpy(&out->memset, &set, sizeof set);
        out->memset.ctx = s135.ctx ? (CUcontext)s135.ctx : ctx;
        break;
    }
    case cudaGraphNodeTypeConditional: {
        /* Copied in place above, 13.5's ctx included (it lies where the driver's does); a NULL
         * one becomes the current context, which must be the handle's (cuda.h). */
        struct rt135_conditional_node_params c135;
        memcpy(&c135, &p->conditional, sizeof c135);
        out->conditional.ctx = c135.ctx ? (CUcontext)c135.ctx : ctx;
        break;
    }
    case cudaGraphNodeTypeMemAlloc:
        /* As cudaGraphAddMemAllocNode: a count without the array would be read through NULL. */
        if (p->alloc.accessDescCount && !p->alloc.accessDescs)
            e = cudaErrorInvalidValue;
        break;
    case cudaGraphNodeTypeExtSemaphoreSignal:
    case cudaGraphNodeTypeExtSemaphoreWait:
        /* As cudaGraphAddExternalSemaphoresSignalNode: the arrays are read for each semaphore.
         * The wait's members are at the signal's offsets (checked above). */
        if (p->extSemSignal.numExtSems &&
            (!p->extSemSignal.extSemArray || !p->extSemSignal.paramsArray))
            e = cudaErrorInvalidValue;
        break;
    default:
        /* host, child graph, event wait and record, allocation and free: the same layout as the
         * driver's.  An unknown type is the driver's to refuse. */
        break;
    }
    return e;
}

/* Only the members the driver writes; the rest of the caller's struct stays as the caller made
 * it (the translated copy differs from it wherever a member was translated). */
void rt_graph_node_params_outputs(const CUgraphNodeParams *in, struct cudaGraphNodeParams *out)
{
    if (in->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC)
        out->alloc.dptr = (void *)(uintptr_t)in->alloc.dptr;
    else if (in->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
        out->conditional.phGraph_out = in->conditional.phGraph_out;
}

cudaError_t rt_graph_node_params_back(const CUgraphNodeParams *in, rt_device *d,
                                      struct cudaGraphNodeParams *out)
{
    memcpy(out, in, sizeof *out);     /* the kinds of the same layout, and the type */
    cudaError_t e = cudaSuccess;
    switch ((int)in->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
        struct cudaKernelNodeParams k;
        rt_graph_kernel_params_back((const CUDA_KERNEL_NODE_PARAMS *)&in->kernel, d, &k);
        struct rt135_kernel_node_params k135 = {
            .func = k.func, .gridDim = k.gridDim, .blockDim = k.blockDim,
            .sharedMemBytes = k.sharedMemBytes, .kernelParams = k.kernelParams,
            .extra = k.extra, .ctx = (cudaExecutionContext_t)in->kernel.ctx,
            /* A host stub found: a device entry; else the driver's handle, a function. */
            .functionType = k.func == (void *)in->kernel.func ? cudaKernelFunctionTypeFunction
                                                              : cudaKernelFunctionTypeDeviceEntry,
        };
        memset(&out->kernel, 0, sizeof out->kernel);
        memcpy(&out->kernel, &k135, sizeof k135);
        break;
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY: {
        /* The copy back in 13.5's layout; a per-kind getter's answer has no context (NULL). */
        struct rt135_memcpy_node_params m135 = {
            .flags = in->memcpy.flags, .reserved = in->memcpy.reserved,
            .ctx = (cudaExecutionContext_t)in->memcpy.copyCtx,
        };
        e = rt_graph_memcpy_params_back(&in->memcpy.copyParams, &m135.copyParams);
        memset(&out->memcpy, 0, sizeof out->memcpy);
        memcpy(&out->memcpy, &m135, sizeof m135);
        break;
    }
    case CU_GRAPH_NODE_TYPE_MEMSET: {
        struct cudaMemsetParams set;
        rt_graph_memset_params_back((const CUDA_MEMSET_NODE_PARAMS *)&in->memset, &set);
        struct rt135_memset_node_params s135 = {
            .dst = set.dst, .pitch = set.pitch, .value = set.value,
            .elementSize = set.elementSize, .width = set.width, .height = set.height,
            .ctx = (cudaExecutionContext_t)in->memset.ctx,
        };
        memset(&out->memset, 0, sizeof out->memset);
        memcpy(&out->memset, &s135, sizeof s135);
        break;
    }
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
        out->alloc.dptr = (void *)(uintptr_t)in->alloc.dptr;
        break;
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
        out->free.dptr = (void *)(uintptr_t)in->free.dptr;
        break;
    default:
        break;
    }
    return e;
}
