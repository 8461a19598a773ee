/*
 * fuzz_ptx.c - the PTX reader (ptx.c): ptx_entries_read, ptx_entries_find and
 * ptx_entry_param_count over any text, each held to the others.
 *
 * Input: the PTX text, the bytes as they are (a NUL ends the text, as in a fatbin's padding).
 *
 * Checked:
 *   - ptx_entries_read succeeds (its only failure is out of memory, which names itself);
 *   - every entry's name lies inside the text before its first NUL, is a word of at least one
 *     character that does not start with '.', and is followed in the text by something (a cut
 *     entry is left out); there are no more entries than `.entry` words in the text;
 *   - the table is sorted by name, equal names in text order;
 *   - for the first entry of each name (of up to 12 names spread over the table), ptx_entries_find
 *     and ptx_entry_param_count both answer FATBIN_OK with the table's count (fatbin.h's promise);
 *   - a name the table lacks (each name with a character appended) gets FATBIN_END from the
 *     table, and FATBIN_END or FATBIN_BAD (the entry cut by the end of the text) from
 *     ptx_entry_param_count, with a clean error;
 *   - NULL arguments and an empty name are refused cleanly.
 * Accepted: the text has at least one entry.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_targets.h"

static size_t count_word(const char *s, size_t size, const char *word)
{
    size_t n = 0, len = strlen(word);
    for (const char *p = s; (size_t)(p - s) + len <= size; p++) {
        p = memchr(p, word[0], size - (size_t)(p - s));
        if (!p || (size_t)(p - s) + len > size)
            break;
        if (memcmp(p, word, len) == 0)
            n++;
    }
    return n;
}

static int name_cmp(const ptx_entry *x, const ptx_entry *y)
{
    int c = memcmp(x->name, y->name, x->name_len < y->name_len ? x->name_len : y->name_len);
    if (c)
        return c;
    return x->name_len < y->name_len ? -1 : x->name_len > y->name_len;
}

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || c == '%' || c == '.';
}

/* A name of the table, NUL-terminated in a buffer of its own, with `extra` appended when not 0. */
static char *name_copy(const ptx_entry *e, char extra)
{
    char *s = malloc(e->name_len + 2);
    fuzz_require(s != NULL, "ptx: out of memory in the target");
    memcpy(s, e->name, e->name_len);
    s[e->name_len] = extra;
    s[e->name_len + 1] = 0;
    return s;
}

int fuzz_ptx(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const char *nul = memchr(text, 0, size);
    size_t len = nul ? (size_t)(nul - text) : size;

    fatbin_error err;
    uint32_t count = 0;
    fuzz_error_init(&err);
    fuzz_require(ptx_entries_read(NULL, text, size, &err) == FATBIN_BAD, "ptx: NULL table taken");
    fuzz_require_clean_error(&err, size, "ptx_entries_read(NULL)");
    fuzz_error_init(&err);
    fuzz_require(ptx_entry_param_count(text, size, "", &count, &err) == FATBIN_BAD,
                 "ptx: empty name taken");
    fuzz_require_clean_error(&err, size, "ptx_entry_param_count(\"\")");

    ptx_entries e;
    fuzz_error_init(&err);
    int rc = ptx_entries_read(&e, text, size, &err);
    if (rc != FATBIN_OK) {
        fuzz_require(rc == FATBIN_BAD && strstr(err.message, "out of memory") != NULL,
                     "ptx: ptx_entries_read failed other than for memory");
        fuzz_require(e.count == 0 && e.entry == NULL, "ptx: a failed read left a table");
        return FUZZ_REJECTED;
    }
    fuzz_require(e.count <= count_word(text, len, ".entry"),
                 "ptx: more entries than .entry words");
    fuzz_require(ptx_entries_find(NULL, "k", &count) == FATBIN_BAD, "ptx: NULL table found");
    fuzz_require(ptx_entries_find(&e, NULL, &count) == FATBIN_BAD, "ptx: NULL name found");

    for (size_t i = 0; i < e.count; i++) {
        const ptx_entry *x = &e.entry[i];
        fuzz_require(x->name_len > 0 && fuzz_inside(x->name, x->name_len, text, len),
                     "ptx: a name outside the text");
        fuzz_require(x->name[0] != '.', "ptx: a name starting with '.'");
        for (size_t j = 0; j < x->name_len; j++)
            fuzz_require(word_char(x->name[j]), "ptx: a name that is not one word");
        fuzz_require((size_t)(x->name - text) + x->name_len < len,
                     "ptx: an entry the end of the text cuts after its name");
        if (i > 0) {
            int c = name_cmp(&e.entry[i - 1], x);
            fuzz_require(c < 0 || (c == 0 && e.entry[i - 1].name < x->name),
                         "ptx: the table is not sorted");
        }
    }
    /* Each ptx_entry_param_count reads the text from its start, so the names held to it are at
     * most CHECKED, spread over the table (all of them in a table that small): a text of
     * hundreds of entries would otherwise cost a scan per entry, and the campaign's speed. */
    enum { CHECKED = 12 };
    size_t step = e.count > CHECKED ? e.count / CHECKED : 1;
    for (size_t i = 0; i < e.count; i += step) {
        const ptx_entry *x = &e.entry[i];
        while (i > 0 && name_cmp(&e.entry[i - 1], x) == 0)
            x = &e.entry[--i];       /* the first entry of this name answers */
        char *name = name_copy(x, 0);
        fuzz_require(ptx_entries_find(&e, name, &count) == FATBIN_OK && count == x->param_count,
                     "ptx: ptx_entries_find disagrees with the table");
        fuzz_error_init(&err);
        count = UINT32_MAX - 1;
        rc = ptx_entry_param_count(text, size, name, &count, &err);
        fuzz_require(rc == FATBIN_OK && count == x->param_count,
                     "ptx: ptx_entry_param_count disagrees with ptx_entries_read");
        free(name);

        /* The name with a character appended, unless the table has that name too. */
        char *longer = name_copy(x, 'q');
        if (ptx_entries_find(&e, longer, &count) == FATBIN_END) {
            fuzz_error_init(&err);
            rc = ptx_entry_param_count(text, size, longer, &count, &err);
            fuzz_require(rc == FATBIN_END || rc == FATBIN_BAD,
                         "ptx: ptx_entry_param_count found an entry the table lacks");
            fuzz_require_clean_error(&err, size, "ptx_entry_param_count (a missing name)");
        }
        free(longer);
        while (i + 1 < e.count && name_cmp(&e.entry[i + 1], x) == 0)
            i++;                     /* past this name's later entries */
    }
    int accepted = e.count > 0 ? FUZZ_ACCEPTED : FUZZ_REJECTED;
    ptx_entries_free(&e);
    fuzz_require(e.count == 0 && e.entry == NULL, "ptx: ptx_entries_free left a table");
    return accepted;
}
