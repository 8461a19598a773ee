/*
 * fake_function.c - the fake driver's entry points of the "function" area (see fake_internal.h):
 * function attributes, occupancy, cooperative and extended launches, context limits and cache
 * preference, peers, the profiler, PCI bus ids, and cuGetProcAddress asked for by name.
 *
 * Models, and how strictly:
 *   - cuFuncSetAttribute / cuFuncSetCacheConfig validate the attribute and value and remember
 *     them per kernel (cuFuncGetAttribute, in fake_module.c, does not read them back).
 *   - Occupancy, per SM of an H200-like device (132 SMs, 2048 threads, 64 K registers, 228 KB
 *     shared memory with 1 KB reserved per block, at most 32 blocks), every kernel using 16
 *     registers per thread:
 *         blocks = min(32, 64 / warps, 65536 / (16 * 32 * warps),
 *                      233472 / (static + dynamic shared + 1024))
 *     with warps = ceil(blockSize / 32); 0 when blockSize exceeds the kernel's limit or the
 *     shared memory exceeds what a block may have (48 KB, or the MAX_DYNAMIC_SHARED_SIZE_BYTES
 *     that was set).  So 32 threads -> 32 blocks, 128 -> 16, 256 -> 8, 1024 -> 2.
 *   - A cooperative launch (cuLaunchCooperativeKernel, or cuLaunchKernelEx with the cooperative
 *     attribute) of more blocks than 132 * occupancy fails with COOPERATIVE_LAUNCH_TOO_LARGE.
 *   - cuLaunchKernelEx records its attributes in the call log ("attrs=[id:value ...]") and checks
 *     that the grid is a multiple of a cluster dimension (else INVALID_CLUSTER_SIZE).
 *   - Limits, the cache preference and peer access are kept per device; peers need a distinct,
 *     active context, and a reset of either context ends the access (as on a real driver).
 *     cuMemcpyPeer(Async) copies between two active, healthy primary contexts.  PCI bus ids are
 *     "0000:XX:00.0" with XX = 0x19 + device.
 * cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags is logged (and fails on request) as
 * "cuOccupancyMaxActiveBlocksWithFlags": the log keeps 47 characters of a name.
 * All launches end in fake_launch_run, so they are recorded and run like cuLaunchKernel's.
 */
#include "fake_internal.h"

#include <stdio.h>
#include <string.h>

#undef cuGetProcAddress

CUresult CUDAAPI cuGetProcAddress_v2(const char *symbol, void **pfn, int version,
                                     cuuint64_t flags, CUdriverProcAddressQueryResult *status);

#define FAKE_SMS 132
#define FAKE_OCCUPANCY_NAME "cuOccupancyMaxActiveBlocksWithFlags"   /* fits fake_call.name */
#define FAKE_SETTABLE_FIRST CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
#define FAKE_SETTABLE_LAST CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE
#define FAKE_MAX_SETTINGS 256

/* What was set on one kernel. */
typedef struct fake_fn_setting {
    const fake_kernel *kernel;
    unsigned set;                          /* bit a: attribute a */
    int value[FAKE_SETTABLE_LAST + 1];
    int cache;
} fake_fn_setting;

static fake_fn_setting fn_settings[FAKE_MAX_SETTINGS];
static unsigned fn_setting_count;

static size_t limits[FAKE_MAX_DEVICES][CU_LIMIT_MAX];
static int limits_initialised;
static CUfunc_cache ctx_cache[FAKE_MAX_DEVICES];
/* Peer access from one device's context to another's, as the ids (fake_ctx.id) of the two
 * contexts it was enabled between: a reset gives a context a new id, so a mapping dies with
 * either context, as on a real driver.  0: never enabled. */
static struct {
    unsigned long long from_id, to_id;
} peer_enabled[FAKE_MAX_DEVICES][FAKE_MAX_DEVICES];
static int profiling;

