/*
 * test_function.c - function attributes, occupancy, cooperative and extended launches, driver
 * entry points, and device configuration (limits, cache, peers, profiler, PCI ids, flags), over
 * the fake driver.  Each check asserts the returned code and the thread's last error; argument
 * translation is checked in what the fake recorded (its call log and its launches).
 */
#include "e2e.h"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_profiler_api.h>
#include <stdio.h>

/* cudaGetDriverEntryPoint and cudaFuncSetSharedMemConfig are deprecated, and still tested. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* The _ptsz variants: the toolkit declares them only for per-thread builds. */
cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                     void **args);
cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                             void **args, size_t sharedMem, cudaStream_t stream);
cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
                                         unsigned long long flags,
                                         enum cudaDriverEntryPointQueryResult *status);
cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **funcPtr,
                                                  unsigned int cudaVersion,
                                                  unsigned long long flags,
                                                  enum cudaDriverEntryPointQueryResult *status);

static dim3 dim3_1(void)
{
    return (dim3){1, 1, 1};
}

const void *fn_plain_stub(void);
const void *fn_bounded_stub(void);
const void *fn_shared_stub(void);

static void never_registered(void) {}

/* The most recent call of `name` in the fake's log, or NULL. */
static const fake_call *last_call(const char *name)
{
    for (size_t i = fk.fake_call_count(); i-- > 0;) {
        const fake_call *c = fk.fake_call_at(i);
        if (strcmp(c->name, name) == 0)
            return c;
    }
    return NULL;
}

static void assert_last_call_has(const char *name, const char *text)
{
    const fake_call *c = last_call(name);
    assert_non_null(c);
    if (!strstr(c->args, text))
        fprintf(stderr, "%s(%s) lacks \"%s\"\n", c->name, c->args, text);
    assert_non_null(strstr(c->args, text));
}

/* ---- attributes and names --------------------------------------------------------------------- */

static void func_get_attributes_reads_every_field_from_the_driver(void **state)
{
    (void)state;
    struct cudaFuncAttributes a;
    memset(&a, 0x5a, sizeof a);
    fk.fake_reset_log();
    assert_cuda(cudaFuncGetAttributes(&a, fn_bounded_stub()), cudaSuccess);
    /* 16 members of 13.0's struct, and 13.5's two (which driver 580 knows nothing of). */
    assert_int_equal(fk.fake_count_calls("cuFuncGetAttribute"), 18);
    assert_int_equal(a.maxThreadsPerBlock, 256);
    assert_int_equal(a.numRegs, 16);
    assert_int_equal(a.ptxVersion, 90);
    assert_int_equal(a.binaryVersion, 90);
    assert_int_equal(a.sharedSizeBytes, 0);
    int newer[2];   /* deviceNodeUpdateStatus and sharedMemoryMode, at 13.5's offsets 76 and 80 */
    memcpy(newer, (const char *)&a + 76, sizeof newer);
    assert_int_equal(newer[0], 0);
    assert_int_equal(newer[1], 0);
    assert_int_equal(a.localSizeBytes, 0);
    assert_int_equal(a.preferredShmemCarveout, -1);
    assert_cuda(cudaFuncGetAttributes(&a, fn_shared_stub()), cudaSuccess);
    assert_true(a.sharedSizeBytes >= 4096);           /* __shared__ int[1024], plus reserved */
    assert_int_equal(a.maxDynamicSharedSizeBytes, 49152 - (int)a.sharedSizeBytes);
    assert_int_equal(a.maxThreadsPerBlock, 1024);
}

static void func_get_attributes_rejects_null_unregistered_and_driver_failures(void **state)
{
    (void)state;
    struct cudaFuncAttributes a;
    assert_cuda(cudaFuncGetAttributes(NULL, fn_plain_stub()), cudaErrorInvalidValue);
    assert_cuda(cudaFuncGetAttributes(&a, (const void *)never_registered),
                cudaErrorInvalidResourceHandle);
    memset(&a, 0x5a, sizeof a);
    fk.fake_fail_call("cuFuncGetAttribute", 3, 1 /* CUDA_ERROR_INVALID_VALUE */);
    assert_cuda(cudaFuncGetAttributes(&a, fn_plain_stub()), cudaErrorInvalidValue);
    assert_int_equal(a.numRegs, 0x5a5a5a5a);          /* untouched on failure */
}

static void func_set_attribute_forwards_and_validates(void **state)
{
    (void)state;
    fk.fake_reset_log();
    assert_cuda(cudaFuncSetAttribute(fn_plain_stub(), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     100000), cudaSuccess);
    assert_last_call_has("cuFuncSetAttribute", "attrib=8 value=100000");
    assert_cuda(cudaFuncSetAttribute(fn_plain_stub(),
                                     cudaFuncAttributePreferredSharedMemoryCarveout, 50),
                cudaSuccess);
    assert_last_call_has("cuFuncSetAttribute", "attrib=9 value=50");
    /* 13.5's cudaFuncAttributeSharedMemoryMode (16) is the driver's attribute 17; driver 580
     * refuses it, as NVIDIA's 13.5 runtime answers there (H200). */
    assert_cuda(cudaFuncSetAttribute(fn_plain_stub(), (enum cudaFuncAttribute)16, 0),
                cudaErrorInvalidValue);
    assert_last_call_has("cuFuncSetAttribute", "attrib=17 value=0");
    size_t calls = fk.fake_count_calls("cuFuncSetAttribute");
    assert_cuda(cudaFuncSetAttribute(fn_plain_stub(), (enum cudaFuncAttribute)3, 1),
                cudaErrorInvalidValue);
    assert_cuda(cudaFuncSetAttribute(fn_plain_stub(), (enum cudaFuncAttribute)17, 1),
                cudaErrorInvalidValue);     /* 13.5's cudaFuncAttributeMax */
    assert_int_equal(fk.fake_count_calls("cuFuncSetAttribute"), calls);
    assert_cuda(cudaFuncSetAttribute((const void *)never_registered,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, 1024),
                cudaErrorInvalidResourceHandle);
    /* The driver refuses more than the device has (227 KB). */
    assert_cuda(cudaFuncSetAttribute(fn_bounded_stub(),
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, 300000),
                cudaErrorInvalidValue);
}

