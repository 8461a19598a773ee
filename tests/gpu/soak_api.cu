// soak_api.cu - the soak of the runtime's own API families (issue 18): for $SOAK_SECONDS seconds
// (5 by default, so that tests/gpu/run.sh stays quick; tests/gpu/reliability.sh runs it for 300)
// one loop, each iteration:
//   streams   a stream created (by turns blocking, non-blocking, with a priority), copy in,
//             kernel, copy out, synchronised, destroyed
//   events    two events created, recorded around a kernel, synchronised, elapsed time read,
//             destroyed
//   graphs    a graph captured anew, instantiated, launched twice, destroyed; and one executable
//             graph kept for the whole run, its kernel node's parameters set anew and relaunched
//   pools     cudaMallocAsync / cudaFreeAsync from the device's default pool, and a pool created,
//             used (cudaMallocFromPoolAsync), trimmed and destroyed; every 16th iteration the
//             default pool trimmed to 0
//   memory    cudaMalloc / cudaFree, cudaMallocHost / cudaFreeHost
//   modules   soak_plugin.cu opened with dlopen (its constructor registers a fatbin; its module
//             holds 4 MB of device memory), its kernel launched and checked, closed with dlclose
//             (the module unloaded, the memory given back)
// Every result is checked on the host.
//
// The samples: after the first iteration (everything lazily loaded by then) and every
// $SOAK_SAMPLE_S seconds (3 by default), and once at the end, a line on stderr:
//   soak sample <seconds> rss_kb <VmRSS> device_used_kb <total - free> fds <open fds> threads <n>
// (/proc/self/status, cudaMemGetInfo, /proc/self/fd).  tests/gpu/reliability.sh reads them and
// works out the slopes; nothing is judged here, so that stdout holds only the PASS/FAIL line of
// each family, identical under both runtimes.
//
// The plugin: $SOAK_PLUGIN, else soak_plugin.<variant>.so beside this program (as in
// stress_threads.cu).  Against the fake driver (tests/e2e) the kernels are host functions
// registered with the fake.  Exit 0 pass, 1 fail, 2 no GPU.
// gpu-libs: -ldl -Xlinker --export-dynamic
// gpu-plugin: soak_plugin
#include "gpu_check.h"

#include <chrono>
#include <dirent.h>
#include <dlfcn.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static const int N = 4096;

extern "C" __global__ void soak_step(unsigned *data, int n, unsigned mul, unsigned add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = data[i] * mul + add + (unsigned)i;
}

static unsigned soak_value(unsigned x, int i, unsigned mul, unsigned add)
{
    return x * mul + add + (unsigned)i;
}

static unsigned plugin_value(unsigned x, int i, unsigned mul, unsigned add)
{
    return (x ^ mul) + 3u * add + (unsigned)i;      // soak_plugin.cu's soak_plugin_step
}

typedef int (*plugin_launch_fn)(unsigned *data, int n, unsigned mul, unsigned add,
                                cudaStream_t s);

// ---- the fake driver: host versions of the kernels --------------------------------------------

struct step_params {
    unsigned *data;
    int n;
    unsigned mul, add;
};

template <unsigned (*value)(unsigned, int, unsigned, unsigned)>
static void fake_kernel(const void *params, size_t size, const unsigned grid[3],
                        const unsigned block[3])
{
    step_params p;
    memset(&p, 0, sizeof p);
    memcpy(&p, params, size < sizeof p ? size : sizeof p);
    for (unsigned long long i = 0; i < (unsigned long long)grid[0] * block[0] && i < (unsigned)p.n; i++)
        p.data[i] = value(p.data[i], (int)i, p.mul, p.add);
}

static void register_fake_kernels(void)
{
    fake_register_fn reg = gpu_fake_registrar();
    if (!reg)
        return;
    reg("soak_step", fake_kernel<soak_value>);
    reg("soak_plugin_step", fake_kernel<plugin_value>);
}

