// conf_ipc.cu - memory, events and pools shared between processes, under both runtimes.
//
// The program runs itself again (fork + exec of /proc/self/exe) as a second process:
//
//   1. "child": the parent sends, over a Unix socket (SOCK_SEQPACKET), a legacy IPC memory
//      handle of a cudaMalloc'd block, an IPC event handle (recorded after a kernel), the export
//      data of one block of an exportable pool, and the pool's POSIX file descriptor as
//      SCM_RIGHTS.  The child opens the memory twice (one mapping, two references), checks what
//      the parent wrote, writes the first half, waits on the event, imports the pool by the
//      descriptor's value and the block by its export data, checks and rewrites it, frees the
//      imported block, destroys the imported pool, closes the memory (twice, then once too many)
//      and answers; the parent sees the child's writes.
//   2. "holder": opens and imports the same, answers, and waits; the parent kills it with SIGKILL
//      while it holds them, and its own memory and pool block still read and write correctly,
//      and free in the order the documentation asks.
//
// Both processes print to the same stdout, one at a time (the parent waits for the answer), so
// the lines come in a fixed order.  Only codes, counts and checks are printed, never pointers.
#include "gpu_check.h"

#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 4096                    // ints per block

__global__ void fill(int *p, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = base + i;
}

static int ok = 1;
static const char *who = "parent";

static void report(const char *what, cudaError_t e)
{
    cudaError_t last = cudaGetLastError();
    printf("%s: %-50s -> " ERR_FMT ", last error " ERR_FMT "\n", who, what, ERR_ARGS(e),
           ERR_ARGS(last));
}

static void expect(const char *what, bool good)
{
    printf("%s: %-50s %s\n", who, what, good ? "ok" : "WRONG");
    ok &= good;
}

// How many of the first n ints at p differ from base + i (after a device synchronisation).
static int wrong_values(const int *p, int n, int base)
{
    static int h[N];
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, p, n * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += h[i] != base + i;
    return bad;
}