/* Settings hold on the device they were made on (NVIDIA's runtime on two H200s left the other
 * device at its default: tests/gpu/conf_multigpu.cu); minicudart applies them again to the
 * kernel's new CUfunction after a reset of that device. */
static void func_set_attribute_holds_on_its_device_and_after_reset(void **state)
{
    (void)state;
    assert_cuda(cudaSetDevice(0), cudaSuccess);
    assert_cuda(cudaFuncSetAttribute(fn_shared_stub(),
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, 65536),
                cudaSuccess);
    assert_cuda(cudaFuncSetCacheConfig(fn_shared_stub(), cudaFuncCachePreferL1), cudaSuccess);
    int *p = NULL;
    void *args[] = {&p};
    /* Another device: nothing of device 0's settings. */
    fk.fake_reset_log();
    assert_cuda(cudaSetDevice(1), cudaSuccess);
    assert_cuda(cudaLaunchKernel(fn_shared_stub(), dim3_1(), dim3_1(), args, 0, 0), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuFuncSetAttribute"), 0);
    assert_int_equal(fk.fake_count_calls("cuFuncSetCacheConfig"), 0);
    assert_int_equal(fk.fake_count_calls("cuLaunchKernel"), 1);
    /* Device 0 again: already set there, nothing to apply. */
    assert_cuda(cudaSetDevice(0), cudaSuccess);
    fk.fake_reset_log();
    assert_cuda(cudaLaunchKernel(fn_shared_stub(), dim3_1(), dim3_1(), args, 0, 0), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuFuncSetAttribute"), 0);
    /* After a reset of device 0 its CUfunction is new: applied again. */
    assert_cuda(cudaDeviceReset(), cudaSuccess);
    fk.fake_reset_log();
    assert_cuda(cudaLaunchKernel(fn_shared_stub(), dim3_1(), dim3_1(), args, 0, 0), cudaSuccess);
    assert_last_call_has("cuFuncSetAttribute", "attrib=8 value=65536");
    assert_last_call_has("cuFuncSetCacheConfig", "config=2");
    assert_int_equal(fk.fake_count_calls("cuFuncSetAttribute"), 1);
}

static void func_set_cache_and_shared_mem_config_validate(void **state)
{
    (void)state;
    fk.fake_reset_log();
    assert_cuda(cudaFuncSetCacheConfig(fn_plain_stub(), cudaFuncCachePreferShared), cudaSuccess);
    assert_last_call_has("cuFuncSetCacheConfig", "config=1");
    assert_cuda(cudaFuncSetCacheConfig(fn_plain_stub(), (enum cudaFuncCache)7),
                cudaErrorInvalidValue);
    assert_cuda(cudaFuncSetCacheConfig((const void *)never_registered, cudaFuncCachePreferL1),
                cudaErrorInvalidResourceHandle);
    fk.fake_fail_call("cuFuncSetCacheConfig", 1, 1);
    assert_cuda(cudaFuncSetCacheConfig(fn_plain_stub(), cudaFuncCachePreferL1),
                cudaErrorInvalidValue);
    assert_cuda(cudaFuncSetSharedMemConfig(fn_plain_stub(), cudaSharedMemBankSizeFourByte),
                cudaSuccess);
    assert_cuda(cudaFuncSetSharedMemConfig(fn_plain_stub(), (enum cudaSharedMemConfig)9),
                cudaErrorInvalidValue);
    assert_cuda(cudaFuncSetSharedMemConfig((const void *)never_registered,
                                           cudaSharedMemBankSizeDefault),
                cudaErrorInvalidResourceHandle);
}

static void func_get_name_and_param_info_describe_the_kernel(void **state)
{
    (void)state;
    const char *name = NULL;
    assert_cuda(cudaFuncGetName(&name, fn_plain_stub()), cudaSuccess);
    assert_string_equal(name, "_Z8fn_plainPii");
    assert_cuda(cudaFuncGetName(NULL, fn_plain_stub()), cudaErrorInvalidValue);
    assert_cuda(cudaFuncGetName(&name, (const void *)never_registered),
                cudaErrorInvalidResourceHandle);
    size_t offset = 99, size = 99;
    assert_cuda(cudaFuncGetParamInfo(fn_plain_stub(), 1, &offset, &size), cudaSuccess);
    assert_int_equal(offset, 8);
    assert_int_equal(size, 4);
    assert_cuda(cudaFuncGetParamInfo(fn_plain_stub(), 0, &offset, &size), cudaSuccess);
    assert_int_equal(offset, 0);
    assert_int_equal(size, 8);
    assert_cuda(cudaFuncGetParamInfo(fn_plain_stub(), 2, &offset, &size), cudaErrorInvalidValue);
    assert_cuda(cudaFuncGetParamInfo((const void *)never_registered, 0, &offset, &size),
                cudaErrorInvalidResourceHandle);
}

static void get_kernel_returns_a_handle_every_function_accepts(void **state)
{
    (void)state;
    cudaKernel_t k = NULL, again = NULL;
    assert_cuda(cudaGetKernel(&k, fn_bounded_stub()), cudaSuccess);
    assert_non_null(k);
    assert_cuda(cudaGetKernel(&again, fn_bounded_stub()), cudaSuccess);
    assert_ptr_equal(k, again);
    struct cudaFuncAttributes a;
    assert_cuda(cudaFuncGetAttributes(&a, (const void *)k), cudaSuccess);
    assert_int_equal(a.maxThreadsPerBlock, 256);
    assert_cuda(cudaGetKernel(NULL, fn_bounded_stub()), cudaErrorInvalidValue);
    /* NVIDIA's answer for a pointer that is no kernel, and for NULL (H200). */
    assert_cuda(cudaGetKernel(&k, (const void *)never_registered),
                cudaErrorInvalidDeviceFunction);
    assert_cuda(cudaGetKernel(&k, NULL), cudaErrorInvalidDeviceFunction);
}

static void get_func_by_symbol_gives_the_drivers_function_of_the_current_context(void **state)
{
    (void)state;
    cudaFunction_t f = NULL;
    size_t lookups = fk.fake_count_calls("cuModuleGetFunction");
    assert_cuda(cudaGetFuncBySymbol(&f, fn_bounded_stub()), cudaSuccess);
    assert_non_null(f);
    /* A real CUfunction of the fake: the driver answers questions about it. */
    int threads = 0;
    PFN_cuFuncGetAttribute_v2020 get = NULL;
    enum cudaDriverEntryPointQueryResult status;
    assert_cuda(cudaGetDriverEntryPointByVersion("cuFuncGetAttribute", (void **)&get, 2020,
                                                 cudaEnableDefault, &status), cudaSuccess);
    assert_int_equal(get(&threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, (CUfunction)f),
                     CUDA_SUCCESS);
    assert_int_equal(threads, 256);
    cudaFunction_t again = NULL;
    assert_cuda(cudaGetFuncBySymbol(&again, fn_bounded_stub()), cudaSuccess);
    assert_ptr_equal(again, f);
    assert_true(fk.fake_count_calls("cuModuleGetFunction") <= lookups + 1);
    /* NVIDIA's runtime (H200): a NULL output succeeds, writing nothing; a pointer that is no
     * kernel is cudaErrorInvalidDeviceFunction. */
    assert_cuda(cudaGetFuncBySymbol(NULL, fn_bounded_stub()), cudaSuccess);
    assert_cuda(cudaGetFuncBySymbol(&f, (const void *)never_registered),
                cudaErrorInvalidDeviceFunction);
    assert_cuda(cudaGetFuncBySymbol(&f, NULL), cudaErrorInvalidDeviceFunction);
}

/* ---- occupancy -------------------------------------------------------------------------------- */

static void occupancy_max_active_blocks_follows_the_driver(void **state)
{
    (void)state;
    int n = -1;
    assert_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn_plain_stub(), 32, 0),
                cudaSuccess);
    assert_int_equal(n, 32);
    assert_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn_plain_stub(), 256, 0),
                cudaSuccess);
    assert_int_equal(n, 8);
    assert_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn_plain_stub(), 1024, 0),
                cudaSuccess);
    assert_int_equal(n, 2);
    assert_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn_bounded_stub(), 512, 0),
                cudaSuccess);
    assert_int_equal(n, 0);             /* above __launch_bounds__ */
    assert_last_call_has("cuOccupancyMaxActiveBlocksWithFlags",
                         "blockSize=512 dynamicSMemSize=0 flags=0");
    assert_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                    &n, fn_plain_stub(), 128, 4096, cudaOccupancyDisableCachingOverride),
                cudaSuccess);
    assert_last_call_has("cuOccupancyMaxActiveBlocksWithFlags",
                         "blockSize=128 dynamicSMemSize=4096 flags=1");
    assert_int_equal(n, 16);
}

