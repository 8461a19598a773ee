/*
 * test_fake_green.c - the fake driver's version knob, device resources and green contexts,
 * reached as the runtime reaches them (dlopen MINICUDART_DRIVER, then cuGetProcAddress_v2): which
 * entry points a 13.0 and a 13.5 driver hand out, SM resources and their splits, descriptors,
 * green contexts with their CUcontext, streams and events, and what stale handles answer.  The
 * tests run in order in one process and share its state; the first raises the modelled driver
 * to 13.5.
 */
#include "fake_selftest.h"
#include "fake_cuda135.h"

/* An entry point with the signature cuda.h declares for `name` (ABI 13000). */
#define D(name) ((__typeof__(&name))proc(#name, 13000))
/* An entry point of ABI `ver`, with cudaTypedefs.h's or cuda135.h's PFN type. */
#define V(name, ver) ((PFN_##name##_v##ver)proc(#name, ver))

static CUcontext primary;
static CUfunction add_fn;

static int setup(void **state)
{
    (void)state;
    if (open_fake() != 0)
        return -1;
    CUmodule mod = NULL;
    unsigned char *cubin = read_file(FAKE_FIXTURE_CUBIN);
    int ok = get_proc && p_fake_set_driver_version && cubin && D(cuInit)(0) == CUDA_SUCCESS &&
             D(cuDevicePrimaryCtxRetain)(&primary, 0) == CUDA_SUCCESS &&
             D(cuCtxSetCurrent)(primary) == CUDA_SUCCESS &&
             D(cuModuleLoadDataEx)(&mod, cubin, 0, NULL, NULL) == CUDA_SUCCESS &&
             D(cuModuleGetFunction)(&add_fn, mod, "_Z3addPiPKii") == CUDA_SUCCESS;
    free(cubin);
    return ok ? 0 : -1;
}

static int host_add_runs;
static void host_add(const void *params, size_t size, const unsigned grid[3],
                     const unsigned block[3])
{
    (void)params, (void)size, (void)grid, (void)block;
    host_add_runs++;
}

/* ---- helpers -------------------------------------------------------------------------------- */

static CUdevResource device_sms(void)
{
    CUdevResource r;
    memset(&r, 0, sizeof r);
    assert_int_equal(V(cuDeviceGetDevResource, 12040)(0, &r, CU_DEV_RESOURCE_TYPE_SM),
                     CUDA_SUCCESS);
    return r;
}

static FAKE_DEV_SM_RESOURCE sm_of(const CUdevResource *r)
{
    FAKE_DEV_SM_RESOURCE sm;
    memcpy(&sm, (const unsigned char *)r + offsetof(CUdevResource, sm), sizeof sm);
    return sm;
}

/* A green context with `sms` SMs (a multiple of 8, split off the device). */
static CUgreenCtx new_green(unsigned sms)
{
    CUdevResource whole = device_sms(), group, rest;
    unsigned nb = 1;
    CUdevResourceDesc desc = NULL;
    CUgreenCtx g = NULL;
    assert_int_equal(V(cuDevSmResourceSplitByCount, 12040)(&group, &nb, &whole, &rest, 0, sms),
                     CUDA_SUCCESS);
    assert_int_equal(group.sm.smCount, sms);
    assert_int_equal(V(cuDevResourceGenerateDesc, 12040)(&desc, &group, 1), CUDA_SUCCESS);
    assert_int_equal(V(cuGreenCtxCreate, 12040)(&g, desc, 0, CU_GREEN_CTX_DEFAULT_STREAM),
                     CUDA_SUCCESS);
    return g;
}

static CUcontext context_of(CUgreenCtx g)
{
    CUcontext c = NULL;
    assert_int_equal(V(cuCtxFromGreenCtx, 12040)(&c, g), CUDA_SUCCESS);
    return c;
}

static CUstream green_stream(CUgreenCtx g)
{
    CUstream s = NULL;
    assert_int_equal(V(cuGreenCtxStreamCreate, 12050)(&s, g, CU_STREAM_NON_BLOCKING, 0),
                     CUDA_SUCCESS);
    return s;
}

static CUevent new_event(void)
{
    CUevent e = NULL;
    assert_int_equal(D(cuEventCreate)(&e, CU_EVENT_DEFAULT), CUDA_SUCCESS);
    return e;
}

/* ---- the driver version --------------------------------------------------------------------- */

