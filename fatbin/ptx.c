/*
 * ptx.c - how many parameters an entry of a PTX text has.
 *
 * The runtime needs a kernel's parameter count before it asks the driver for the layout
 * (cuFuncGetParamInfo): probing index after index until the driver answers an error makes one
 * failing API call per kernel, which compute-sanitizer reports.  For a cubin the count is in
 * .nv.info (cubin.c); for a module JIT-compiled from PTX it is read here, from the text nvcc
 * wrote, e.g.
 *
 *     .visible .entry _Z4vaddPKfS0_Pfi(
 *             .param .u64 .ptr .align 1 _Z4vaddPKfS0_Pfi_param_0,
 *             .param .align 8 .b8 _Z1kS_param_1[16],
 *             ...
 *     )
 *     .maxntid 128, 1, 1
 *     {
 *
 * The text is read as tokens: runs of [A-Za-z0-9_$%.] (identifiers, directives, numbers) or
 * single punctuation characters; whitespace, // and block comments and "strings" are skipped.
 * An entry is the token `.entry` followed by its name token (so a name that is the prefix of
 * another entry's name does not match it, and `.func` functions are never seen).  Its
 * parameters are the `.param` tokens between the `(` that follows and its `)`; an entry with no
 * `(` has none.  Nothing is read past `size`, and a NUL (the padding after PTX in a fatbin) ends
 * the text.  The text is untrusted (it comes from whatever binary runs): both readers below
 * make the same walk (ptx_walk), so that they agree on every text, damaged ones too, and
 * tests/fatbin/fuzz_ptx.c holds them to it.
 *
 * A module loaded from PTX has its kernels resolved one by one, each asking for its count; a
 * scan per kernel would read the text up to each entry, O(kernels x text) for a module, which
 * eager loading of a large PTX-only library pays in full.  ptx_entries_read reads the text
 * once into a table of every entry, sorted by name, and ptx_entries_find answers from it.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct ptx_token {
    size_t at;          /* offset in the text */
    size_t len;         /* 0 at the end of the text */
} ptx_token;

static int ptx_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || c == '%' || c == '.';
}

/* Skips whitespace, comments and string literals from *pos.  An unterminated comment or string
 * runs to the end of the text. */
static void ptx_skip(const char *s, size_t size, size_t *pos)
{
    size_t i = *pos;
    while (i < size) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            i++;
        } else if (c == '/' && size - i >= 2 && s[i + 1] == '/') {
            while (i < size && s[i] != '\n')
                i++;
        } else if (c == '/' && size - i >= 2 && s[i + 1] == '*') {
            i += 2;
            while (i < size && !(s[i] == '*' && size - i >= 2 && s[i + 1] == '/'))
                i++;
            i = i < size ? i + 2 : size;
        } else if (c == '"') {
            i++;
            while (i < size && s[i] != '"')
                i += s[i] == '\\' && size - i >= 2 ? 2 : 1;
            i = i < size ? i + 1 : size;
        } else {
            break;
        }
    }
    *pos = i;
}

/* The next token from *pos (len 0 at the end); *pos moves past it. */
static ptx_token ptx_next(const char *s, size_t size, size_t *pos)
{
    ptx_skip(s, size, pos);
    ptx_token t = { *pos, 0 };
    if (*pos >= size)
        return t;
    size_t i = *pos;
    if (ptx_word_char(s[i])) {
        while (i < size && ptx_word_char(s[i]))
            i++;
    } else {
        i++;
    }
    t.len = i - t.at;
    *pos = i;
    return t;
}

static int ptx_token_is(const char *s, ptx_token t, const char *word, size_t word_len)
{
    return t.len == word_len && memcmp(s + t.at, word, word_len) == 0;
}

/* Counts the `.param` tokens from just after an entry's `(` (*pos) to its `)`; *pos moves past
 * the `)`.  False when the text ends first. */
static bool ptx_count_params(const char *s, size_t size, size_t *pos, uint32_t *count)
{
    uint32_t n = 0;
    for (;;) {
        ptx_token t = ptx_next(s, size, pos);
        if (t.len == 0)
            return false;
        if (ptx_token_is(s, t, ")", 1))
            break;
        if (ptx_token_is(s, t, ".param", 6) && n < UINT32_MAX)
            n++;
    }
    *count = n;
    return true;
}

/* One step of the walk that both readers make, so that they cannot disagree about which
 * entries a text has: the next entry from *pos.
 *   PTX_ENTRY     *id is its name, *count its parameters; *pos is past its list (or its name);
 *   PTX_DONE      no entry is left;
 *   PTX_CUT       the text ends just after the name *id;
 *   PTX_UNCLOSED  *id's parameter list, from *open_at, runs to the end of the text.
 * After PTX_CUT and PTX_UNCLOSED there is nothing more to read.  A name is a word token that
 * does not start with '.' (PTX names start with a letter, '_', '$' or '%'): after `.entry` and
 * anything else the walk goes on from the token after `.entry`, which may be `.entry` itself.
 * A parameter list is skipped whole, so an `.entry` token inside one is never taken for an
 * entry (nvcc writes none there; a damaged text may). */
