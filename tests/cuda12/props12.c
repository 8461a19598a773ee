/*
 * props12.c - a CUDA 12 program's cudaGetDeviceProperties through the runtime's CUDA 12 face.
 * Compiled against NVIDIA's 12.9 headers, whose cuda_runtime_api.h makes the call
 * cudaGetDeviceProperties_v2 (tests/cuda12/run12.sh checks the import), and run against the fake
 * driver (tests/fake), on libcudart.so.12 or linked with libminicudart12.a.
 *
 * The struct is 12.9's cudaDeviceProp: the fields 13 removed (clockRate, computeMode, ...) and
 * those that moved after them must hold what cudaDeviceGetAttribute answers, the reserved words
 * past the 780 bytes NVIDIA's _v2 writes must be untouched.  The fake's clock rates and SM count
 * are checked by value too, so that a field both answers leave at zero cannot pass.
 */
#include "fake_api.h"

#include <cuda_runtime_api.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#if CUDART_VERSION != 12090
#error "props12.c is compiled against CUDA 12.9's headers"
#endif

#define CANARY 0xa5

static void properties_are_12_9s_layout_filled_as_the_attributes_answer(void **state)
{
    (void)state;
    struct cudaDeviceProp p;
    memset(&p, CANARY, sizeof p);
    assert_int_equal(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    assert_string_equal(p.name, "Fake CUDA Device (sm_90)");
    assert_int_equal(p.major, 9);
    assert_int_equal(p.minor, 0);
    assert_int_equal(p.multiProcessorCount, 132);
    assert_int_equal(p.clockRate, 1980000);
    assert_int_equal(p.memoryClockRate, 2619000);

    const struct {
        const char *field;
        int value;
        enum cudaDeviceAttr attr;
    } fields[] = {
        {"maxThreadsDim[2]", p.maxThreadsDim[2], cudaDevAttrMaxBlockDimZ},
        {"clockRate", p.clockRate, cudaDevAttrClockRate},
        {"deviceOverlap", p.deviceOverlap, cudaDevAttrGpuOverlap},
        {"multiProcessorCount", p.multiProcessorCount, cudaDevAttrMultiProcessorCount},
        {"kernelExecTimeoutEnabled", p.kernelExecTimeoutEnabled, cudaDevAttrKernelExecTimeout},
        {"computeMode", p.computeMode, cudaDevAttrComputeMode},
        {"maxTexture1DLinear", p.maxTexture1DLinear, cudaDevAttrMaxTexture1DLinearWidth},
        {"pciBusID", p.pciBusID, cudaDevAttrPciBusId},
        {"memoryClockRate", p.memoryClockRate, cudaDevAttrMemoryClockRate},
        {"memoryBusWidth", p.memoryBusWidth, cudaDevAttrGlobalMemoryBusWidth},
        {"l2CacheSize", p.l2CacheSize, cudaDevAttrL2CacheSize},
        {"singleToDoublePrecisionPerfRatio", p.singleToDoublePrecisionPerfRatio,
         cudaDevAttrSingleToDoublePrecisionPerfRatio},
        {"cooperativeLaunch", p.cooperativeLaunch, cudaDevAttrCooperativeLaunch},
        {"cooperativeMultiDeviceLaunch", p.cooperativeMultiDeviceLaunch,
         cudaDevAttrCooperativeMultiDeviceLaunch},
        {"maxBlocksPerMultiProcessor", p.maxBlocksPerMultiProcessor,
         cudaDevAttrMaxBlocksPerMultiprocessor},
        {"clusterLaunch", p.clusterLaunch, cudaDevAttrClusterLaunch},
        {"ipcEventSupported", p.ipcEventSupported, cudaDevAttrIpcEventSupport},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        int v = -1;
        assert_int_equal(cudaDeviceGetAttribute(&v, fields[i].attr, 0), cudaSuccess);
        if (v != fields[i].value)
            fail_msg("%s = %d, cudaDeviceGetAttribute(%d) = %d", fields[i].field,
                     fields[i].value, (int)fields[i].attr, v);
    }

    const unsigned char *bytes = (const unsigned char *)&p;
    for (size_t i = offsetof(struct cudaDeviceProp, reserved); i < sizeof p; i++)
        if (bytes[i] != CANARY)
            fail_msg("byte %zu of cudaDeviceProp (reserved) was written", i);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
}

static void the_runtime_is_12_9s(void **state)
{
    (void)state;
    int version = 0;
    assert_int_equal(cudaRuntimeGetVersion(&version), cudaSuccess);
    assert_int_equal(version, 12090);
}

static int setup(void **state)
{
    (void)state;
    return fake_api_load();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(properties_are_12_9s_layout_filled_as_the_attributes_answer),
        cmocka_unit_test(the_runtime_is_12_9s),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