// ---- the families ----------------------------------------------------------------------------

enum family { STREAMS, EVENTS, GRAPHS, POOLS, MEMORY, MODULES, FAMILIES };
static const char *const family_names[FAMILIES] = {
    "streams created, used and destroyed",
    "events created, recorded, timed and destroyed",
    "graphs captured, instantiated, launched and destroyed; one relaunched with new parameters",
    "stream-ordered allocations: default pool, created pools, trims",
    "cudaMalloc/cudaFree and cudaMallocHost/cudaFreeHost",
    "a library with kernels opened (dlopen), used and closed (dlclose)",
};
static long failures[FAMILIES];
static long done[FAMILIES];
static unsigned *h;           // pinned, N elements
static unsigned *d;           // device, N elements

static bool ok(cudaError_t e, family f, const char *what)
{
    if (e == cudaSuccess)
        return true;
    if (failures[f]++ == 0)
        printf("FAIL %s: %s -> " ERR_FMT "\n", family_names[f], what, ERR_ARGS(e));
    cudaGetLastError();
    return false;
}

static unsigned seed_of(long it, int i) { return (unsigned)it * 7919u + (unsigned)i; }
static unsigned mul_of(long it) { return 2654435761u + (unsigned)it * 2u; }
static unsigned add_of(long it) { return (unsigned)it * 31u + 7u; }

static void seed(long it)
{
    for (int i = 0; i < N; i++)
        h[i] = seed_of(it, i);
}

// h against `times` steps of the seed of iteration it (by the program's kernel or the plugin's).
static void verify(family f, long it, int times, bool plugin)
{
    for (int i = 0; i < N; i++) {
        unsigned want = seed_of(it, i);
        for (int k = 0; k < times; k++)
            want = plugin ? plugin_value(want, i, mul_of(it), add_of(it))
                          : soak_value(want, i, mul_of(it), add_of(it));
        if (h[i] != want) {
            if (failures[f]++ == 0)
                printf("FAIL %s: element %d wrong\n", family_names[f], i);
            return;
        }
    }
    done[f]++;
}

// Copy in, `times` steps, copy out on s (not synchronised).
static bool queue_steps(cudaStream_t s, unsigned *dev, long it, int times, family f)
{
    if (!ok(cudaMemcpyAsync(dev, h, N * sizeof *h, cudaMemcpyHostToDevice, s), f, "copy in"))
        return false;
    for (int k = 0; k < times; k++) {
        soak_step<<<N / 256, 256, 0, s>>>(dev, N, mul_of(it), add_of(it));
        if (!ok(cudaGetLastError(), f, "launch"))
            return false;
    }
    return ok(cudaMemcpyAsync(h, dev, N * sizeof *h, cudaMemcpyDeviceToHost, s), f, "copy out");
}

static void streams(long it)
{
    cudaStream_t s = NULL;
    cudaError_t e;
    switch (it % 3) {
    case 0: e = cudaStreamCreate(&s); break;
    case 1: e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking); break;
    default: e = cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, -1); break;
    }
    if (!ok(e, STREAMS, "cudaStreamCreate"))
        return;
    seed(it);
    bool queued = queue_steps(s, d, it, 1, STREAMS);
    if (ok(cudaStreamSynchronize(s), STREAMS, "cudaStreamSynchronize") && queued)
        verify(STREAMS, it, 1, false);
    ok(cudaStreamDestroy(s), STREAMS, "cudaStreamDestroy");
}

