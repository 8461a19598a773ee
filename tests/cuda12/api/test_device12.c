/* test_device12.c - devices through the CUDA 12 face (lib/cuda12/device12.c), as a CUDA 12
 * program sees them: cudaDeviceProp in 12.9's layout from cudaGetDeviceProperties_v2 (780 bytes)
 * and from the legacy plain name (728), the attribute range of 12.9, the runtime's version and the
 * driver ABI cudaGetDriverEntryPoint asks for, the cudaThread* and cudaSetDouble* functions 13
 * removed, and cudaLaunchCooperativeKernelMultiDevice.  Every call asserted on its result and on
 * the thread's last error; what reached the driver read from the fake's call log. */
#include "cuda12_test.h"

/* 12.9's header makes every call of cudaGetDeviceProperties one of cudaGetDeviceProperties_v2;
 * this program must be one such program. */
#ifndef cudaGetDeviceProperties
#error "12.9's cuda_runtime_api.h defines cudaGetDeviceProperties as cudaGetDeviceProperties_v2"
#endif

const void *cuda12_coop_fill(void);   /* kernels12.cu */

/* What NVIDIA's 12.9 library writes of the 1032-byte struct (H200, tests/gpu/conf_cuda12.cu). */
#define PROP_V2_BYTES 780
#define PROP_V1_BYTES 728
_Static_assert(sizeof(struct cudaDeviceProp) == 1032, "12.9's cudaDeviceProp");
_Static_assert(offsetof(struct cudaDeviceProp, reserved) == PROP_V2_BYTES, "12.9's reserved");
_Static_assert(offsetof(struct cudaDeviceProp, hostRegisterSupported) == PROP_V1_BYTES,
               "CUDA 11's struct ends before hostRegisterSupported");

/* Room past the struct for the guard bytes. */
#define PROP_BUFFER (sizeof(struct cudaDeviceProp) + 64)

static int attribute(enum cudaDeviceAttr attr)
{
    int v = -1;
    assert_cuda(cudaDeviceGetAttribute(&v, attr, 0), cudaSuccess);
    return v;
}

/* ---- cudaDeviceProp ------------------------------------------------------------------------- */

/* Each int-like field of 12.9's struct and the attribute it is.  width 8: a size_t field. */
struct prop_field {
    const char *name;
    size_t offset;
    unsigned width;
    enum cudaDeviceAttr attr;
};

#define F(field, attr) { #field, offsetof(struct cudaDeviceProp, field), \
                         sizeof(((struct cudaDeviceProp *)0)->field), attr }
#define FI(field, i, attr) { #field "[" #i "]", \
                             offsetof(struct cudaDeviceProp, field) + (i) * sizeof(int), \
                             sizeof(int), attr }

