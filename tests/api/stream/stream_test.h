/* stream_test.h - helpers of the stream and event API tests (tests/api/stream/). */
#ifndef MINICUDART_STREAM_TEST_H
#define MINICUDART_STREAM_TEST_H

#include "e2e.h"

#include <stdio.h>

/* The arguments the fake logged for the latest call of `name`, or NULL when there was none. */
static inline const char *last_args(const char *name)
{
    for (size_t i = fk.fake_call_count(); i-- > 0;) {
        const fake_call *c = fk.fake_call_at(i);
        if (strcmp(c->name, name) == 0)
            return c->args;
    }
    return NULL;
}

/* Asserts that the latest call of `name` was logged with exactly the arguments fmt, ... */
#define assert_args(name, ...)                                                              \
    do {                                                                                    \
        char expected_[256];                                                                \
        snprintf(expected_, sizeof expected_, __VA_ARGS__);                                 \
        const char *got_ = last_args(name);                                                 \
        assert_non_null(got_);                                                              \
        assert_string_equal(got_, expected_);                                               \
    } while (0)

/* Asserts that the latest call of `name` was logged with arguments starting with fmt, ... */
#define assert_args_prefix(name, ...)                                                       \
    do {                                                                                    \
        char expected_[256];                                                                \
        snprintf(expected_, sizeof expected_, __VA_ARGS__);                                 \
        const char *got_ = last_args(name);                                                 \
        assert_non_null(got_);                                                              \
        assert_int_equal(strncmp(got_, expected_, strlen(expected_)), 0);                   \
    } while (0)

#define CU_NOT_READY 600
#define CU_INVALID_HANDLE 400
#define CU_OUT_OF_MEMORY 2
#define CU_ILLEGAL_ADDRESS 700

#endif
