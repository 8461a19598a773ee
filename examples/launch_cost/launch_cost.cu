// launch_cost.cu - what one small kernel launch costs against the kernel's own time, and four
// ways of running N small dependent steps on the GPU through minicudart:
//
//   launches    N launches of the step kernel, one by one, on one stream
//   graph       the same N launches captured once into a CUDA graph, instantiated once, and the
//               graph replayed (capture and instantiation are timed apart from the replay)
//   fused       one kernel that does the N steps itself
//   persistent  one kernel, launched once for the whole run, that takes the steps from a work
//               queue in mapped (page-locked, device-visible) host memory while the host writes
//               it; a STOP item ends it
//
// One step on n elements (4096 by default) is y[i] = a_k * y[i] + x[i] in 32-bit unsigned
// arithmetic, with a_k = 2k + 1 for the k-th step: exact (mod 2^32) and order-sensitive, so a
// missed, repeated or reordered step changes the result.  Every repetition of every variant is
// checked against the same recurrence computed on the CPU.
//
// Times are host CLOCK_MONOTONIC, medians of the timed repetitions (one untimed warm-up first):
//   enqueue  until the host has handed over all N steps (the launch loop; cudaGraphLaunch; the
//            fused launch; writing N work items)
//   wall     until the results are complete (stream synchronised; every block of the persistent
//            kernel has reported the last item done)
//
// usage: launch_cost [-o CSV] [-n N,N,...] [-r REPS] [-e ELEMENTS] [-t TIMEOUT_S]
//   defaults: -o launch_cost.csv -n 1,10,100,1000,10000 -r 5 -e 4096 -t 10
// Prints a table on stdout and writes the CSV (plot.gp draws it).
// Exit codes: 0 pass, 1 a CUDA call failed, a result is wrong or the persistent kernel timed
// out, 2 no CUDA driver or GPU here.
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(call)                                                                           \
    do {                                                                                      \
        cudaError_t check_err_ = (call);                                                      \
        if (check_err_ != cudaSuccess) {                                                      \
            printf("launch_cost: %s failed at line %d: %s (%d): %s\n", #call, __LINE__,       \
                   cudaGetErrorName(check_err_), (int)check_err_,                             \
                   cudaGetErrorString(check_err_));                                           \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

#define THREADS 256           // threads per block, and work items one block reads at once
#define MAX_NS 16             // values of N in one run
#define MAX_REPS 101
#define BASELINE_REPS 200
#define QUEUE_CAP 16384u      // work-queue slots (a power of two: indices wrap mod 2^32)
#define MAX_BLOCKS 256        // blocks of the persistent kernel (done counters)

// ---- the kernels ---------------------------------------------------------------------------

__host__ __device__ static inline uint32_t coeff(uint32_t k) { return 2u * k + 1u; }

__global__ void empty_kernel(void) {}

// One step: y = a*y + x on every element.
__global__ void step(uint32_t *y, const uint32_t *x, uint32_t a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * y[i] + x[i];
}

// Steps 0..steps-1 in one kernel: each element's chain stays in a register.
__global__ void fused(uint32_t *__restrict__ y, const uint32_t *__restrict__ x, int steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t yi = y[i], xi = x[i];
    for (int k = 0; k < steps; k++)
        yi = coeff((uint32_t)k) * yi + xi;
    y[i] = yi;
}

enum { OP_STEP = 1, OP_RESET = 2, OP_EXPORT = 3, OP_STOP = 4 };

struct work_item {
    uint32_t op;
    uint32_t a;  // OP_STEP's coefficient
};

// The work queue, in mapped host memory.  The host writes items[idx % QUEUE_CAP] and then
// publishes tail = idx + 1; each block of the persistent kernel takes items in order and reports
// how many it has finished in done[block].  Indices are free-running 32-bit counters.
struct work_queue {
    volatile uint32_t tail;
    volatile uint32_t status;  // set by the device: 1 = a block gave up waiting (idle timeout)
    uint32_t pad[30];          // tail and status on their own 128-byte line
    volatile uint32_t done[MAX_BLOCKS];
    struct work_item items[QUEUE_CAP];
};

__device__ static inline uint64_t global_ns(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// The persistent kernel: every block runs the whole queue on its own elements (the elements are
// independent, so blocks need not wait for each other).  Thread 0 polls the tail; when items are
// there, the block reads up to THREADS of them at once (one PCIe read per thread, in parallel),
// runs them, and reports.  A block that sees no new item for idle_ns sets status and exits: the
// kernel never spins forever, whatever the host does.
__global__ void persistent(struct work_queue *q, uint32_t *y, const uint32_t *x,
                           const uint32_t *y_init, uint32_t *out, int n, uint64_t idle_ns)
{
    __shared__ struct work_item batch[THREADS];
    __shared__ uint32_t avail;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t head = 0;
    for (;;) {
        if (threadIdx.x == 0) {
            uint32_t tail = q->tail;
            uint64_t since = global_ns();
            while (tail == head && global_ns() - since < idle_ns)
                tail = q->tail;
            if (tail == head)
                q->status = 1;
            avail = tail - head < THREADS ? tail - head : THREADS;
            __threadfence_system();  // acquire: the items are read after the tail that covers them
        }
        __syncthreads();
        uint32_t count = avail;
        if (count == 0)
            return;  // idle timeout
        if (threadIdx.x < count) {
            const volatile struct work_item *slot = &q->items[(head + threadIdx.x) % QUEUE_CAP];
            batch[threadIdx.x].op = slot->op;
            batch[threadIdx.x].a = slot->a;
        }
        __syncthreads();
        int stop = 0, exported = 0;
        uint32_t j = 0;
        while (j < count && !stop) {
            struct work_item w = batch[j++];
            if (i < n) {
                if (w.op == OP_STEP)
                    y[i] = w.a * y[i] + x[i];
                else if (w.op == OP_RESET)
                    y[i] = y_init[i];
                else if (w.op == OP_EXPORT)
                    out[i] = y[i];
            }
            exported |= w.op == OP_EXPORT;
            stop = w.op == OP_STOP;
        }
        head += j;
        // Release: the host reads out[] once done[] covers the EXPORT.  y needs no fence: only
        // this thread reads it, in program order.
        if (exported)
            __threadfence_system();
        __syncthreads();
        if (threadIdx.x == 0)
            q->done[blockIdx.x] = head;
        if (stop)
            return;
    }
}

// ---- host helpers ---------------------------------------------------------------------------

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// Median of v[0..n) (sorts v).
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct config {
    const char *csv_path;
    int ns[MAX_NS];
    int n_count;
    int reps;
    int elements;
    double timeout_s;
};

struct bench {
    struct config cfg;
    int blocks;
    cudaStream_t stream;
    uint32_t *d_x, *d_y, *d_y_init;
    uint32_t *h_x, *h_y_init, *h_y;
    uint32_t *ref[MAX_NS];  // the CPU's result after ns[j] steps
    int failures;
};

// One variant at one N: medians and spread of the timed repetitions.
struct result {
    const char *variant;
    int n;
    double enqueue_us, wall_us, wall_min_us, wall_max_us;
    double capture_us, instantiate_us;  // graph only, else negative
    int verified;                       // repetitions that matched the CPU (warm-up included)
};

// Compares got[] with ref[] and counts a failure on the first mismatch (printed with context).
static int verify(struct bench *b, const uint32_t *got, const uint32_t *ref, const char *variant,
                  int n)
{
    for (int i = 0; i < b->cfg.elements; i++) {
        if (got[i] != ref[i]) {
            if (b->failures < 10)  // the first few say enough
                printf("launch_cost: %s N=%d: y[%d] = %u, expected %u: FAIL\n", variant, n, i,
                   got[i], ref[i]);
            b->failures++;
            return 0;
        }
    }
    return 1;
}

static int verify_device(struct bench *b, int j, const char *variant)
{
    CHECK(cudaMemcpy(b->h_y, b->d_y, b->cfg.elements * sizeof(uint32_t),
                     cudaMemcpyDeviceToHost));
    return verify(b, b->h_y, b->ref[j], variant, b->cfg.ns[j]);
}

static void reset_y(struct bench *b)
{
    CHECK(cudaMemcpyAsync(b->d_y, b->d_y_init, b->cfg.elements * sizeof(uint32_t),
                          cudaMemcpyDeviceToDevice, b->stream));
    CHECK(cudaStreamSynchronize(b->stream));
}

static void launch_steps(struct bench *b, int steps)
{
    for (int k = 0; k < steps; k++)
        step<<<b->blocks, THREADS, 0, b->stream>>>(b->d_y, b->d_x, coeff((uint32_t)k),
                                                   b->cfg.elements);
}

static struct result make_result(const char *variant, int n)
{
    struct result r = {variant, n, 0, 0, 0, 0, -1, -1, 0};
    return r;
}

// Fills r's times from per-repetition arrays (sorted in place).
static void summarise(struct result *r, double *enqueue, double *wall, int reps)
{
    r->enqueue_us = median(enqueue, reps);
    r->wall_us = median(wall, reps);
    r->wall_min_us = wall[0];
    r->wall_max_us = wall[reps - 1];
}

// ---- the variants ---------------------------------------------------------------------------

static struct result run_launches(struct bench *b, int j)
{
    int n = b->cfg.ns[j];
    struct result r = make_result("launches", n);
    double enqueue[MAX_REPS], wall[MAX_REPS];
    for (int rep = -1; rep < b->cfg.reps; rep++) {  // rep -1: warm-up
        reset_y(b);
        double t0 = now_us();
        launch_steps(b, n);
        double t1 = now_us();
        CHECK(cudaStreamSynchronize(b->stream));
        double t2 = now_us();
        CHECK(cudaGetLastError());
        r.verified += verify_device(b, j, r.variant);
        if (rep >= 0) {
            enqueue[rep] = t1 - t0;
            wall[rep] = t2 - t0;
        }
    }
    summarise(&r, enqueue, wall, b->cfg.reps);
    return r;
}

static struct result run_graph(struct bench *b, int j)
{
    int n = b->cfg.ns[j];
    struct result r = make_result("graph", n);
    double enqueue[MAX_REPS], wall[MAX_REPS];
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    double t0 = now_us();
    CHECK(cudaStreamBeginCapture(b->stream, cudaStreamCaptureModeThreadLocal));
    launch_steps(b, n);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamEndCapture(b->stream, &graph));
    double t1 = now_us();
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    double t2 = now_us();
    r.capture_us = t1 - t0;
    r.instantiate_us = t2 - t1;
    for (int rep = -1; rep < b->cfg.reps; rep++) {  // the warm-up replay also uploads the graph
        reset_y(b);
        double s0 = now_us();
        CHECK(cudaGraphLaunch(exec, b->stream));
        double s1 = now_us();
        CHECK(cudaStreamSynchronize(b->stream));
        double s2 = now_us();
        r.verified += verify_device(b, j, r.variant);
        if (rep >= 0) {
            enqueue[rep] = s1 - s0;
            wall[rep] = s2 - s0;
        }
    }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    summarise(&r, enqueue, wall, b->cfg.reps);
    return r;
}

static struct result run_fused(struct bench *b, int j)
{
    int n = b->cfg.ns[j];
    struct result r = make_result("fused", n);
    double enqueue[MAX_REPS], wall[MAX_REPS];
    for (int rep = -1; rep < b->cfg.reps; rep++) {
        reset_y(b);
        double t0 = now_us();
        fused<<<b->blocks, THREADS, 0, b->stream>>>(b->d_y, b->d_x, n, b->cfg.elements);
        double t1 = now_us();
        CHECK(cudaStreamSynchronize(b->stream));
        double t2 = now_us();
        CHECK(cudaGetLastError());
        r.verified += verify_device(b, j, r.variant);
        if (rep >= 0) {
            enqueue[rep] = t1 - t0;
            wall[rep] = t2 - t0;
        }
    }
    summarise(&r, enqueue, wall, b->cfg.reps);
    return r;
}

// ---- the persistent kernel's host side ------------------------------------------------------

struct pqueue {
    struct work_queue *q;  // host view
    uint32_t *out;         // mapped: the device's OP_EXPORT lands here
    cudaStream_t stream;   // non-blocking: nothing else on the device waits for the kernel
    uint32_t pushed;       // items written so far
    int blocks;
    double timeout_us;
    int broken;            // a wait timed out or the kernel ended: stop using the queue
};

// Finished items of the slowest block.
static uint32_t slowest_done(const struct pqueue *p)
{
    uint32_t low = __atomic_load_n(&p->q->done[0], __ATOMIC_ACQUIRE);
    for (int blk = 1; blk < p->blocks; blk++) {
        uint32_t d = __atomic_load_n(&p->q->done[blk], __ATOMIC_ACQUIRE);
        if ((int32_t)(d - low) < 0)
            low = d;
    }
    return low;
}

// Waits until every block has finished `target` items.  Returns 0, or -1 (and marks the queue
// broken, saying why) on the host timeout, the device's idle timeout, or the kernel having ended.
static int pq_wait(struct pqueue *p, uint32_t target, const char *what)
{
    double start = now_us();
    for (unsigned spin = 1;; spin++) {
        if ((int32_t)(slowest_done(p) - target) >= 0)
            return 0;
        if (p->broken)
            return -1;
        const char *why = NULL;
        if (p->q->status != 0)
            why = "a block of the persistent kernel gave up waiting for work (device idle timeout)";
        else if (now_us() - start > p->timeout_us)
            why = "timed out waiting for the persistent kernel";
        else if (spin % 4096 == 0 && cudaStreamQuery(p->stream) != cudaErrorNotReady)
            why = "the persistent kernel is no longer running";
        if (why) {
            printf("launch_cost: persistent: %s (%s, item %u, slowest block at %u): FAIL\n", why,
                   what, target, slowest_done(p));
            p->broken = 1;
            return -1;
        }
    }
}

// Writes one work item and publishes it.  Waits for a free slot when the queue is full.
static int pq_push(struct pqueue *p, uint32_t op, uint32_t a)
{
    if (p->broken)
        return -1;
    if (p->pushed - slowest_done(p) >= QUEUE_CAP &&
        pq_wait(p, p->pushed - QUEUE_CAP + 1, "queue full") != 0)
        return -1;
    struct work_item *slot = &p->q->items[p->pushed % QUEUE_CAP];
    slot->op = op;
    slot->a = a;
    p->pushed++;
    __atomic_store_n(&p->q->tail, p->pushed, __ATOMIC_RELEASE);  // the item, then the tail
    return 0;
}

// Pushes one item and waits for it: used for the untimed RESET and EXPORT.
static int pq_run(struct pqueue *p, uint32_t op, const char *what)
{
    return pq_push(p, op, 0) == 0 ? pq_wait(p, p->pushed, what) : -1;
}

// Launches the persistent kernel (cooperatively: the launch fails unless every block can be
// resident at once, which the queue needs) and returns the launch-to-first-item-done time, or a
// negative value on failure.
static double pq_start(struct bench *b, struct pqueue *p)
{
    memset(p, 0, sizeof *p);
    p->blocks = b->blocks;
    p->timeout_us = b->cfg.timeout_s * 1e6;
    if (p->blocks > MAX_BLOCKS) {
        printf("launch_cost: persistent: %d blocks, at most %d: FAIL\n", p->blocks, MAX_BLOCKS);
        return -1;
    }
    CHECK(cudaHostAlloc((void **)&p->q, sizeof *p->q, cudaHostAllocMapped));
    CHECK(cudaHostAlloc((void **)&p->out, b->cfg.elements * sizeof(uint32_t),
                        cudaHostAllocMapped));
    memset((void *)p->q, 0, sizeof *p->q);
    CHECK(cudaStreamCreateWithFlags(&p->stream, cudaStreamNonBlocking));
    struct work_queue *dq;
    uint32_t *dout;
    CHECK(cudaHostGetDevicePointer((void **)&dq, p->q, 0));
    CHECK(cudaHostGetDevicePointer((void **)&dout, p->out, 0));
    uint64_t idle_ns = (uint64_t)(2 * b->cfg.timeout_s * 1e9);  // outlasts any host wait
    void *args[] = {&dq, &b->d_y, &b->d_x, &b->d_y_init, &dout, &b->cfg.elements, &idle_ns};
    double t0 = now_us();
    CHECK(cudaLaunchCooperativeKernel((const void *)persistent, dim3(p->blocks), dim3(THREADS),
                                      args, 0, p->stream));
    if (pq_run(p, OP_RESET, "start") != 0)
        return -1;
    return now_us() - t0;
}

// Sends STOP and waits (bounded) for the kernel to end.  Returns 0 when it ended cleanly.
static int pq_stop(struct pqueue *p)
{
    int rc = -1;
    if (!p->broken && pq_push(p, OP_STOP, 0) == 0) {
        double start = now_us();
        cudaError_t e;
        while ((e = cudaStreamQuery(p->stream)) == cudaErrorNotReady &&
               now_us() - start < p->timeout_us)
            ;
        if (e == cudaSuccess)
            rc = 0;
        else
            printf("launch_cost: persistent: kernel did not end after STOP: %s: FAIL\n",
                   cudaGetErrorName(e));
    }
    if (rc != 0)
        return rc;  // a kernel may still run: leave its memory alone, the process exits
    CHECK(cudaStreamDestroy(p->stream));
    CHECK(cudaFreeHost(p->q));
    CHECK(cudaFreeHost(p->out));
    return 0;
}

static struct result run_persistent(struct bench *b, struct pqueue *p, int j)
{
    int n = b->cfg.ns[j];
    struct result r = make_result("persistent", n);
    double enqueue[MAX_REPS], wall[MAX_REPS];
    for (int rep = -1; rep < b->cfg.reps && !p->broken; rep++) {
        if (pq_run(p, OP_RESET, "reset") != 0)
            break;
        double t0 = now_us();
        for (int k = 0; k < n; k++)
            if (pq_push(p, OP_STEP, coeff((uint32_t)k)) != 0)
                break;
        double t1 = now_us();
        if (pq_wait(p, p->pushed, "steps") != 0)
            break;
        double t2 = now_us();
        if (pq_run(p, OP_EXPORT, "export") != 0)
            break;
        r.verified += verify(b, p->out, b->ref[j], r.variant, n);
        if (rep >= 0) {
            enqueue[rep] = t1 - t0;
            wall[rep] = t2 - t0;
        }
    }
    if (p->broken) {
        b->failures++;
        r.verified = -1;
        return r;
    }
    summarise(&r, enqueue, wall, b->cfg.reps);
    return r;
}

// ---- baselines ------------------------------------------------------------------------------

struct baselines {
    double empty_latency_us;   // empty<<<1,1>>> + cudaStreamSynchronize
    double empty_enqueue_us;   // host time of one empty<<<1,1>>> (bursts of 100)
    double step_gpu_us;        // one step kernel between two events
    double step_latency_us;    // one step kernel + cudaStreamSynchronize
    double persistent_start_us;
};

static void measure_baselines(struct bench *b, struct baselines *base)
{
    static double t[BASELINE_REPS];
    cudaStream_t s = b->stream;
    for (int i = 0; i < 10; i++)  // warm-up: module load, first-launch paths
        empty_kernel<<<1, 1, 0, s>>>();
    launch_steps(b, 10);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(s));

    for (int i = 0; i < BASELINE_REPS; i++) {
        double t0 = now_us();
        empty_kernel<<<1, 1, 0, s>>>();
        CHECK(cudaStreamSynchronize(s));
        t[i] = now_us() - t0;
    }
    base->empty_latency_us = median(t, BASELINE_REPS);

    for (int i = 0; i < BASELINE_REPS / 10; i++) {
        double t0 = now_us();
        for (int k = 0; k < 100; k++)
            empty_kernel<<<1, 1, 0, s>>>();
        t[i] = (now_us() - t0) / 100;
        CHECK(cudaStreamSynchronize(s));
    }
    base->empty_enqueue_us = median(t, BASELINE_REPS / 10);

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < BASELINE_REPS; i++) {
        float ms = 0;
        CHECK(cudaEventRecord(start, s));
        step<<<b->blocks, THREADS, 0, s>>>(b->d_y, b->d_x, 3, b->cfg.elements);
        CHECK(cudaEventRecord(stop, s));
        CHECK(cudaEventSynchronize(stop));
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        t[i] = ms * 1e3;
    }
    base->step_gpu_us = median(t, BASELINE_REPS);
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));

    for (int i = 0; i < BASELINE_REPS; i++) {
        double t0 = now_us();
        step<<<b->blocks, THREADS, 0, s>>>(b->d_y, b->d_x, 3, b->cfg.elements);
        CHECK(cudaStreamSynchronize(s));
        t[i] = now_us() - t0;
    }
    base->step_latency_us = median(t, BASELINE_REPS);
    CHECK(cudaGetLastError());
}

