/* parse_all.c - see parse_all.h. */
#include <stdlib.h>
#include <string.h>

#include "parse_all.h"

#define MAX_TEST_IMAGE (16u << 20)
#define MAX_TEST_PARAMS 512u

static const unsigned choose_sms[] = { 75, 80, 86, 90, 100, 103, 120 };

typedef struct ctx {
    parse_stats *st;
    size_t limit;                 /* bound for error offsets: the buffer being parsed */
} ctx;

/* Records a FATBIN_BAD: it must carry a message and an offset inside the input. */
static void bad(parse_stats *st, const fatbin_error *err, size_t limit)
{
    st->bad++;
    st->last = *err;
    if (err->message[0] == 0 || err->offset > limit)
        st->unclean++;
}

static void parse_cubin(const uint8_t *image, size_t size, parse_stats *st)
{
    cubin c;
    fatbin_error err = { 0, "" };
    if (cubin_open(&c, image, size, &err) != FATBIN_OK) {
        bad(st, &err, size);
        return;
    }
    st->cubins++;
    size_t iter = 0;
    cubin_kernel k;
    int rc;
    while ((rc = cubin_next_kernel(&c, &iter, &k, &err)) == FATBIN_OK) {
        st->kernels++;
        static cubin_param params[MAX_TEST_PARAMS];
        if (k.param_count > MAX_TEST_PARAMS)
            continue;
        memset(&err, 0, sizeof err);
        if (cubin_kernel_params(&k, params, MAX_TEST_PARAMS, &err) == FATBIN_OK)
            st->params += k.param_count;
        else
            bad(st, &err, k.info_size);
        cubin_kernel again;
        if (cubin_find_kernel(&c, k.name, &again, &err) != FATBIN_OK)
            bad(st, &err, size);
    }
    if (rc == FATBIN_BAD)
        bad(st, &err, size);
}

static void parse_entry(const fatbin_entry *e, parse_stats *st)
{
    st->entries++;
    uint64_t want = fatbin_entry_image_size(e);
    if (want > MAX_TEST_IMAGE)
        return;                   /* a corrupted size; the parser itself never allocates */
    uint8_t *image = malloc(want ? (size_t)want : 1);
    size_t produced;
    fatbin_error err = { 0, "" };
    if (!image)
        return;
    if (fatbin_entry_extract(e, image, (size_t)want, &produced, &err) != FATBIN_OK) {
        bad(st, &err, SIZE_MAX);  /* extraction offsets are container offsets */
    } else {
        st->images++;
        if (e->kind == FATBIN_KIND_ELF)
            parse_cubin(image, produced, st);
    }
    free(image);
}

static int on_container(const fatbin_file_section *sec, const fatbin_container *c, void *user)
{
    ctx *cx = user;
    parse_stats *st = cx->st;
    st->containers++;
    size_t pos = 0;
    fatbin_entry e;
    fatbin_error err = { 0, "" };
    int rc;
    while ((rc = fatbin_next_entry(c, &pos, &e, &err)) == FATBIN_OK)
        parse_entry(&e, st);
    if (rc == FATBIN_BAD) {
        bad(st, &err, c->size);
        return 0;
    }
    for (size_t i = 0; i < sizeof choose_sms / sizeof choose_sms[0]; i++) {
        fatbin_choice ch;
        for (int force = 0; force < 2; force++)
            if (fatbin_choose(c, choose_sms[i], force, &ch, &err) == FATBIN_OK)
                st->choices += ch.found;
    }
    return 0;
}

static int on_error(const fatbin_file_section *sec, const fatbin_error *err, void *user)
{
    ctx *cx = user;
    bad(cx->st, err, cx->limit);
    return 0;
}

static int on_wrapper(const fatbin_file_wrapper *w, void *user)
{
    return 0;
}

/* The dynamic-linking readers `fatbin check` uses: every string and version is touched. */
static int on_dynamic(uint64_t tag, const char *value, void *user)
{
    *(size_t *)user += strlen(value);
    return 0;
}

static int on_symbol(const fatbin_file_symbol *s, void *user)
{
    *(size_t *)user += strlen(s->name) + (s->version ? strlen(s->version) : 0) +
                       (s->version_file ? strlen(s->version_file) : 0);
    return 0;
}

int parse_all(const uint8_t *data, size_t size, parse_stats *st)
{
    unsigned long before = st->bad;
    if (size >= 20 && memcmp(data, "\x7f" "ELF", 4) == 0 && data[0x12] == 190 && data[0x13] == 0) {
        parse_cubin(data, size, st);
        return st->bad == before ? FATBIN_OK : FATBIN_BAD;
    }
    ctx cx = { st, size };
    fatbin_error err = { 0, "" };
    if (fatbin_file_scan(data, size, on_container, on_error, &cx, &err) < 0)
        bad(st, &err, size);
    if (size >= 4 && memcmp(data, "\x7f" "ELF", 4) == 0 &&
        fatbin_file_wrappers(data, size, on_wrapper, NULL, &err) < 0)
        bad(st, &err, size);
    size_t chars = 0;
    if (size >= 4 && memcmp(data, "\x7f" "ELF", 4) == 0 &&
        fatbin_file_dynamic(data, size, on_dynamic, &chars, &err) < 0)
        bad(st, &err, size);
    if (size >= 4 && memcmp(data, "\x7f" "ELF", 4) == 0 &&
        fatbin_file_symbols(data, size, on_symbol, &chars, &err) < 0)
        bad(st, &err, size);
    return st->bad == before ? FATBIN_OK : FATBIN_BAD;
}