static const struct prop_field prop_fields[] = {
    F(sharedMemPerBlock, cudaDevAttrMaxSharedMemoryPerBlock),
    F(regsPerBlock, cudaDevAttrMaxRegistersPerBlock),
    F(warpSize, cudaDevAttrWarpSize),
    F(memPitch, cudaDevAttrMaxPitch),
    F(maxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock),
    FI(maxThreadsDim, 0, cudaDevAttrMaxBlockDimX), FI(maxThreadsDim, 1, cudaDevAttrMaxBlockDimY),
    FI(maxThreadsDim, 2, cudaDevAttrMaxBlockDimZ), FI(maxGridSize, 0, cudaDevAttrMaxGridDimX),
    FI(maxGridSize, 1, cudaDevAttrMaxGridDimY), FI(maxGridSize, 2, cudaDevAttrMaxGridDimZ),
    F(clockRate, cudaDevAttrClockRate),                           /* gone in 13 */
    F(totalConstMem, cudaDevAttrTotalConstantMemory),
    F(major, cudaDevAttrComputeCapabilityMajor),
    F(minor, cudaDevAttrComputeCapabilityMinor),
    F(textureAlignment, cudaDevAttrTextureAlignment),
    F(texturePitchAlignment, cudaDevAttrTexturePitchAlignment),
    F(deviceOverlap, cudaDevAttrGpuOverlap),                      /* gone in 13 */
    F(multiProcessorCount, cudaDevAttrMultiProcessorCount),       /* 13 moves all from here on */
    F(kernelExecTimeoutEnabled, cudaDevAttrKernelExecTimeout),    /* gone in 13 */
    F(integrated, cudaDevAttrIntegrated),
    F(canMapHostMemory, cudaDevAttrCanMapHostMemory),
    F(computeMode, cudaDevAttrComputeMode),                       /* gone in 13 */
    F(maxTexture1D, cudaDevAttrMaxTexture1DWidth),
    F(maxTexture1DMipmap, cudaDevAttrMaxTexture1DMipmappedWidth),
    F(maxTexture1DLinear, cudaDevAttrMaxTexture1DLinearWidth),    /* gone in 13 */
    FI(maxTexture2D, 0, cudaDevAttrMaxTexture2DWidth),
    FI(maxTexture2D, 1, cudaDevAttrMaxTexture2DHeight),
    FI(maxTexture2DMipmap, 0, cudaDevAttrMaxTexture2DMipmappedWidth),
    FI(maxTexture2DMipmap, 1, cudaDevAttrMaxTexture2DMipmappedHeight),
    FI(maxTexture2DLinear, 0, cudaDevAttrMaxTexture2DLinearWidth),
    FI(maxTexture2DLinear, 1, cudaDevAttrMaxTexture2DLinearHeight),
    FI(maxTexture2DLinear, 2, cudaDevAttrMaxTexture2DLinearPitch),
    FI(maxTexture2DGather, 0, cudaDevAttrMaxTexture2DGatherWidth),
    FI(maxTexture2DGather, 1, cudaDevAttrMaxTexture2DGatherHeight),
    FI(maxTexture3D, 0, cudaDevAttrMaxTexture3DWidth),
    FI(maxTexture3D, 1, cudaDevAttrMaxTexture3DHeight),
    FI(maxTexture3D, 2, cudaDevAttrMaxTexture3DDepth),
    FI(maxTexture3DAlt, 0, cudaDevAttrMaxTexture3DWidthAlt),
    FI(maxTexture3DAlt, 1, cudaDevAttrMaxTexture3DHeightAlt),
    FI(maxTexture3DAlt, 2, cudaDevAttrMaxTexture3DDepthAlt),
    F(maxTextureCubemap, cudaDevAttrMaxTextureCubemapWidth),
    FI(maxTexture1DLayered, 0, cudaDevAttrMaxTexture1DLayeredWidth),
    FI(maxTexture1DLayered, 1, cudaDevAttrMaxTexture1DLayeredLayers),
    FI(maxTexture2DLayered, 0, cudaDevAttrMaxTexture2DLayeredWidth),
    FI(maxTexture2DLayered, 1, cudaDevAttrMaxTexture2DLayeredHeight),
    FI(maxTexture2DLayered, 2, cudaDevAttrMaxTexture2DLayeredLayers),
    FI(maxTextureCubemapLayered, 0, cudaDevAttrMaxTextureCubemapLayeredWidth),
    FI(maxTextureCubemapLayered, 1, cudaDevAttrMaxTextureCubemapLayeredLayers),
    F(maxSurface1D, cudaDevAttrMaxSurface1DWidth),
    FI(maxSurface2D, 0, cudaDevAttrMaxSurface2DWidth),
    FI(maxSurface2D, 1, cudaDevAttrMaxSurface2DHeight),
    FI(maxSurface3D, 0, cudaDevAttrMaxSurface3DWidth),
    FI(maxSurface3D, 1, cudaDevAttrMaxSurface3DHeight),
    FI(maxSurface3D, 2, cudaDevAttrMaxSurface3DDepth),
    FI(maxSurface1DLayered, 0, cudaDevAttrMaxSurface1DLayeredWidth),
    FI(maxSurface1DLayered, 1, cudaDevAttrMaxSurface1DLayeredLayers),
    FI(maxSurface2DLayered, 0, cudaDevAttrMaxSurface2DLayeredWidth),
    FI(maxSurface2DLayered, 1, cudaDevAttrMaxSurface2DLayeredHeight),
    FI(maxSurface2DLayered, 2, cudaDevAttrMaxSurface2DLayeredLayers),
    F(maxSurfaceCubemap, cudaDevAttrMaxSurfaceCubemapWidth),
    FI(maxSurfaceCubemapLayered, 0, cudaDevAttrMaxSurfaceCubemapLayeredWidth),
    FI(maxSurfaceCubemapLayered, 1, cudaDevAttrMaxSurfaceCubemapLayeredLayers),
    F(surfaceAlignment, cudaDevAttrSurfaceAlignment),
    F(concurrentKernels, cudaDevAttrConcurrentKernels),
    F(ECCEnabled, cudaDevAttrEccEnabled),
    F(pciBusID, cudaDevAttrPciBusId),
    F(pciDeviceID, cudaDevAttrPciDeviceId),
    F(pciDomainID, cudaDevAttrPciDomainId),
    F(tccDriver, cudaDevAttrTccDriver),
    F(asyncEngineCount, cudaDevAttrAsyncEngineCount),
    F(unifiedAddressing, cudaDevAttrUnifiedAddressing),
    F(memoryClockRate, cudaDevAttrMemoryClockRate),               /* gone in 13 */
    F(memoryBusWidth, cudaDevAttrGlobalMemoryBusWidth),
    F(l2CacheSize, cudaDevAttrL2CacheSize),
    F(persistingL2CacheMaxSize, cudaDevAttrMaxPersistingL2CacheSize),
    F(maxThreadsPerMultiProcessor, cudaDevAttrMaxThreadsPerMultiProcessor),
    F(streamPrioritiesSupported, cudaDevAttrStreamPrioritiesSupported),
    F(globalL1CacheSupported, cudaDevAttrGlobalL1CacheSupported),
    F(localL1CacheSupported, cudaDevAttrLocalL1CacheSupported),
    F(sharedMemPerMultiprocessor, cudaDevAttrMaxSharedMemoryPerMultiprocessor),
    F(regsPerMultiprocessor, cudaDevAttrMaxRegistersPerMultiprocessor),
    F(managedMemory, cudaDevAttrManagedMemory),
    F(isMultiGpuBoard, cudaDevAttrIsMultiGpuBoard),
    F(multiGpuBoardGroupID, cudaDevAttrMultiGpuBoardGroupID),
    F(hostNativeAtomicSupported, cudaDevAttrHostNativeAtomicSupported),
    F(singleToDoublePrecisionPerfRatio, cudaDevAttrSingleToDoublePrecisionPerfRatio), /* gone */
    F(pageableMemoryAccess, cudaDevAttrPageableMemoryAccess),
    F(concurrentManagedAccess, cudaDevAttrConcurrentManagedAccess),
    F(computePreemptionSupported, cudaDevAttrComputePreemptionSupported),
    F(canUseHostPointerForRegisteredMem, cudaDevAttrCanUseHostPointerForRegisteredMem),
    F(cooperativeLaunch, cudaDevAttrCooperativeLaunch),
    F(cooperativeMultiDeviceLaunch, cudaDevAttrCooperativeMultiDeviceLaunch), /* gone in 13 */
    F(sharedMemPerBlockOptin, cudaDevAttrMaxSharedMemoryPerBlockOptin),
    F(pageableMemoryAccessUsesHostPageTables, cudaDevAttrPageableMemoryAccessUsesHostPageTables),
    F(directManagedMemAccessFromHost, cudaDevAttrDirectManagedMemAccessFromHost),
    F(maxBlocksPerMultiProcessor, cudaDevAttrMaxBlocksPerMultiprocessor),
    F(accessPolicyMaxWindowSize, cudaDevAttrMaxAccessPolicyWindowSize),
    F(reservedSharedMemPerBlock, cudaDevAttrReservedSharedMemoryPerBlock), /* CUDA 11's last */
    F(hostRegisterSupported, cudaDevAttrHostRegisterSupported),
    F(sparseCudaArraySupported, cudaDevAttrSparseCudaArraySupported),
    F(hostRegisterReadOnlySupported, cudaDevAttrHostRegisterReadOnlySupported),
    F(timelineSemaphoreInteropSupported, cudaDevAttrTimelineSemaphoreInteropSupported),
    F(memoryPoolsSupported, cudaDevAttrMemoryPoolsSupported),
    F(gpuDirectRDMASupported, cudaDevAttrGPUDirectRDMASupported),
    F(gpuDirectRDMAFlushWritesOptions, cudaDevAttrGPUDirectRDMAFlushWritesOptions),
    F(gpuDirectRDMAWritesOrdering, cudaDevAttrGPUDirectRDMAWritesOrdering),
    F(memoryPoolSupportedHandleTypes, cudaDevAttrMemoryPoolSupportedHandleTypes),
    F(deferredMappingCudaArraySupported, cudaDevAttrDeferredMappingCudaArraySupported),
    F(ipcEventSupported, cudaDevAttrIpcEventSupport),
    F(clusterLaunch, cudaDevAttrClusterLaunch),
    /* 12.9 names attribute 129 reserved; the driver's is CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS */
    F(unifiedFunctionPointers, (enum cudaDeviceAttr)129),
};

