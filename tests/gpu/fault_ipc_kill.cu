// fault_ipc_kill.cu - a child process killed (SIGKILL) while it holds IPC handles (issue 18).
//
// The parent allocates a block, fills it, records an interprocess event and starts itself again
// (fork + exec of /proc/self/exe, a new process: CUDA cannot be used across a plain fork) as:
//
//   holder  opens the memory handle and the event handle, waits on the event, checks the
//           parent's values, writes the first half of the block, says "ready" on a pipe and
//           waits; the parent kills it with SIGKILL while it holds both;
//   opener  started after the kill: opens both handles again, waits on the event, checks the
//           parent's newer values, closes the memory handle, destroys the event, exits 0.
//
// The parent, after the kill: its memory still reads (the holder's finished writes included) and
// writes correctly, its event still records and synchronises, and after the opener's run the
// event is destroyed and the block freed without error; a new allocation works.  Everything is
// asserted: the documentation gives the exporter's memory to the exporter, whatever happens to
// an importer.  The processes print in turn (each waits for the other), so lines come in a fixed
// order.  Against the fake driver (tests/e2e) FAKECUDA_IPC=1 shares the memory through memfds;
// its opened events are complete from the start.  Exit 0 pass, 1 fail, 2 no GPU.
#include "fault.h"

#include <poll.h>

extern "C" __global__ void fault_ipc_fill(int *p, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = base + i;
}

static const int N = 4096;

// How many of n ints at p (from index `from`) differ from base + index.
static int wrong(const int *p, int from, int n, int base)
{
    static int h[N];
    if (cudaMemcpy(h, p + from, n * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess)
        return n;
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += h[i] != base + from + i;
    return bad;
}

static void to_hex(const void *bytes, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", ((const unsigned char *)bytes)[i]);
}

static bool from_hex(const char *text, void *bytes, size_t n)
{
    if (strlen(text) != 2 * n)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        if (sscanf(text + 2 * i, "%2x", &v) != 1)
            return false;
        ((unsigned char *)bytes)[i] = (unsigned char)v;
    }
    return true;
}

// The child processes: argv = <program> holder|opener <memory handle> <event handle> <pipe fd>
static int child(int argc, char **argv)
{
    const char *role = argv[1];
    bool holder = strcmp(role, "holder") == 0;
    cudaIpcMemHandle_t mh;
    cudaIpcEventHandle_t eh;
    if (argc != 5 || !from_hex(argv[2], &mh, sizeof mh) || !from_hex(argv[3], &eh, sizeof eh)) {
        printf("%s: bad arguments\n", role);
        return 1;
    }
    int ready = atoi(argv[4]);
    printf("%s:\n", role);
    int *p = NULL;
    cudaEvent_t ev = NULL;
    cudaError_t opened = fault_show("cudaIpcOpenMemHandle", cudaIpcOpenMemHandle((void **)&p, mh,
                                                                   cudaIpcMemLazyEnablePeerAccess));
    cudaError_t event = fault_show("cudaIpcOpenEventHandle", cudaIpcOpenEventHandle(&ev, eh));
    if (opened != cudaSuccess || event != cudaSuccess)
        return 1;
    fault_show("cudaStreamWaitEvent (legacy stream)", cudaStreamWaitEvent(0, ev, 0));
    int base = holder ? 100 : 300;
    fault_expect("the parent's values", wrong(p, 0, N, base) == 0);
    if (holder) {
        fault_ipc_fill<<<N / 2 / 256, 256>>>(p, N / 2, 200);
        fault_show("fill the first half (synchronised)", cudaDeviceSynchronize());
        // Holds both handles until the parent kills it (or its own watchdog ends it).
        ssize_t said = write(ready, "R", 1);
        (void)said;
        for (;;)
            pause();
    }
    fault_show("cudaIpcCloseMemHandle", cudaIpcCloseMemHandle(p));
    fault_show("cudaEventDestroy (the opened event)", cudaEventDestroy(ev));
    return fault_failures ? 1 : 0;
}