static int peer_is_enabled(const fake_ctx *from, const fake_ctx *to)
{
    return from->id && peer_enabled[from->device][to->device].from_id == from->id &&
           peer_enabled[from->device][to->device].to_id == to->id;
}

static fake_fn_setting *fn_setting(const fake_kernel *k, int create)
{
    for (unsigned i = 0; i < fn_setting_count; i++)
        if (fn_settings[i].kernel == k)
            return &fn_settings[i];
    if (!create || fn_setting_count == FAKE_MAX_SETTINGS)
        return NULL;
    fake_fn_setting *s = &fn_settings[fn_setting_count++];
    memset(s, 0, sizeof *s);
    s->kernel = k;
    return s;
}

/* The most dynamic shared memory a block of k may have. */
static long long max_dynamic_shared(const fake_kernel *k)
{
    fake_fn_setting *s = fn_setting(k, 0);
    if (s && (s->set & (1u << CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)))
        return s->value[CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES];
    return 49152 - (long long)k->shared_size;
}

/* The occupancy formula of the header comment. */
static int occupancy(const fake_kernel *k, int block_size, size_t dynamic_shared)
{
    unsigned limit = k->max_threads ? k->max_threads : 1024;
    if (block_size <= 0 || (unsigned)block_size > limit ||
        (long long)dynamic_shared > max_dynamic_shared(k))
        return 0;
    int warps = (block_size + 31) / 32;
    int blocks = 32;
    int by_threads = 64 / warps;
    int by_regs = 65536 / (16 * 32 * warps);
    long long per_block = (long long)k->shared_size + (long long)dynamic_shared + 1024;
    int by_shared = (int)(233472 / per_block);
    if (by_threads < blocks)
        blocks = by_threads;
    if (by_regs < blocks)
        blocks = by_regs;
    if (by_shared < blocks)
        blocks = by_shared;
    return blocks;
}

static CUresult cooperative_check(CUfunction func, const unsigned grid[3],
                                  const unsigned block[3], unsigned shm)
{
    fake_kernel *k = NULL;
    if (fake_live_kernel(func, &k) != CUDA_SUCCESS)
        return CUDA_SUCCESS;               /* fake_launch_run reports the bad handle */
    unsigned long long threads = (unsigned long long)block[0] * block[1] * block[2];
    unsigned long long blocks = (unsigned long long)grid[0] * grid[1] * grid[2];
    if (threads == 0 || threads > 1024 || blocks == 0)
        return CUDA_SUCCESS;               /* and bad dimensions */
    if (blocks > (unsigned long long)FAKE_SMS * (unsigned)occupancy(k, (int)threads, shm))
        return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
    return CUDA_SUCCESS;
}

/* ---- function attributes and occupancy ------------------------------------------------------ */