static void occupancy_max_active_blocks_rejects_bad_arguments(void **state)
{
    (void)state;
    int n = -1;
    size_t calls = fk.fake_count_calls("cuOccupancyMaxActiveBlocksWithFlags");
    assert_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(NULL, fn_plain_stub(), 32, 0),
                cudaErrorInvalidValue);
    assert_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, fn_plain_stub(), 32,
                                                                       0, 2),
                cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuOccupancyMaxActiveBlocksWithFlags"),
                     calls);
    assert_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)never_registered,
                                                              32, 0),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn_plain_stub(), 0, 0),
                cudaErrorInvalidValue);            /* the driver's answer */
    fk.fake_fail_call("cuOccupancyMaxActiveBlocksWithFlags", 1,
                      700 /* ILLEGAL_ADDRESS: sticky */);
    assert_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn_plain_stub(), 32, 0),
                cudaErrorIllegalAddress);
    assert_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn_plain_stub(), 32, 0),
                cudaErrorIllegalAddress);          /* sticky: the context is gone */
}

static void occupancy_available_dynamic_shared_memory(void **state)
{
    (void)state;
    size_t bytes = 0;
    assert_cuda(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, fn_plain_stub(), 2, 256),
                cudaSuccess);
    assert_int_equal(bytes, 49152);
    assert_last_call_has("cuOccupancyAvailableDynamicSMemPerBlock", "numBlocks=2 blockSize=256");
    assert_cuda(cudaFuncSetAttribute(fn_plain_stub(), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     100000), cudaSuccess);
    assert_cuda(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, fn_plain_stub(), 2, 256),
                cudaSuccess);
    assert_int_equal(bytes, 100000);
    assert_cuda(cudaOccupancyAvailableDynamicSMemPerBlock(NULL, fn_plain_stub(), 2, 256),
                cudaErrorInvalidValue);
    assert_cuda(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, fn_plain_stub(), 0, 256),
                cudaErrorInvalidValue);
    assert_cuda(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, (const void *)never_registered,
                                                          1, 32),
                cudaErrorInvalidResourceHandle);
}

