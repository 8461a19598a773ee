/* e2e.h - what every end-to-end test file includes: cmocka, the runtime's C API, the fake. */
#ifndef MINICUDART_E2E_H
#define MINICUDART_E2E_H

#include "fake_api.h"

#include <cuda_runtime_api.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

/* Asserts a call's return code and then the thread's last error (which it leaves cleared). */
#define assert_cuda(call, code)                                                             \
    do {                                                                                    \
        assert_int_equal((call), (code));                                                   \
        assert_int_equal(cudaGetLastError(), (code));                                       \
    } while (0)

static inline int e2e_setup(void **state)
{
    (void)state;
    return fake_api_load();
}

#endif