/* Every field of the table, read at its 12.9 offset from the first `bytes` of buf, equals the
 * device's attribute. */
static void assert_fields_are_attributes(const unsigned char *buf, size_t bytes)
{
    for (size_t i = 0; i < sizeof prop_fields / sizeof prop_fields[0]; i++) {
        const struct prop_field *f = &prop_fields[i];
        if (f->offset + f->width > bytes)
            continue;
        long long got = 0, want = attribute(f->attr);
        if (f->width == sizeof(size_t)) {
            size_t wide;
            memcpy(&wide, buf + f->offset, sizeof wide);
            got = (long long)wide;
        } else {
            int narrow;
            memcpy(&narrow, buf + f->offset, sizeof narrow);
            got = narrow;
        }
        if (got != want)
            fail_msg("%s (offset %zu): %lld, the attribute is %lld", f->name, f->offset, got,
                     want);
    }
}

static void get_device_properties_v2_writes_780_bytes_at_12_9_offsets(void **state)
{
    (void)state;
    unsigned char buf[PROP_BUFFER];
    memset(buf, GUARD_BYTE, sizeof buf);
    fk.fake_reset_log();
    assert_cuda(cudaGetDeviceProperties((struct cudaDeviceProp *)buf, 0), cudaSuccess);
    /* the fields 13 removed are asked of the driver once each */
    assert_int_equal(e2e_calls_with("cuDeviceGetAttribute", "attrib=13 "), 1);   /* clock */
    assert_int_equal(e2e_calls_with("cuDeviceGetAttribute", "attrib=36 "), 1);   /* memory clock */
    assert_int_equal(e2e_calls_with("cuDeviceGetAttribute", "attrib=96 "), 1);
    /* reserved (and everything past the struct) untouched, as NVIDIA's _v2 leaves it */
    assert_guarded(buf, PROP_V2_BYTES, sizeof buf);
    assert_fields_are_attributes(buf, PROP_V2_BYTES);

    struct cudaDeviceProp p;
    memcpy(&p, buf, sizeof p);
    assert_string_equal(p.name, "Fake CUDA Device (sm_90)");
    assert_int_equal(p.major, 9);
    assert_int_equal(p.minor, 0);
    /* the fields 13 removed come from the driver's attributes (the fake's H200-like values) */
    assert_int_equal(p.clockRate, 1980000);
    assert_int_equal(p.memoryClockRate, 2619000);
    assert_int_equal(p.deviceOverlap, 1);
    assert_int_equal(p.computeMode, cudaComputeModeDefault);
    /* and the moved ones sit at 12.9's offsets */
    assert_int_equal(p.multiProcessorCount, 132);
    assert_int_equal(p.memoryBusWidth, 6144);
    assert_int_equal(p.l2CacheSize, 52428800);
    assert_int_equal(p.sharedMemPerMultiprocessor, 233472);
    assert_int_equal(p.sharedMemPerBlockOptin, 232448);
    assert_int_equal(p.reservedSharedMemPerBlock, 1024);
    assert_int_equal(p.maxBlocksPerMultiProcessor, 32);
    assert_int_equal(p.clusterLaunch, 1);
    assert_true(p.totalGlobalMem > 0);
}

