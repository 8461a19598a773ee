/* fake_api.c - see fake_api.h. */
#include "fake_api.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

fake_api fk;

int fake_api_load(void)
{
    const char *path = getenv("MINICUDART_DRIVER");
    if (!path) {
        fprintf(stderr, "fake_api: MINICUDART_DRIVER is not set\n");
        return -1;
    }
    void *lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    if (!lib)
        lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "fake_api: %s\n", dlerror());
        return -1;
    }
    int missing = 0;
#define FAKE_API_LOAD(ret, name, params)                                                    \
    if (!(*(void **)&fk.name = dlsym(lib, #name))) {                                        \
        fprintf(stderr, "fake_api: %s not found\n", #name);                                 \
        missing = 1;                                                                        \
    }
    FAKECUDA_API(FAKE_API_LOAD)
#undef FAKE_API_LOAD
    return missing ? -1 : 0;
}

int e2e_env_int(const char *name, int fallback)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : fallback;
}

size_t e2e_calls_with(const char *name, const char *args)
{
    size_t n = 0;
    for (size_t i = 0; i < fk.fake_call_count(); i++) {
        const fake_call *c = fk.fake_call_at(i);
        if (strcmp(c->name, name) == 0 && strstr(c->args, args))
            n++;
    }
    return n;
}
