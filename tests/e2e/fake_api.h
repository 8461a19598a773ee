/*
 * fake_api.h - the end-to-end tests' handle on the fake driver's test API (tests/fake/fakecuda.h).
 *
 * fake_api_load() opens the library named by MINICUDART_DRIVER - the same instance the runtime
 * opens (dlopen of an already-loaded path returns the same handle) - and fills `fk` with its
 * fake_* functions: call fk.fake_last_launch() and so on.  Loading it before the runtime does
 * lets a test inject failures into the runtime's very first driver calls.
 */
#ifndef MINICUDART_E2E_FAKE_API_H
#define MINICUDART_E2E_FAKE_API_H

#include "fakecuda.h"

#define FAKE_API_FIELD(ret, name, params) ret(*name) params;
typedef struct fake_api {
    FAKECUDA_API(FAKE_API_FIELD)
} fake_api;
#undef FAKE_API_FIELD

extern fake_api fk;

/* Returns 0 when every function was found, -1 otherwise (message on stderr). */
int fake_api_load(void);

/* Calls of entry point `name` whose recorded arguments contain `args`, since the last
 * fake_reset_log. */
size_t e2e_calls_with(const char *name, const char *args);

/* The integer value of environment variable `name`, or `fallback` when unset or empty. */
int e2e_env_int(const char *name, int fallback);

#endif