// Writes base + i with a copy (not a kernel, so that the fake driver of CI can run this too).
static void fill_now(int *p, int n, int base)
{
    static int h[N];
    for (int i = 0; i < n; i++)
        h[i] = base + i;
    CHECK(cudaMemcpy(p, h, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaDeviceSynchronize());
}

// ---- the socket ---------------------------------------------------------------------------

struct message {
    cudaIpcMemHandle_t memory;
    cudaIpcEventHandle_t event;
    cudaMemPoolPtrExportData block;
};

static void send_message(int sock, const message &m, int fd)
{
    char control[CMSG_SPACE(sizeof(int))];
    memset(control, 0, sizeof control);
    iovec iov = { (void *)&m, sizeof m };
    msghdr h;
    memset(&h, 0, sizeof h);
    h.msg_iov = &iov;
    h.msg_iovlen = 1;
    h.msg_control = control;
    h.msg_controllen = sizeof control;
    cmsghdr *c = CMSG_FIRSTHDR(&h);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
    if (sendmsg(sock, &h, 0) != (ssize_t)sizeof m) {
        printf("%s: sendmsg failed\n", who);
        exit(1);
    }
}

static int receive_message(int sock, message *m)
{
    char control[CMSG_SPACE(sizeof(int))];
    iovec iov = { m, sizeof *m };
    msghdr h;
    memset(&h, 0, sizeof h);
    h.msg_iov = &iov;
    h.msg_iovlen = 1;
    h.msg_control = control;
    h.msg_controllen = sizeof control;
    int fd = -1;
    cmsghdr *c;
    if (recvmsg(sock, &h, 0) != (ssize_t)sizeof *m || !(c = CMSG_FIRSTHDR(&h)) ||
        c->cmsg_type != SCM_RIGHTS) {
        printf("%s: recvmsg failed\n", who);
        exit(1);
    }
    memcpy(&fd, CMSG_DATA(c), sizeof fd);
    return fd;
}

static void answer(int sock, char c)
{
    if (write(sock, &c, 1) != 1)
        exit(1);
}

// ---- the second process ---------------------------------------------------------------------

// Opens and imports what the parent sent; the pointers come back in *memory and *block.
static void open_everything(const message &m, int fd, int **memory, cudaMemPool_t *pool,
                            int **block)
{
    report("cudaIpcOpenMemHandle",
           cudaIpcOpenMemHandle((void **)memory, m.memory, cudaIpcMemLazyEnablePeerAccess));
    report("cudaMemPoolImportFromShareableHandle (fd value)",
           cudaMemPoolImportFromShareableHandle(pool, (void *)(intptr_t)fd,
                                                cudaMemHandleTypePosixFileDescriptor, 0));
    cudaMemPoolPtrExportData data = m.block;
    report("cudaMemPoolImportPointer", cudaMemPoolImportPointer((void **)block, *pool, &data));
}

static int child_main(int sock)
{
    who = "child";
    gpu_require("conf_ipc child");
    message m;
    int fd = receive_message(sock, &m);
    int *memory = NULL, *again = NULL, *block = NULL;
    cudaMemPool_t pool = NULL;
    open_everything(m, fd, &memory, &pool, &block);
    report("cudaIpcOpenMemHandle again",
           cudaIpcOpenMemHandle((void **)&again, m.memory, cudaIpcMemLazyEnablePeerAccess));
    expect("second open gives the same pointer", again == memory);
    expect("parent's memory reads 1000 + i", wrong_values(memory, N, 1000) == 0);
    fill_now(memory, N / 2, 3000);

    cudaEvent_t event = NULL;
    cudaStream_t s = NULL;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    report("cudaIpcOpenEventHandle", cudaIpcOpenEventHandle(&event, m.event));
    report("cudaStreamWaitEvent on the opened event", cudaStreamWaitEvent(s, event, 0));
    report("cudaEventSynchronize on the opened event", cudaEventSynchronize(event));
    report("cudaEventQuery on the opened event", cudaEventQuery(event));
    float ms = 0;
    report("cudaEventElapsedTime (timing disabled)", cudaEventElapsedTime(&ms, event, event));
    report("cudaEventDestroy of the opened event", cudaEventDestroy(event));

    expect("pool block reads 2000 + i", wrong_values(block, N, 2000) == 0);
    fill_now(block, N, 4000);
    report("cudaMallocFromPoolAsync from the imported pool",
           cudaMallocFromPoolAsync((void **)&again, 64, pool, s));
    report("cudaFreeAsync of the imported block", cudaFreeAsync(block, s));
    report("cudaStreamSynchronize", cudaStreamSynchronize(s));
    report("cudaMemPoolDestroy of the imported pool", cudaMemPoolDestroy(pool));

    report("cudaIpcCloseMemHandle", cudaIpcCloseMemHandle(memory));
    report("cudaIpcCloseMemHandle (second reference)", cudaIpcCloseMemHandle(memory));
    report("cudaIpcCloseMemHandle (none left)", cudaIpcCloseMemHandle(memory));
    CHECK(cudaStreamDestroy(s));
    close(fd);
    answer(sock, ok ? 'A' : 'F');
    return ok ? 0 : 1;
}

static int holder_main(int sock)
{
    who = "holder";
    gpu_require("conf_ipc holder");
    message m;
    int fd = receive_message(sock, &m);
    int *memory = NULL, *block = NULL;
    cudaMemPool_t pool = NULL;
    open_everything(m, fd, &memory, &pool, &block);
    expect("parent's memory reads 5000 + i", wrong_values(memory, N, 5000) == 0);
    expect("pool block reads 4000 + i", wrong_values(block, N, 4000) == 0);
    answer(sock, 'H');
    for (;;)
        pause();                          // killed here, holding everything
}

// Runs this program as `mode` with one end of a new socket; returns its pid and the other end.
static pid_t start(const char *mode, int *sock)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) != 0) {
        printf("parent: socketpair failed\n");
        exit(1);
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(sv[0]);
        char fdtext[16];
        snprintf(fdtext, sizeof fdtext, "%d", sv[1]);
        char *args[] = { (char *)"conf_ipc", (char *)mode, fdtext, NULL };
        execv("/proc/self/exe", args);
        _exit(127);
    }
    close(sv[1]);
    *sock = sv[0];
    return pid;
}

