/*
 * library_ptx.h - the image conf_library.cu and conf_misuse_library.cu load with
 * cudaLibraryLoadData: PTX text, which the driver JIT-compiles at load (no build step makes a
 * cubin or fatbin for these programs).  Made by nvcc 13.0 (-ptx -arch=compute_90) from:
 *
 *     extern "C" __device__ int lib_counter = 7;
 *     extern "C" __managed__ int lib_managed = 5;
 *     extern "C" __global__ void lib_fill(int *p, int v, int n)
 *     {
 *         int i = blockIdx.x * blockDim.x + threadIdx.x;
 *         if (i < n) p[i] = v + lib_counter;
 *     }
 *     extern "C" __global__ void lib_bump(int by)
 *     {
 *         if (threadIdx.x == 0 && blockIdx.x == 0) { lib_counter += by; lib_managed += by; }
 *     }
 */
#ifndef MINICUDART_GPU_LIBRARY_PTX_H
#define MINICUDART_GPU_LIBRARY_PTX_H

static const char library_ptx[] =
    ".version 9.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    "\n"
    "\t// .globl\tlib_fill\n"
    ".global .align 4 .u32 lib_counter = 7;\n"
    ".global .attribute(.managed) .align 4 .u32 lib_managed = 5;\n"
    "\n"
    ".visible .entry lib_fill(\n"
    "\t.param .u64 lib_fill_param_0,\n"
    "\t.param .u32 lib_fill_param_1,\n"
    "\t.param .u32 lib_fill_param_2\n"
    ")\n"
    "{\n"
    "\t.reg .pred \t%p<2>;\n"
    "\t.reg .b32 \t%r<9>;\n"
    "\t.reg .b64 \t%rd<5>;\n"
    "\n"
    "\n"
    "\tld.param.u64 \t%rd1, [lib_fill_param_0];\n"
    "\tld.param.u32 \t%r2, [lib_fill_param_1];\n"
    "\tld.param.u32 \t%r3, [lib_fill_param_2];\n"
    "\tmov.u32 \t%r4, %ctaid.x;\n"
    "\tmov.u32 \t%r5, %ntid.x;\n"
    "\tmov.u32 \t%r6, %tid.x;\n"
    "\tmad.lo.s32 \t%r1, %r4, %r5, %r6;\n"
    "\tsetp.ge.s32 \t%p1, %r1, %r3;\n"
    "\t@%p1 bra \t$L__BB0_2;\n"
    "\n"
    "\tcvta.to.global.u64 \t%rd2, %rd1;\n"
    "\tld.global.u32 \t%r7, [lib_counter];\n"
    "\tadd.s32 \t%r8, %r7, %r2;\n"
    "\tmul.wide.s32 \t%rd3, %r1, 4;\n"
    "\tadd.s64 \t%rd4, %rd2, %rd3;\n"
    "\tst.global.u32 \t[%rd4], %r8;\n"
    "\n"
    "$L__BB0_2:\n"
    "\tret;\n"
    "\n"
    "}\n"
    "\t// .globl\tlib_bump\n"
    ".visible .entry lib_bump(\n"
    "\t.param .u32 lib_bump_param_0\n"
    ")\n"
    "{\n"
    "\t.reg .pred \t%p<2>;\n"
    "\t.reg .b32 \t%r<9>;\n"
    "\n"
    "\n"
    "\tld.param.u32 \t%r1, [lib_bump_param_0];\n"
    "\tmov.u32 \t%r2, %tid.x;\n"
    "\tmov.u32 \t%r3, %ctaid.x;\n"
    "\tor.b32  \t%r4, %r2, %r3;\n"
    "\tsetp.ne.s32 \t%p1, %r4, 0;\n"
    "\t@%p1 bra \t$L__BB1_2;\n"
    "\n"
    "\tld.global.u32 \t%r5, [lib_counter];\n"
    "\tadd.s32 \t%r6, %r5, %r1;\n"
    "\tst.global.u32 \t[lib_counter], %r6;\n"
    "\tld.global.u32 \t%r7, [lib_managed];\n"
    "\tadd.s32 \t%r8, %r7, %r1;\n"
    "\tst.global.u32 \t[lib_managed], %r8;\n"
    "\n"
    "$L__BB1_2:\n"
    "\tret;\n"
    "\n"
    "}\n"
    "\n"
    "\n";

#endif