static void legacy_plain_get_device_properties_writes_728_bytes(void **state)
{
    (void)state;
    /* The plain name keeps CUDA 11's struct, only a binding that bypasses the header meets it. */
    typedef cudaError_t (*legacy_fn)(struct cudaDeviceProp *, int);
    legacy_fn legacy = (legacy_fn)runtime_symbol("cudaGetDeviceProperties");
    legacy_fn v2 = (legacy_fn)runtime_symbol("cudaGetDeviceProperties_v2");
    assert_ptr_not_equal(legacy, v2);
    unsigned char old[PROP_BUFFER], now[PROP_BUFFER];
    memset(old, GUARD_BYTE, sizeof old);
    memset(now, GUARD_BYTE, sizeof now);
    assert_cuda(legacy((struct cudaDeviceProp *)old, 0), cudaSuccess);
    assert_guarded(old, PROP_V1_BYTES, sizeof old);
    assert_fields_are_attributes(old, PROP_V1_BYTES);
    /* the same bytes as the _v2 struct's first 728 */
    assert_cuda(v2((struct cudaDeviceProp *)now, 0), cudaSuccess);
    assert_memory_equal(old, now, PROP_V1_BYTES);
    assert_guarded(now, PROP_V2_BYTES, sizeof now);
}

static void get_device_properties_failures_leave_the_struct_untouched(void **state)
{
    (void)state;
    unsigned char buf[PROP_BUFFER];
    memset(buf, GUARD_BYTE, sizeof buf);
    typedef cudaError_t (*legacy_fn)(struct cudaDeviceProp *, int);
    legacy_fn legacy = (legacy_fn)runtime_symbol("cudaGetDeviceProperties");
    assert_cuda(cudaGetDeviceProperties((struct cudaDeviceProp *)buf, 1), cudaErrorInvalidDevice);
    assert_cuda(cudaGetDeviceProperties((struct cudaDeviceProp *)buf, -1), cudaErrorInvalidDevice);
    assert_cuda(legacy((struct cudaDeviceProp *)buf, 7), cudaErrorInvalidDevice);
    assert_guarded(buf, 0, sizeof buf);
    assert_cuda(cudaGetDeviceProperties(NULL, 0), cudaErrorInvalidValue);
    assert_cuda(legacy(NULL, 0), cudaErrorInvalidValue);
    /* a driver failure in the middle: nothing written either */
    fk.fake_fail_call("cuDeviceGetAttribute", 5, 999 /* CUDA_ERROR_UNKNOWN */);
    assert_cuda(cudaGetDeviceProperties((struct cudaDeviceProp *)buf, 0), cudaErrorUnknown);
    assert_guarded(buf, 0, sizeof buf);
}

static void choose_device_reads_the_12_9_struct(void **state)
{
    (void)state;
    /* At the end of a page: nothing past 12.9's 1032 bytes is read. */
    struct cudaDeviceProp want;
    memset(&want, 0, sizeof want);
    want.major = 9;
    want.minor = 0;
    struct cudaDeviceProp *slot = guard_page_tail(&want, sizeof want);
    int device = -1;
    assert_cuda(cudaChooseDevice(&device, slot), cudaSuccess);
    assert_int_equal(device, 0);
    assert_cuda(cudaChooseDevice(NULL, slot), cudaErrorInvalidValue);
    assert_cuda(cudaChooseDevice(&device, NULL), cudaErrorInvalidValue);
    guard_page_free(slot);
}

