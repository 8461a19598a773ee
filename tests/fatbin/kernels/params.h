/*
 * params.h - parameter types shared by the fixture kernels (multi.cu, compiled by nvcc) and the
 * C tests, which compute the expected parameter offsets and sizes from these declarations.
 *
 * CUDA lays a kernel's parameters out like the members of a struct (each at its own
 * alignment), so each args_* struct mirrors one kernel's parameter list; the list's size is
 * offsetof(last) + sizeof(last), without the struct's tail padding.
 */
#ifndef FATBIN_TEST_PARAMS_H
#define FATBIN_TEST_PARAMS_H

struct pair {
    char tag;
    double value;
    short small;
};

struct block4k {                 /* a 4096-byte parameter: still KPARAM_INFO (V1) */
    unsigned char bytes[4096];
};

struct block4400 {               /* pushes the list past 4352 bytes: KPARAM_INFO_V2 */
    unsigned char bytes[4400];
};

#define SHARED_FLOATS 256        /* k_shared's static shared array */
#define BOUND_THREADS 128        /* k_shared's __launch_bounds__ */

struct args_k_struct { int a; struct pair p; double *out; };
struct args_k_many {
    char c0; int i1; double d2; short s3; float *p4; char c5; long long l6; float f7;
    int i8; struct pair p9; char c10; double d11; int i12; int i13; unsigned char u14; void *p15;
};
struct args_k_big4k { struct block4k b; int x; };
struct args_k_v2 { int *p; struct block4400 b; };
struct args_k_shared { float *out; };
struct args_k_tmpl_float { float *out; float v; };
struct args_k_tmpl_int { int *out; int v; };

#endif