static CUresult CUDAAPI f_cuFuncSetAttribute(CUfunction func, CUfunction_attribute attr, int value)
{
    CUresult rc = fake_enter("cuFuncSetAttribute", "func=%p attrib=%d value=%d", (void *)func,
                             (int)attr, value);
    fake_kernel *k = NULL;
    fake_fn_setting *s = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS)
        rc = fake_live_kernel(func, &k);
    if (rc == CUDA_SUCCESS && (attr < FAKE_SETTABLE_FIRST || attr > FAKE_SETTABLE_LAST))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && attr == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES &&
        (value < 0 || (long long)value + (long long)k->shared_size > 232448))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && attr == CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT &&
        (value < -1 || value > 100))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(s = fn_setting(k, 1)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS) {
        s->value[attr] = value;
        s->set |= 1u << attr;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuFuncSetCacheConfig(CUfunction func, CUfunc_cache config)
{
    CUresult rc = fake_enter("cuFuncSetCacheConfig", "func=%p config=%d", (void *)func,
                             (int)config);
    fake_kernel *k = NULL;
    fake_fn_setting *s = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS)
        rc = fake_live_kernel(func, &k);
    if (rc == CUDA_SUCCESS && (config < CU_FUNC_CACHE_PREFER_NONE ||
                               config > CU_FUNC_CACHE_PREFER_EQUAL))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(s = fn_setting(k, 1)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS)
        s->cache = (int)config;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *num_blocks, CUfunction func, int block_size, size_t dynamic_shared, unsigned flags)
{
    CUresult rc = fake_enter(FAKE_OCCUPANCY_NAME,
                             "func=%p blockSize=%d dynamicSMemSize=%zu flags=%u", (void *)func,
                             block_size, dynamic_shared, flags);
    fake_kernel *k = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!num_blocks || flags > CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE ||
                               block_size <= 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_live_kernel(func, &k);
    if (rc == CUDA_SUCCESS)
        *num_blocks = occupancy(k, block_size, dynamic_shared);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuOccupancyAvailableDynamicSMemPerBlock(size_t *out, CUfunction func,
                                                                  int num_blocks, int block_size)
{
    CUresult rc = fake_enter("cuOccupancyAvailableDynamicSMemPerBlock",
                             "func=%p numBlocks=%d blockSize=%d", (void *)func, num_blocks,
                             block_size);
    fake_kernel *k = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!out || num_blocks <= 0 || block_size <= 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_live_kernel(func, &k);
    if (rc == CUDA_SUCCESS) {
        long long per_block = 233472 / num_blocks - 1024 - (long long)k->shared_size;
        long long cap = max_dynamic_shared(k);
        if (per_block > cap)
            per_block = cap;
        *out = per_block > 0 && occupancy(k, block_size, 0) >= num_blocks ? (size_t)per_block
                                                                          : 0;
    }
    return fake_leave(rc);
}

/* The cluster dimension attribute of a configuration, 1x1x1 when absent. */
static void cluster_of(const CUlaunchConfig *config, unsigned dims[3])
{
    dims[0] = dims[1] = dims[2] = 1;
    for (unsigned i = 0; config->attrs && i < config->numAttrs; i++)
        if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
            dims[0] = config->attrs[i].value.clusterDim.x;
            dims[1] = config->attrs[i].value.clusterDim.y;
            dims[2] = config->attrs[i].value.clusterDim.z;
        }
}

static CUresult CUDAAPI f_cuOccupancyMaxPotentialClusterSize(int *size, CUfunction func,
                                                             const CUlaunchConfig *config)
{
    CUresult rc = fake_enter("cuOccupancyMaxPotentialClusterSize", "func=%p", (void *)func);
    fake_kernel *k = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!size || !config))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_live_kernel(func, &k);
    if (rc == CUDA_SUCCESS)
        *size = 8;                         /* the portable cluster size */
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuOccupancyMaxActiveClusters(int *count, CUfunction func,
                                                       const CUlaunchConfig *config)
{
    CUresult rc = fake_enter("cuOccupancyMaxActiveClusters", "func=%p", (void *)func);
    fake_kernel *k = NULL;
    unsigned dims[3];
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!count || !config))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_live_kernel(func, &k);
    if (rc == CUDA_SUCCESS) {
        cluster_of(config, dims);
        unsigned long long per_cluster = (unsigned long long)dims[0] * dims[1] * dims[2];
        int threads = (int)(config->blockDimX * config->blockDimY * config->blockDimZ);
        *count = per_cluster ? (int)((unsigned long long)FAKE_SMS *
                                     (unsigned)occupancy(k, threads, config->sharedMemBytes) /
                                     per_cluster)
                             : 0;
    }
    return fake_leave(rc);
}

/* ---- launches ------------------------------------------------------------------------------- */

static CUresult CUDAAPI f_cuLaunchCooperativeKernel(CUfunction func, unsigned gx, unsigned gy,
                                                    unsigned gz, unsigned bx, unsigned by,
                                                    unsigned bz, unsigned shm, CUstream stream,
                                                    void **params)
{
    CUresult rc = fake_enter("cuLaunchCooperativeKernel",
                             "func=%p grid=(%u,%u,%u) block=(%u,%u,%u) shm=%u stream=%p %s",
                             (void *)func, gx, gy, gz, bx, by, bz, shm, (void *)stream,
                             params ? "kernelParams" : "no-params");
    const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    if (rc == CUDA_SUCCESS)
        rc = cooperative_check(func, grid, block, shm);
    return fake_launch_run(rc, func, grid, block, shm, stream, params, NULL);
}

