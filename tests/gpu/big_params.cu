// big_params.cu - more than 4 KB of kernel parameters (the limit is 32764 bytes since CUDA 12.1).
//
// A struct of 1100 ints (4400 bytes) and one of 20000 bytes, both by value.  The cubin describes
// them with EIATTR_KPARAM_INFO_V2 once the total passes 4352 bytes.
#include "gpu_check.h"

struct Ints1100 {
    int v[1100];
};
struct Bytes20000 {
    unsigned char b[20000];
};

// One thread per block sums the whole struct; thread 0 also echoes the end elements.
__global__ void sum_ints(Ints1100 s, long long *out)
{
    long long sum = 0;
    for (int i = 0; i < 1100; i++)
        sum += (long long)s.v[i] * (i + 1);
    out[0] = sum;
    out[1] = s.v[0];
    out[2] = s.v[1099];
}

__global__ void sum_bytes(long long bias, Bytes20000 s, long long *out)
{
    unsigned long long h = 1469598103934665603ULL;  // FNV-1a over all 20000 bytes
    for (int i = 0; i < 20000; i++)
        h = (h ^ s.b[i]) * 1099511628211ULL;
    out[0] = (long long)h;
    out[1] = bias + s.b[0] + s.b[19999];
}

int main(void)
{
    gpu_require("big_params");
    static Ints1100 ints;
    static Bytes20000 bytes;
    long long want_sum = 0;
    for (int i = 0; i < 1100; i++) {
        ints.v[i] = (i * 37) % 1001 - 500;
        want_sum += (long long)ints.v[i] * (i + 1);
    }
    unsigned long long want_h = 1469598103934665603ULL;
    for (int i = 0; i < 20000; i++) {
        bytes.b[i] = (unsigned char)((i * 131 + 7) ^ (i >> 3));
        want_h = (want_h ^ bytes.b[i]) * 1099511628211ULL;
    }

    long long *dout, out[5];
    CHECK(cudaMalloc((void **)&dout, 5 * sizeof(long long)));
    CHECK(cudaMemset(dout, 0, 5 * sizeof(long long)));
    sum_ints<<<1, 1>>>(ints, dout);
    CHECK(cudaGetLastError());
    sum_bytes<<<1, 1>>>(1000000, bytes, dout + 3);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dout));

    int ok1 = out[0] == want_sum && out[1] == ints.v[0] && out[2] == ints.v[1099];
    int ok2 = (unsigned long long)out[3] == want_h
              && out[4] == 1000000 + bytes.b[0] + bytes.b[19999];
    printf("sizeof %zu: weighted sum %lld (want %lld), v[0] %lld, v[1099] %lld: %s\n",
           sizeof ints, out[0], want_sum, out[1], out[2], ok1 ? "ok" : "WRONG");
    printf("sizeof %zu: fnv1a 0x%016llx (want 0x%016llx), ends %lld: %s\n", sizeof bytes,
           (unsigned long long)out[3], want_h, out[4], ok2 ? "ok" : "WRONG");
    printf("big_params: %s\n", ok1 && ok2 ? "PASS" : "FAIL");
    return ok1 && ok2 ? 0 : 1;
}
