// conf_nccl.cu - NCCL (the toolkit's libnccl.so.2, which carries its own CUDA runtime) on
// buffers and streams that the program's runtime made: cudaMalloc'd float buffers and
// cudaStreamCreate streams, all-reduced across two GPUs
//   A. in one process for both GPUs (ncclCommInitAll), and
//   B. in one process per GPU: the program starts itself twice with "--rank R FD" (fork, then
//      exec, so each child starts with no CUDA state at all), hands each child the
//      ncclGetUniqueId through a pipe before the child makes any CUDA call, and each child joins
//      with ncclCommInitRank.  The children's output comes back through pipes and is printed in
//      rank order, so the transcript is deterministic.
//   C. NCCL first: a third child calls ncclCommInitAll before any call of the program's runtime,
//      so the first context the runtime meets is a primary context NCCL's own runtime made
//      current; the runtime must take it for the device's primary context (one module per
//      context: a __device__ variable a kernel wrote is what cudaMemcpyFromSymbol reads after
//      cudaSetDevice to the same device).
// Sums are checked exactly (small integers in float).  With fewer than 2 GPUs it prints
// "SKIP: needs 2 GPUs" and exits 0.  NVLink multicast stays off (NCCL_NVLS_ENABLE=0, set before
// anything else): the GPU machines require it.
// gpu-libs: -lnccl -L/usr/lib/x86_64-linux-gnu
#include <errno.h>
#include <fcntl.h>
#include <nccl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpu_check.h"

#define COUNT (1u << 20)          // floats per buffer
#define RANKS 2
#define CHILD_LIMIT_S 50          // a child that hangs in NCCL is killed after this

