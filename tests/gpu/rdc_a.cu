// rdc_a.cu - separate compilation (-rdc): this kernel calls a __device__ function and reads a
// __device__ variable that are both defined in rdc_b.cu.  Registration happens once for the link
// unit, through nvlink's link.stub and a version-2 fatbin wrapper.
#include "gpu_check.h"

extern __device__ int rdc_offset;           // defined in rdc_b.cu
extern __device__ int rdc_scale(int x);     // defined in rdc_b.cu
void launch_b(int *out, int n);             // host function in rdc_b.cu launching its kernel

__global__ void kern_a(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = rdc_scale(i) + rdc_offset;
}

static int check(const char *what, const int *got, int n, int mul, int add)
{
    int wrong = 0;
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        sum += got[i];
        if (got[i] != mul * i + add)
            wrong++;
    }
    printf("%s: sum %lld, wrong %d\n", what, sum, wrong);
    return wrong == 0;
}

int main(void)
{
    gpu_require("rdc");
    const int n = 4096;
    static int host[4096];
    int *dout, offset = 0;
    CHECK(cudaMalloc((void **)&dout, sizeof host));

    CHECK(cudaMemcpyFromSymbol(&offset, rdc_offset, sizeof offset));
    printf("rdc_offset initially %d\n", offset);
    int ok = offset == 7;

    kern_a<<<n / 256, 256>>>(dout, n);  // rdc_scale(i) = 3*i + rdc_offset; plus rdc_offset
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(host, dout, sizeof host, cudaMemcpyDeviceToHost));
    ok &= check("kern_a (offset 7)", host, n, 3, 14);

    offset = 100;
    CHECK(cudaMemcpyToSymbol(rdc_offset, &offset, sizeof offset));
    kern_a<<<n / 256, 256>>>(dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(host, dout, sizeof host, cudaMemcpyDeviceToHost));
    ok &= check("kern_a (offset 100)", host, n, 3, 200);

    launch_b(dout, n);  // kern_b, registered by rdc_b.o's callback into the same handle
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(host, dout, sizeof host, cudaMemcpyDeviceToHost));
    ok &= check("kern_b", host, n, 2, 100);

    CHECK(cudaFree(dout));
    printf("rdc: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