static void occupancy_cluster_queries_pass_the_configuration(void **state)
{
    (void)state;
    cudaLaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = 2;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cudaLaunchConfig_t config;
    memset(&config, 0, sizeof config);
    config.gridDim = (dim3){8, 1, 1};
    config.blockDim = (dim3){256, 1, 1};
    config.attrs = &attr;
    config.numAttrs = 1;
    int value = -1;
    assert_cuda(cudaOccupancyMaxPotentialClusterSize(&value, fn_plain_stub(), &config),
                cudaSuccess);
    assert_int_equal(value, 8);
    assert_cuda(cudaOccupancyMaxActiveClusters(&value, fn_plain_stub(), &config), cudaSuccess);
    assert_int_equal(value, 132 * 8 / 2);
    assert_cuda(cudaOccupancyMaxPotentialClusterSize(&value, fn_plain_stub(), NULL),
                cudaErrorInvalidValue);
    assert_cuda(cudaOccupancyMaxActiveClusters(NULL, fn_plain_stub(), &config),
                cudaErrorInvalidValue);
    config.attrs = NULL;
    assert_cuda(cudaOccupancyMaxActiveClusters(&value, fn_plain_stub(), &config),
                cudaErrorInvalidValue);
}

/* ---- cooperative and extended launches -------------------------------------------------------- */

static int *const some_pointer = (int *)(uintptr_t)0x1000;

static void assert_plain_params(const fake_launch *l, int value)
{
    assert_non_null(l);
    assert_string_equal(l->kernel, "_Z8fn_plainPii");
    int *p = NULL;
    int v = 0;
    memcpy(&p, l->params, sizeof p);
    memcpy(&v, l->params + 8, sizeof v);
    assert_ptr_equal(p, some_pointer);
    assert_int_equal(v, value);
}