/* "id:value" of each attribute, for the call log. */
static void describe_attrs(const CUlaunchConfig *config, char *out, size_t cap)
{
    size_t used = 0;
    out[0] = 0;
    for (unsigned i = 0; config->attrs && i < config->numAttrs && used + 24 < cap; i++) {
        const CUlaunchAttribute *a = &config->attrs[i];
        int n;
        if (a->id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
            n = snprintf(out + used, cap - used, "%s%d:%u,%u,%u", i ? " " : "", (int)a->id,
                         a->value.clusterDim.x, a->value.clusterDim.y, a->value.clusterDim.z);
        else
            n = snprintf(out + used, cap - used, "%s%d:%d", i ? " " : "", (int)a->id,
                         a->value.priority);    /* the int member every int attribute shares */
        used += n > 0 ? (size_t)n : 0;
    }
}

static CUresult CUDAAPI f_cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction func,
                                           void **params, void **extra)
{
    char attrs[96] = "";
    if (config)
        describe_attrs(config, attrs, sizeof attrs);
    CUresult rc = fake_enter("cuLaunchKernelEx",
                             "func=%p grid=(%u,%u,%u) block=(%u,%u,%u) shm=%u stream=%p %s "
                             "attrs=[%s]", (void *)func,
                             config ? config->gridDimX : 0, config ? config->gridDimY : 0,
                             config ? config->gridDimZ : 0, config ? config->blockDimX : 0,
                             config ? config->blockDimY : 0, config ? config->blockDimZ : 0,
                             config ? config->sharedMemBytes : 0,
                             config ? (void *)config->hStream : NULL,
                             params ? "kernelParams" : extra ? "extra" : "no-params", attrs);
    if (rc == CUDA_SUCCESS && (!config || (config->numAttrs && !config->attrs)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc != CUDA_SUCCESS)
        return fake_leave(rc);
    const unsigned grid[3] = {config->gridDimX, config->gridDimY, config->gridDimZ};
    const unsigned block[3] = {config->blockDimX, config->blockDimY, config->blockDimZ};
    unsigned cluster[3];
    cluster_of(config, cluster);
    for (int i = 0; i < 3 && rc == CUDA_SUCCESS; i++)
        if (cluster[i] == 0 || grid[i] % cluster[i] != 0)
            rc = CUDA_ERROR_INVALID_CLUSTER_SIZE;
    for (unsigned i = 0; rc == CUDA_SUCCESS && i < config->numAttrs; i++) {
        const CUlaunchAttribute *a = &config->attrs[i];
        if ((int)a->id < 0 || (int)a->id > CU_LAUNCH_ATTRIBUTE_PRIORITY + 8)
            rc = CUDA_ERROR_INVALID_VALUE;
        else if (a->id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE && a->value.cooperative)
            rc = cooperative_check(func, grid, block, config->sharedMemBytes);
    }
    return fake_launch_run(rc, func, grid, block, config->sharedMemBytes, config->hStream,
                           params, extra);
}

/* ---- context limits and cache preference ---------------------------------------------------- */

static void limits_init(void)
{
    if (limits_initialised)
        return;
    for (int d = 0; d < FAKE_MAX_DEVICES; d++) {
        limits[d][CU_LIMIT_STACK_SIZE] = 1024;
        limits[d][CU_LIMIT_PRINTF_FIFO_SIZE] = 1048576;
        limits[d][CU_LIMIT_MALLOC_HEAP_SIZE] = 8388608;
        limits[d][CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH] = 2;
        limits[d][CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT] = 2048;
        limits[d][CU_LIMIT_MAX_L2_FETCH_GRANULARITY] = 64;
    }
    limits_initialised = 1;
}

static CUresult CUDAAPI f_cuCtxSetLimit(CUlimit limit, size_t value)
{
    CUresult rc = fake_enter("cuCtxSetLimit", "limit=%d value=%zu", (int)limit, value);
    fake_ctx *ctx = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && (limit < 0 || limit >= CU_LIMIT_MAX))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && limit == CU_LIMIT_PERSISTING_L2_CACHE_SIZE && value > 82837504)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        limits_init();
        limits[ctx->device][limit] = value;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuCtxGetLimit(size_t *value, CUlimit limit)
{
    CUresult rc = fake_enter("cuCtxGetLimit", "limit=%d", (int)limit);
    fake_ctx *ctx = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && (!value || limit < 0 || limit >= CU_LIMIT_MAX))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        limits_init();
        *value = limits[ctx->device][limit];
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuCtxSetCacheConfig(CUfunc_cache config)
{
    CUresult rc = fake_enter("cuCtxSetCacheConfig", "config=%d", (int)config);
    fake_ctx *ctx = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && (config < CU_FUNC_CACHE_PREFER_NONE ||
                               config > CU_FUNC_CACHE_PREFER_EQUAL))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        ctx_cache[ctx->device] = config;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuCtxGetCacheConfig(CUfunc_cache *config)
{
    CUresult rc = fake_enter("cuCtxGetCacheConfig", "%s", "");
    fake_ctx *ctx = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && !config)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *config = ctx_cache[ctx->device];
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuCtxResetPersistingL2Cache(void)
{
    CUresult rc = fake_enter("cuCtxResetPersistingL2Cache", "%s", "");
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    return fake_leave(rc);
}

