/*
 * test_first_launch.c - threads launch kernels that no one has launched yet, all at once: the
 * launch path's steps that take no lock (the registry's hash probe of cudaLaunchKernel, the
 * kernel record of __cudaGetKernel, the resolved CUfunction published last and read without the
 * lock, its generation after a reset) under real concurrency.  It runs natively, under
 * ThreadSanitizer (label threads) and as an aarch64 program under qemu (docs/arm.md).
 *
 * Eight threads wait at a barrier, then each launches all 32 kernels of first_launch.cu once,
 * two threads starting at the same kernel (one through <<<>>>, one through cudaLaunchKernel),
 * each pair at a different one.  Every launch must succeed and reach the driver with its own
 * kernel and its own arguments, and however the threads raced, the module is loaded once and
 * each kernel resolved once.  Three rounds, a cudaDeviceReset between them: after it every kernel
 * resolves again, and the rounds race that too.
 */
#define _POSIX_C_SOURCE 200809L   /* pthread_barrier_t */
#include "e2e.h"

#include <pthread.h>
#include <stdio.h>

int e2e_first_kernel_count(void);
cudaError_t e2e_first_launch_stub(int which, unsigned *out, unsigned tag);
cudaError_t e2e_first_launch_api(int which, unsigned *out, unsigned tag);

#define THREADS 8
#define ROUNDS 3
#define MAX_KERNELS 64

typedef struct worker {
    int index;
    unsigned *out;
    pthread_barrier_t *start;
    int failures;
} worker;

static void *launch_every_kernel(void *arg)
{
    worker *w = arg;
    int kernels = e2e_first_kernel_count();
    int first = (w->index / 2) * kernels / (THREADS / 2);
    pthread_barrier_wait(w->start);
    for (int i = 0; i < kernels; i++) {
        int which = (first + i) % kernels;
        unsigned tag = (unsigned)(w->index << 8 | which);
        cudaError_t e = w->index % 2 ? e2e_first_launch_api(which, w->out, tag)
                                     : e2e_first_launch_stub(which, w->out, tag);
        if (e != cudaSuccess) {
            fprintf(stderr, "thread %d, kernel %d: %s\n", w->index, which, cudaGetErrorName(e));
            w->failures++;
        }
    }
    return NULL;
}

/* The driver saw each thread launch each kernel exactly once, with that kernel's name and the
 * arguments that thread passed. */
static void assert_each_launch_reached_its_kernel(int kernels, unsigned *out)
{
    static unsigned char seen[THREADS][MAX_KERNELS];
    memset(seen, 0, sizeof seen);
    assert_int_equal(fk.fake_launch_count(), (size_t)(THREADS * kernels));
    for (size_t i = 0; i < fk.fake_launch_count(); i++) {
        const fake_launch *l = fk.fake_launch_at(i);
        unsigned *ptr = NULL;
        unsigned tag = 0;
        assert_true(l->params_size >= sizeof ptr + sizeof tag);
        memcpy(&ptr, l->params, sizeof ptr);
        memcpy(&tag, l->params + sizeof ptr, sizeof tag);
        assert_ptr_equal(ptr, out);
        int thread = (int)(tag >> 8), which = (int)(tag & 0xff);
        assert_in_range(thread, 0, THREADS - 1);
        assert_in_range(which, 0, kernels - 1);
        char name[64];
        snprintf(name, sizeof name, "_Z5firstILi%dEEvPjj", which);
        assert_string_equal(l->kernel, name);
        assert_int_equal(seen[thread][which]++, 0);
    }
}

static void first_launches_race_and_each_kernel_resolves_once(void **state)
{
    (void)state;
    int kernels = e2e_first_kernel_count();
    assert_in_range(kernels, 1, MAX_KERNELS);
    for (int round = 0; round < ROUNDS; round++) {
        unsigned *out = NULL;
        assert_cuda(cudaMalloc((void **)&out, MAX_KERNELS * sizeof *out), cudaSuccess);
        fk.fake_reset_log();

        pthread_barrier_t start;
        assert_int_equal(pthread_barrier_init(&start, NULL, THREADS), 0);
        worker workers[THREADS];
        pthread_t threads[THREADS];
        for (int t = 0; t < THREADS; t++) {
            workers[t] = (worker){.index = t, .out = out, .start = &start};
            assert_int_equal(pthread_create(&threads[t], NULL, launch_every_kernel, &workers[t]), 0);
        }
        for (int t = 0; t < THREADS; t++) {
            assert_int_equal(pthread_join(threads[t], NULL), 0);
            assert_int_equal(workers[t].failures, 0);
        }
        pthread_barrier_destroy(&start);

        assert_each_launch_reached_its_kernel(kernels, out);
        assert_int_equal(fk.fake_count_calls("cuModuleLoadDataEx"), 1);
        assert_int_equal(fk.fake_count_calls("cuModuleGetFunction"), (size_t)kernels);
        /* The next round starts on a fresh context: every kernel is resolved anew. */
        assert_cuda(cudaDeviceReset(), cudaSuccess);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(first_launches_race_and_each_kernel_resolves_once),
    };
    return cmocka_run_group_tests(tests, e2e_setup, NULL);
}