// ---- set-up, output, main -------------------------------------------------------------------

static void usage(void)
{
    printf("usage: launch_cost [-o CSV] [-n N,N,...] [-r REPS] [-e ELEMENTS] [-t TIMEOUT_S]\n");
    exit(1);
}

static void parse_args(int argc, char **argv, struct config *cfg)
{
    static const int default_ns[] = {1, 10, 100, 1000, 10000};
    cfg->csv_path = "launch_cost.csv";
    cfg->n_count = 5;
    memcpy(cfg->ns, default_ns, sizeof default_ns);
    cfg->reps = 5;
    cfg->elements = 4096;
    cfg->timeout_s = 10;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!val || opt[0] != '-' || opt[1] == 0 || opt[2] != 0)
            usage();
        i++;
        switch (opt[1]) {
        case 'o': cfg->csv_path = val; break;
        case 'r': cfg->reps = atoi(val); break;
        case 'e': cfg->elements = atoi(val); break;
        case 't': cfg->timeout_s = atof(val); break;
        case 'n':
            cfg->n_count = 0;
            for (const char *p = val; *p && cfg->n_count < MAX_NS;) {
                cfg->ns[cfg->n_count++] = atoi(p);
                p += strcspn(p, ",");
                if (*p == ',')
                    p++;
            }
            break;
        default: usage();
        }
    }
    if (cfg->n_count < 1 || cfg->reps < 1 || cfg->reps >= MAX_REPS || cfg->elements < 1 || cfg->timeout_s <= 0)
        usage();
    for (int j = 0; j < cfg->n_count; j++)
        if (cfg->ns[j] < 1)
            usage();
}