static void cooperative_launch_goes_through_cuLaunchCooperativeKernel(void **state)
{
    (void)state;
    int *p = some_pointer;
    int v = 41;
    void *args[] = {&p, &v};
    fk.fake_reset_log();
    assert_cuda(cudaLaunchCooperativeKernel(fn_plain_stub(), (dim3){132, 1, 1},
                                            (dim3){256, 1, 1}, args, 0, 0), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuLaunchCooperativeKernel"), 1);
    assert_int_equal(fk.fake_count_calls("cuLaunchKernel"), 0);
    const fake_launch *l = fk.fake_last_launch();
    assert_plain_params(l, 41);
    assert_int_equal(l->grid[0], 132);
    assert_int_equal(l->block[0], 256);
    assert_int_equal(l->stream, 0);
    assert_int_equal(l->used_extra, 0);               /* the cooperative entry has no `extra` */
    assert_cuda(cudaLaunchCooperativeKernel_ptsz(fn_plain_stub(), (dim3){1, 1, 1},
                                                 (dim3){32, 1, 1}, args, 0, 0), cudaSuccess);
    assert_int_equal(fk.fake_last_launch()->stream, 2);   /* stream 0 = per-thread */
}

static void cooperative_launch_too_large_is_its_own_error(void **state)
{
    (void)state;
    int *p = some_pointer;
    int v = 1;
    void *args[] = {&p, &v};
    size_t launches = fk.fake_launch_count();
    assert_cuda(cudaLaunchCooperativeKernel(fn_plain_stub(), (dim3){132 * 8 + 1, 1, 1},
                                            (dim3){256, 1, 1}, args, 0, 0),
                cudaErrorCooperativeLaunchTooLarge);
    assert_int_equal(fk.fake_launch_count(), launches);
    assert_cuda(cudaLaunchCooperativeKernel((const void *)never_registered, (dim3){1, 1, 1},
                                            (dim3){1, 1, 1}, args, 0, 0),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaLaunchCooperativeKernel(fn_plain_stub(), (dim3){1, 1, 1},
                                            (dim3){2048, 1, 1}, args, 0, 0),
                cudaErrorInvalidValue);
}

static void launch_ex_passes_attributes_and_packs_parameters(void **state)
{
    (void)state;
    int *p = some_pointer;
    int v = 7;
    void *args[] = {&p, &v};
    cudaLaunchAttribute attrs[2];
    memset(attrs, 0, sizeof attrs);
    attrs[0].id = cudaLaunchAttributeClusterDimension;
    attrs[0].val.clusterDim.x = 2;
    attrs[0].val.clusterDim.y = 1;
    attrs[0].val.clusterDim.z = 1;
    attrs[1].id = cudaLaunchAttributePriority;
    attrs[1].val.priority = -3;
    cudaLaunchConfig_t config;
    memset(&config, 0, sizeof config);
    config.gridDim = (dim3){4, 1, 1};
    config.blockDim = (dim3){64, 1, 1};
    config.dynamicSmemBytes = 512;
    config.attrs = attrs;
    config.numAttrs = 2;
    fk.fake_reset_log();
    assert_cuda(cudaLaunchKernelExC(&config, fn_plain_stub(), args), cudaSuccess);
    assert_last_call_has("cuLaunchKernelEx", "grid=(4,1,1) block=(64,1,1) shm=512");
    assert_last_call_has("cuLaunchKernelEx", "attrs=[4:2,1,1 8:-3]");
    const fake_launch *l = fk.fake_last_launch();
    assert_plain_params(l, 7);
    assert_int_equal(l->shared_mem, 512);
    assert_int_equal(l->stream, 0);
    /* A cudaKernel_t works as well as the stub; _ptsz maps stream 0 to the per-thread one. */
    cudaKernel_t k = NULL;
    assert_cuda(cudaGetKernel(&k, fn_plain_stub()), cudaSuccess);
    v = 8;
    assert_cuda(cudaLaunchKernelExC_ptsz(&config, (const void *)k, args), cudaSuccess);
    assert_plain_params(fk.fake_last_launch(), 8);
    assert_int_equal(fk.fake_last_launch()->stream, 2);
    config.stream = cudaStreamPerThread;
    assert_cuda(cudaLaunchKernelExC(&config, fn_plain_stub(), args), cudaSuccess);
    assert_int_equal(fk.fake_last_launch()->stream, 2);
}

static void launch_ex_errors_land_in_the_last_error(void **state)
{
    (void)state;
    int *p = some_pointer;
    int v = 7;
    void *args[] = {&p, &v};
    cudaLaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    cudaLaunchConfig_t config;
    memset(&config, 0, sizeof config);
    config.gridDim = (dim3){3, 1, 1};
    config.blockDim = (dim3){256, 1, 1};
    config.attrs = &attr;
    config.numAttrs = 1;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = 2;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    assert_cuda(cudaLaunchKernelExC(&config, fn_plain_stub(), args), cudaErrorInvalidClusterSize);
    memset(&attr, 0, sizeof attr);
    attr.id = cudaLaunchAttributeCooperative;
    attr.val.cooperative = 1;
    config.gridDim = (dim3){132 * 8 + 1, 1, 1};
    assert_cuda(cudaLaunchKernelExC(&config, fn_plain_stub(), args),
                cudaErrorCooperativeLaunchTooLarge);
    config.gridDim = (dim3){132, 1, 1};
    assert_cuda(cudaLaunchKernelExC(&config, fn_plain_stub(), args), cudaSuccess);
    assert_last_call_has("cuLaunchKernelEx", "attrs=[2:1]");
    assert_cuda(cudaLaunchKernelExC(NULL, fn_plain_stub(), args), cudaErrorInvalidValue);
    config.attrs = NULL;
    assert_cuda(cudaLaunchKernelExC(&config, fn_plain_stub(), args), cudaErrorInvalidValue);
    config.numAttrs = 0;
    assert_cuda(cudaLaunchKernelExC(&config, (const void *)never_registered, args),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaLaunchKernelExC(&config, fn_plain_stub(), NULL), cudaErrorInvalidValue);
    fk.fake_fail_call("cuLaunchKernelEx", 1, 701 /* LAUNCH_OUT_OF_RESOURCES */);
    assert_cuda(cudaLaunchKernelExC(&config, fn_plain_stub(), args),
                cudaErrorLaunchOutOfResources);
    assert_cuda(cudaLaunchKernelExC(&config, fn_plain_stub(), args), cudaSuccess);
}

/* ---- driver entry points ---------------------------------------------------------------------- */

static void driver_entry_point_returns_the_drivers_function(void **state)
{
    (void)state;
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
    assert_cuda(cudaGetDriverEntryPoint("cuDriverGetVersion", &fn, cudaEnableDefault, &status),
                cudaSuccess);
    assert_int_equal(status, cudaDriverEntryPointSuccess);
    assert_non_null(fn);
    assert_last_call_has("cuGetProcAddress_v2", "symbol=cuDriverGetVersion version=13000 flags=0");
    int version = 0;
    assert_int_equal(((CUresult (*)(int *))fn)(&version), CUDA_SUCCESS);
    assert_int_equal(version, 13000);
    assert_cuda(cudaGetDriverEntryPoint("cuMemAlloc", &fn, cudaEnableLegacyStream, NULL),
                cudaSuccess);
    assert_non_null(fn);
    assert_last_call_has("cuGetProcAddress_v2", "symbol=cuMemAlloc version=13000 flags=1");
    assert_cuda(cudaGetDriverEntryPoint_ptsz("cuMemAlloc", &fn, cudaEnableDefault, &status),
                cudaSuccess);
    assert_last_call_has("cuGetProcAddress_v2", "flags=2");
    assert_cuda(cudaGetDriverEntryPointByVersion_ptsz("cuLaunchKernelEx", &fn, 12000,
                                                      cudaEnableDefault, &status), cudaSuccess);
    assert_last_call_has("cuGetProcAddress_v2", "symbol=cuLaunchKernelEx version=12000 flags=2");
    assert_non_null(fn);
}

static void driver_entry_point_reports_missing_symbols_in_the_status(void **state)
{
    (void)state;
    void *fn = (void *)&fn;
    enum cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSuccess;
    assert_cuda(cudaGetDriverEntryPoint("cuNoSuchFunction", &fn, cudaEnableDefault, &status),
                cudaSuccess);
    assert_null(fn);
    assert_int_equal(status, cudaDriverEntryPointSymbolNotFound);
    fn = (void *)&fn;
    assert_cuda(cudaGetDriverEntryPointByVersion("cuLaunchKernelEx", &fn, 11000,
                                                 cudaEnableDefault, &status), cudaSuccess);
    assert_null(fn);
    assert_int_equal(status, cudaDriverEntryPointVersionNotSufficent);
    /* A version newer than the driver: the driver refuses it. */
    assert_cuda(cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 14000, cudaEnableDefault,
                                                 &status), cudaErrorInvalidValue);
    assert_null(fn);
}

