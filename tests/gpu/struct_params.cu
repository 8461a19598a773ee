// struct_params.cu - kernel parameters of awkward layout reach the kernel intact.
//
// The stub passes one pointer per declared parameter; the driver lays them out from the cubin's
// parameter table.  The kernel writes back every field it received; the host compares.
#include "gpu_check.h"
#include <string.h>

struct Mixed {  // padding after c and after i: 24 bytes, 8-aligned
    char c;
    double d;
    int i;
};

struct __align__(16) Aligned {  // 16-aligned, so it starts at a 16-byte offset
    int a;
    float b;
    long long c;
};

struct Echo {
    char c0;
    char m_c;
    double m_d;
    int m_i;
    short sh;
    int al_a;
    float al_b;
    long long al_c;
    unsigned long long ptr;
    double last;
};

__global__ void echo(char c0, Mixed m, short sh, Aligned al, int *ptr, double last, Echo *out)
{
    out->c0 = c0;
    out->m_c = m.c;
    out->m_d = m.d;
    out->m_i = m.i;
    out->sh = sh;
    out->al_a = al.a;
    out->al_b = al.b;
    out->al_c = al.c;
    out->ptr = (unsigned long long)ptr;
    out->last = last;
}

int main(void)
{
    gpu_require("struct_params");
    Echo *dout;
    int *dptr;
    CHECK(cudaMalloc((void **)&dout, sizeof(Echo)));
    CHECK(cudaMalloc((void **)&dptr, 64));
    CHECK(cudaMemset(dout, 0, sizeof(Echo)));

    Mixed m = {'M', 3.25, -123456};
    Aligned al = {0x12345678, -1.5f, 0x0102030405060708LL};
    echo<<<1, 1>>>('x', m, (short)-31000, al, dptr + 3, 6.02214076e23, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    Echo e;
    memset(&e, 0, sizeof e);
    CHECK(cudaMemcpy(&e, dout, sizeof e, cudaMemcpyDeviceToHost));
    int ok = e.c0 == 'x' && e.m_c == 'M' && e.m_d == 3.25 && e.m_i == -123456 && e.sh == -31000
             && e.al_a == 0x12345678 && e.al_b == -1.5f && e.al_c == 0x0102030405060708LL
             && e.ptr == (unsigned long long)(dptr + 3) && e.last == 6.02214076e23;
    printf("sizeof Mixed %zu, sizeof Aligned %zu (align %zu)\n", sizeof(Mixed), sizeof(Aligned),
           alignof(Aligned));
    printf("char '%c', Mixed {'%c', %.17g, %d}, short %d\n", e.c0, e.m_c, e.m_d, e.m_i, e.sh);
    printf("Aligned {0x%x, %g, 0x%llx}, pointer %s, double %.17g\n", e.al_a, e.al_b,
           (unsigned long long)e.al_c, e.ptr == (unsigned long long)(dptr + 3) ? "matches" : "DIFFERS",
           e.last);
    CHECK(cudaFree(dout));
    CHECK(cudaFree(dptr));
    printf("struct_params: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
