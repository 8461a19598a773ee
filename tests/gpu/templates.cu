// templates.cu - kernel templates: each instantiation is its own registered kernel
// (_Z2tkIiLi3EEvPT_S0_i and _Z2tkIfLi5EEvPT_S0_i), launched through its own host wrapper.
#include "gpu_check.h"

template <typename T, int N>
__global__ void tk(T *out, T x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x * N + (T)i;
}

template <typename T, int N>
static int run(const char *name, T x)
{
    const int n = 1000;
    T *dout, host[1000];
    CHECK(cudaMalloc((void **)&dout, sizeof host));
    tk<T, N><<<(n + 127) / 128, 128>>>(dout, x, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(host, dout, sizeof host, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dout));
    double sum = 0;
    int wrong = 0;
    for (int i = 0; i < n; i++) {
        sum += (double)host[i];
        if (host[i] != x * N + (T)i)
            wrong++;
    }
    printf("%s: sum %.3f, wrong %d\n", name, sum, wrong);
    return wrong == 0;
}

int main(void)
{
    gpu_require("templates");
    int ok = run<int, 3>("tk<int,3>(x=7)", 7);
    ok &= run<float, 5>("tk<float,5>(x=1.25)", 1.25f);
    ok &= run<int, 3>("tk<int,3>(x=-2) again", -2);
    printf("templates: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