static void driver_entry_point_rejects_bad_arguments(void **state)
{
    (void)state;
    void *fn = NULL;
    size_t calls = fk.fake_count_calls("cuGetProcAddress_v2");
    assert_cuda(cudaGetDriverEntryPoint(NULL, &fn, cudaEnableDefault, NULL),
                cudaErrorInvalidValue);
    assert_cuda(cudaGetDriverEntryPoint("cuMemAlloc", NULL, cudaEnableDefault, NULL),
                cudaErrorInvalidValue);
    assert_cuda(cudaGetDriverEntryPoint("cuMemAlloc", &fn, 7, NULL), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuGetProcAddress_v2"), calls);
    fk.fake_fail_call("cuGetProcAddress_v2", 1, 1);
    assert_cuda(cudaGetDriverEntryPoint("cuMemAlloc", &fn, cudaEnableDefault, NULL),
                cudaErrorInvalidValue);
}

/* ---- limits, cache preference, peers, profiler, PCI ids -------------------------------------- */

static void limits_round_trip_through_the_context(void **state)
{
    (void)state;
    size_t value = 0;
    assert_cuda(cudaDeviceGetLimit(&value, cudaLimitStackSize), cudaSuccess);
    assert_int_equal(value, 1024);
    assert_cuda(cudaDeviceSetLimit(cudaLimitStackSize, 4096), cudaSuccess);
    assert_last_call_has("cuCtxSetLimit", "limit=0 value=4096");
    assert_cuda(cudaDeviceGetLimit(&value, cudaLimitStackSize), cudaSuccess);
    assert_int_equal(value, 4096);
    assert_cuda(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 26), cudaSuccess);
    assert_cuda(cudaDeviceGetLimit(&value, cudaLimitMallocHeapSize), cudaSuccess);
    assert_int_equal(value, 1 << 26);
    assert_cuda(cudaDeviceGetLimit(NULL, cudaLimitStackSize), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceSetLimit((enum cudaLimit)99, 1), cudaErrorInvalidValue);
    fk.fake_fail_call("cuCtxSetLimit", 1, 215 /* UNSUPPORTED_LIMIT */);
    assert_cuda(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 4), cudaErrorUnsupportedLimit);
}

static void cache_config_round_trips_through_the_context(void **state)
{
    (void)state;
    enum cudaFuncCache config = cudaFuncCachePreferEqual;
    assert_cuda(cudaDeviceGetCacheConfig(&config), cudaSuccess);
    assert_int_equal(config, cudaFuncCachePreferNone);
    assert_cuda(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared), cudaSuccess);
    assert_cuda(cudaDeviceGetCacheConfig(&config), cudaSuccess);
    assert_int_equal(config, cudaFuncCachePreferShared);
    assert_cuda(cudaDeviceGetCacheConfig(NULL), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceSetCacheConfig((enum cudaFuncCache)9), cudaErrorInvalidValue);
    assert_cuda(cudaCtxResetPersistingL2Cache(), cudaSuccess);
    fk.fake_fail_call("cuCtxResetPersistingL2Cache", 1, 801 /* NOT_SUPPORTED */);
    assert_cuda(cudaCtxResetPersistingL2Cache(), cudaErrorNotSupported);
}