/* ---- attributes, versions, entry points ----------------------------------------------------- */

static void every_attribute_goes_to_the_driver_as_in_13(void **state)
{
    (void)state;
    fk.fake_reset_log();
    /* 144-147 are new in 13's enum, yet NVIDIA's 12.9 library passes them to the driver too (H200,
     * tests/gpu/conf_cuda12.cu): the answer is the driver's, as for any attribute */
    for (int attr = 143; attr <= 147; attr++) {
        int v = 12345;
        char want[32];
        snprintf(want, sizeof want, "attrib=%d ", attr);
        cudaError_t e = cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)attr, 0);
        assert_true(e == cudaSuccess || e == cudaErrorInvalidValue);
        assert_int_equal(e2e_calls_with("cuDeviceGetAttribute", want), 1);
    }
    /* 96 is 12.9's cooperativeMultiDeviceLaunch (reserved in 13): the driver answers it */
    int v = 12345;
    assert_cuda(cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)96, 0), cudaSuccess);
    assert_int_equal(e2e_calls_with("cuDeviceGetAttribute", "attrib=96 "), 1);
}

static void runtime_version_is_12090(void **state)
{
    (void)state;
    int v = 0;
    assert_cuda(cudaRuntimeGetVersion(&v), cudaSuccess);
    assert_int_equal(v, 12090);
    assert_int_equal(v, CUDART_VERSION);
    assert_cuda(cudaDriverGetVersion(&v), cudaSuccess);
    assert_int_equal(v, 13000);                        /* the fake's driver: the driver's own */
    assert_cuda(cudaRuntimeGetVersion(NULL), cudaErrorInvalidValue);
}

/* The fake's own answer for symbol at version (its cuGetProcAddress_v2). */
static void *driver_proc(const char *symbol, int version)
{
    typedef int (*proc_fn)(const char *, void **, int, unsigned long long, int *);
    void *lib = dlopen(getenv("MINICUDART_DRIVER"), RTLD_NOW | RTLD_NOLOAD);
    assert_non_null(lib);
    proc_fn proc = (proc_fn)dlsym(lib, "cuGetProcAddress_v2");
    assert_non_null(proc);
    void *fn = NULL;
    int found = -1;
    assert_int_equal(proc(symbol, &fn, version, 0, &found), 0);
    dlclose(lib);
    return fn;
}

static void driver_entry_point_asks_for_12090_and_gets_the_void_cu_ctx_synchronize(void **state)
{
    (void)state;
    assert_cuda(cudaFree(NULL), cudaSuccess);              /* a current context to synchronise */
    fk.fake_reset_log();
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
    assert_cuda(cudaGetDriverEntryPoint("cuCtxSynchronize", &fn, cudaEnableDefault, &status),
                cudaSuccess);
    assert_int_equal(status, cudaDriverEntryPointSuccess);
    assert_int_equal(e2e_calls_with("cuGetProcAddress_v2",
                                    "symbol=cuCtxSynchronize version=12090 "), 1);
    /* 12.9's ABI, CUresult(void), not 13.0's CUresult(CUcontext) */
    assert_ptr_equal(fn, driver_proc("cuCtxSynchronize", 12090));
    assert_ptr_not_equal(fn, driver_proc("cuCtxSynchronize", 13000));
    fk.fake_reset_log();
    assert_int_equal(((int (*)(void))fn)(), 0);
    assert_int_equal(fk.fake_count_calls("cuCtxSynchronize"), 1);
    assert_int_equal(fk.fake_count_calls("cuCtxSynchronize_v2"), 0);
    assert_int_equal(cudaGetLastError(), cudaSuccess);

    /* by version, the caller's version is the one asked */
    fk.fake_reset_log();
    assert_cuda(cudaGetDriverEntryPointByVersion("cuCtxSynchronize", &fn, 13000,
                                                 cudaEnableDefault, &status),
                cudaSuccess);
    assert_int_equal(e2e_calls_with("cuGetProcAddress_v2",
                                    "symbol=cuCtxSynchronize version=13000 "), 1);
    assert_ptr_equal(fn, driver_proc("cuCtxSynchronize", 13000));
    /* a symbol the driver lacks: found nothing, and that is no error */
    assert_cuda(cudaGetDriverEntryPoint("cuNoSuchThing", &fn, cudaEnableDefault, &status),
                cudaSuccess);
    assert_int_equal(status, cudaDriverEntryPointSymbolNotFound);
    assert_null(fn);
}

/* ---- the functions 13 removed ---------------------------------------------------------------- */

/* The driver calls since the last reset, "name(args)" one a line. */
static void call_log(char *out, size_t cap)
{
    out[0] = 0;
    for (size_t i = 0; i < fk.fake_call_count(); i++) {
        const fake_call *c = fk.fake_call_at(i);
        size_t used = strlen(out);
        snprintf(out + used, cap - used, "%s(%s) -> %d\n", c->name, c->args, c->result);
    }
}