// Exits with 2 when there is no driver or GPU, as the other examples do.
static void require_gpu(void)
{
    int devices = 0;
    cudaError_t err = cudaGetDeviceCount(&devices);
    if (err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice ||
        (err == cudaSuccess && devices < 1)) {
        printf("launch_cost: no CUDA driver or GPU here: %s (%s)\n", cudaGetErrorName(err),
               cudaGetErrorString(err));
        exit(2);
    }
    CHECK(err);
}

static void set_up(struct bench *b)
{
    int n = b->cfg.elements;
    size_t bytes = n * sizeof(uint32_t);
    b->blocks = (n + THREADS - 1) / THREADS;
    b->h_x = (uint32_t *)malloc(bytes);
    b->h_y_init = (uint32_t *)malloc(bytes);
    b->h_y = (uint32_t *)malloc(bytes);
    if (!b->h_x || !b->h_y_init || !b->h_y) {
        printf("launch_cost: out of host memory\n");
        exit(1);
    }
    for (int i = 0; i < n; i++) {
        b->h_x[i] = (uint32_t)i * 2654435761u + 17u;
        b->h_y_init[i] = (uint32_t)i ^ 0x5bd1e995u;
    }
    // The CPU's answers, one per N, computed before anything is timed.
    for (int j = 0; j < b->cfg.n_count; j++) {
        b->ref[j] = (uint32_t *)malloc(bytes);
        if (!b->ref[j]) {
            printf("launch_cost: out of host memory\n");
            exit(1);
        }
        for (int i = 0; i < n; i++) {
            uint32_t y = b->h_y_init[i];
            for (int k = 0; k < b->cfg.ns[j]; k++)
                y = coeff((uint32_t)k) * y + b->h_x[i];
            b->ref[j][i] = y;
        }
    }
    CHECK(cudaStreamCreateWithFlags(&b->stream, cudaStreamNonBlocking));
    CHECK(cudaMalloc((void **)&b->d_x, bytes));
    CHECK(cudaMalloc((void **)&b->d_y, bytes));
    CHECK(cudaMalloc((void **)&b->d_y_init, bytes));
    CHECK(cudaMemcpy(b->d_x, b->h_x, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b->d_y_init, b->h_y_init, bytes, cudaMemcpyHostToDevice));
}