static void peer_access_maps_the_peers_primary_context(void **state)
{
    (void)state;
    int can = -1;
    assert_cuda(cudaDeviceCanAccessPeer(&can, 0, 1), cudaSuccess);
    assert_int_equal(can, 1);
    assert_last_call_has("cuDeviceCanAccessPeer", "dev=0 peerDev=1");
    assert_cuda(cudaDeviceCanAccessPeer(&can, 0, 0), cudaSuccess);
    assert_int_equal(can, 0);
    assert_cuda(cudaDeviceCanAccessPeer(NULL, 0, 1), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceCanAccessPeer(&can, 0, 5), cudaErrorInvalidDevice);
    assert_cuda(cudaDeviceCanAccessPeer(&can, -1, 0), cudaErrorInvalidDevice);

    assert_cuda(cudaSetDevice(0), cudaSuccess);
    assert_cuda(cudaDeviceDisablePeerAccess(1), cudaErrorPeerAccessNotEnabled);
    assert_cuda(cudaDeviceEnablePeerAccess(1, 0), cudaSuccess);
    int device = -1;
    assert_cuda(cudaGetDevice(&device), cudaSuccess);
    assert_int_equal(device, 0);                      /* the peer was not made current */
    assert_cuda(cudaDeviceEnablePeerAccess(1, 0), cudaErrorPeerAccessAlreadyEnabled);
    assert_cuda(cudaDeviceDisablePeerAccess(1), cudaSuccess);
    assert_cuda(cudaDeviceDisablePeerAccess(1), cudaErrorPeerAccessNotEnabled);
    assert_cuda(cudaDeviceEnablePeerAccess(1, 1), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceEnablePeerAccess(7, 0), cudaErrorInvalidDevice);
    assert_cuda(cudaDeviceEnablePeerAccess(0, 0), cudaErrorInvalidDevice);   /* the driver's */

    int value = -1;
    assert_cuda(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, 1),
                cudaSuccess);
    assert_int_equal(value, 1);
    assert_last_call_has("cuDeviceGetP2PAttribute", "attrib=2 src=0 dst=1");
    assert_cuda(cudaDeviceGetP2PAttribute(NULL, cudaDevP2PAttrAccessSupported, 0, 1),
                cudaErrorInvalidValue);
    assert_cuda(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, 9),
                cudaErrorInvalidDevice);
}

static void profiler_and_rdma_flush_reach_the_driver(void **state)
{
    (void)state;
    fk.fake_reset_log();
    assert_cuda(cudaProfilerStart(), cudaSuccess);
    assert_cuda(cudaProfilerStop(), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuProfilerStart"), 1);
    assert_int_equal(fk.fake_count_calls("cuProfilerStop"), 1);
    fk.fake_fail_call("cuProfilerStart", 1, 5 /* PROFILER_DISABLED */);
    assert_cuda(cudaProfilerStart(), cudaErrorProfilerDisabled);
    assert_cuda(cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                                   cudaFlushGPUDirectRDMAWritesToOwner),
                cudaSuccess);
    assert_last_call_has("cuFlushGPUDirectRDMAWrites", "target=0 scope=100");
    assert_cuda(cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                                   (enum cudaFlushGPUDirectRDMAWritesScope)3),
                cudaErrorInvalidValue);
}

static void pci_bus_ids_and_choose_device(void **state)
{
    (void)state;
    char id[32] = "";
    assert_cuda(cudaDeviceGetPCIBusId(id, (int)sizeof id, 1), cudaSuccess);
    assert_string_equal(id, "0000:1a:00.0");
    int device = -1;
    assert_cuda(cudaDeviceGetByPCIBusId(&device, id), cudaSuccess);
    assert_int_equal(device, 1);
    assert_cuda(cudaDeviceGetPCIBusId(NULL, 32, 0), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceGetPCIBusId(id, 0, 0), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceGetPCIBusId(id, (int)sizeof id, 9), cudaErrorInvalidDevice);
    assert_cuda(cudaDeviceGetByPCIBusId(NULL, id), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceGetByPCIBusId(&device, "not a bus id"), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceGetByPCIBusId(&device, "0000:77:00.0"), cudaErrorInvalidDevice);

    struct cudaDeviceProp prop;
    memset(&prop, 0, sizeof prop);
    prop.major = 9;
    assert_cuda(cudaChooseDevice(&device, &prop), cudaSuccess);
    assert_int_equal(device, 0);
    prop.major = 12;                                 /* none that new: the most capable */
    assert_cuda(cudaChooseDevice(&device, &prop), cudaSuccess);
    assert_int_equal(device, 0);
    assert_cuda(cudaChooseDevice(NULL, &prop), cudaErrorInvalidValue);
    assert_cuda(cudaChooseDevice(&device, NULL), cudaErrorInvalidValue);
}

/* ---- device flags (a fresh process: nothing initialised yet) --------------------------------- */

static void device_flags_follow_the_h200_sequence(void **state)
{
    (void)state;
    unsigned flags = 0;
    assert_cuda(cudaGetDeviceFlags(&flags), cudaSuccess);
    assert_int_equal(flags, cudaDeviceMapHost);                      /* 0x8 before init */
    assert_int_equal(fk.fake_count_calls("cuDevicePrimaryCtxRetain"), 0);
    assert_cuda(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync), cudaSuccess);
    assert_last_call_has("cuDevicePrimaryCtxSetFlags", "dev=0 flags=0x4");
    void *p = NULL;
    assert_cuda(cudaMalloc(&p, 16), cudaSuccess);
    assert_cuda(cudaGetDeviceFlags(&flags), cudaSuccess);
    assert_int_equal(flags, 0xc);
    assert_cuda(cudaSetDeviceFlags(cudaDeviceScheduleSpin), cudaSuccess);   /* active: still ok */
    assert_cuda(cudaGetDeviceFlags(&flags), cudaSuccess);
    assert_int_equal(flags, 0x9);
    assert_cuda(cudaSetDeviceFlags(cudaDeviceMapHost | cudaDeviceScheduleYield), cudaSuccess);
    assert_last_call_has("cuDevicePrimaryCtxSetFlags", "flags=0x2");        /* MapHost implied */
    assert_cuda(cudaFree(p), cudaSuccess);
}