static void driver_13000_hides_the_entries_of_newer_drivers_until_raised(void **state)
{
    (void)state;
    int v = 0;
    void *fn = (void *)1;
    CUdriverProcAddressQueryResult status = 99;
    assert_int_equal(D(cuDriverGetVersion)(&v), CUDA_SUCCESS);
    assert_int_equal(v, 13000);
    /* Driver 580 does not know the 13.1 names at all: not found, not "version not sufficient". */
    assert_int_equal(get_proc("cuStreamGetDevResource", &fn, 13000, 0, &status), CUDA_SUCCESS);
    assert_null(fn);
    assert_int_equal(status, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    assert_int_equal(get_proc("cuStreamGetDevResource", &fn, 13010, 0, &status),
                     CUDA_ERROR_INVALID_VALUE);
    assert_null(proc("cuMemGetLocationInfo", 13000));
    /* Green contexts are in 13.0's driver; cuLaunchHostFunc is the 10.0 one there. */
    assert_non_null(proc("cuGreenCtxCreate", 12040));
    assert_non_null(proc("cuCtxPushCurrent", 4000));
    assert_ptr_equal(proc("cuLaunchHostFunc", 13000), proc("cuLaunchHostFunc", 10000));

    p_fake_set_driver_version(13050);
    assert_int_equal(D(cuDriverGetVersion)(&v), CUDA_SUCCESS);
    assert_int_equal(v, 13050);
    assert_non_null(proc("cuStreamGetDevResource", 13010));
    assert_non_null(proc("cuStreamGetDevResource", 13050));
    /* The per-thread-stream variants are the same entries: the fake's special streams resolve
     * to the current context either way. */
    assert_int_equal(get_proc("cuStreamGetDevResource", &fn, 13010,
                              CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &status),
                     CUDA_SUCCESS);
    assert_ptr_equal(fn, proc("cuStreamGetDevResource", 13010));
    assert_ptr_not_equal(proc("cuLaunchHostFunc", 13010), proc("cuLaunchHostFunc", 10000));
    assert_ptr_not_equal(proc("cuStreamGetCtx", 12050), proc("cuStreamGetCtx", 9020));
    /* Known to this driver, but newer than the ABI asked for. */
    assert_int_equal(get_proc("cuDevSmResourceSplit", &fn, 13000, 0, &status), CUDA_SUCCESS);
    assert_int_equal(status, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
}

/* ---- resources ------------------------------------------------------------------------------ */

static void device_resource_gives_the_sms_and_refuses_other_types(void **state)
{
    (void)state;
    CUdevResource r = device_sms();
    FAKE_DEV_SM_RESOURCE sm = sm_of(&r);
    assert_int_equal(r.type, CU_DEV_RESOURCE_TYPE_SM);
    assert_int_equal(sm.smCount, 132);
    assert_int_equal(sm.minSmPartitionSize, 8);
    assert_int_equal(sm.smCoscheduledAlignment, 8);
    assert_int_equal(sm.flags, 0);
    PFN_cuDeviceGetDevResource_v12040 get = V(cuDeviceGetDevResource, 12040);
    assert_int_equal(get(0, &r, CU_DEV_RESOURCE_TYPE_WORKQUEUE_CONFIG),
                     CUDA_ERROR_INVALID_RESOURCE_TYPE);
    assert_int_equal(get(0, &r, (CUdevResourceType)7), CUDA_ERROR_INVALID_RESOURCE_TYPE);
    assert_int_equal(get(0, NULL, CU_DEV_RESOURCE_TYPE_SM), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(get(1, &r, CU_DEV_RESOURCE_TYPE_SM), CUDA_ERROR_INVALID_DEVICE);
    /* cuda.h's guideline for older architectures, and FAKECUDA_SMS. */
    p_fake_set_sm(80);
    sm = sm_of((r = device_sms(), &r));
    assert_int_equal(sm.minSmPartitionSize, 4);
    assert_int_equal(sm.smCoscheduledAlignment, 2);
    p_fake_set_sm(75);
    sm = sm_of((r = device_sms(), &r));
    assert_int_equal(sm.minSmPartitionSize, 2);
    p_fake_set_sm(90);
    p_fake_set_sm_count(64);
    int count = 0;
    assert_int_equal(D(cuDeviceGetAttribute)(&count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0),
                     CUDA_SUCCESS);
    assert_int_equal(count, 64);
    assert_int_equal(device_sms().sm.smCount, 64);
    p_fake_set_sm_count(132);
    /* The primary context has the whole device; NULL and bogus contexts are refused. */
    PFN_cuCtxGetDevResource_v12040 of_ctx = V(cuCtxGetDevResource, 12040);
    assert_int_equal(of_ctx(primary, &r, CU_DEV_RESOURCE_TYPE_SM), CUDA_SUCCESS);
    assert_int_equal(r.sm.smCount, 132);
    assert_int_equal(of_ctx(NULL, &r, CU_DEV_RESOURCE_TYPE_SM), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(of_ctx((CUcontext)&r, &r, CU_DEV_RESOURCE_TYPE_SM),
                     CUDA_ERROR_INVALID_CONTEXT);
}

static void split_by_count_rounds_to_the_alignment_and_leaves_the_rest(void **state)
{
    (void)state;
    PFN_cuDevSmResourceSplitByCount_v12040 split = V(cuDevSmResourceSplitByCount, 12040);
    CUdevResource whole = device_sms(), groups[20], rest;
    unsigned nb = 0;
    /* A query: how many groups of at least 16 there would be. */
    assert_int_equal(split(NULL, &nb, &whole, NULL, 0, 16), CUDA_SUCCESS);
    assert_int_equal(nb, 8);
    /* As an H200 answers: 2 groups of 16, 100 left. */
    nb = 2;
    assert_int_equal(split(groups, &nb, &whole, &rest, 0, 16), CUDA_SUCCESS);
    assert_int_equal(nb, 2);
    assert_int_equal(groups[0].sm.smCount, 16);
    assert_int_equal(groups[1].sm.smCount, 16);
    assert_int_equal(groups[1].sm.smCoscheduledAlignment, 8);
    assert_int_equal(rest.type, CU_DEV_RESOURCE_TYPE_SM);
    assert_int_equal(rest.sm.smCount, 100);
    /* 10 rounds up to 16; 0 is the minimum partition, 8: 16 of them fit, 4 left. */
    nb = 3;
    assert_int_equal(split(groups, &nb, &whole, &rest, 0, 10), CUDA_SUCCESS);
    assert_int_equal(groups[2].sm.smCount, 16);
    assert_int_equal(rest.sm.smCount, 84);
    nb = 20;
    assert_int_equal(split(groups, &nb, &whole, &rest, 0, 0), CUDA_SUCCESS);
    assert_int_equal(nb, 16);
    assert_int_equal(groups[15].sm.smCount, 8);
    assert_int_equal(rest.sm.smCount, 4);
    /* Ignoring co-scheduling: granularity 2; nothing left is an INVALID remainder. */
    nb = 2;
    assert_int_equal(split(groups, &nb, &whole, &rest,
                           CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING, 3), CUDA_SUCCESS);
    assert_int_equal(groups[0].sm.smCount, 4);
    assert_int_equal(groups[0].sm.smCoscheduledAlignment, 2);
    assert_int_equal(rest.sm.smCount, 124);
    assert_int_equal(split(groups, &nb, &whole, &rest,
                           CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING, 66), CUDA_SUCCESS);
    assert_int_equal(nb, 2);
    assert_int_equal(rest.type, CU_DEV_RESOURCE_TYPE_INVALID);
    assert_int_equal(rest.sm.smCount, 0);
    /* The documented errors. */
    nb = 2;
    /* As driver 580 answers (H200): an undocumented flag bit is ignored, a minimum above the
     * input's SMs is an invalid configuration. */
    CUdevResource groups8[2], rest8;
    assert_int_equal(split(groups8, &nb, &whole, &rest8, 8, 16), CUDA_SUCCESS);
    nb = 2;
    assert_int_equal(split(groups, &nb, &whole, &rest, 0, 133),
                     CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);
    assert_int_equal(split(groups, NULL, &whole, &rest, 0, 16), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(split(groups, &nb, &rest, NULL, 0, 16), CUDA_ERROR_INVALID_RESOURCE_TYPE);
    assert_int_equal(split(groups, &nb, &whole, &rest, 0, 130),
                     CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);   /* 136 > 132 */
    nb = 0;
    assert_int_equal(split(groups, &nb, &whole, &rest, 0, 16), CUDA_ERROR_INVALID_VALUE);
    nb = 1;
    assert_int_equal(split(groups, &nb, &whole, &rest, 0, 16), CUDA_SUCCESS);
    assert_int_equal(split(groups + 1, &nb, &groups[0], NULL, 0, 8),
                     CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);   /* a split's output */
    CUdevResource forged = whole;
    forged.sm.smCount = 200;
    assert_int_equal(split(groups, &nb, &forged, NULL, 0, 16), CUDA_ERROR_INVALID_VALUE);
    memset(&forged, 0, sizeof forged);
    forged.type = CU_DEV_RESOURCE_TYPE_SM;
    forged.sm.smCount = 132;
    assert_int_equal(split(groups, &nb, &forged, NULL, 0, 16), CUDA_ERROR_INVALID_VALUE);
}

static void structured_split_assigns_groups_in_order_and_discovers_counts(void **state)
{
    (void)state;
    PFN_cuDevSmResourceSplit_v13010 split = V(cuDevSmResourceSplit, 13010);
    assert_non_null(split);
    CUdevResource whole = device_sms(), res[2], rest;
    CU_DEV_SM_RESOURCE_GROUP_PARAMS p[2];
    memset(p, 0, sizeof p);
    p[0].smCount = 16;                        /* then discovery: all that is left, by 8s */
    assert_int_equal(split(res, 2, &whole, &rest, 0, p), CUDA_SUCCESS);
    assert_int_equal(res[0].sm.smCount, 16);
    assert_int_equal(res[1].sm.smCount, 112);
    assert_int_equal(p[1].smCount, 112);
    assert_int_equal(rest.sm.smCount, 4);
    assert_int_equal(rest.sm.smCoscheduledAlignment, 2);     /* no structure */
    /* cuda.h's example 3: 8 in sets of 4, then everything else with BACKFILL. */
    memset(p, 0, sizeof p);
    p[0] = (CU_DEV_SM_RESOURCE_GROUP_PARAMS){ .smCount = 8, .coscheduledSmCount = 4 };
    p[1] = (CU_DEV_SM_RESOURCE_GROUP_PARAMS){ .coscheduledSmCount = 2,
                                              .flags = FAKE_DEV_SM_RESOURCE_GROUP_BACKFILL };
    assert_int_equal(split(res, 2, &whole, &rest, 0, p), CUDA_SUCCESS);
    assert_int_equal(res[0].sm.smCoscheduledAlignment, 4);
    assert_int_equal(res[1].sm.smCount, 124);
    assert_int_equal(sm_of(&res[1]).flags, FAKE_DEV_SM_RESOURCE_GROUP_BACKFILL);
    assert_int_equal(rest.type, CU_DEV_RESOURCE_TYPE_INVALID);
    /* Discovery with no result: only groupParams change, and a 0 is allowed. */
    memset(p, 0, sizeof p);
    p[0].smCount = 132;
    assert_int_equal(split(NULL, 2, &whole, NULL, 0, p), CUDA_SUCCESS);
    assert_int_equal(p[1].smCount, 0);
    p[1].smCount = 0;
    assert_int_equal(split(res, 2, &whole, NULL, 0, p), CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);
    /* The parameter rules. */
    CU_DEV_SM_RESOURCE_GROUP_PARAMS one = { .smCount = 16 };
    assert_int_equal(split(res, 1, &whole, NULL, 1, &one), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(split(res, 0, &whole, NULL, 0, &one), CUDA_ERROR_INVALID_VALUE);
    one.reserved[3] = 1;
    assert_int_equal(split(res, 1, &whole, NULL, 0, &one), CUDA_ERROR_INVALID_VALUE);
    one = (CU_DEV_SM_RESOURCE_GROUP_PARAMS){ .smCount = 3 };
    assert_int_equal(split(res, 1, &whole, NULL, 0, &one), CUDA_ERROR_INVALID_VALUE);
    one = (CU_DEV_SM_RESOURCE_GROUP_PARAMS){ .smCount = 10, .coscheduledSmCount = 4 };
    assert_int_equal(split(res, 1, &whole, NULL, 0, &one), CUDA_ERROR_INVALID_VALUE);
    one.flags = FAKE_DEV_SM_RESOURCE_GROUP_BACKFILL;
    assert_int_equal(split(res, 1, &whole, NULL, 0, &one), CUDA_SUCCESS);
    one = (CU_DEV_SM_RESOURCE_GROUP_PARAMS){ .smCount = 16, .coscheduledSmCount = 34 };
    assert_int_equal(split(res, 1, &whole, NULL, 0, &one), CUDA_ERROR_INVALID_VALUE);
    one = (CU_DEV_SM_RESOURCE_GROUP_PARAMS){ .smCount = 200 };
    assert_int_equal(split(res, 1, &whole, NULL, 0, &one), CUDA_ERROR_INVALID_VALUE);
    one = (CU_DEV_SM_RESOURCE_GROUP_PARAMS){
        .smCount = 16, .flags = FAKE_DEV_SM_RESOURCE_GROUP_LOCALITY_DOMAIN_SUPPLEMENTAL_SMS };
    assert_int_equal(split(res, 1, &whole, NULL, 0, &one), CUDA_ERROR_INVALID_VALUE);
    one = (CU_DEV_SM_RESOURCE_GROUP_PARAMS){
        .smCount = 16, .flags = FAKE_DEV_SM_RESOURCE_GROUP_LOCALITY_DOMAIN_ID,
        .localityDomainId = 3 };
    assert_int_equal(split(res, 1, &whole, NULL, 0, &one),
                     CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);   /* one domain, 0 */
    memset(p, 0, sizeof p);
    p[0].smCount = 100;
    p[1].smCount = 40;
    assert_int_equal(split(res, 2, &whole, NULL, 0, p), CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);
    /* A remainder can be split again (bisecting, as cuda.h suggests). */
    one = (CU_DEV_SM_RESOURCE_GROUP_PARAMS){ .smCount = 96 };
    assert_int_equal(split(res, 1, &whole, &rest, 0, &one), CUDA_SUCCESS);
    one = (CU_DEV_SM_RESOURCE_GROUP_PARAMS){ .smCount = 16, .coscheduledSmCount = 2 };
    assert_int_equal(split(res, 1, &rest, NULL, 0, &one), CUDA_SUCCESS);
    assert_int_equal(res[0].sm.smCount, 16);
}

static void descriptors_take_parts_of_one_split_only(void **state)
{
    (void)state;
    PFN_cuDevSmResourceSplitByCount_v12040 split = V(cuDevSmResourceSplitByCount, 12040);
    PFN_cuDevResourceGenerateDesc_v12040 gen = V(cuDevResourceGenerateDesc, 12040);
    CUdevResource whole = device_sms(), a[2], a_rest, b[1], pair[2];
    CUdevResourceDesc d = NULL;
    unsigned nb = 2;
    assert_int_equal(split(a, &nb, &whole, &a_rest, 0, 16), CUDA_SUCCESS);
    nb = 1;
    assert_int_equal(split(b, &nb, &whole, NULL, 0, 16), CUDA_SUCCESS);
    assert_int_equal(gen(&d, a, 2), CUDA_SUCCESS);
    assert_non_null(d);
    pair[0] = a[0];
    pair[1] = a_rest;
    assert_int_equal(gen(&d, pair, 2), CUDA_SUCCESS);
    assert_int_equal(gen(&d, &whole, 1), CUDA_SUCCESS);
    pair[1] = b[0];
    assert_int_equal(gen(&d, pair, 2), CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);
    pair[1] = a[0];
    assert_int_equal(gen(&d, pair, 2), CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);
    pair[0] = pair[1] = whole;
    assert_int_equal(gen(&d, pair, 2), CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);
    assert_int_equal(gen(NULL, a, 1), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(gen(&d, NULL, 1), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(gen(&d, a, 0), CUDA_ERROR_INVALID_VALUE);
    /* An empty remainder is no resource; a split's groups of different alignment do not mix
     * (13.5's rule). */
    nb = 2;
    assert_int_equal(split(pair, &nb, &whole, &a_rest, CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING,
                           66), CUDA_SUCCESS);
    assert_int_equal(gen(&d, &a_rest, 1), CUDA_ERROR_INVALID_RESOURCE_TYPE);
    CU_DEV_SM_RESOURCE_GROUP_PARAMS p[2] = { { .smCount = 16, .coscheduledSmCount = 8 },
                                             { .smCount = 16, .coscheduledSmCount = 4 } };
    assert_int_equal(V(cuDevSmResourceSplit, 13010)(pair, 2, &whole, NULL, 0, p), CUDA_SUCCESS);
    assert_int_equal(gen(&d, pair, 2), CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);
}

/* ---- green contexts ------------------------------------------------------------------------- */

static void green_context_retains_its_primary_and_acts_as_a_context(void **state)
{
    (void)state;
    unsigned retains = p_fake_primary_retains(0);
    size_t greens = p_fake_green_count();
    CUgreenCtx g = new_green(16);
    assert_int_equal(p_fake_primary_retains(0), retains + 1);
    assert_int_equal(p_fake_green_count(), greens + 1);
    CUdevResource r;
    assert_int_equal(V(cuGreenCtxGetDevResource, 12040)(g, &r, CU_DEV_RESOURCE_TYPE_SM),
                     CUDA_SUCCESS);
    assert_int_equal(r.sm.smCount, 16);
    assert_int_equal(V(cuGreenCtxGetDevResource, 12040)(g, &r, CU_DEV_RESOURCE_TYPE_WORKQUEUE),
                     CUDA_ERROR_INVALID_RESOURCE_TYPE);
    /* Its CUcontext: its SMs, its id (the green context's), device 0, synchronisable. */
    CUcontext c = context_of(g);
    unsigned long long id = 0, gid = 0, pid = 0;
    CUdevice dev = -1;
    assert_int_equal(V(cuCtxGetDevResource, 12040)(c, &r, CU_DEV_RESOURCE_TYPE_SM), CUDA_SUCCESS);
    assert_int_equal(r.sm.smCount, 16);
    assert_int_equal(D(cuCtxGetId)(c, &id), CUDA_SUCCESS);
    assert_int_equal(V(cuGreenCtxGetId, 12090)(g, &gid), CUDA_SUCCESS);
    assert_int_equal(D(cuCtxGetId)(primary, &pid), CUDA_SUCCESS);
    assert_true(id == gid && id != pid);
    assert_int_equal(V(cuCtxGetDevice, 13000)(&dev, c), CUDA_SUCCESS);
    assert_int_equal(dev, 0);
    assert_int_equal(V(cuCtxSynchronize, 13000)(c), CUDA_SUCCESS);
    /* A CUgreenCtx is no CUcontext. */
    assert_int_equal(D(cuCtxSetCurrent)((CUcontext)g), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(V(cuCtxGetDevResource, 12040)((CUcontext)g, &r, CU_DEV_RESOURCE_TYPE_SM),
                     CUDA_ERROR_INVALID_CONTEXT);
    /* Current: it allocates in, and launches the kernels of, its primary context. */
    CUdeviceptr d = 0;
    CUcontext cur = NULL;
    assert_int_equal(D(cuCtxSetCurrent)(c), CUDA_SUCCESS);
    assert_int_equal(D(cuCtxGetCurrent)(&cur), CUDA_SUCCESS);
    assert_ptr_equal(cur, c);
    assert_int_equal(V(cuGreenCtxGetId, 12090)(NULL, &gid), CUDA_SUCCESS);
    assert_true(gid == id);
    assert_int_equal(D(cuMemAlloc)(&d, 64), CUDA_SUCCESS);
    int n = 0, *pa = NULL;
    void *args[] = {&pa, &pa, &n};
    assert_int_equal(D(cuLaunchKernel)(add_fn, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL),
                     CUDA_SUCCESS);
    assert_int_equal(p_fake_last_launch()->sm_count, 16);
    assert_int_equal(p_fake_last_launch()->green_ctx, (uintptr_t)g);
    /* Pushed and popped like any context. */
    assert_int_equal(D(cuCtxPushCurrent)(primary), CUDA_SUCCESS);
    assert_int_equal(D(cuCtxGetCurrent)(&cur), CUDA_SUCCESS);
    assert_ptr_equal(cur, primary);
    assert_int_equal(D(cuCtxPopCurrent)(&cur), CUDA_SUCCESS);
    assert_ptr_equal(cur, primary);
    assert_int_equal(D(cuCtxPopCurrent)(&cur), CUDA_SUCCESS);
    assert_ptr_equal(cur, c);
    assert_int_equal(D(cuCtxPopCurrent)(&cur), CUDA_ERROR_INVALID_CONTEXT);   /* none left */
    assert_int_equal(D(cuCtxPushCurrent)(primary), CUDA_SUCCESS);
    assert_int_equal(D(cuMemFree)(d), CUDA_SUCCESS);    /* the primary context's memory */

    /* Destroyed: its retain goes, its handles answer errors. */
    assert_int_equal(V(cuGreenCtxDestroy, 12040)(g), CUDA_SUCCESS);
    assert_int_equal(p_fake_primary_retains(0), retains);
    assert_int_equal(p_fake_green_count(), greens);
    assert_int_equal(V(cuGreenCtxDestroy, 12040)(g), CUDA_ERROR_CONTEXT_IS_DESTROYED);
    assert_int_equal(V(cuGreenCtxGetId, 12090)(g, &gid), CUDA_ERROR_CONTEXT_IS_DESTROYED);
    assert_int_equal(V(cuCtxFromGreenCtx, 12040)(&c, g), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(D(cuCtxSetCurrent)(c), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(D(cuCtxGetId)(c, &id), CUDA_ERROR_CONTEXT_IS_DESTROYED);
    assert_int_equal(V(cuCtxSynchronize, 13000)(c), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(V(cuGreenCtxDestroy, 12040)(NULL), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(V(cuGreenCtxDestroy, 12040)((CUgreenCtx)&r), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(V(cuGreenCtxGetId, 12090)(NULL, &gid), CUDA_ERROR_INVALID_CONTEXT);
}

static void green_context_creation_checks_its_arguments(void **state)
{
    (void)state;
    PFN_cuGreenCtxCreate_v12040 create = V(cuGreenCtxCreate, 12040);
    CUdevResource whole = device_sms();
    CUdevResourceDesc desc = NULL;
    CUgreenCtx g = NULL;
    assert_int_equal(V(cuDevResourceGenerateDesc, 12040)(&desc, &whole, 1), CUDA_SUCCESS);
    assert_int_equal(create(&g, desc, 0, 2), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(create(NULL, desc, 0, 0), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(create(&g, (CUdevResourceDesc)&whole, 0, 0), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(create(&g, desc, 1, 0), CUDA_ERROR_INVALID_DEVICE);
    /* CU_GREEN_CTX_NONE (13.5) is taken too; a whole-device descriptor gives all the SMs. */
    assert_int_equal(create(&g, desc, 0, FAKE_GREEN_CTX_NONE), CUDA_SUCCESS);
    CUdevResource r;
    assert_int_equal(V(cuGreenCtxGetDevResource, 12040)(g, &r, CU_DEV_RESOURCE_TYPE_SM),
                     CUDA_SUCCESS);
    assert_int_equal(r.sm.smCount, 132);
    /* A green context's resource splits like a device's. */
    CUdevResource half[2];
    unsigned nb = 2;
    assert_int_equal(V(cuDevSmResourceSplitByCount, 12040)(half, &nb, &r, NULL, 0, 64),
                     CUDA_SUCCESS);
    assert_int_equal(nb, 2);
    assert_int_equal(V(cuGreenCtxDestroy, 12040)(g), CUDA_SUCCESS);
    /* Injected failures reach the new entry points like the others, and are logged. */
    p_fake_fail_call("cuGreenCtxCreate", 1, CUDA_ERROR_OUT_OF_MEMORY);
    size_t greens = p_fake_green_count();
    assert_int_equal(create(&g, desc, 0, 0), CUDA_ERROR_OUT_OF_MEMORY);
    assert_int_equal(p_fake_green_count(), greens);
    const fake_call *last = p_fake_call_at(p_fake_call_count() - 1);
    assert_string_equal(last->name, "cuGreenCtxCreate");
    assert_int_equal(last->result, CUDA_ERROR_OUT_OF_MEMORY);
}

static void green_streams_run_work_and_detach_with_their_green_context(void **state)
{
    (void)state;
    CUgreenCtx g = new_green(24);
    CUstream s = NULL, plain = NULL;
    PFN_cuGreenCtxStreamCreate_v12050 create = V(cuGreenCtxStreamCreate, 12050);
    assert_int_equal(create(&s, g, CU_STREAM_DEFAULT, 0), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(create(&s, (CUgreenCtx)&s, CU_STREAM_NON_BLOCKING, 0),
                     CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(create(&s, g, CU_STREAM_NON_BLOCKING, -100), CUDA_SUCCESS);
    int priority = 1;
    assert_int_equal(D(cuStreamGetPriority)(s, &priority), CUDA_SUCCESS);
    assert_int_equal(priority, -5);                   /* clamped */
    assert_int_equal(D(cuStreamCreate)(&plain, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);

    /* Which context each stream belongs to. */
    CUgreenCtx got = (CUgreenCtx)1;
    CUcontext ctx = NULL;
    assert_int_equal(V(cuStreamGetGreenCtx, 12040)(s, &got), CUDA_SUCCESS);
    assert_ptr_equal(got, g);
    assert_int_equal(V(cuStreamGetGreenCtx, 12040)(plain, &got), CUDA_SUCCESS);
    assert_null(got);
    assert_int_equal(V(cuStreamGetGreenCtx, 12040)(NULL, &got), CUDA_SUCCESS);
    assert_null(got);
    assert_int_equal(V(cuStreamGetCtx, 12050)(s, &ctx, &got), CUDA_SUCCESS);
    assert_ptr_equal(ctx, primary);
    assert_ptr_equal(got, g);
    assert_int_equal(V(cuStreamGetCtx, 12050)(plain, &ctx, &got), CUDA_SUCCESS);
    assert_ptr_equal(ctx, primary);
    assert_null(got);
    assert_int_equal(V(cuStreamGetCtx, 9020)(s, &ctx), CUDA_SUCCESS);
    assert_ptr_equal(ctx, context_of(g));
    /* The per-thread stream is refused while a green context is current (cuda.h). */
    assert_int_equal(D(cuCtxSetCurrent)(context_of(g)), CUDA_SUCCESS);
    assert_int_equal(V(cuStreamGetCtx, 12050)(CU_STREAM_PER_THREAD, &ctx, &got),
                     CUDA_ERROR_INVALID_HANDLE);
    assert_int_equal(V(cuStreamGetGreenCtx, 12040)(CU_STREAM_LEGACY, &got), CUDA_SUCCESS);
    assert_ptr_equal(got, g);
    assert_int_equal(D(cuCtxSetCurrent)(primary), CUDA_SUCCESS);

    /* Its SMs. */
    CUdevResource r;
    PFN_cuStreamGetDevResource_v13010 res = V(cuStreamGetDevResource, 13010);
    assert_int_equal(res(s, &r, CU_DEV_RESOURCE_TYPE_SM), CUDA_SUCCESS);
    assert_int_equal(r.sm.smCount, 24);
    assert_int_equal(res(plain, &r, CU_DEV_RESOURCE_TYPE_SM), CUDA_SUCCESS);
    assert_int_equal(r.sm.smCount, 132);
    assert_int_equal(res(NULL, &r, CU_DEV_RESOURCE_TYPE_SM), CUDA_SUCCESS);
    assert_int_equal(r.sm.smCount, 132);
    assert_int_equal(res(s, &r, CU_DEV_RESOURCE_TYPE_WORKQUEUE_CONFIG),
                     CUDA_ERROR_INVALID_RESOURCE_TYPE);
    assert_int_equal(res(s, NULL, CU_DEV_RESOURCE_TYPE_SM), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(p_fake_stream_sm_count((uintptr_t)s), 24);
    assert_int_equal(p_fake_stream_sm_count((uintptr_t)plain), 132);

    /* Work on it: a kernel of the primary context's module, copies, events. */
    int host[4] = {1, 2, 3, 4}, back[4] = {0}, n = 0, *pa = host;
    void *args[] = {&pa, &pa, &n};
    CUdeviceptr d = 0;
    CUevent e = new_event();
    p_fake_register_host_kernel("_Z3addPiPKii", host_add);
    host_add_runs = 0;
    assert_int_equal(D(cuLaunchKernel)(add_fn, 1, 1, 1, 4, 1, 1, 0, s, args, NULL), CUDA_SUCCESS);
    assert_int_equal(host_add_runs, 1);
    assert_int_equal(p_fake_last_launch()->sm_count, 24);
    assert_int_equal(p_fake_last_launch()->stream, (uintptr_t)s);
    assert_int_equal(D(cuMemAlloc)(&d, sizeof host), CUDA_SUCCESS);
    assert_int_equal(D(cuMemcpyHtoDAsync)(d, host, sizeof host, s), CUDA_SUCCESS);
    assert_int_equal(D(cuMemcpyDtoHAsync)(back, d, sizeof back, s), CUDA_SUCCESS);
    assert_memory_equal(host, back, sizeof host);
    assert_int_equal(D(cuEventRecord)(e, s), CUDA_SUCCESS);
    assert_int_equal(D(cuStreamWaitEvent)(plain, e, 0), CUDA_SUCCESS);
    assert_int_equal(D(cuStreamSynchronize)(s), CUDA_SUCCESS);

    /* Detached once the green context is gone: everything but cuStreamDestroy. */
    assert_int_equal(V(cuGreenCtxDestroy, 12040)(g), CUDA_SUCCESS);
    assert_int_equal(D(cuStreamSynchronize)(s), CUDA_ERROR_STREAM_DETACHED);
    assert_int_equal(D(cuStreamQuery)(s), CUDA_ERROR_STREAM_DETACHED);
    assert_int_equal(D(cuLaunchKernel)(add_fn, 1, 1, 1, 4, 1, 1, 0, s, args, NULL),
                     CUDA_ERROR_STREAM_DETACHED);
    assert_int_equal(D(cuEventRecord)(e, s), CUDA_ERROR_STREAM_DETACHED);
    assert_int_equal(D(cuMemcpyHtoDAsync)(d, host, sizeof host, s), CUDA_ERROR_STREAM_DETACHED);
    assert_int_equal(D(cuStreamGetPriority)(s, &priority), CUDA_ERROR_STREAM_DETACHED);
    assert_int_equal(V(cuStreamGetGreenCtx, 12040)(s, &got), CUDA_ERROR_STREAM_DETACHED);
    assert_int_equal(res(s, &r, CU_DEV_RESOURCE_TYPE_SM), CUDA_ERROR_STREAM_DETACHED);
    assert_int_equal(p_fake_stream_sm_count((uintptr_t)s), -1);
    assert_int_equal(D(cuStreamDestroy)(s), CUDA_SUCCESS);
    assert_int_equal(D(cuStreamSynchronize)(s), CUDA_ERROR_INVALID_HANDLE);
    assert_int_equal(D(cuStreamDestroy)(plain), CUDA_SUCCESS);
    assert_int_equal(D(cuMemFree)(d), CUDA_SUCCESS);
    assert_int_equal(D(cuEventDestroy)(e), CUDA_SUCCESS);
}

static void context_events_record_wait_and_refuse_captures(void **state)
{
    (void)state;
    CUgreenCtx g = new_green(16);
    CUcontext gc = context_of(g);
    CUevent start = new_event(), e = new_event();
    CUstream plain = NULL, gs = green_stream(g);
    float ms = 0;
    PFN_cuGreenCtxRecordEvent_v12040 green_record = V(cuGreenCtxRecordEvent, 12040);
    PFN_cuGreenCtxWaitEvent_v12040 green_wait = V(cuGreenCtxWaitEvent, 12040);
    PFN_cuCtxRecordEvent_v12050 record = V(cuCtxRecordEvent, 12050);
    PFN_cuCtxWaitEvent_v12050 wait = V(cuCtxWaitEvent, 12050);
    assert_int_equal(D(cuStreamCreate)(&plain, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
    /* A record stamps the event as a stream's record does (1.5 ms apart, fake_stream.c). */
    assert_int_equal(D(cuEventRecord)(start, plain), CUDA_SUCCESS);
    assert_int_equal(green_record(g, e), CUDA_SUCCESS);
    assert_int_equal(D(cuEventElapsedTime)(&ms, start, e), CUDA_SUCCESS);
    assert_true(ms == 1.5f);
    assert_int_equal(record(primary, e), CUDA_SUCCESS);
    assert_int_equal(record(gc, e), CUDA_SUCCESS);
    assert_int_equal(green_wait(g, e), CUDA_SUCCESS);
    assert_int_equal(wait(primary, e), CUDA_SUCCESS);
    assert_int_equal(wait(gc, e), CUDA_SUCCESS);
    assert_int_equal(record(NULL, e), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(green_record((CUgreenCtx)gc, e), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(green_record(g, (CUevent)&ms), CUDA_ERROR_INVALID_HANDLE);
    assert_int_equal(green_wait(g, (CUevent)&ms), CUDA_ERROR_INVALID_HANDLE);
    /* An event of another context: not recordable here, but it can be waited for. */
    CUcontext other = (CUcontext)p_fake_create_context(0);
    CUevent foreign = NULL;
    assert_non_null(other);
    assert_int_equal(D(cuCtxSetCurrent)(other), CUDA_SUCCESS);
    assert_int_equal(D(cuEventCreate)(&foreign, 0), CUDA_SUCCESS);
    assert_int_equal(D(cuCtxSetCurrent)(primary), CUDA_SUCCESS);
    assert_int_equal(green_record(g, foreign), CUDA_ERROR_INVALID_HANDLE);
    assert_int_equal(record(primary, foreign), CUDA_ERROR_INVALID_HANDLE);
    assert_int_equal(wait(primary, foreign), CUDA_SUCCESS);

    /* A capture on a green stream: the green context's record invalidates it. */
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    CUgraph graph = (CUgraph)1;
    assert_int_equal(D(cuStreamBeginCapture)(gs, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_SUCCESS);
    assert_int_equal(green_record(g, e), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    assert_int_equal(D(cuStreamIsCapturing)(gs, &status), CUDA_SUCCESS);
    assert_int_equal(status, CU_STREAM_CAPTURE_STATUS_INVALIDATED);
    assert_int_equal(D(cuStreamEndCapture)(gs, &graph), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    assert_null(graph);
    /* On a primary context's stream: a green record does not cover it, a primary one does. */
    assert_int_equal(D(cuStreamBeginCapture)(plain, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_SUCCESS);
    assert_int_equal(green_record(g, e), CUDA_SUCCESS);
    assert_int_equal(green_wait(g, e), CUDA_SUCCESS);
    assert_int_equal(record(primary, e), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    assert_int_equal(D(cuStreamEndCapture)(plain, &graph), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    /* Waiting for an event recorded in a capture invalidates that capture. */
    assert_int_equal(D(cuStreamBeginCapture)(plain, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_SUCCESS);
    assert_int_equal(D(cuEventRecord)(e, plain), CUDA_SUCCESS);
    assert_int_equal(green_wait(g, e), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    assert_int_equal(D(cuStreamEndCapture)(plain, &graph), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    /* Destroying a green context invalidates its streams' captures. */
    assert_int_equal(D(cuStreamBeginCapture)(gs, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_SUCCESS);
    assert_int_equal(V(cuGreenCtxDestroy, 12040)(g), CUDA_SUCCESS);
    assert_int_equal(D(cuStreamIsCapturing)(gs, &status), CUDA_ERROR_STREAM_DETACHED);
    assert_int_equal(green_record(g, e), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(record(gc, e), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(D(cuStreamDestroy)(gs), CUDA_SUCCESS);
    assert_int_equal(D(cuStreamDestroy)(plain), CUDA_SUCCESS);
}

/* Last: a reset kills the module the others use. */
static void primary_reset_ends_its_green_contexts_and_their_retains(void **state)
{
    (void)state;
    CUgreenCtx g = new_green(8);
    CUstream s = green_stream(g);
    unsigned retains = p_fake_primary_retains(0);
    size_t greens = p_fake_green_count();
    unsigned long long id = 0;
    assert_int_equal(D(cuDevicePrimaryCtxReset)(0), CUDA_SUCCESS);
    assert_int_equal(p_fake_green_count(), greens - 1);
    assert_int_equal(p_fake_primary_retains(0), retains - 1);
    assert_int_equal(V(cuGreenCtxGetId, 12090)(g, &id), CUDA_ERROR_CONTEXT_IS_DESTROYED);
    assert_int_equal(V(cuGreenCtxDestroy, 12040)(g), CUDA_ERROR_CONTEXT_IS_DESTROYED);
    CUcontext again = NULL;
    assert_int_equal(D(cuDevicePrimaryCtxRetain)(&again, 0), CUDA_SUCCESS);
    assert_int_equal(D(cuStreamSynchronize)(s), CUDA_ERROR_STREAM_DETACHED);
    assert_int_equal(D(cuStreamDestroy)(s), CUDA_SUCCESS);
    assert_int_equal(D(cuDevicePrimaryCtxRelease)(0), CUDA_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(driver_13000_hides_the_entries_of_newer_drivers_until_raised),
        cmocka_unit_test(device_resource_gives_the_sms_and_refuses_other_types),
        cmocka_unit_test(split_by_count_rounds_to_the_alignment_and_leaves_the_rest),
        cmocka_unit_test(structured_split_assigns_groups_in_order_and_discovers_counts),
        cmocka_unit_test(descriptors_take_parts_of_one_split_only),
        cmocka_unit_test(green_context_retains_its_primary_and_acts_as_a_context),
        cmocka_unit_test(green_context_creation_checks_its_arguments),
        cmocka_unit_test(green_streams_run_work_and_detach_with_their_green_context),
        cmocka_unit_test(context_events_record_wait_and_refuse_captures),
        cmocka_unit_test(primary_reset_ends_its_green_contexts_and_their_retains),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
