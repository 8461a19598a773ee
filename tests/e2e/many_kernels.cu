// many_kernels.cu - 48 kernels (instances of one template) register before main: the runtime's
// look-up table (two keys per kernel: its host stub and its handle) is replaced by bigger copies
// twice on the way.  Every kernel must still be found, and, in the sanitizer build, the
// replaced tables must not be lost memory (LeakSanitizer checks at exit).
#include <cuda_runtime_api.h>
#include <stdio.h>

template <int N> __global__ void numbered(int *out)
{
    out[N] = N;
}

static int found;

template <int N> struct each {
    static void check()
    {
        cudaFuncAttributes attr;
        cudaError_t e = cudaFuncGetAttributes(&attr, numbered<N>);
        if (e == cudaSuccess)
            found++;
        else
            printf("numbered<%d>: %d %s\n", N, (int)e, cudaGetErrorName(e));
        each<N - 1>::check();
    }
};
template <> struct each<0> {
    static void check() {}
};

int main(void)
{
    each<48>::check();
    printf("%d of 48 kernels found\n", found);
    return found == 48 ? 0 : 1;
}