static void events(long it, cudaStream_t s)
{
    cudaEvent_t a = NULL, b = NULL;
    float ms = -1;
    if (!ok(cudaEventCreate(&a), EVENTS, "cudaEventCreate") ||
        !ok(cudaEventCreateWithFlags(&b, cudaEventBlockingSync), EVENTS, "cudaEventCreateWithFlags")) {
        cudaEventDestroy(a);
        return;
    }
    seed(it);
    if (ok(cudaEventRecord(a, s), EVENTS, "cudaEventRecord") && queue_steps(s, d, it, 2, EVENTS) &&
        ok(cudaEventRecord(b, s), EVENTS, "cudaEventRecord") &&
        ok(cudaEventSynchronize(b), EVENTS, "cudaEventSynchronize") &&
        ok(cudaEventElapsedTime(&ms, a, b), EVENTS, "cudaEventElapsedTime")) {
        if (ms < 0 && failures[EVENTS]++ == 0)
            printf("FAIL %s: negative elapsed time\n", family_names[EVENTS]);
        verify(EVENTS, it, 2, false);
    }
    ok(cudaEventDestroy(a), EVENTS, "cudaEventDestroy");
    ok(cudaEventDestroy(b), EVENTS, "cudaEventDestroy");
}

// The executable graph kept for the run: one kernel node on d, its parameters set each time.
static cudaGraphExec_t kept_exec;
static cudaGraphNode_t kept_node;
static cudaGraph_t kept_graph;

static cudaKernelNodeParams step_node(void **args)
{
    cudaKernelNodeParams k;
    memset(&k, 0, sizeof k);
    k.gridDim = dim3(N / 256);
    k.blockDim = dim3(256);
    k.func = (void *)soak_step;
    k.kernelParams = args;
    return k;
}

static void graphs(long it, cudaStream_t s)
{
    cudaGraph_t g = NULL;
    cudaGraphExec_t exec = NULL;
    seed(it);
    bool captured = ok(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), GRAPHS,
                       "cudaStreamBeginCapture");
    if (captured) {
        bool queued = queue_steps(s, d, it, 1, GRAPHS);
        captured = ok(cudaStreamEndCapture(s, &g), GRAPHS, "cudaStreamEndCapture") && queued;
    }
    if (captured && ok(cudaGraphInstantiate(&exec, g, 0), GRAPHS, "cudaGraphInstantiate") &&
        ok(cudaGraphLaunch(exec, s), GRAPHS, "cudaGraphLaunch") &&
        ok(cudaStreamSynchronize(s), GRAPHS, "cudaStreamSynchronize")) {
        verify(GRAPHS, it, 1, false);
        // Launched again on its own output: copy in reads h, which now holds one step.
        if (ok(cudaGraphLaunch(exec, s), GRAPHS, "cudaGraphLaunch again") &&
            ok(cudaStreamSynchronize(s), GRAPHS, "cudaStreamSynchronize"))
            verify(GRAPHS, it, 2, false);
    }
    if (exec)
        ok(cudaGraphExecDestroy(exec), GRAPHS, "cudaGraphExecDestroy");
    if (g)
        ok(cudaGraphDestroy(g), GRAPHS, "cudaGraphDestroy");

    // The kept executable graph, its kernel's parameters set for this iteration.
    int n = N;
    unsigned mul = mul_of(it), add = add_of(it);
    void *args[] = { &d, &n, &mul, &add };
    cudaKernelNodeParams k = step_node(args);
    seed(it);
    if (ok(cudaGraphExecKernelNodeSetParams(kept_exec, kept_node, &k), GRAPHS,
           "cudaGraphExecKernelNodeSetParams") &&
        ok(cudaMemcpyAsync(d, h, N * sizeof *h, cudaMemcpyHostToDevice, s), GRAPHS, "copy in") &&
        ok(cudaGraphLaunch(kept_exec, s), GRAPHS, "cudaGraphLaunch kept") &&
        ok(cudaMemcpyAsync(h, d, N * sizeof *h, cudaMemcpyDeviceToHost, s), GRAPHS, "copy out") &&
        ok(cudaStreamSynchronize(s), GRAPHS, "cudaStreamSynchronize"))
        verify(GRAPHS, it, 1, false);
}

