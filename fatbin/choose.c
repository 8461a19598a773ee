/*
 * choose.c - which entry of a container a runtime would load on a device of a given SM.
 *
 * The rules (PROTOCOL.md 7.2; NVIDIA's documented compatibility, in entry fields), with
 * major = sm / 10 and minor = sm % 10 (sm_100 -> 10.0, sm_103 -> 10.3, sm_120 -> 12.0):
 *   SASS sm_XY          same major as the device, minor <= the device's
 *   SASS sm_XYa (0x100000) exactly that SM
 *   SASS sm_XYf (0x200000) the family: same major, minor <= the device's
 *   PTX compute_XY      any device with SM >= XY (JIT)
 *   PTX compute_XYa     exactly that SM;  compute_XYf: the family, as for SASS
 * The highest suitable SASS wins; at equal SM the more specific image ('a', then 'f') wins,
 * then the first one.  Without SASS, the highest suitable PTX, chosen the same way.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static bool same_family(unsigned image_sm, unsigned device_sm)
{
    return image_sm / 10 == device_sm / 10 && image_sm % 10 <= device_sm % 10;
}

static bool sass_runs_on(const fatbin_entry *e, unsigned sm)
{
    if (e->flags & FATBIN_FLAG_ARCH_SPECIFIC)
        return e->arch == sm;
    return same_family(e->arch, sm);
}

static bool ptx_runs_on(const fatbin_entry *e, unsigned sm)
{
    if (e->flags & FATBIN_FLAG_ARCH_SPECIFIC)
        return e->arch == sm;
    if (e->flags & FATBIN_FLAG_FAMILY)
        return same_family(e->arch, sm);
    return e->arch <= sm;
}

/* Ranks images of the same SM: arch-specific, then family, then plain. */
static int specificity(const fatbin_entry *e)
{
    return (e->flags & FATBIN_FLAG_ARCH_SPECIFIC) ? 2 : (e->flags & FATBIN_FLAG_FAMILY) ? 1 : 0;
}

static bool better(const fatbin_entry *candidate, const fatbin_entry *best, bool have_best)
{
    if (!have_best)
        return true;
    if (candidate->arch != best->arch)
        return candidate->arch > best->arch;
    return specificity(candidate) > specificity(best);
}

typedef struct pick {
    bool found;
    fatbin_entry entry;
    unsigned index;
} pick;

/* Appends ", name" (or "name" first) to the list in buf, marking truncation with "...". */
static void list_append(char *buf, size_t cap, const char *name)
{
    size_t len = strlen(buf);
    if (len + 4 >= cap)
        return;
    int n = snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", name);
    if (n < 0 || (size_t)n >= cap - len)
        snprintf(buf + (cap > 4 ? cap - 4 : 0), cap > 4 ? 4 : 0, "...");
}

static void describe_sass(const pick *p, unsigned sm, char *out, size_t cap)
{
    char name[32];
    fatbin_arch_name(&p->entry, name, sizeof name);
    const char *why;
    if (p->entry.arch == sm)
        why = "exact match for";
    else if (p->entry.flags & FATBIN_FLAG_FAMILY)
        why = "same family as";
    else
        why = "same major, lower minor, compatible with";
    snprintf(out, cap, "SASS %s (entry %u): %s sm_%u", name, p->index, why, sm);
}

static void describe_ptx(const pick *p, const char *prefix, char *out, size_t cap)
{
    char name[32];
    fatbin_arch_name(&p->entry, name, sizeof name);
    snprintf(out, cap, "%sJIT PTX %s (entry %u)", prefix, name, p->index);
}

int fatbin_choose(const fatbin_container *c, unsigned sm, bool force_ptx, fatbin_choice *out,
                  fatbin_error *err)
{
    memset(out, 0, sizeof *out);
    pick sass = { 0 }, ptx = { 0 };
    char have[160] = "", have_sass[160] = "";
    size_t pos = 0;
    fatbin_entry e;
    int rc;
    for (unsigned index = 0; (rc = fatbin_next_entry(c, &pos, &e, err)) == FATBIN_OK; index++) {
        bool is_elf = e.kind == FATBIN_KIND_ELF, is_ptx = e.kind == FATBIN_KIND_PTX;
        if (!is_elf && !is_ptx)
            continue;               /* LTO IR and unknown kinds are not loadable */
        char name[32];
        fatbin_arch_name(&e, name, sizeof name);
        list_append(have, sizeof have, name);
        if (is_elf)
            list_append(have_sass, sizeof have_sass, name);
        pick *slot = is_elf ? &sass : &ptx;
        bool usable = is_elf ? !force_ptx && sass_runs_on(&e, sm) : ptx_runs_on(&e, sm);
        if (usable && better(&e, &slot->entry, slot->found))
            *slot = (pick){ true, e, index };
    }
    if (rc != FATBIN_END)
        return FATBIN_BAD;
    char prefix[200];
    if (force_ptx)
        snprintf(prefix, sizeof prefix, "SASS not considered (PTX forced); ");
    else
        snprintf(prefix, sizeof prefix, "no SASS for sm_%u (have %s); ", sm,
                 have_sass[0] ? have_sass : "none");
    const pick *chosen = sass.found ? &sass : ptx.found ? &ptx : NULL;
    if (!chosen) {
        snprintf(out->reason, sizeof out->reason, "no SASS or PTX usable on sm_%u (have %s)%s",
                 sm, have[0] ? have : "no images", force_ptx ? " with PTX forced" : "");
        return FATBIN_OK;
    }
    out->found = true;
    out->entry = chosen->entry;
    out->entry_index = chosen->index;
    out->is_ptx = chosen == &ptx;
    if (out->is_ptx)
        describe_ptx(chosen, prefix, out->reason, sizeof out->reason);
    else
        describe_sass(chosen, sm, out->reason, sizeof out->reason);
    return FATBIN_OK;
}