/* Runs the successor and then the legacy function, each on a fresh log, and asserts that both
 * answered the same code (`code`), left it as the last error, and reached the same driver calls
 * with the same arguments and results. */
#define assert_same_driver_calls(successor, legacy, code)                                   \
    do {                                                                                    \
        char want_[4096], got_[4096];                                                       \
        fk.fake_reset_log();                                                                \
        assert_cuda((successor), (code));                                                   \
        call_log(want_, sizeof want_);                                                      \
        fk.fake_reset_log();                                                                \
        assert_cuda((legacy), (code));                                                      \
        call_log(got_, sizeof got_);                                                        \
        assert_string_equal(got_, want_);                                                   \
    } while (0)

static void thread_functions_reach_the_driver_like_their_device_successors(void **state)
{
    (void)state;
    assert_cuda(cudaFree(NULL), cudaSuccess);
    assert_same_driver_calls(cudaDeviceSynchronize(), cudaThreadSynchronize(), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuCtxSynchronize"), 1);

    assert_same_driver_calls(cudaDeviceSetLimit(cudaLimitStackSize, 4096),
                             cudaThreadSetLimit(cudaLimitStackSize, 4096), cudaSuccess);
    assert_last_call_has("cuCtxSetLimit", "limit=0 value=4096");
    size_t limit = 0, thread_limit = 1;
    assert_same_driver_calls(cudaDeviceGetLimit(&limit, cudaLimitStackSize),
                             cudaThreadGetLimit(&thread_limit, cudaLimitStackSize), cudaSuccess);
    assert_int_equal(thread_limit, limit);
    assert_int_equal(thread_limit, 4096);
    assert_same_driver_calls(cudaDeviceSetLimit((enum cudaLimit)99, 1),
                             cudaThreadSetLimit((enum cudaLimit)99, 1), cudaErrorInvalidValue);
    assert_same_driver_calls(cudaDeviceGetLimit(NULL, cudaLimitStackSize),
                             cudaThreadGetLimit(NULL, cudaLimitStackSize), cudaErrorInvalidValue);

    assert_same_driver_calls(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared),
                             cudaThreadSetCacheConfig(cudaFuncCachePreferShared), cudaSuccess);
    assert_last_call_has("cuCtxSetCacheConfig", "config=1");
    enum cudaFuncCache config = cudaFuncCachePreferNone, thread_config = cudaFuncCachePreferL1;
    assert_same_driver_calls(cudaDeviceGetCacheConfig(&config),
                             cudaThreadGetCacheConfig(&thread_config), cudaSuccess);
    assert_int_equal(thread_config, cudaFuncCachePreferShared);
    assert_int_equal(thread_config, config);
    assert_same_driver_calls(cudaDeviceGetCacheConfig(NULL), cudaThreadGetCacheConfig(NULL),
                             cudaErrorInvalidValue);

    /* cudaThreadExit is cudaDeviceReset: the primary context goes, and comes back on use */
    char want[4096], got[4096];
    fk.fake_reset_log();
    assert_cuda(cudaDeviceReset(), cudaSuccess);
    call_log(want, sizeof want);
    assert_cuda(cudaFree(NULL), cudaSuccess);
    fk.fake_reset_log();
    assert_cuda(cudaThreadExit(), cudaSuccess);
    call_log(got, sizeof got);
    assert_string_equal(got, want);
    assert_int_equal(fk.fake_count_calls("cuDevicePrimaryCtxReset"), 1);
    assert_cuda(cudaFree(NULL), cudaSuccess);
    /* a driver failure comes back the same way */
    fk.fake_fail_call("cuCtxSynchronize", 1, 999);
    assert_cuda(cudaThreadSynchronize(), cudaErrorUnknown);
}

static void set_double_for_device_and_host_do_nothing_to_the_value(void **state)
{
    (void)state;
    fk.fake_reset_log();
    double d = 1.25;
    assert_cuda(cudaSetDoubleForDevice(&d), cudaSuccess);
    assert_true(d == 1.25);
    assert_cuda(cudaSetDoubleForHost(&d), cudaSuccess);
    assert_true(d == 1.25);
    /* NVIDIA's 12.9 library answers cudaSuccess for NULL too (H200) */
    assert_cuda(cudaSetDoubleForDevice(NULL), cudaSuccess);
    assert_cuda(cudaSetDoubleForHost(NULL), cudaSuccess);
    assert_int_equal(fk.fake_call_count(), 0);
}

/* ---- cudaLaunchCooperativeKernelMultiDevice ------------------------------------------------- */

static struct cudaLaunchParams coop_params(void **args, cudaStream_t stream)
{
    struct cudaLaunchParams p;
    memset(&p, 0, sizeof p);
    p.func = (void *)cuda12_coop_fill();
    p.gridDim = (dim3){2, 1, 1};
    p.blockDim = (dim3){32, 1, 1};
    p.args = args;
    p.stream = stream;
    return p;
}