static void device_flags_reject_bad_values(void **state)
{
    (void)state;
    size_t calls = fk.fake_count_calls("cuDevicePrimaryCtxSetFlags");
    assert_cuda(cudaSetDeviceFlags(0x100), cudaErrorInvalidValue);
    assert_cuda(cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield),
                cudaErrorInvalidValue);
    assert_cuda(cudaSetDeviceFlags(0x20), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuDevicePrimaryCtxSetFlags"), calls);
    assert_cuda(cudaGetDeviceFlags(NULL), cudaErrorInvalidValue);
    fk.fake_fail_call("cuDevicePrimaryCtxSetFlags", 1, 1);
    assert_cuda(cudaSetDeviceFlags(cudaDeviceScheduleAuto), cudaErrorInvalidValue);
}

static void init_device_initialises_without_making_current(void **state)
{
    (void)state;
    size_t retains = fk.fake_count_calls("cuDevicePrimaryCtxRetain");
    assert_cuda(cudaInitDevice(1, cudaDeviceScheduleBlockingSync, cudaInitDeviceFlagsAreValid),
                cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuDevicePrimaryCtxRetain"), retains + 1);
    assert_last_call_has("cuDevicePrimaryCtxSetFlags", "dev=1 flags=0x4");
    int device = -1;
    assert_cuda(cudaGetDevice(&device), cudaSuccess);
    assert_int_equal(device, 0);
    assert_cuda(cudaSetDevice(1), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuDevicePrimaryCtxRetain"), retains + 1);
    unsigned flags = 0;
    assert_cuda(cudaGetDeviceFlags(&flags), cudaSuccess);
    assert_int_equal(flags, 0xc);
    /* Without cudaInitDeviceFlagsAreValid the device flags are ignored. */
    size_t set_flags = fk.fake_count_calls("cuDevicePrimaryCtxSetFlags");
    assert_cuda(cudaInitDevice(0, 0x100, 0), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuDevicePrimaryCtxSetFlags"), set_flags);
    assert_cuda(cudaInitDevice(5, 0, 0), cudaErrorInvalidDevice);
    /* Unknown bits of flags are ignored, as by NVIDIA's runtime (H200). */
    assert_cuda(cudaInitDevice(0, 0, 2), cudaSuccess);
    assert_cuda(cudaInitDevice(0, 0x100, cudaInitDeviceFlagsAreValid), cudaErrorInvalidValue);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest attributes[] = {
        cmocka_unit_test(func_get_attributes_reads_every_field_from_the_driver),
        cmocka_unit_test(func_get_attributes_rejects_null_unregistered_and_driver_failures),
        cmocka_unit_test(func_set_attribute_forwards_and_validates),
        cmocka_unit_test(func_set_attribute_holds_on_its_device_and_after_reset),
        cmocka_unit_test(func_set_cache_and_shared_mem_config_validate),
        cmocka_unit_test(func_get_name_and_param_info_describe_the_kernel),
        cmocka_unit_test(get_kernel_returns_a_handle_every_function_accepts),
        cmocka_unit_test(get_func_by_symbol_gives_the_drivers_function_of_the_current_context),
    };
    const struct CMUnitTest occupancy[] = {
        cmocka_unit_test(occupancy_max_active_blocks_follows_the_driver),
        cmocka_unit_test(occupancy_available_dynamic_shared_memory),
        cmocka_unit_test(occupancy_cluster_queries_pass_the_configuration),
        cmocka_unit_test(occupancy_max_active_blocks_rejects_bad_arguments),   /* poisons: last */
    };
    const struct CMUnitTest launch[] = {
        cmocka_unit_test(cooperative_launch_goes_through_cuLaunchCooperativeKernel),
        cmocka_unit_test(cooperative_launch_too_large_is_its_own_error),
        cmocka_unit_test(launch_ex_passes_attributes_and_packs_parameters),
        cmocka_unit_test(launch_ex_errors_land_in_the_last_error),
    };
    const struct CMUnitTest entry[] = {
        cmocka_unit_test(driver_entry_point_returns_the_drivers_function),
        cmocka_unit_test(driver_entry_point_reports_missing_symbols_in_the_status),
        cmocka_unit_test(driver_entry_point_rejects_bad_arguments),
    };
    const struct CMUnitTest config[] = {
        cmocka_unit_test(limits_round_trip_through_the_context),
        cmocka_unit_test(cache_config_round_trips_through_the_context),
        cmocka_unit_test(peer_access_maps_the_peers_primary_context),
        cmocka_unit_test(profiler_and_rdma_flush_reach_the_driver),
        cmocka_unit_test(pci_bus_ids_and_choose_device),
    };
    const struct CMUnitTest flags[] = {
        cmocka_unit_test(device_flags_follow_the_h200_sequence),
        cmocka_unit_test(device_flags_reject_bad_values),
        cmocka_unit_test(init_device_initialises_without_making_current),
    };
    const char *group = argc > 1 ? argv[1] : "";
#define RUN(name) \
    if (strcmp(group, #name) == 0) \
        return cmocka_run_group_tests_name(#name, name, e2e_setup, NULL)
    RUN(attributes);
    RUN(occupancy);
    RUN(launch);
    RUN(entry);
    RUN(config);
    RUN(flags);
#undef RUN
    fprintf(stderr, "usage: %s attributes|occupancy|launch|entry|config|flags\n", argv[0]);
    return 2;
}