/* ---- peers ------------------------------------------------------------------------------------ */

static CUresult CUDAAPI f_cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer)
{
    CUresult rc = fake_enter("cuDeviceCanAccessPeer", "dev=%d peerDev=%d", dev, peer);
    if (rc == CUDA_SUCCESS && !can)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(peer);
    if (rc == CUDA_SUCCESS)
        *can = dev != peer;
    return fake_leave(rc);
}

/* The active primary context `handle`, or NULL. */
static fake_ctx *peer_ctx(CUcontext handle)
{
    fake_ctx *c = (fake_ctx *)handle;
    if (c < fake_g.ctx || c >= fake_g.ctx + fake_g.device_count || !c->active)
        return NULL;
    return c;
}

static CUresult CUDAAPI f_cuCtxEnablePeerAccess(CUcontext peer, unsigned flags)
{
    CUresult rc = fake_enter("cuCtxEnablePeerAccess", "peerContext=%p flags=%u", (void *)peer,
                             flags);
    fake_ctx *ctx = NULL, *p = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && flags != 0)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(p = peer_ctx(peer)))
        rc = CUDA_ERROR_INVALID_CONTEXT;
    if (rc == CUDA_SUCCESS && p == ctx)
        rc = CUDA_ERROR_INVALID_DEVICE;
    if (rc == CUDA_SUCCESS && peer_is_enabled(ctx, p))
        rc = CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
    if (rc == CUDA_SUCCESS) {
        peer_enabled[ctx->device][p->device].from_id = ctx->id;
        peer_enabled[ctx->device][p->device].to_id = p->id;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuCtxDisablePeerAccess(CUcontext peer)
{
    CUresult rc = fake_enter("cuCtxDisablePeerAccess", "peerContext=%p", (void *)peer);
    fake_ctx *ctx = NULL, *p = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && !(p = peer_ctx(peer)))
        rc = CUDA_ERROR_INVALID_CONTEXT;
    if (rc == CUDA_SUCCESS && !peer_is_enabled(ctx, p))
        rc = CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
    if (rc == CUDA_SUCCESS) {
        peer_enabled[ctx->device][p->device].from_id = 0;
        peer_enabled[ctx->device][p->device].to_id = 0;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attr,
                                                  CUdevice src, CUdevice dst)
{
    CUresult rc = fake_enter("cuDeviceGetP2PAttribute", "attrib=%d src=%d dst=%d", (int)attr,
                             src, dst);
    if (rc == CUDA_SUCCESS && (!value || attr < CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK ||
                               attr > CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(src);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dst);
    if (rc == CUDA_SUCCESS && src == dst)
        rc = CUDA_ERROR_INVALID_DEVICE;
    if (rc == CUDA_SUCCESS)
        *value = attr == CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK ? 0 : 1;
    return fake_leave(rc);
}

/* cuMemcpyPeer(Async): a copy between two contexts, each an active, healthy primary context;
 * both sides must be reachable from a device (an allocation, a module global, page-locked
 * memory: the real driver refuses pageable memory), and device memory is host memory here, so
 * it is a memmove once the arguments are checked (the async form also needs a stream valid in
 * the current context). */
static CUresult peer_copy(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src, CUcontext src_ctx,
                          size_t bytes)
{
    const fake_ctx *to = peer_ctx(dst_ctx), *from = peer_ctx(src_ctx);
    if (!to || !from)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (to->poison != CUDA_SUCCESS)
        return to->poison;
    if (from->poison != CUDA_SUCCESS)
        return from->poison;
    if (bytes && (!dst || !src || fake_is_retired((void *)(uintptr_t)dst, bytes) ||
                  fake_is_retired((void *)(uintptr_t)src, bytes) ||
                  !fake_is_device_reachable((const void *)(uintptr_t)dst, bytes) ||
                  !fake_is_device_reachable((const void *)(uintptr_t)src, bytes)))
        return CUDA_ERROR_INVALID_VALUE;
    if (bytes)
        memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuMemcpyPeer(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src,
                                       CUcontext src_ctx, size_t bytes)
{
    CUresult rc = fake_enter("cuMemcpyPeer", "dst=0x%llx dstContext=%p src=0x%llx srcContext=%p "
                             "bytes=%zu", (unsigned long long)dst, (void *)dst_ctx,
                             (unsigned long long)src, (void *)src_ctx, bytes);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = peer_copy(dst, dst_ctx, src, src_ctx, bytes);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src,
                                            CUcontext src_ctx, size_t bytes, CUstream stream)
{
    CUresult rc = fake_enter("cuMemcpyPeerAsync", "dst=0x%llx dstContext=%p src=0x%llx "
                             "srcContext=%p bytes=%zu stream=%p", (unsigned long long)dst,
                             (void *)dst_ctx, (unsigned long long)src, (void *)src_ctx, bytes,
                             (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS)
        rc = peer_copy(dst, dst_ctx, src, src_ctx, bytes);
    return fake_leave(rc);
}

/* ---- profiler, PCI bus ids, RDMA flush -------------------------------------------------------- */

static CUresult CUDAAPI f_cuProfilerStart(void)
{
    CUresult rc = fake_enter("cuProfilerStart", "%s", "");
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        profiling = 1;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuProfilerStop(void)
{
    CUresult rc = fake_enter("cuProfilerStop", "%s", "");
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        profiling = 0;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDeviceGetPCIBusId(char *bus_id, int len, CUdevice dev)
{
    CUresult rc = fake_enter("cuDeviceGetPCIBusId", "len=%d dev=%d", len, dev);
    if (rc == CUDA_SUCCESS && (!bus_id || len < 13))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS)
        snprintf(bus_id, (size_t)len, "0000:%02x:00.0", 0x19 + dev);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDeviceGetByPCIBusId(CUdevice *dev, const char *bus_id)
{
    CUresult rc = fake_enter("cuDeviceGetByPCIBusId", "pciBusId=%s", bus_id ? bus_id : "(null)");
    unsigned domain = 0, bus = 0, device = 0, function = 0;
    if (rc == CUDA_SUCCESS && (!dev || !bus_id))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS &&
        sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &device, &function) != 4)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (domain != 0 || device != 0 || function != 0 || bus < 0x19 ||
                               bus >= 0x19u + (unsigned)fake_g.device_count))
        rc = CUDA_ERROR_INVALID_DEVICE;
    if (rc == CUDA_SUCCESS)
        *dev = (CUdevice)(bus - 0x19);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuFlushGPUDirectRDMAWrites(CUflushGPUDirectRDMAWritesTarget target,
                                                     CUflushGPUDirectRDMAWritesScope scope)
{
    CUresult rc = fake_enter("cuFlushGPUDirectRDMAWrites", "target=%d scope=%d", (int)target,
                             (int)scope);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (target != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX ||
                               (scope != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_OWNER &&
                                scope != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_ALL_DEVICES)))
        rc = CUDA_ERROR_INVALID_VALUE;
    return fake_leave(rc);
}

const proc_entry fake_procs_function[] = {
    {"cuFuncSetAttribute", 9000, 99999, (void *)f_cuFuncSetAttribute},
    {"cuFuncSetCacheConfig", 3000, 99999, (void *)f_cuFuncSetCacheConfig},
    {"cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", 7000, 99999,
     (void *)f_cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags},
    {"cuOccupancyAvailableDynamicSMemPerBlock", 10020, 99999,
     (void *)f_cuOccupancyAvailableDynamicSMemPerBlock},
    {"cuOccupancyMaxPotentialClusterSize", 11070, 99999,
     (void *)f_cuOccupancyMaxPotentialClusterSize},
    {"cuOccupancyMaxActiveClusters", 11070, 99999, (void *)f_cuOccupancyMaxActiveClusters},
    {"cuLaunchCooperativeKernel", 9000, 99999, (void *)f_cuLaunchCooperativeKernel},
    {"cuLaunchKernelEx", 11060, 99999, (void *)f_cuLaunchKernelEx},
    {"cuCtxSetLimit", 3010, 99999, (void *)f_cuCtxSetLimit},
    {"cuCtxGetLimit", 3010, 99999, (void *)f_cuCtxGetLimit},
    {"cuCtxSetCacheConfig", 3020, 99999, (void *)f_cuCtxSetCacheConfig},
    {"cuCtxGetCacheConfig", 3020, 99999, (void *)f_cuCtxGetCacheConfig},
    {"cuCtxResetPersistingL2Cache", 11000, 99999, (void *)f_cuCtxResetPersistingL2Cache},
    {"cuDeviceCanAccessPeer", 4000, 99999, (void *)f_cuDeviceCanAccessPeer},
    {"cuCtxEnablePeerAccess", 4000, 99999, (void *)f_cuCtxEnablePeerAccess},
    {"cuCtxDisablePeerAccess", 4000, 99999, (void *)f_cuCtxDisablePeerAccess},
    {"cuDeviceGetP2PAttribute", 8000, 99999, (void *)f_cuDeviceGetP2PAttribute},
    {"cuMemcpyPeer", 4000, 99999, (void *)f_cuMemcpyPeer},
    {"cuMemcpyPeerAsync", 4000, 99999, (void *)f_cuMemcpyPeerAsync},
    {"cuProfilerStart", 4000, 99999, (void *)f_cuProfilerStart},
    {"cuProfilerStop", 4000, 99999, (void *)f_cuProfilerStop},
    {"cuDeviceGetPCIBusId", 4010, 99999, (void *)f_cuDeviceGetPCIBusId},
    {"cuDeviceGetByPCIBusId", 4010, 99999, (void *)f_cuDeviceGetByPCIBusId},
    {"cuFlushGPUDirectRDMAWrites", 11030, 99999, (void *)f_cuFlushGPUDirectRDMAWrites},
    {"cuGetProcAddress", 12000, 99999, (void *)cuGetProcAddress_v2},
    {NULL, 0, 0, NULL},
};