static void print_row(FILE *f, const struct result *r, double launches_wall)
{
    if (r->wall_us <= 0) {  // the persistent kernel broke before this N
        fprintf(f, "%-10s %6d %12s %12s %10s %10s %9s\n", r->variant, r->n, "-", "-", "-", "-",
                "FAIL");
        return;
    }
    fprintf(f, "%-10s %6d %12.1f %12.1f %10.3f %9.2fx %9s", r->variant, r->n, r->enqueue_us,
            r->wall_us, r->wall_us / r->n, launches_wall / r->wall_us,
            r->verified == -1 ? "FAIL" : "ok");
    if (r->capture_us >= 0)
        fprintf(f, "   capture %.1f us, instantiate %.1f us", r->capture_us, r->instantiate_us);
    fprintf(f, "\n");
}

static void csv_row(FILE *f, const char *variant, int n, int reps, double enqueue, double wall,
                    double wall_min, double wall_max, double capture, double instantiate,
                    int verified)
{
    fprintf(f, "%s,%d,%d,%.3f,%.3f,%.5f,%.3f,%.3f,", variant, n, reps, enqueue, wall, wall / n,
            wall_min, wall_max);
    if (capture >= 0)
        fprintf(f, "%.3f,%.3f", capture, instantiate);
    else
        fprintf(f, ",");
    fprintf(f, ",%d\n", verified);
}