static void multi_device_launch_refuses_bad_arguments(void **state)
{
    (void)state;
    int *d = NULL, value = 7;
    assert_cuda(cudaMalloc((void **)&d, 64 * sizeof(int)), cudaSuccess);
    void *args[2] = {&d, &value};
    cudaStream_t s = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    fk.fake_reset_log();
    struct cudaLaunchParams list[2] = {coop_params(args, s), coop_params(args, s)};
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(NULL, 1, 0), cudaErrorInvalidValue);
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(list, 0, 0), cudaErrorInvalidValue);
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(list, 1, 4), cudaErrorInvalidValue);
    list[0].func = NULL;
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(list, 1, 0), cudaErrorInvalidValue);
    list[0] = coop_params(args, NULL);                 /* the NULL stream names no device */
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(list, 1, 0),
                cudaErrorInvalidResourceHandle);       /* NVIDIA's 12.9 answer (H200) */
    list[0] = coop_params(args, cudaStreamLegacy);
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(list, 1, 0),
                cudaErrorInvalidResourceHandle);
    list[0] = coop_params(args, cudaStreamPerThread);
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(list, 1, 0),
                cudaErrorInvalidResourceHandle);
    list[0] = coop_params(args, s);                    /* a pointer that is no kernel */
    list[0].func = (void *)&value;
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(list, 1, 0),
                cudaErrorInvalidDeviceFunction);       /* NVIDIA's 12.9 answer (H200) */
    list[0] = coop_params(args, s);                    /* every entry the same shape */
    list[1].blockDim.x = 64;
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(list, 2, 0), cudaErrorInvalidValue);
    list[1] = coop_params(args, s);
    list[1].sharedMem = 16;
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(list, 2, 0), cudaErrorInvalidValue);
    list[1] = coop_params(args, s);                    /* and the same kernel */
    list[1].func = (void *)&value;
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(list, 2, 0), cudaErrorInvalidValue);
    cudaStream_t other = NULL;                         /* no two on one device */
    assert_cuda(cudaStreamCreate(&other), cudaSuccess);
    list[1] = coop_params(args, other);
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(list, 2, 0), cudaErrorInvalidValue);
    list[1] = coop_params(args, s);
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(list, 2, 0), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuLaunchCooperativeKernel"), 0);
    assert_int_equal(fk.fake_launch_count(), 0);
    /* a destroyed stream is the look-up's error */
    assert_cuda(cudaStreamDestroy(other), cudaSuccess);
    list[1] = coop_params(args, other);
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(list, 2, 0),
                cudaErrorInvalidResourceHandle);
    assert_int_equal(fk.fake_count_calls("cuLaunchCooperativeKernel"), 0);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
    assert_cuda(cudaFree(d), cudaSuccess);
}

/* 12.9 answers cudaErrorInvalidDeviceFunction for a pointer that is no kernel, 13
 * cudaErrorInvalidResourceHandle (both NVIDIA's, H200, tests/gpu/conf_misuse_launch.cu). */
static void func_cache_and_shared_config_of_no_kernel_are_invalid_device_function(void **state)
{
    (void)state;
    int not_a_kernel = 0;
    assert_cuda(cudaFuncSetCacheConfig(&not_a_kernel, cudaFuncCachePreferL1),
                cudaErrorInvalidDeviceFunction);
    assert_cuda(cudaFuncSetSharedMemConfig(&not_a_kernel, cudaSharedMemBankSizeDefault),
                cudaErrorInvalidDeviceFunction);
    assert_cuda(cudaFuncSetCacheConfig(NULL, cudaFuncCachePreferL1),
                cudaErrorInvalidDeviceFunction);
    /* a registered kernel is the body's */
    const void *kernel = (const void *)cuda12_coop_fill();
    assert_cuda(cudaFuncSetCacheConfig(kernel, cudaFuncCachePreferL1), cudaSuccess);
    assert_cuda(cudaFuncSetSharedMemConfig(kernel, cudaSharedMemBankSizeDefault), cudaSuccess);
    assert_cuda(cudaFuncSetCacheConfig(kernel, (enum cudaFuncCache)9), cudaErrorInvalidValue);
}

static void multi_device_launch_of_one_device_is_a_cooperative_launch(void **state)
{
    (void)state;
    int *d = NULL, value = 7;
    assert_cuda(cudaMalloc((void **)&d, 64 * sizeof(int)), cudaSuccess);
    void *args[2] = {&d, &value};
    cudaStream_t s = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    fk.fake_reset_log();
    size_t launches = fk.fake_launch_count();
    struct cudaLaunchParams one = coop_params(args, s);
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(&one, 1, 0), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuLaunchCooperativeKernel"), 1);
    char want[96];
    snprintf(want, sizeof want, "grid=(2,1,1) block=(32,1,1) shm=0 stream=%p kernelParams",
             (void *)s);
    assert_last_call_has("cuLaunchCooperativeKernel", want);
    assert_int_equal(fk.fake_launch_count(), launches + 1);
    const fake_launch *l = fk.fake_last_launch();
    assert_non_null(strstr(l->kernel, "coop_fill"));
    assert_int_equal(l->params_size, 12);
    assert_memory_equal(l->params, &d, sizeof d);
    assert_memory_equal(l->params + 8, &value, sizeof value);
    /* one device has no other stream to wait for */
    assert_int_equal(fk.fake_count_calls("cuStreamWaitEvent"), 0);
    /* both flags are 12.9's own */
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(
                    &one, 1, cudaCooperativeLaunchMultiDeviceNoPreSync |
                                 cudaCooperativeLaunchMultiDeviceNoPostSync),
                cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuLaunchCooperativeKernel"), 2);
    /* a launch the driver refuses comes back translated */
    fk.fake_fail_call("cuLaunchCooperativeKernel", 1, 720 /* TOO_MANY_BLOCKS */);
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(&one, 1, 0),
                cudaErrorCooperativeLaunchTooLarge);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
    assert_cuda(cudaFree(d), cudaSuccess);
}