#define NCCL_CHECK(call)                                                                      \
    do {                                                                                      \
        ncclResult_t nccl_err_ = (call);                                                      \
        if (nccl_err_ != ncclSuccess) {                                                       \
            printf("FAIL %s:%d: %s -> %d %s\n", __FILE__, __LINE__, #call, (int)nccl_err_,    \
                   ncclGetErrorString(nccl_err_));                                            \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

// Rank r contributes (r + 1) * (i % 97) at index i: every partial sum is a small integer.
__global__ void k_fill_rank(float *out, int rank, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (float)((rank + 1) * (int)(i % 97));
}

__device__ int g_written;

__global__ void k_write(int value)
{
    g_written = value;
}

static float expected_sum(unsigned i)
{
    float total = 0.0f;
    for (int r = 0; r < RANKS; r++)
        total += (float)((r + 1) * (int)(i % 97));
    return total;
}

// Compares a device buffer with expected(i) for every i; returns the number of mismatches.
static unsigned mismatches(const float *device_buffer, float (*expected)(unsigned))
{
    float *host = (float *)malloc(COUNT * sizeof(float));
    if (!host) {
        printf("FAIL: out of host memory\n");
        exit(1);
    }
    CHECK(cudaMemcpy(host, device_buffer, COUNT * sizeof(float), cudaMemcpyDeviceToHost));
    unsigned bad = 0;
    for (unsigned i = 0; i < COUNT; i++)
        bad += host[i] != expected(i);
    free(host);
    return bad;
}

static float expected_broadcast_of_rank1(unsigned i)
{
    return (float)(2 * (int)(i % 97));
}

// ---- A. one process, both GPUs ---------------------------------------------------------------

static bool one_process_for_both(void)
{
    printf("-- A. one process for both GPUs (ncclCommInitAll)\n");
    int devices[RANKS] = { 0, 1 };
    ncclComm_t comms[RANKS];
    float *send[RANKS], *recv[RANKS];
    cudaStream_t streams[RANKS];
    for (int r = 0; r < RANKS; r++) {
        CHECK(cudaSetDevice(devices[r]));
        CHECK(cudaMalloc(&send[r], COUNT * sizeof(float)));
        CHECK(cudaMalloc(&recv[r], COUNT * sizeof(float)));
        CHECK(cudaMemset(recv[r], 0, COUNT * sizeof(float)));
        CHECK(cudaStreamCreate(&streams[r]));
        k_fill_rank<<<(COUNT + 255) / 256, 256, 0, streams[r]>>>(send[r], r, COUNT);
        CHECK(cudaGetLastError());
    }
    NCCL_CHECK(ncclCommInitAll(comms, RANKS, devices));
    bool good = true;
    for (int r = 0; r < RANKS; r++) {
        int count = -1, device = -1, rank = -1;
        NCCL_CHECK(ncclCommCount(comms[r], &count));
        NCCL_CHECK(ncclCommCuDevice(comms[r], &device));
        NCCL_CHECK(ncclCommUserRank(comms[r], &rank));
        printf("communicator %d: %d ranks, CUDA device %d, rank %d\n", r, count, device, rank);
        good &= count == RANKS && device == devices[r] && rank == r;
    }

    NCCL_CHECK(ncclGroupStart());
    for (int r = 0; r < RANKS; r++)
        NCCL_CHECK(ncclAllReduce(send[r], recv[r], COUNT, ncclFloat, ncclSum, comms[r],
                                 streams[r]));
    NCCL_CHECK(ncclGroupEnd());
    for (int r = 0; r < RANKS; r++) {
        CHECK(cudaSetDevice(devices[r]));
        CHECK(cudaStreamSynchronize(streams[r]));
        unsigned bad = mismatches(recv[r], expected_sum);
        printf("all-reduce (sum) of %u floats, rank %d: %u mismatches\n", COUNT, r, bad);
        good &= bad == 0;
    }

    // A broadcast from rank 1 into the same buffers, and an all-reduce in place.
    NCCL_CHECK(ncclGroupStart());
    for (int r = 0; r < RANKS; r++)
        NCCL_CHECK(ncclBroadcast(send[r], recv[r], COUNT, ncclFloat, 1, comms[r], streams[r]));
    NCCL_CHECK(ncclGroupEnd());
    for (int r = 0; r < RANKS; r++) {
        CHECK(cudaSetDevice(devices[r]));
        CHECK(cudaStreamSynchronize(streams[r]));
        unsigned bad = mismatches(recv[r], expected_broadcast_of_rank1);
        printf("broadcast from rank 1, rank %d: %u mismatches\n", r, bad);
        good &= bad == 0;
    }
    NCCL_CHECK(ncclGroupStart());
    for (int r = 0; r < RANKS; r++)
        NCCL_CHECK(ncclAllReduce(send[r], send[r], COUNT, ncclFloat, ncclSum, comms[r],
                                 streams[r]));
    NCCL_CHECK(ncclGroupEnd());
    for (int r = 0; r < RANKS; r++) {
        CHECK(cudaSetDevice(devices[r]));
        CHECK(cudaStreamSynchronize(streams[r]));
        unsigned bad = mismatches(send[r], expected_sum);
        ncclResult_t async = ncclSuccess;
        NCCL_CHECK(ncclCommGetAsyncError(comms[r], &async));
        printf("in-place all-reduce, rank %d: %u mismatches, async error %d\n", r, bad,
               (int)async);
        good &= bad == 0 && async == ncclSuccess;
    }

    for (int r = 0; r < RANKS; r++) {
        NCCL_CHECK(ncclCommDestroy(comms[r]));
        CHECK(cudaSetDevice(devices[r]));
        CHECK(cudaStreamDestroy(streams[r]));
        CHECK(cudaFree(send[r]));
        CHECK(cudaFree(recv[r]));
    }
    printf("one process: %s\n", good ? "ok" : "WRONG");
    return good;
}

// ---- B. one process per GPU --------------------------------------------------------------------

// A child: rank `rank` on device `rank`; the unique id arrives on `fd`.  Its stdout is a pipe
// to the parent.  Exit 0 when its sums are right.
static int child_main(int rank, int fd)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    alarm(CHILD_LIMIT_S);                      // never outlive the parent's patience
    ncclUniqueId id;
    size_t got = 0;
    while (got < sizeof id) {
        ssize_t n = read(fd, (char *)&id + got, sizeof id - got);
        if (n <= 0) {
            printf("rank %d: cannot read the unique id (%s)\n", rank, n ? strerror(errno) : "EOF");
            return 1;
        }
        got += (size_t)n;
    }
    close(fd);

    // The first CUDA call of this process.
    CHECK(cudaSetDevice(rank));
    float *send = NULL, *recv = NULL;
    cudaStream_t stream = NULL;
    CHECK(cudaMalloc(&send, COUNT * sizeof(float)));
    CHECK(cudaMalloc(&recv, COUNT * sizeof(float)));
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK(cudaMemsetAsync(recv, 0, COUNT * sizeof(float), stream));   // not ordered with 0
    k_fill_rank<<<(COUNT + 255) / 256, 256, 0, stream>>>(send, rank, COUNT);
    CHECK(cudaGetLastError());

    ncclComm_t comm;
    NCCL_CHECK(ncclCommInitRank(&comm, RANKS, id, rank));
    int count = -1, device = -1, user_rank = -1;
    NCCL_CHECK(ncclCommCount(comm, &count));
    NCCL_CHECK(ncclCommCuDevice(comm, &device));
    NCCL_CHECK(ncclCommUserRank(comm, &user_rank));
    printf("rank %d: %d ranks, CUDA device %d, rank %d\n", rank, count, device, user_rank);
    NCCL_CHECK(ncclAllReduce(send, recv, COUNT, ncclFloat, ncclSum, comm, stream));
    CHECK(cudaStreamSynchronize(stream));
    unsigned bad = mismatches(recv, expected_sum);
    printf("rank %d: all-reduce (sum) of %u floats: %u mismatches\n", rank, COUNT, bad);
    NCCL_CHECK(ncclAllReduce(recv, recv, COUNT, ncclFloat, ncclMax, comm, stream));
    CHECK(cudaStreamSynchronize(stream));
    unsigned bad_max = mismatches(recv, expected_sum);
    printf("rank %d: in-place all-reduce (max) of the sums: %u mismatches\n", rank, bad_max);
    NCCL_CHECK(ncclCommDestroy(comm));
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFree(send));
    CHECK(cudaFree(recv));
    bool good = count == RANKS && device == rank && user_rank == rank && bad == 0 && bad_max == 0;
    return good ? 0 : 1;
}

