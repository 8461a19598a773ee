/*
 * test_device_caps.c - the capability queries of a device over the fake driver: the 1D linear
 * texture width of a channel format and the atomic capabilities of the host and peer links.  Each
 * check asserts the returned code and the thread's last error, and what reached the driver (the
 * fake's call log).  argv[1] names the test; FAKECUDA_DEVICES=2 gives the peer queries a peer.
 */
#include "e2e.h"

#include <cuda.h>
#include <stdio.h>

/* The fake's fixed width and its capability sets (tests/fake/memory/fake_query.c). */
#define FAKE_WIDTH ((size_t)1 << 28)
#define INT_CAPS (cudaAtomicCapabilitySigned | cudaAtomicCapabilityUnsigned | \
                  cudaAtomicCapabilityScalar32 | cudaAtomicCapabilityScalar64)
#define FLOAT_CAPS (cudaAtomicCapabilityScalar32 | cudaAtomicCapabilityScalar64)

static const char *last_args(const char *name)
{
    for (size_t i = fk.fake_call_count(); i-- > 0;) {
        const fake_call *c = fk.fake_call_at(i);
        if (strcmp(c->name, name) == 0)
            return c->args;
    }
    fail_msg("no call of %s", name);
    return "";
}

#define assert_args_have(name, text)                                                        \
    do {                                                                                    \
        const char *args_ = last_args(name);                                                \
        if (!strstr(args_, (text)))                                                         \
            fail_msg("%s(%s) lacks \"%s\"", (name), args_, (text));                         \
    } while (0)

static void texture_width_translates_the_channel_descriptor(void **state)
{
    (void)state;
    size_t width = 0;
    struct cudaChannelFormatDesc f4 = cudaCreateChannelDesc(32, 32, 32, 32,
                                                            cudaChannelFormatKindFloat);
    assert_cuda(cudaDeviceGetTexture1DLinearMaxWidth(&width, &f4, 0), cudaSuccess);
    assert_int_equal(width, FAKE_WIDTH);
    char want[64];
    snprintf(want, sizeof want, "format=0x%x channels=4 dev=0", (unsigned)CU_AD_FORMAT_FLOAT);
    assert_args_have("cuDeviceGetTexture1DLinearMaxWidth", want);
    struct cudaChannelFormatDesc u8 = cudaCreateChannelDesc(8, 0, 0, 0,
                                                            cudaChannelFormatKindUnsigned);
    assert_cuda(cudaDeviceGetTexture1DLinearMaxWidth(&width, &u8, 1), cudaSuccess);
    snprintf(want, sizeof want, "format=0x%x channels=1 dev=1",
             (unsigned)CU_AD_FORMAT_UNSIGNED_INT8);
    assert_args_have("cuDeviceGetTexture1DLinearMaxWidth", want);
}

