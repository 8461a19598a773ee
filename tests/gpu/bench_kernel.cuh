// bench_kernel.cuh - the kernel timed by bench_launch.cu (through a runtime) and by
// bench_launch_driver.c (through cuLaunchKernel, from a cubin of bench_launch.cu).
// Five parameters, one of them a 16-byte struct; extern "C" so the driver finds it by name.
#ifndef MINICUDART_BENCH_KERNEL_CUH
#define MINICUDART_BENCH_KERNEL_CUH

struct BenchParams {
    int x, y, z, w;
};

extern "C" __global__ void bench_kernel(int *out, int a, float b, BenchParams p, long long c)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        out[0] += a + (int)b + p.x + p.w + (int)c;
}

// Keeps the GPU busy for about `ns` nanoseconds, so that launches made meanwhile only queue: the
// time they take is then the host's alone (runtime + driver), not the GPU's.
extern "C" __global__ void spin_kernel(long long ns)
{
    unsigned long long start;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    for (;;) {
        unsigned long long now;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
        if ((long long)(now - start) >= ns)
            break;
    }
}

#endif