struct child {
    pid_t pid;
    int out;                  // read end of the child's stdout
    int status;
    bool done;
};

// Starts this program again as `mode` ("--rank" or "--nccl-first") with `rank`; the id goes down
// a pipe once the child exists.
static bool start_child(const char *mode, int rank, const ncclUniqueId *id, struct child *c)
{
    int id_pipe[2], out_pipe[2];
    if (pipe(id_pipe) != 0 || pipe(out_pipe) != 0) {
        printf("pipe: %s\n", strerror(errno));
        return false;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        printf("fork: %s\n", strerror(errno));
        return false;
    }
    if (pid == 0) {
        // The child: exec at once.  The parent has initialised CUDA (and NCCL): nothing of that
        // may be used here, so no CUDA call comes before exec.
        close(id_pipe[1]);
        close(out_pipe[0]);
        dup2(out_pipe[1], STDOUT_FILENO);          // stderr stays the parent's: not compared
        close(out_pipe[1]);
        char rank_text[16], fd_text[16];
        snprintf(rank_text, sizeof rank_text, "%d", rank);
        snprintf(fd_text, sizeof fd_text, "%d", id_pipe[0]);
        char *args[] = { (char *)"conf_nccl", (char *)mode, rank_text, fd_text, NULL };
        execv("/proc/self/exe", args);
        _exit(127);
    }
    close(id_pipe[0]);
    close(out_pipe[1]);
    bool sent = write(id_pipe[1], id, sizeof *id) == (ssize_t)sizeof *id;
    close(id_pipe[1]);
    c->pid = pid;
    c->out = out_pipe[0];
    c->done = false;
    c->status = -1;
    return sent;
}

// Waits for every child up to a deadline, then kills the rest; records how each ended.
static void wait_children(struct child *children, int n)
{
    time_t deadline = time(NULL) + CHILD_LIMIT_S + 5;
    int left = n;
    while (left > 0) {
        for (int i = 0; i < n; i++) {
            if (children[i].done)
                continue;
            int status = 0;
            if (waitpid(children[i].pid, &status, WNOHANG) == children[i].pid) {
                children[i].done = true;
                children[i].status = status;
                left--;
            }
        }
        if (left > 0 && time(NULL) > deadline) {
            for (int i = 0; i < n; i++)
                if (!children[i].done)
                    kill(children[i].pid, SIGKILL);
            deadline = time(NULL) + 60;        // reaped on the next rounds
        }
        if (left > 0)
            usleep(20000);
    }
}