static void texture_width_error_paths(void **state)
{
    (void)state;
    size_t width = 7;
    struct cudaChannelFormatDesc f1 = cudaCreateChannelDesc(32, 0, 0, 0,
                                                            cudaChannelFormatKindFloat);
    struct cudaChannelFormatDesc three = cudaCreateChannelDesc(8, 8, 8, 0,
                                                               cudaChannelFormatKindSigned);
    fk.fake_reset_log();
    assert_cuda(cudaDeviceGetTexture1DLinearMaxWidth(NULL, &f1, 0), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceGetTexture1DLinearMaxWidth(&width, NULL, 0), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceGetTexture1DLinearMaxWidth(&width, &f1, 2), cudaErrorInvalidDevice);
    assert_cuda(cudaDeviceGetTexture1DLinearMaxWidth(&width, &f1, -1), cudaErrorInvalidDevice);
    /* Three channels: no driver format; cudaMallocArray's code, as NVIDIA answers on the H200. */
    assert_cuda(cudaDeviceGetTexture1DLinearMaxWidth(&width, &three, 0),
                cudaErrorInvalidChannelDescriptor);
    assert_int_equal(fk.fake_count_calls("cuDeviceGetTexture1DLinearMaxWidth"), 0);
    fk.fake_fail_call("cuDeviceGetTexture1DLinearMaxWidth", 1, 1 /* INVALID_VALUE */);
    assert_cuda(cudaDeviceGetTexture1DLinearMaxWidth(&width, &f1, 0), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuDeviceGetTexture1DLinearMaxWidth"), 1);
    assert_int_equal(width, 7);
}

static void host_atomic_capabilities_pass_operations_through(void **state)
{
    (void)state;
    const enum cudaAtomicOperation ops[] = {cudaAtomicOperationIntegerAdd,
                                            cudaAtomicOperationCAS, cudaAtomicOperationFloatAdd,
                                            cudaAtomicOperationOr};
    unsigned caps[4] = {99, 99, 99, 99};
    assert_cuda(cudaDeviceGetHostAtomicCapabilities(caps, ops, 4, 1), cudaSuccess);
    assert_args_have("cuDeviceGetHostAtomicCapabilities", "count=4 first=0 dev=1");
    assert_int_equal(caps[0], INT_CAPS);
    assert_int_equal(caps[1], INT_CAPS | cudaAtomicCapabilityScalar128);
    assert_int_equal(caps[2], 0);
    assert_int_equal(caps[3], 0);
}

static void host_atomic_capabilities_error_paths(void **state)
{
    (void)state;
    const enum cudaAtomicOperation ops[] = {cudaAtomicOperationExchange};
    const enum cudaAtomicOperation bad[] = {(enum cudaAtomicOperation)42};
    unsigned caps[1] = {0};
    fk.fake_reset_log();
    assert_cuda(cudaDeviceGetHostAtomicCapabilities(NULL, ops, 1, 0), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceGetHostAtomicCapabilities(caps, NULL, 1, 0), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceGetHostAtomicCapabilities(caps, ops, 0, 0), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceGetHostAtomicCapabilities(caps, ops, 1, 2), cudaErrorInvalidDevice);
    assert_int_equal(fk.fake_count_calls("cuDeviceGetHostAtomicCapabilities"), 0);
    /* An operation the driver does not know is its to refuse. */
    assert_cuda(cudaDeviceGetHostAtomicCapabilities(caps, bad, 1, 0), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuDeviceGetHostAtomicCapabilities"), 1);
    fk.fake_fail_call("cuDeviceGetHostAtomicCapabilities", 1, 101 /* INVALID_DEVICE */);
    assert_cuda(cudaDeviceGetHostAtomicCapabilities(caps, ops, 1, 0), cudaErrorInvalidDevice);
}

static void p2p_atomic_capabilities_pass_both_devices(void **state)
{
    (void)state;
    const enum cudaAtomicOperation ops[] = {cudaAtomicOperationFloatMax,
                                            cudaAtomicOperationIntegerMin,
                                            cudaAtomicOperationCAS};
    unsigned caps[3] = {0, 0, 0};
    assert_cuda(cudaDeviceGetP2PAtomicCapabilities(caps, ops, 3, 1, 0), cudaSuccess);
    assert_args_have("cuDeviceGetP2PAtomicCapabilities", "count=3 first=12 src=1 dst=0");
    assert_int_equal(caps[0], FLOAT_CAPS);
    assert_int_equal(caps[1], INT_CAPS);
    assert_int_equal(caps[2], INT_CAPS | cudaAtomicCapabilityScalar128);
}

static void p2p_atomic_capabilities_error_paths(void **state)
{
    (void)state;
    const enum cudaAtomicOperation ops[] = {cudaAtomicOperationAnd};
    unsigned caps[1] = {0};
    fk.fake_reset_log();
    assert_cuda(cudaDeviceGetP2PAtomicCapabilities(NULL, ops, 1, 0, 1), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceGetP2PAtomicCapabilities(caps, NULL, 1, 0, 1), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceGetP2PAtomicCapabilities(caps, ops, 0, 0, 1), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceGetP2PAtomicCapabilities(caps, ops, 1, 0, 2), cudaErrorInvalidDevice);
    assert_cuda(cudaDeviceGetP2PAtomicCapabilities(caps, ops, 1, -1, 0), cudaErrorInvalidDevice);
    /* Both ends the same device: documented as cudaErrorInvalidDevice. */
    assert_cuda(cudaDeviceGetP2PAtomicCapabilities(caps, ops, 1, 1, 1), cudaErrorInvalidDevice);
    assert_int_equal(fk.fake_count_calls("cuDeviceGetP2PAtomicCapabilities"), 0);
    fk.fake_fail_call("cuDeviceGetP2PAtomicCapabilities", 1, 1 /* INVALID_VALUE */);
    assert_cuda(cudaDeviceGetP2PAtomicCapabilities(caps, ops, 1, 0, 1), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuDeviceGetP2PAtomicCapabilities"), 1);
}

/* Run with FAKECUDA_HIDE naming both: an older driver without the 13.0 entry points. */
static void atomic_capabilities_without_driver_support_are_not_supported(void **state)
{
    (void)state;
    const enum cudaAtomicOperation ops[] = {cudaAtomicOperationIntegerAdd};
    unsigned caps[1] = {0};
    assert_cuda(cudaDeviceGetHostAtomicCapabilities(caps, ops, 1, 0), cudaErrorNotSupported);
    assert_cuda(cudaDeviceGetP2PAtomicCapabilities(caps, ops, 1, 0, 1), cudaErrorNotSupported);
    /* The argument checks still come first. */
    assert_cuda(cudaDeviceGetHostAtomicCapabilities(NULL, ops, 1, 0), cudaErrorInvalidValue);
}

#define TEST(name) { #name, name }

int main(int argc, char **argv)
{
    static const struct { const char *name; CMUnitTestFunction fn; } all[] = {
        TEST(texture_width_translates_the_channel_descriptor),
        TEST(texture_width_error_paths),
        TEST(host_atomic_capabilities_pass_operations_through),
        TEST(host_atomic_capabilities_error_paths),
        TEST(p2p_atomic_capabilities_pass_both_devices),
        TEST(p2p_atomic_capabilities_error_paths),
        TEST(atomic_capabilities_without_driver_support_are_not_supported),
    };
    for (size_t i = 0; argc == 2 && i < sizeof all / sizeof *all; i++) {
        if (strcmp(argv[1], all[i].name) != 0)
            continue;
        const struct CMUnitTest tests[] = { { all[i].name, all[i].fn, NULL, NULL, NULL } };
        return cmocka_run_group_tests_name(all[i].name, tests, e2e_setup, NULL);
    }
    fprintf(stderr, "usage: %s TEST\n", argv[0]);
    return 2;
}