// Starts this program again as `role`; the pipe's read end in *ready_fd.
static pid_t spawn(const char *role, const char *mem_hex, const char *event_hex, int *ready_fd)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    char fd_text[16];
    snprintf(fd_text, sizeof fd_text, "%d", fds[1]);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        execl("/proc/self/exe", "fault_ipc_kill", role, mem_hex, event_hex, fd_text, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    *ready_fd = fds[0];
    return pid;
}

int main(int argc, char **argv)
{
    fault_program = "fault_ipc_kill";
    setvbuf(stdout, NULL, _IONBF, 0);
    if (fake_register_fn reg = gpu_fake_registrar())
        reg("fault_ipc_fill", gpu_fake_fill);
    if (argc > 1) {
        fault_watchdog(60);
        return child(argc, argv);
    }
    fault_watchdog(150);
    gpu_require("fault_ipc_kill");

    int *d = NULL;
    cudaEvent_t ev = NULL;
    cudaIpcMemHandle_t mh;
    cudaIpcEventHandle_t eh;
    CHECK(cudaMalloc((void **)&d, N * sizeof(int)));
    CHECK(cudaEventCreateWithFlags(&ev, cudaEventInterprocess | cudaEventDisableTiming));
    fault_ipc_fill<<<N / 256, 256>>>(d, N, 100);
    CHECK(cudaEventRecord(ev, 0));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaIpcGetMemHandle(&mh, d));
    CHECK(cudaIpcGetEventHandle(&eh, ev));
    char mem_hex[2 * sizeof mh + 1], event_hex[2 * sizeof eh + 1];
    to_hex(&mh, sizeof mh, mem_hex);
    to_hex(&eh, sizeof eh, event_hex);

    int ready = -1;
    pid_t pid = spawn("holder", mem_hex, event_hex, &ready);
    struct pollfd waiting = {ready, POLLIN, 0};
    char said = 0;
    bool holds = poll(&waiting, 1, 60000) == 1 && read(ready, &said, 1) == 1 && said == 'R';
    close(ready);
    printf("parent:\n");
    fault_expect("the holder holds both handles", holds);
    kill(pid, SIGKILL);
    const char *how = fault_wait_for(pid);
    printf("  %-44s    %s\n", "the holder ended by", how);
    fault_expect("killed by SIGKILL", strcmp(how, "signal 9") == 0);

    fault_expect("the holder's finished writes are there", wrong(d, 0, N / 2, 200) == 0);
    fault_expect("the rest is the parent's", wrong(d, N / 2, N / 2, 100) == 0);
    fault_expect("cudaEventQuery of the event", fault_show("cudaEventQuery", cudaEventQuery(ev)) ==
                                                    cudaSuccess);
    fault_ipc_fill<<<N / 256, 256>>>(d, N, 300);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaEventRecord(ev, 0);
    if (e == cudaSuccess)
        e = cudaEventSynchronize(ev);
    fault_expect("fill, record, synchronise the event", fault_show("fill, record, synchronise", e) ==
                                                           cudaSuccess);
    fault_expect("the block holds the new values", wrong(d, 0, N, 300) == 0);

    pid = spawn("opener", mem_hex, event_hex, &ready);
    how = fault_wait_for(pid);
    close(ready);
    printf("parent:\n");
    printf("  %-44s    %s\n", "the opener ended by", how);
    fault_expect("the opener opened the handles again", strcmp(how, "exit 0") == 0);
    fault_expect("the block still holds the values", wrong(d, 0, N, 300) == 0);
    fault_expect("cudaEventDestroy", fault_show("cudaEventDestroy", cudaEventDestroy(ev)) ==
                                         cudaSuccess);
    fault_expect("cudaFree", fault_show("cudaFree", cudaFree(d)) == cudaSuccess);
    int *again = NULL;
    e = cudaMalloc((void **)&again, N * sizeof(int));
    if (e == cudaSuccess) {
        fault_ipc_fill<<<N / 256, 256>>>(again, N, 400);
        e = cudaGetLastError();
    }
    fault_expect("a new block works", e == cudaSuccess && wrong(again, 0, N, 400) == 0);
    cudaFree(again);
    fault_show("cudaGetLastError at the end", cudaGetLastError());
    return fault_finish();
}
