// conf_mempool.cu - the stream-ordered allocator and memory pools under both runtimes:
// cudaMallocAsync / cudaFreeAsync on streams, default-pool attributes (values set here, never
// defaults), an explicit pool (create, allocate, trim, destroy), the device's current pool,
// access descriptors for device 0, and invalid-argument probes.  Only results and error codes
// are printed.
#include "gpu_check.h"

#include <string.h>

#define N 4096

__global__ void fill(int *p, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = base + i;
}

static int ok = 1;

static void probe(const char *what, cudaError_t e)
{
    cudaError_t last = cudaGetLastError();
    printf("%-52s -> " ERR_FMT ", last error " ERR_FMT "\n", what, ERR_ARGS(e), ERR_ARGS(last));
}

/* Fills p on stream s, copies it back, and checks p[i] == base + i. */
static void fill_and_check(const char *what, int *p, int base, cudaStream_t s)
{
    static int h[N];
    fill<<<(N + 255) / 256, 256, 0, s>>>(p, N, base);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost));
    long long sum = 0;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        sum += h[i];
        bad += h[i] != base + i;
    }
    printf("%-40s: sum %lld, %d wrong\n", what, sum, bad);
    ok &= bad == 0;
}

static void async_allocations(void)
{
    int *p = NULL, *q = NULL;
    CHECK(cudaMallocAsync((void **)&p, N * sizeof(int), cudaStreamPerThread));
    fill_and_check("cudaMallocAsync on per-thread stream", p, 1, cudaStreamPerThread);
    CHECK(cudaFreeAsync(p, cudaStreamPerThread));
    CHECK(cudaMallocAsync((void **)&q, N * sizeof(int), 0));
    fill_and_check("cudaMallocAsync on legacy stream", q, 100, 0);
    CHECK(cudaFreeAsync(q, 0));
    CHECK(cudaDeviceSynchronize());
    printf("async allocations freed\n");
}

static void default_pool(void)
{
    cudaMemPool_t pool = NULL, current = NULL;
    CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
    CHECK(cudaDeviceGetMemPool(&current, 0));
    printf("current pool is the default pool: %d\n", current == pool);

    unsigned long long threshold = 64ull << 20, back = 0;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &back));
    printf("release threshold set %llu, read %llu\n", threshold, back);
    ok &= back == threshold;
    threshold = 0;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &back));
    printf("release threshold set %llu, read %llu\n", threshold, back);
    ok &= back == threshold;

    int flag = 0, flag_back = 1;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &flag));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &flag_back));
    printf("reuse-allow-opportunistic set %d, read %d\n", flag, flag_back);
    ok &= flag_back == flag;
    flag = 1;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &flag));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &flag_back));
    printf("reuse-allow-opportunistic set %d, read %d\n", flag, flag_back);
    ok &= flag_back == flag;

    enum cudaMemAccessFlags access = cudaMemAccessFlagsProtNone;
    struct cudaMemLocation where;
    memset(&where, 0, sizeof where);
    where.type = cudaMemLocationTypeDevice;
    where.id = 0;
    CHECK(cudaMemPoolGetAccess(&access, pool, &where));
    printf("default pool access from device 0: %d\n", (int)access);
}

static void explicit_pool(void)
{
    struct cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t pool = NULL, def = NULL, current = NULL;
    CHECK(cudaMemPoolCreate(&pool, &props));

    int *p = NULL;
    CHECK(cudaMallocFromPoolAsync((void **)&p, N * sizeof(int), pool, cudaStreamPerThread));
    fill_and_check("cudaMallocFromPoolAsync", p, 7, cudaStreamPerThread);
    CHECK(cudaFreeAsync(p, cudaStreamPerThread));
    CHECK(cudaDeviceSynchronize());
    unsigned long long used = 1;
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    printf("explicit pool used after free: %llu\n", used);
    CHECK(cudaMemPoolTrimTo(pool, 0));
    printf("explicit pool trimmed\n");

    struct cudaMemAccessDesc desc;
    memset(&desc, 0, sizeof desc);
    desc.location.type = cudaMemLocationTypeDevice;
    desc.location.id = 0;
    desc.flags = cudaMemAccessFlagsProtReadWrite;
    CHECK(cudaMemPoolSetAccess(pool, &desc, 1));
    enum cudaMemAccessFlags access = cudaMemAccessFlagsProtNone;
    CHECK(cudaMemPoolGetAccess(&access, pool, &desc.location));
    printf("explicit pool access from device 0: %d\n", (int)access);

    /* Made the device's current pool, it serves cudaMallocAsync. */
    CHECK(cudaDeviceGetDefaultMemPool(&def, 0));
    CHECK(cudaDeviceSetMemPool(0, pool));
    CHECK(cudaDeviceGetMemPool(&current, 0));
    printf("current pool is the explicit pool: %d\n", current == pool);
    CHECK(cudaMallocAsync((void **)&p, N * sizeof(int), 0));
    fill_and_check("cudaMallocAsync from the current pool", p, 11, 0);
    CHECK(cudaFreeAsync(p, 0));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaDeviceSetMemPool(0, def));
    CHECK(cudaMemPoolDestroy(pool));
    printf("explicit pool destroyed\n");
}

static void probes(void)
{
    cudaMemPool_t pool = NULL;
    CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
    probe("cudaMallocAsync(devPtr NULL)", cudaMallocAsync(NULL, 16, 0));
    probe("cudaDeviceGetDefaultMemPool(device 99)", cudaDeviceGetDefaultMemPool(&pool, 99));
    probe("cudaDeviceGetDefaultMemPool(pool NULL)", cudaDeviceGetDefaultMemPool(NULL, 0));
    probe("cudaDeviceGetMemPool(device 99)", cudaDeviceGetMemPool(&pool, 99));
    /* NULL properties, attribute values and access locations are not probed: NVIDIA's runtime
     * crashed (SIGSEGV) on one of them on the H200. */
}

int main(void)
{
    gpu_require("conf_mempool");
    async_allocations();
    default_pool();
    explicit_pool();
    probes();
    printf("conf_mempool: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
