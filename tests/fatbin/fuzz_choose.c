/*
 * fuzz_choose.c - the image chooser (fatbin_choose) over a parsed container, checked against
 * the rules choose.c documents rather than against its own code.
 *
 * Input:
 *   off 0 u8  the device's SM (75 = sm_75, 90, 100, 103, 120, ...; every value 0-255 occurs)
 *   off 1 u8  bit 0: force PTX (MINICUDART_FORCE_PTX); other bits unused
 *   off 2 ..  a container, opened with exactly the bytes that remain
 *
 * Checked, for a container that walks cleanly:
 *   - a choice is found exactly when some ELF or PTX entry may run on the SM (SASS: same major
 *     and minor <= the device's, 'a' only on exactly that SM; PTX: any SM >= its own, 'a'
 *     exactly, 'f' the family; with force PTX no SASS);
 *   - the choice is SASS whenever some SASS may run; it may run itself;
 *   - no entry of its kind that may run has a higher SM, or the same SM and a more specific
 *     variant ('a', then 'f'), or the same of both and an earlier place;
 *   - entry_index names the entry returned, is_ptx its kind; the reason is a non-empty string.
 * A container that fails to walk must make the chooser fail too, cleanly.
 * Accepted: the container walked cleanly and an image was chosen.
 */
#include <stdbool.h>
#include <string.h>

#include "fuzz_targets.h"

#define CHOOSE_HEADER 2u

static bool same_family(unsigned image_sm, unsigned device_sm)
{
    return image_sm / 10 == device_sm / 10 && image_sm % 10 <= device_sm % 10;
}

/* May this entry run on the device?  ("a" is checked before "f", as nvcc never sets both.) */
static bool runs_on(const fatbin_entry *e, unsigned sm, bool force_ptx)
{
    bool specific = (e->flags & FATBIN_FLAG_ARCH_SPECIFIC) != 0;
    bool family = (e->flags & FATBIN_FLAG_FAMILY) != 0;
    if (e->kind == FATBIN_KIND_ELF)
        return !force_ptx && (specific ? e->arch == sm : same_family(e->arch, sm));
    if (e->kind == FATBIN_KIND_PTX)
        return specific ? e->arch == sm : family ? same_family(e->arch, sm) : e->arch <= sm;
    return false;
}

static int specificity(const fatbin_entry *e)
{
    return (e->flags & FATBIN_FLAG_ARCH_SPECIFIC) ? 2 : (e->flags & FATBIN_FLAG_FAMILY) ? 1 : 0;
}

/* Is `other`, at position `other_index`, a better pick than the chosen entry? */
static bool beats(const fatbin_entry *other, unsigned other_index, const fatbin_choice *ch)
{
    if (other->arch != ch->entry.arch)
        return other->arch > ch->entry.arch;
    if (specificity(other) != specificity(&ch->entry))
        return specificity(other) > specificity(&ch->entry);
    return other_index < ch->entry_index;
}

static bool same_entry(const fatbin_entry *a, const fatbin_entry *b)
{
    return a->offset == b->offset && a->kind == b->kind && a->arch == b->arch &&
           a->flags == b->flags && a->payload == b->payload && a->payload_size == b->payload_size;
}

/* Walks the entries again and holds the choice to the rules.  Returns false when the walk
 * fails (the chooser must then have failed too). */
static bool check_choice(const fatbin_container *c, unsigned sm, bool force_ptx,
                         const fatbin_choice *ch)
{
    size_t pos = 0;
    fatbin_entry e;
    fatbin_error err;
    bool any_runs = false, any_sass_runs = false, saw_chosen = false;
    int rc;
    for (unsigned index = 0; (rc = fatbin_next_entry(c, &pos, &e, &err)) == FATBIN_OK; index++) {
        bool runs = runs_on(&e, sm, force_ptx);
        any_runs |= runs;
        any_sass_runs |= runs && e.kind == FATBIN_KIND_ELF;
        if (ch->found && index == ch->entry_index) {
            fuzz_require(same_entry(&e, &ch->entry), "entry_index names another entry");
            saw_chosen = true;
        }
        if (ch->found && runs && e.kind == ch->entry.kind && index != ch->entry_index)
            fuzz_require(!beats(&e, index, ch), "a better image of the same kind was passed over");
    }
    if (rc != FATBIN_END)
        return false;
    fuzz_require(ch->found == any_runs, "found disagrees with the rules");
    if (!ch->found)
        return true;
    fuzz_require(saw_chosen, "entry_index past the last entry");
    fuzz_require(runs_on(&ch->entry, sm, force_ptx), "chosen image cannot run on the device");
    fuzz_require(ch->is_ptx == (ch->entry.kind == FATBIN_KIND_PTX), "is_ptx disagrees with kind");
    fuzz_require(ch->is_ptx == !any_sass_runs, "PTX chosen over SASS, or SASS missed");
    return true;
}

int fuzz_choose(const uint8_t *data, size_t size)
{
    if (size < CHOOSE_HEADER)
        return FUZZ_REJECTED;
    unsigned sm = data[0];
    bool force_ptx = (data[1] & 1u) != 0;
    const uint8_t *bytes = data + CHOOSE_HEADER;
    size_t len = size - CHOOSE_HEADER;
    fatbin_container c;
    fatbin_error err;
    fuzz_error_init(&err);
    if (fatbin_container_open(&c, bytes, len, &err) != FATBIN_OK) {
        fuzz_require_clean_error(&err, len, "fatbin_container_open");
        return FUZZ_REJECTED;
    }
    fatbin_choice ch;
    fuzz_error_init(&err);
    int rc = fatbin_choose(&c, sm, force_ptx, &ch, &err);
    if (rc == FATBIN_BAD) {
        fuzz_require_clean_error(&err, c.size, "fatbin_choose");
        fuzz_require(!check_choice(&c, sm, force_ptx, &ch), "chooser failed on a good container");
        return FUZZ_REJECTED;
    }
    fuzz_require(rc == FATBIN_OK, "fatbin_choose: unknown return code");
    fuzz_require(memchr(ch.reason, 0, sizeof ch.reason) != NULL && ch.reason[0] != 0,
                 "reason is not a non-empty string");
    fuzz_require(check_choice(&c, sm, force_ptx, &ch), "chooser succeeded on a bad container");
    return ch.found ? FUZZ_ACCEPTED : FUZZ_REJECTED;
}
