/*
 * fault.h - helpers of the fault_*.cu programs (issue 18, "faults in the middle of work"): a
 * watchdog, one line per observation, and checks that count failures.
 *
 * A fault program prints what each call answered (code and name, never pointers or timings), so
 * that NVIDIA's runtime and minicudart's transcripts diff line by line.  Where the documentation
 * guarantees an answer the program asserts it (expect); where NVIDIA's answer is not known it
 * only prints it, and the differential comparison (tests/gpu/reliability.sh) decides.
 */
#ifndef MINICUDART_FAULT_H
#define MINICUDART_FAULT_H

#include "gpu_check.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static int fault_failures;
static const char *fault_program = "fault";

/* A watchdog: a program that hangs prints FAIL and exits 1 after `seconds`. */
static inline void fault_watchdog(unsigned seconds)
{
    gpu_watchdog(seconds, "FAIL: watchdog: the program hangs\n");
}

/* "  <what> -> <code> <name>"; returns the code. */
static inline cudaError_t fault_show(const char *what, cudaError_t e)
{
    printf("  %-44s -> " ERR_FMT "\n", what, ERR_ARGS(e));
    return e;
}

/* "  <what>: ok" or "  <what>: WRONG" (counted). */
static inline bool fault_expect(const char *what, bool good)
{
    printf("  %-44s %s\n", what, good ? "ok" : "WRONG");
    if (!good)
        fault_failures++;
    return good;
}

/* The last line and the exit code: 0 when every expectation held. */
static inline int fault_finish(void)
{
    printf("%s: %s\n", fault_program, fault_failures ? "FAIL" : "PASS");
    return fault_failures ? 1 : 0;
}

/* Against the fake driver (tests/e2e): fake_fail_call, to inject a fault the fake cannot make
 * (it runs no device code); NULL on a GPU. */
typedef void (*fault_fail_fn)(const char *name, unsigned nth, int code);
static inline fault_fail_fn fault_fake_fail(void)
{
    const char *driver = getenv("MINICUDART_DRIVER");
    void *fake = driver && *driver ? dlopen(driver, RTLD_NOW | RTLD_LOCAL) : NULL;
    void *sym = fake ? dlsym(fake, "fake_fail_call") : NULL;
    fault_fail_fn fn = NULL;
    memcpy(&fn, &sym, sizeof fn);
    return fn;
}

// How a child process ended: "exit N", "signal N", or "hangs" (killed after 60 s).
static inline const char *fault_wait_for(pid_t pid)
{
    static char text[32];
    for (int waited_ms = 0; waited_ms < 60000; waited_ms += 5) {
        int status = 0;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            if (WIFEXITED(status))
                snprintf(text, sizeof text, "exit %d", WEXITSTATUS(status));
            else
                snprintf(text, sizeof text, "signal %d", WTERMSIG(status));
            return text;
        }
        usleep(5000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return "hangs";
}

#endif