// Prints a finished child's output and how it ended; true when it exited with 0.
static bool report_child(struct child *c, const char *what, int rank)
{
    char text[4096];
    ssize_t n, used = 0;
    while ((n = read(c->out, text + used, sizeof text - 1 - (size_t)used)) > 0)
        used += n;
    text[used] = '\0';
    close(c->out);
    fputs(text, stdout);
    if (WIFEXITED(c->status))
        printf("%s %d exited with %d\n", what, rank, WEXITSTATUS(c->status));
    else
        printf("%s %d ended by signal %d\n", what, rank,
               WIFSIGNALED(c->status) ? WTERMSIG(c->status) : -1);
    return WIFEXITED(c->status) && WEXITSTATUS(c->status) == 0;
}

static bool one_process_per_gpu(void)
{
    printf("-- B. one process per GPU (ncclCommInitRank, the id passed through a pipe)\n");
    ncclUniqueId id;
    NCCL_CHECK(ncclGetUniqueId(&id));
    struct child children[RANKS];
    memset(children, 0, sizeof children);
    for (int r = 0; r < RANKS; r++) {
        if (!start_child("--rank", r, &id, &children[r])) {
            printf("cannot start rank %d\n", r);
            return false;
        }
    }
    // The children's output is a few lines each: it fits in the pipes while they run.
    wait_children(children, RANKS);
    bool good = true;
    for (int r = 0; r < RANKS; r++)
        good &= report_child(&children[r], "rank", r);
    printf("one process per GPU: %s\n", good ? "ok" : "WRONG");
    return good;
}

// ---- C. NCCL before the runtime ----------------------------------------------------------------

// The third child: NCCL's runtime initialises both devices first.
static int nccl_first_main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    alarm(CHILD_LIMIT_S);
    ncclComm_t comms[RANKS];
    int devices[RANKS] = { 0, 1 };
    NCCL_CHECK(ncclCommInitAll(comms, RANKS, devices));
    // The program's runtime, first call: in whatever context NCCL left current.
    k_write<<<1, 1>>>(42);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    int device = -1;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaSetDevice(device));
    int value = -1;
    cudaError_t read = cudaMemcpyFromSymbol(&value, g_written, sizeof value);
    printf("after ncclCommInitAll: launch " ERR_FMT ", sync " ERR_FMT ", on device %d; after "
           "cudaSetDevice(%d) the variable reads %d (" ERR_FMT ")\n", ERR_ARGS(launch),
           ERR_ARGS(sync), device, device, value, ERR_ARGS(read));
    for (int r = 0; r < RANKS; r++)
        NCCL_CHECK(ncclCommDestroy(comms[r]));
    return launch == cudaSuccess && sync == cudaSuccess && read == cudaSuccess && value == 42
               ? 0 : 1;
}

static bool nccl_before_the_runtime(void)
{
    printf("-- C. NCCL initialises the devices before the program's runtime does\n");
    ncclUniqueId unused;
    memset(&unused, 0, sizeof unused);
    struct child c;
    memset(&c, 0, sizeof c);
    if (!start_child("--nccl-first", 0, &unused, &c)) {
        printf("cannot start the child\n");
        return false;
    }
    wait_children(&c, 1);
    bool good = report_child(&c, "nccl-first child", 0);
    printf("NCCL first: %s\n", good ? "ok" : "WRONG");
    return good;
}

int main(int argc, char **argv)
{
    // Before anything else, NCCL included: no NVLink multicast (NVLS) on the GPU machines.  The
    // children inherit it.  Bootstrap over loopback: both ranks are on this host.
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    setenv("NCCL_SOCKET_IFNAME", "lo", 0);
    if (argc == 4 && strcmp(argv[1], "--rank") == 0)
        return child_main(atoi(argv[2]), atoi(argv[3]));
    if (argc == 4 && strcmp(argv[1], "--nccl-first") == 0) {
        close(atoi(argv[3]));                  // no id needed
        return nccl_first_main();
    }

    gpu_require("conf_nccl");
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    if (count < 2) {
        printf("SKIP: needs 2 GPUs\n");
        return 0;
    }
    int version = 0;
    NCCL_CHECK(ncclGetVersion(&version));
    printf("NCCL %d.%d (headers %d.%d)\n", version / 10000, version / 100 % 100, NCCL_MAJOR,
           NCCL_MINOR);
    bool good = one_process_for_both();
    good &= one_process_per_gpu();
    good &= nccl_before_the_runtime();
    printf("conf_nccl: %s\n", good ? "PASS" : "FAIL");
    return good ? 0 : 1;
}