enum { PTX_ENTRY, PTX_DONE, PTX_CUT, PTX_UNCLOSED };
static int ptx_walk(const char *s, size_t size, size_t *pos, ptx_token *id, uint32_t *count,
                    size_t *open_at)
{
    for (ptx_token t = ptx_next(s, size, pos); t.len; t = ptx_next(s, size, pos)) {
        if (!ptx_token_is(s, t, ".entry", 6))
            continue;
        size_t after_entry = *pos;
        *id = ptx_next(s, size, pos);
        if (id->len == 0 || !ptx_word_char(s[id->at]) || s[id->at] == '.') {
            *pos = after_entry;
            continue;
        }
        size_t after_name = *pos;
        ptx_token next = ptx_next(s, size, pos);
        if (next.len == 0)
            return PTX_CUT;
        *count = 0;
        if (!ptx_token_is(s, next, "(", 1)) {
            *pos = after_name;       /* `{` or a directive: no parameter list */
            return PTX_ENTRY;
        }
        *open_at = next.at;
        return ptx_count_params(s, size, pos, count) ? PTX_ENTRY : PTX_UNCLOSED;
    }
    return PTX_DONE;
}

int ptx_entry_param_count(const char *ptx, size_t size, const char *name, uint32_t *count,
                          fatbin_error *err)
{
    if (!ptx || !name || !count)
        return fatbin_fail(err, 0, "PTX parameter count: NULL argument");
    size_t name_len = strlen(name);
    if (name_len == 0)
        return fatbin_fail(err, 0, "PTX parameter count: empty entry name");
    const char *nul = memchr(ptx, 0, size);
    if (nul)
        size = (size_t)(nul - ptx);

    size_t pos = 0, open_at = 0;
    ptx_token id = { 0, 0 };
    uint32_t n = 0;
    for (;;) {
        int step = ptx_walk(ptx, size, &pos, &id, &n, &open_at);
        if (step == PTX_DONE)
            break;
        bool match = ptx_token_is(ptx, id, name, name_len);
        if (step == PTX_ENTRY && match) {
            *count = n;
            return FATBIN_OK;
        }
        if (step == PTX_CUT && match)
            return fatbin_fail(err, id.at, "PTX entry %s: text ends after its name", name);
        if (step == PTX_UNCLOSED && match)
            return fatbin_fail(err, open_at, "PTX entry %s: parameter list not closed before "
                               "the end of the text", name);
        if (step != PTX_ENTRY)
            break;                   /* another entry cut by the end: nothing follows it */
    }
    fatbin_fail(err, size, "PTX has no entry %s", name);
    return FATBIN_END;
}

/* Name order, and text order among equal names (ptx_entries_find answers the first, as
 * ptx_entry_param_count does). */
static int ptx_entry_cmp(const void *a, const void *b)
{
    const ptx_entry *x = a, *y = b;
    int c = memcmp(x->name, y->name, x->name_len < y->name_len ? x->name_len : y->name_len);
    if (c)
        return c;
    if (x->name_len != y->name_len)
        return x->name_len < y->name_len ? -1 : 1;
    return x->name < y->name ? -1 : x->name > y->name;
}

int ptx_entries_read(ptx_entries *out, const char *ptx, size_t size, fatbin_error *err)
{
    if (!out)
        return fatbin_fail(err, 0, "PTX entries: NULL argument");
    *out = (ptx_entries){ 0 };
    if (!ptx)
        return fatbin_fail(err, 0, "PTX entries: NULL argument");
    const char *nul = memchr(ptx, 0, size);
    if (nul)
        size = (size_t)(nul - ptx);

    size_t cap = 0, pos = 0, open_at = 0;
    ptx_token id = { 0, 0 };
    uint32_t count = 0;
    while (ptx_walk(ptx, size, &pos, &id, &count, &open_at) == PTX_ENTRY) {
        if (out->count == cap) {
            size_t more = cap ? cap * 2 : 64;
            ptx_entry *grown = realloc(out->entry, more * sizeof *grown);
            if (!grown) {
                ptx_entries_free(out);
                return fatbin_fail(err, id.at, "PTX entries: out of memory at %zu entries", cap);
            }
            out->entry = grown;
            cap = more;
        }
        out->entry[out->count++] = (ptx_entry){ ptx + id.at, id.len, count };
    }
    if (out->count > 1)
        qsort(out->entry, out->count, sizeof *out->entry, ptx_entry_cmp);
    return FATBIN_OK;
}

int ptx_entries_find(const ptx_entries *e, const char *name, uint32_t *count)
{
    if (!e || !name || !count)
        return FATBIN_BAD;
    ptx_entry key = { name, strlen(name), 0 };
    size_t lo = 0, hi = e->count;    /* the first entry not below `key` by name */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const ptx_entry *m = &e->entry[mid];
        int c = memcmp(m->name, name, m->name_len < key.name_len ? m->name_len : key.name_len);
        if (c < 0 || (c == 0 && m->name_len < key.name_len))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == e->count || e->entry[lo].name_len != key.name_len ||
        memcmp(e->entry[lo].name, name, key.name_len) != 0)
        return FATBIN_END;
    *count = e->entry[lo].param_count;
    return FATBIN_OK;
}

void ptx_entries_free(ptx_entries *e)
{
    if (!e)
        return;
    free(e->entry);
    *e = (ptx_entries){ 0 };
}