int main(int argc, char **argv)
{
    static struct bench b;
    static struct result results[4][MAX_NS];
    struct baselines base;
    struct pqueue pq;
    parse_args(argc, argv, &b.cfg);
    require_gpu();
    struct cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    set_up(&b);
    measure_baselines(&b, &base);

    // One variant at a time over all N, so that the persistent kernel (polling the queue) runs
    // alone on the GPU and is launched once.
    for (int j = 0; j < b.cfg.n_count; j++)
        results[0][j] = run_launches(&b, j);
    for (int j = 0; j < b.cfg.n_count; j++)
        results[1][j] = run_graph(&b, j);
    for (int j = 0; j < b.cfg.n_count; j++)
        results[2][j] = run_fused(&b, j);
    base.persistent_start_us = pq_start(&b, &pq);
    for (int j = 0; j < b.cfg.n_count; j++)
        results[3][j] = base.persistent_start_us < 0 ? make_result("persistent", b.cfg.ns[j])
                                                     : run_persistent(&b, &pq, j);
    if (base.persistent_start_us < 0 || pq_stop(&pq) != 0) {
        b.failures++;
        for (int j = 0; j < b.cfg.n_count; j++)
            results[3][j].verified = -1;
    }
    for (int v = 0; v < 4; v++)  // a variant that failed at least one check is marked FAIL
        for (int j = 0; j < b.cfg.n_count; j++)
            if (results[v][j].verified != b.cfg.reps + 1)
                results[v][j].verified = -1;

    printf("launch_cost: %s, %d elements (%d blocks of %d threads), medians of %d timed "
           "repetitions, times in us\n\n", prop.name, b.cfg.elements, b.blocks, THREADS,
           b.cfg.reps);
    printf("empty kernel <<<1,1>>>: host enqueue         %9.2f\n", base.empty_enqueue_us);
    printf("empty kernel <<<1,1>>>: launch -> sync done  %9.2f\n", base.empty_latency_us);
    printf("one step: the kernel's own time (events)     %9.2f\n", base.step_gpu_us);
    printf("one step: launch -> sync done                %9.2f\n", base.step_latency_us);
    printf("persistent kernel: launch -> first item done %9.2f\n\n", base.persistent_start_us);
    printf("%-10s %6s %12s %12s %10s %10s %9s\n", "variant", "N", "enqueue_us", "wall_us",
           "us/step", "vs launch", "check");
    for (int v = 0; v < 4; v++)
        for (int j = 0; j < b.cfg.n_count; j++)
            print_row(stdout, &results[v][j], results[0][j].wall_us);

    FILE *csv = fopen(b.cfg.csv_path, "w");
    if (!csv) {
        printf("launch_cost: cannot write %s\n", b.cfg.csv_path);
        return 1;
    }
    fprintf(csv, "variant,n,reps,enqueue_us,wall_us,per_step_us,wall_min_us,wall_max_us,"
                 "capture_us,instantiate_us,verified\n");
    csv_row(csv, "empty_enqueue", 1, BASELINE_REPS / 10, base.empty_enqueue_us,
            base.empty_enqueue_us, 0, 0, -1, 0, 1);
    csv_row(csv, "empty_latency", 1, BASELINE_REPS, 0, base.empty_latency_us, 0, 0, -1, 0, 1);
    csv_row(csv, "kernel_time", 1, BASELINE_REPS, 0, base.step_gpu_us, 0, 0, -1, 0, 1);
    csv_row(csv, "step_latency", 1, BASELINE_REPS, 0, base.step_latency_us, 0, 0, -1, 0, 1);
    csv_row(csv, "persistent_start", 1, 1, 0, base.persistent_start_us, 0, 0, -1, 0,
            base.persistent_start_us >= 0);
    for (int v = 0; v < 4; v++)
        for (int j = 0; j < b.cfg.n_count; j++) {
            const struct result *r = &results[v][j];
            csv_row(csv, r->variant, r->n, b.cfg.reps, r->enqueue_us, r->wall_us,
                    r->wall_min_us, r->wall_max_us, r->capture_us, r->instantiate_us,
                    r->verified > 0);
        }
    if (fclose(csv) != 0) {
        printf("launch_cost: cannot write %s\n", b.cfg.csv_path);
        return 1;
    }
    printf("\nlaunch_cost: wrote %s; %s\n", b.cfg.csv_path, b.failures ? "FAIL" : "PASS");
    return b.failures ? 1 : 0;
}