/* FAKECUDA_DEVICES=2: one launch per device, each on its stream's device, the streams joined
 * before and after unless the flags say not to, and the caller's device kept. */
static void multi_device_launch_on_two_devices_joins_their_streams(void **state)
{
    (void)state;
    int count = 0;
    assert_cuda(cudaGetDeviceCount(&count), cudaSuccess);
    assert_int_equal(count, 2);
    int *d[2] = {NULL, NULL}, value = 3;
    cudaStream_t s[2] = {NULL, NULL};
    void *args[2][2];
    struct cudaLaunchParams list[2];
    for (int dev = 0; dev < 2; dev++) {
        assert_cuda(cudaSetDevice(dev), cudaSuccess);
        assert_cuda(cudaMalloc((void **)&d[dev], 64 * sizeof(int)), cudaSuccess);
        assert_cuda(cudaStreamCreate(&s[dev]), cudaSuccess);
        args[dev][0] = &d[dev];
        args[dev][1] = &value;
        list[dev] = coop_params(args[dev], s[dev]);
    }
    assert_cuda(cudaSetDevice(1), cudaSuccess);
    fk.fake_reset_log();
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(list, 2, 0), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuLaunchCooperativeKernel"), 2);
    char want[64];
    for (int dev = 0; dev < 2; dev++) {
        snprintf(want, sizeof want, "stream=%p", (void *)s[dev]);
        assert_int_equal(e2e_calls_with("cuLaunchCooperativeKernel", want), 1);
    }
    /* each stream waits for the other before and after: 2 waits each time */
    assert_int_equal(fk.fake_count_calls("cuStreamWaitEvent"), 4);
    int current = -1;
    assert_cuda(cudaGetDevice(&current), cudaSuccess);
    assert_int_equal(current, 1);

    fk.fake_reset_log();
    assert_cuda(cudaLaunchCooperativeKernelMultiDevice(
                    list, 2, cudaCooperativeLaunchMultiDeviceNoPreSync |
                                 cudaCooperativeLaunchMultiDeviceNoPostSync),
                cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuLaunchCooperativeKernel"), 2);
    assert_int_equal(fk.fake_count_calls("cuStreamWaitEvent"), 0);
    for (int dev = 0; dev < 2; dev++) {
        assert_cuda(cudaSetDevice(dev), cudaSuccess);
        assert_cuda(cudaStreamDestroy(s[dev]), cudaSuccess);
        assert_cuda(cudaFree(d[dev]), cudaSuccess);
    }
}

#define T(name) cmocka_unit_test(name)

int main(int argc, char **argv)
{
    const char *group = argc > 1 ? argv[1] : "one_device";
    const struct CMUnitTest one_device[] = {
        T(get_device_properties_v2_writes_780_bytes_at_12_9_offsets),
        T(legacy_plain_get_device_properties_writes_728_bytes),
        T(get_device_properties_failures_leave_the_struct_untouched),
        T(choose_device_reads_the_12_9_struct),
        T(every_attribute_goes_to_the_driver_as_in_13),
        T(runtime_version_is_12090),
        T(driver_entry_point_asks_for_12090_and_gets_the_void_cu_ctx_synchronize),
        T(set_double_for_device_and_host_do_nothing_to_the_value),
        T(multi_device_launch_refuses_bad_arguments),
        T(multi_device_launch_of_one_device_is_a_cooperative_launch),
        T(func_cache_and_shared_config_of_no_kernel_are_invalid_device_function),
        T(thread_functions_reach_the_driver_like_their_device_successors),   /* last: resets */
    };
    const struct CMUnitTest two_devices[] = {
        T(multi_device_launch_on_two_devices_joins_their_streams),
    };
    if (strcmp(group, "one_device") == 0)
        return cmocka_run_group_tests_name("one_device", one_device, e2e_setup, NULL);
    if (strcmp(group, "two_devices") == 0)
        return cmocka_run_group_tests_name("two_devices", two_devices, e2e_setup, NULL);
    fprintf(stderr, "usage: %s one_device|two_devices\n", argv[0]);
    return 2;
}
