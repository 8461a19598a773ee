// fault_fork.cu - fork after the runtime is initialised, as a PyTorch DataLoader does with its
// workers (issue 18).  What tests/gpu/life_fork.cu does not cover already:
//
//   1. workers: four children forked after initialisation do CPU work only, send the result on a
//      pipe and end with exit() (the at-exit handlers, the runtime's among them, run in the
//      child) while the parent keeps launching and checking kernels; every worker's result and
//      exit code is checked, and the parent's work is right throughout;
//   2. a child forked while the parent has a kernel still running, which ends at once with
//      exit(): the parent's kernel finishes and its result is right;
//   3. a child that uses CUDA first thing, while the parent's thread has a non-sticky error
//      pending (cudaSetDevice(-1)): cudaGetLastError, cudaPeekAtLastError, cudaGetDeviceCount,
//      cudaGetDevice, cudaMalloc, cudaGetLastError, then exit(); the answers are printed (the
//      differential comparison decides), the child must end normally, not hang or crash.
//
// The children run one at a time where they print (the parent waits), so the lines come in a
// fixed order.  Exit 0 pass, 1 fail, 2 no GPU.
#include "fault.h"


extern "C" __global__ void fault_fork_fill(int *out, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = base + i;
}

extern "C" __global__ void fault_fork_spin(long long cycles)
{
    long long start = clock64();
    while (clock64() - start < cycles)
        ;
}

static const int N = 1024;
static const int WORKERS = 4;

// Fill, copy back, check: the first failing call's error (cudaErrorUnknown for a wrong value).
static cudaError_t round_trip(int *d, int base)
{
    static int h[N];
    fault_fork_fill<<<N / 256, 256>>>(d, N, base);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; e == cudaSuccess && i < N; i++)
        if (h[i] != base + i)
            e = cudaErrorUnknown;
    return e;
}

// A worker's CPU work: a checksum the parent can compute too.
static unsigned long long cpu_work(int w)
{
    unsigned long long x = 1469598103934665603ULL + (unsigned)w;
    for (int i = 0; i < 2000000; i++)
        x = (x ^ (unsigned)i) * 1099511628211ULL;
    return x;
}

int main(void)
{
    fault_program = "fault_fork";
    fault_watchdog(150);
    if (fake_register_fn reg = gpu_fake_registrar())
        reg("fault_fork_fill", gpu_fake_fill);              // fault_fork_spin: nothing
    gpu_require("fault_fork");
    int *d = NULL;
    CHECK(cudaMalloc((void **)&d, N * sizeof(int)));
    CHECK(round_trip(d, 1));

    // 1. CPU workers, the parent launching meanwhile.
    printf("workers forked after initialisation, CPU work only, exit():\n");
    pid_t pids[WORKERS];
    int pipes[WORKERS];
    for (int w = 0; w < WORKERS; w++) {
        int fds[2];
        if (pipe(fds) != 0) {
            printf("FAIL: pipe\n");
            return 1;
        }
        pids[w] = fork();
        if (pids[w] == 0) {
            close(fds[0]);
            unsigned long long x = cpu_work(w);
            ssize_t sent = write(fds[1], &x, sizeof x);
            exit(sent == (ssize_t)sizeof x ? 0 : 1);
        }
        close(fds[1]);
        pipes[w] = fds[0];
    }
    int wrong_trips = 0;
    for (int i = 0; i < 50; i++)
        wrong_trips += round_trip(d, 100 + i) != cudaSuccess;
    fault_expect("the parent's 50 round trips meanwhile", wrong_trips == 0);
    for (int w = 0; w < WORKERS; w++) {
        unsigned long long x = 0;
        bool got = read(pipes[w], &x, sizeof x) == (ssize_t)sizeof x && x == cpu_work(w);
        close(pipes[w]);
        const char *how = fault_wait_for(pids[w]);
        printf("  worker %d: %s\n", w, how);
        fault_expect("its result, and exit 0", got && strcmp(how, "exit 0") == 0);
    }
    fault_expect("the parent's round trip after the workers", round_trip(d, 200) == cudaSuccess);

    // 2. Fork while a kernel runs.
    printf("a child forked while the parent's kernel runs, exit() at once:\n");
    fault_fork_spin<<<1, 1>>>(200LL * 1000 * 1000);
    fault_fork_fill<<<N / 256, 256>>>(d, N, 300);
    pid_t pid = fork();
    if (pid == 0)
        exit(0);
    const char *how = fault_wait_for(pid);
    printf("  child: %s\n", how);
    fault_expect("exit 0", strcmp(how, "exit 0") == 0);
    static int h[N];
    cudaError_t e = fault_show("cudaMemcpy of the kernel's result", cudaMemcpy(h, d, sizeof h,
                                                                               cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += h[i] != 300 + i;
    fault_expect("the kernel's result is right", e == cudaSuccess && bad == 0);

    // 3. A child using CUDA first thing, with an error pending in the forking thread.
    printf("a child forked with an error pending, using CUDA first thing:\n");
    fault_show("parent: cudaSetDevice(-1)", cudaSetDevice(-1));
    pid = fork();
    if (pid == 0) {
        int count = -1, device = -1;
        void *p = NULL;
        fault_show("child: cudaGetLastError", cudaGetLastError());
        fault_show("child: cudaPeekAtLastError", cudaPeekAtLastError());
        fault_show("child: cudaGetDeviceCount", cudaGetDeviceCount(&count));
        fault_show("child: cudaGetDevice", cudaGetDevice(&device));
        fault_show("child: cudaMalloc", cudaMalloc(&p, 64));
        fault_show("child: cudaGetLastError", cudaGetLastError());
        fault_show("child: cudaGetLastError again", cudaGetLastError());
        exit(0);
    }
    how = fault_wait_for(pid);
    printf("  child: %s\n", how);
    fault_expect("the child ends normally", strcmp(how, "exit 0") == 0);
    fault_show("parent: cudaGetLastError (its own pending error)", cudaGetLastError());
    fault_expect("the parent's round trip at the end", round_trip(d, 400) == cudaSuccess);
    CHECK(cudaFree(d));
    return fault_finish();
}