static void pools(long it, cudaStream_t s)
{
    unsigned *a = NULL, *b = NULL;
    size_t big = ((size_t)1 << 20) << (it % 5);          // 1 to 16 MB, by turns
    seed(it);
    if (ok(cudaMallocAsync((void **)&a, N * sizeof *a, s), POOLS, "cudaMallocAsync") &&
        ok(cudaMallocAsync((void **)&b, big, s), POOLS, "cudaMallocAsync big") &&
        ok(cudaMemsetAsync(b, 0, big, s), POOLS, "cudaMemsetAsync")) {
        bool queued = queue_steps(s, a, it, 1, POOLS);
        bool freed = ok(cudaFreeAsync(a, s), POOLS, "cudaFreeAsync") &&
                     ok(cudaFreeAsync(b, s), POOLS, "cudaFreeAsync");
        if (ok(cudaStreamSynchronize(s), POOLS, "cudaStreamSynchronize") && queued && freed)
            verify(POOLS, it, 1, false);
    }
    cudaMemPool_t pool = NULL;
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    if (ok(cudaMemPoolCreate(&pool, &props), POOLS, "cudaMemPoolCreate")) {
        void *p = NULL;
        if (ok(cudaMallocFromPoolAsync(&p, big, pool, s), POOLS, "cudaMallocFromPoolAsync") &&
            ok(cudaMemsetAsync(p, 1, big, s), POOLS, "cudaMemsetAsync"))
            ok(cudaFreeAsync(p, s), POOLS, "cudaFreeAsync");
        ok(cudaStreamSynchronize(s), POOLS, "cudaStreamSynchronize");
        ok(cudaMemPoolTrimTo(pool, 0), POOLS, "cudaMemPoolTrimTo");
        ok(cudaMemPoolDestroy(pool), POOLS, "cudaMemPoolDestroy");
    }
    if (it % 16 == 15) {
        cudaMemPool_t def = NULL;
        if (ok(cudaDeviceGetDefaultMemPool(&def, 0), POOLS, "cudaDeviceGetDefaultMemPool"))
            ok(cudaMemPoolTrimTo(def, 0), POOLS, "cudaMemPoolTrimTo default");
    }
}

static void memory(long it)
{
    void *dev = NULL, *host = NULL;
    size_t bytes = ((size_t)256 << 10) << (it % 4);
    if (ok(cudaMalloc(&dev, bytes), MEMORY, "cudaMalloc") &&
        ok(cudaMallocHost(&host, bytes), MEMORY, "cudaMallocHost") &&
        ok(cudaMemset(dev, (int)(it & 0xff), bytes), MEMORY, "cudaMemset") &&
        ok(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost), MEMORY, "cudaMemcpy")) {
        const unsigned char *c = (const unsigned char *)host;
        if (c[0] == (unsigned char)it && c[bytes - 1] == (unsigned char)it)
            done[MEMORY]++;
        else if (failures[MEMORY]++ == 0)
            printf("FAIL %s: bytes wrong\n", family_names[MEMORY]);
    }
    if (dev)
        ok(cudaFree(dev), MEMORY, "cudaFree");
    if (host)
        ok(cudaFreeHost(host), MEMORY, "cudaFreeHost");
}

static void modules(long it, cudaStream_t s)
{
    void *lib = dlopen(gpu_plugin_path("SOAK_PLUGIN", "soak_plugin"), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        if (failures[MODULES]++ == 0)
            printf("FAIL %s: dlopen: %s\n", family_names[MODULES], dlerror());
        return;
    }
    void *sym = dlsym(lib, "soak_plugin_launch");
    plugin_launch_fn launch = NULL;
    memcpy(&launch, &sym, sizeof launch);
    seed(it);
    if (launch && ok(cudaMemcpyAsync(d, h, N * sizeof *h, cudaMemcpyHostToDevice, s), MODULES, "copy in") &&
        ok((cudaError_t)launch(d, N, mul_of(it), add_of(it), s), MODULES, "plugin launch") &&
        ok(cudaMemcpyAsync(h, d, N * sizeof *h, cudaMemcpyDeviceToHost, s), MODULES, "copy out") &&
        ok(cudaStreamSynchronize(s), MODULES, "cudaStreamSynchronize"))
        verify(MODULES, it, 1, true);
    else if (!launch && failures[MODULES]++ == 0)
        printf("FAIL %s: dlsym soak_plugin_launch\n", family_names[MODULES]);
    if (dlclose(lib) != 0 && failures[MODULES]++ == 0)
        printf("FAIL %s: dlclose\n", family_names[MODULES]);
}