static char wait_answer(int sock)
{
    char c = 0;
    if (read(sock, &c, 1) != 1)
        c = '?';
    return c;
}

// ---- the parent -----------------------------------------------------------------------------

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "child") == 0)
        return child_main(atoi(argv[2]));
    if (argc == 3 && strcmp(argv[1], "holder") == 0)
        return holder_main(atoi(argv[2]));
    gpu_require("conf_ipc");
    int support = 0, types = 0;
    CHECK(cudaDeviceGetAttribute(&support, cudaDevAttrIpcEventSupport, 0));
    CHECK(cudaDeviceGetAttribute(&types, cudaDevAttrMemoryPoolSupportedHandleTypes, 0));
    printf("parent: IPC event support %d, pool handle types %#x\n", support, types);

    int *memory = NULL, *block = NULL;
    cudaEvent_t event = NULL;
    cudaMemPool_t pool = NULL;
    cudaStream_t s = NULL;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMalloc((void **)&memory, N * sizeof(int)));
    fill_now(memory, N, 1000);
    CHECK(cudaEventCreateWithFlags(&event, cudaEventInterprocess | cudaEventDisableTiming));
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    CHECK(cudaMemPoolCreate(&pool, &props));
    CHECK(cudaMallocFromPoolAsync((void **)&block, N * sizeof(int), pool, s));
    CHECK(cudaStreamSynchronize(s));
    fill_now(block, N, 2000);

    message m;
    int fd = -1;
    report("cudaIpcGetMemHandle", cudaIpcGetMemHandle(&m.memory, memory));
    report("cudaIpcGetEventHandle", cudaIpcGetEventHandle(&m.event, event));
    report("cudaMemPoolExportToShareableHandle",
           cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypePosixFileDescriptor, 0));
    expect("exported descriptor is a descriptor", fd >= 0);
    report("cudaMemPoolExportPointer", cudaMemPoolExportPointer(&m.block, block));
    fill<<<N / 256, 256, 0, s>>>(memory, N, 1000);    // work for the event to follow
    CHECK(cudaGetLastError());
    report("cudaEventRecord after a kernel", cudaEventRecord(event, s));

    // 1. The child uses everything and lets go.
    int sock = -1;
    pid_t pid = start("child", &sock);
    send_message(sock, m, fd);
    char c = wait_answer(sock);
    int status = 0;
    waitpid(pid, &status, 0);
    close(sock);
    expect("child answered and exited 0", c == 'A' && WIFEXITED(status) &&
                                              WEXITSTATUS(status) == 0);
    expect("first half reads the child's 3000 + i", wrong_values(memory, N / 2, 3000) == 0);
    expect("second half still 1000 + i", wrong_values(memory + N / 2, N / 2, 1000 + N / 2) == 0);
    expect("pool block reads the child's 4000 + i", wrong_values(block, N, 4000) == 0);

    // 2. A second process holds everything and is killed.
    fill_now(memory, N, 5000);
    pid = start("holder", &sock);
    send_message(sock, m, fd);
    c = wait_answer(sock);
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    close(sock);
    expect("holder answered and died of SIGKILL", c == 'H' && WIFSIGNALED(status) &&
                                                      WTERMSIG(status) == SIGKILL);
    expect("memory still reads 5000 + i", wrong_values(memory, N, 5000) == 0);
    fill_now(memory, N, 6000);
    expect("memory rewritten after the kill reads 6000 + i", wrong_values(memory, N, 6000) == 0);
    expect("pool block still reads 4000 + i", wrong_values(block, N, 4000) == 0);

    // 3. Importers gone: the exporter frees, in order.
    close(fd);
    report("cudaFreeAsync of the exported block", cudaFreeAsync(block, s));
    report("cudaStreamSynchronize", cudaStreamSynchronize(s));
    report("cudaMemPoolDestroy of the exported pool", cudaMemPoolDestroy(pool));
    report("cudaEventDestroy of the exported event", cudaEventDestroy(event));
    report("cudaFree of the exported memory", cudaFree(memory));
    CHECK(cudaStreamDestroy(s));
    printf("conf_ipc: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