// ---- the samples -----------------------------------------------------------------------------

static long status_field(const char *name)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long value = -1;
    size_t len = strlen(name);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, name, len) == 0 && line[len] == ':') {
            value = atol(line + len + 1);
            break;
        }
    if (f)
        fclose(f);
    return value;
}

static long open_fds(void)
{
    DIR *dir = opendir("/proc/self/fd");
    long count = 0;
    if (!dir)
        return -1;
    while (struct dirent *e = readdir(dir))
        count += e->d_name[0] != '.';
    closedir(dir);
    return count - 1;                 // the directory's own descriptor
}

static void sample(double seconds)
{
    size_t free_bytes = 0, total = 0;
    cudaError_t e = cudaMemGetInfo(&free_bytes, &total);
    long used_kb = e == cudaSuccess ? (long)((total - free_bytes) >> 10) : -1;
    fprintf(stderr, "soak sample %.1f rss_kb %ld device_used_kb %ld fds %ld threads %ld\n",
            seconds, status_field("VmRSS"), used_kb, open_fds(), status_field("Threads"));
}

int main(void)
{
    register_fake_kernels();
    gpu_require("soak_api");
    const char *env = getenv("SOAK_SECONDS");
    double seconds = env && *env ? atof(env) : 5;
    env = getenv("SOAK_SAMPLE_S");
    double every = env && *env && atof(env) > 0 ? atof(env) : 3;
    env = getenv("SOAK_TIMEOUT_S");
    gpu_watchdog(env && *env ? (unsigned)atoi(env) : (unsigned)seconds + 120,
                 "FAIL soak_api: not finished in time (hang?)\n");

    cudaStream_t s = NULL;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaMallocHost((void **)&h, N * sizeof *h));
    CHECK(cudaMalloc((void **)&d, N * sizeof *d));
    int n = N;
    unsigned mul = 1, add = 0;
    void *args[] = { &d, &n, &mul, &add };
    cudaKernelNodeParams k = step_node(args);
    CHECK(cudaGraphCreate(&kept_graph, 0));
    CHECK(cudaGraphAddKernelNode(&kept_node, kept_graph, NULL, 0, &k));
    CHECK(cudaGraphInstantiate(&kept_exec, kept_graph, 0));

    auto start = std::chrono::steady_clock::now();
    double elapsed = 0, next_sample = 0;
    long it = 0;
    do {
        streams(it);
        events(it, s);
        graphs(it, s);
        pools(it, s);
        memory(it);
        modules(it, s);
        it++;
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (elapsed >= next_sample) {      // the first after one iteration: all loaded by then
            sample(elapsed);
            next_sample = elapsed + every;
        }
    } while (elapsed < seconds);
    sample(elapsed);
    fprintf(stderr, "soak iterations %ld in %.1f s\n", it, elapsed);

    CHECK(cudaGraphExecDestroy(kept_exec));
    CHECK(cudaGraphDestroy(kept_graph));
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(h));
    CHECK(cudaStreamDestroy(s));
    bool pass = true;
    for (int f = 0; f < FAMILIES; f++) {
        bool good = failures[f] == 0 && done[f] > 0;
        printf("%s: %s\n", family_names[f], good ? "PASS" : "FAIL");
        pass &= good;
    }
    printf("soak_api: %s\n", pass ? "PASS" : "FAIL");
    return pass ? 0 : 1;
}
