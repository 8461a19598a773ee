/*
 * fake_resource.c - the fake driver's device resources (see fake_internal.h): the SM resource of
 * a device (cuDeviceGetDevResource; those of contexts and green contexts are in fake_green.c),
 * splitting it (cuDevSmResourceSplitByCount, and cuDevSmResourceSplit of 13.1) and descriptors
 * of the parts (cuDevResourceGenerateDesc), which cuGreenCtxCreate takes.
 *
 * What it models:
 *   - Only CU_DEV_RESOURCE_TYPE_SM.  A device has fake_g.sm_count SMs (FAKECUDA_SMS), with a
 *     minimum partition of 8 and a co-scheduling alignment of 8 on sm_90 and newer (what an
 *     H200 answers), and, following cuda.h's guideline for older architectures, 4 and 2 on 8.x,
 *     2 and 2 before.  The workqueue types of 13.5 and any other type:
 *     CUDA_ERROR_INVALID_RESOURCE_TYPE (the fake provisions no workqueues).
 *   - The driver owns the bytes CUdevResource reserves (_internal_padding); the fake keeps there
 *     where a resource came from: the device, the split that made it (0: a query) and its place
 *     in that split, and its SM count.  A resource without that record, or whose SM count was
 *     edited, was not made by the driver: CUDA_ERROR_INVALID_VALUE.
 *   - cuDevSmResourceSplitByCount, as cuda.h describes it: the group size is minCount rounded
 *     up to the alignment and at least the minimum partition (with
 *     CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING both are 2); groups = min(*nbGroups,
 *     smCount / size), or with result NULL only the count that would be made; the rest goes to
 *     `remaining` (type INVALID, smCount 0, when nothing is left).  132 SMs, *nbGroups 2 and
 *     minCount 16 give 2 groups of 16 and 100 remaining, as an H200 answers.  As measured there
 *     (driver 580): minCount above the input's SMs is CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION,
 *     an undocumented flag bit is ignored; MAX_POTENTIAL_CLUSTER_SIZE needs sm_90 or newer
 *     (CUDA_ERROR_INVALID_VALUE).  Its outputs cannot be split by it again
 *     (cuda.h: not without a green context made of them first):
 *     CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION.
 *   - cuDevSmResourceSplit (13.1): groupParams evaluated in order, each taking its smCount (or,
 *     with smCount 0, everything left in whole co-scheduled sets, or everything left with
 *     BACKFILL, written back: the discovery mode); see split_check for the parameter rules.  The
 *     fake's device is one locality domain, 0.  The remainder has no structure: alignment 2.
 *   - Descriptors: records kept for the process (13.5 cuda.h: valid for its lifetime).  Several
 *     resources must come from one split of one device, be distinct, and share alignment and
 *     locality domain (13.5's rule), else CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_internal.h"

#define RES_MAGIC 0x4641u                    /* "FA": a resource the fake made */
#define RES_REMAINDER 0xffffffffu            /* the index of a split's remainder */

/* Where a resource came from, in its _internal_padding. */
typedef struct res_tag {
    uint32_t magic;
    int32_t device;
    uint64_t split;                          /* the split that made it; 0: a query */
    uint32_t index;                          /* its group in that split, or RES_REMAINDER */
    uint32_t sms;                            /* smCount as made */
    uint32_t by_count;                       /* made by cuDevSmResourceSplitByCount */
    uint32_t from_split;                     /* an output of any split */
} res_tag;

_Static_assert(sizeof(res_tag) <= sizeof(((CUdevResource *)0)->_internal_padding),
               "the record fits the bytes the driver owns");

typedef struct fake_desc {
    CUdevice device;
    unsigned sms, min, align;
} fake_desc;

static ptr_vec descs;                        /* kept for the process, as cuda.h says */
static uint64_t split_ids;

/* ---- resources ------------------------------------------------------------------------------ */

void fake_resource_granularity(unsigned *min, unsigned *align)
{
    *min = fake_g.sm >= 90 ? 8 : fake_g.sm >= 80 ? 4 : 2;
    *align = fake_g.sm >= 90 ? 8 : 2;
}

static void res_write(CUdevResource *r, const FAKE_DEV_SM_RESOURCE *sm, const res_tag *tag)
{
    memset(r, 0, sizeof *r);
    r->type = CU_DEV_RESOURCE_TYPE_SM;
    memcpy((unsigned char *)r + offsetof(CUdevResource, sm), sm, sizeof *sm);
    memcpy(r->_internal_padding, tag, sizeof *tag);
}

static void res_empty(CUdevResource *r)
{
    memset(r, 0, sizeof *r);
    r->type = CU_DEV_RESOURCE_TYPE_INVALID;
}

void fake_resource_sm(CUdevResource *out, CUdevice dev, unsigned sms, unsigned min,
                      unsigned align)
{
    const FAKE_DEV_SM_RESOURCE sm = { sms, min, align, 0, 0 };
    const res_tag tag = { RES_MAGIC, dev, 0, 0, sms, 0, 0 };
    res_write(out, &sm, &tag);
}

/* An SM resource the fake made: its fields and record, or the error a driver gives for it. */
static CUresult res_read(const CUdevResource *r, FAKE_DEV_SM_RESOURCE *sm, res_tag *tag)
{
    if (!r)
        return CUDA_ERROR_INVALID_VALUE;
    if (r->type != CU_DEV_RESOURCE_TYPE_SM)
        return CUDA_ERROR_INVALID_RESOURCE_TYPE;
    memcpy(sm, (const unsigned char *)r + offsetof(CUdevResource, sm), sizeof *sm);
    memcpy(tag, r->_internal_padding, sizeof *tag);
    if (tag->magic != RES_MAGIC || tag->sms != sm->smCount || !sm->smCoscheduledAlignment)
        return CUDA_ERROR_INVALID_VALUE;
    if (tag->device < 0 || tag->device >= fake_g.device_count)
        return CUDA_ERROR_INVALID_DEVICE;
    return CUDA_SUCCESS;
}

/* The resource's SM count for the call log (0 when it is not an SM resource). */
static unsigned shown_sms(const CUdevResource *r)
{
    return r && r->type == CU_DEV_RESOURCE_TYPE_SM ? r->sm.smCount : 0;
}

static CUresult CUDAAPI f_cuDeviceGetDevResource(CUdevice dev, CUdevResource *resource,
                                                 CUdevResourceType type)
{
    CUresult rc = fake_enter("cuDeviceGetDevResource", "dev=%d type=%d", dev, (int)type);
    unsigned min, align;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS && !resource)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && type != CU_DEV_RESOURCE_TYPE_SM)
        rc = CUDA_ERROR_INVALID_RESOURCE_TYPE;
    if (rc == CUDA_SUCCESS) {
        fake_resource_granularity(&min, &align);
        fake_resource_sm(resource, dev, fake_g.sm_count, min, align);
    }
    return fake_leave(rc);
}

/* ---- splits by count ------------------------------------------------------------------------ */

/* The checks of cuDevSmResourceSplitByCount before anything is split. */
static CUresult by_count_check(const CUdevResource *result, const unsigned *nb,
                               const CUdevResource *input, unsigned flags, unsigned min_count,
                               FAKE_DEV_SM_RESOURCE *in, res_tag *tag)
{
    CUresult rc = fake_need_init();
    if (rc == CUDA_SUCCESS && (!nb || !input))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = res_read(input, in, tag);
    if (rc == CUDA_SUCCESS && tag->from_split)
        rc = CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION;
    /* Measured on the H200 (driver 580): a minimum above the input's SMs is an invalid
     * configuration, and an undocumented flag bit (0x8) is ignored. */
    if (rc == CUDA_SUCCESS && min_count > in->smCount)
        rc = CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION;
    if (rc == CUDA_SUCCESS &&
        ((result && *nb == 0) ||
         ((flags & CU_DEV_SM_RESOURCE_SPLIT_MAX_POTENTIAL_CLUSTER_SIZE) && fake_g.sm < 90)))
        rc = CUDA_ERROR_INVALID_VALUE;
    return rc;
}

/* MAX_POTENTIAL_CLUSTER_SIZE changes nothing here: the fake's groups have no GPC topology. */
static CUresult CUDAAPI f_cuDevSmResourceSplitByCount(CUdevResource *result, unsigned int *nb,
                                                      const CUdevResource *input,
                                                      CUdevResource *remaining,
                                                      unsigned int flags, unsigned int min_count)
{
    CUresult rc = fake_enter("cuDevSmResourceSplitByCount",
                             "result=%s nbGroups=%u input.smCount=%u remaining=%s flags=0x%x "
                             "minCount=%u", result ? "array" : "NULL", nb ? *nb : 0,
                             shown_sms(input), remaining ? "set" : "NULL", flags, min_count);
    FAKE_DEV_SM_RESOURCE in;
    res_tag tag;
    if (rc == CUDA_SUCCESS)
        rc = by_count_check(result, nb, input, flags, min_count, &in, &tag);
    if (rc != CUDA_SUCCESS)
        return fake_leave(rc);
    unsigned min = in.minSmPartitionSize, align = in.smCoscheduledAlignment;
    if (flags & CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING)
        min = align = 2;
    unsigned size = (min_count + align - 1) / align * align;
    if (size < min)
        size = min;
    unsigned groups = in.smCount / size;
    if (result && *nb < groups)
        groups = *nb;
    if (result && groups == 0)
        rc = CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION;    /* not even one group fits */
    if (rc == CUDA_SUCCESS && result) {
        res_tag out = { RES_MAGIC, tag.device, ++split_ids, 0, size, 1, 1 };
        const FAKE_DEV_SM_RESOURCE group = { size, min, align, 0, 0 };
        for (unsigned i = 0; i < groups; i++) {
            out.index = i;
            res_write(&result[i], &group, &out);
        }
        const FAKE_DEV_SM_RESOURCE rest = { in.smCount - groups * size, min, align, 0, 0 };
        out.index = RES_REMAINDER;
        out.sms = rest.smCount;
        if (remaining && rest.smCount)
            res_write(remaining, &rest, &out);
        else if (remaining)
            res_empty(remaining);
    }
    if (rc == CUDA_SUCCESS)
        *nb = groups;
    return fake_leave(rc);
}

/* ---- structured splits (13.1) --------------------------------------------------------------- */

#define GROUP_FLAGS (FAKE_DEV_SM_RESOURCE_GROUP_BACKFILL |                                      \
                     FAKE_DEV_SM_RESOURCE_GROUP_LOCALITY_DOMAIN_ID |                            \
                     FAKE_DEV_SM_RESOURCE_GROUP_LOCALITY_DOMAIN_SUPPLEMENTAL_SMS)

/* The co-scheduled set a group uses: its own, or the input's alignment when it gives 0. */
static unsigned group_coscheduled(const CU_DEV_SM_RESOURCE_GROUP_PARAMS *p,
                                  const FAKE_DEV_SM_RESOURCE *in)
{
    return p->coscheduledSmCount ? p->coscheduledSmCount : in->smCoscheduledAlignment;
}

/*
 * One group's parameters, as cuda.h states them: reserved fields zero; flags among the three
 * group flags, SUPPLEMENTAL_SMS only with LOCALITY_DOMAIN_ID; coscheduledSmCount 0 or an even
 * count up to 32 on sm_90 and newer (2 before); preferredCoscheduledSmCount 0 or a multiple of
 * it; smCount 0 or even in [2, input's SMs], a multiple of an explicit coscheduledSmCount unless
 * BACKFILL.  Else CUDA_ERROR_INVALID_VALUE.
 */
static CUresult group_check(const CU_DEV_SM_RESOURCE_GROUP_PARAMS *p,
                            const FAKE_DEV_SM_RESOURCE *in)
{
    unsigned most = fake_g.sm >= 90 ? 32 : 2, cos = group_coscheduled(p, in);
    for (size_t i = 0; i < sizeof p->reserved / sizeof *p->reserved; i++)
        if (p->reserved[i])
            return CUDA_ERROR_INVALID_VALUE;
    if ((p->flags & ~GROUP_FLAGS) ||
        ((p->flags & FAKE_DEV_SM_RESOURCE_GROUP_LOCALITY_DOMAIN_SUPPLEMENTAL_SMS) &&
         !(p->flags & FAKE_DEV_SM_RESOURCE_GROUP_LOCALITY_DOMAIN_ID)))
        return CUDA_ERROR_INVALID_VALUE;
    if (p->coscheduledSmCount && (p->coscheduledSmCount % 2 || p->coscheduledSmCount > most))
        return CUDA_ERROR_INVALID_VALUE;
    if (p->preferredCoscheduledSmCount && p->preferredCoscheduledSmCount % cos)
        return CUDA_ERROR_INVALID_VALUE;
    if (p->smCount && (p->smCount < 2 || p->smCount > in->smCount || p->smCount % 2 ||
                       (p->coscheduledSmCount && p->smCount % p->coscheduledSmCount &&
                        !(p->flags & FAKE_DEV_SM_RESOURCE_GROUP_BACKFILL))))
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

/* The SMs each group takes (take[i]), in order, from the input's; what is left in *left. */
static CUresult split_assign(const CU_DEV_SM_RESOURCE_GROUP_PARAMS *params, unsigned nb,
                             const FAKE_DEV_SM_RESOURCE *in, int with_result, unsigned *take,
                             unsigned *left)
{
    *left = in->smCount;
    for (unsigned i = 0; i < nb; i++) {
        const CU_DEV_SM_RESOURCE_GROUP_PARAMS *p = &params[i];
        unsigned cos = group_coscheduled(p, in);
        if ((p->flags & FAKE_DEV_SM_RESOURCE_GROUP_LOCALITY_DOMAIN_ID) && p->localityDomainId &&
            p->localityDomainId != FAKE_DEV_SM_RESOURCE_GROUP_LOCALITY_DOMAIN_ID_ANY)
            return CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION;   /* one domain: 0 */
        if (p->smCount)
            take[i] = p->smCount;
        else if (p->flags & FAKE_DEV_SM_RESOURCE_GROUP_BACKFILL)
            take[i] = *left;
        else
            take[i] = *left / cos * cos;
        /* a result group must hold at least one co-scheduled set, even with BACKFILL */
        if (take[i] > *left || (with_result && (take[i] == 0 || take[i] < cos)))
            return CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION;
        *left -= take[i];
    }
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuDevSmResourceSplit(CUdevResource *result, unsigned int nb,
                                               const CUdevResource *input,
                                               CUdevResource *remainder, unsigned int flags,
                                               CU_DEV_SM_RESOURCE_GROUP_PARAMS *params)
{
    CUresult rc = fake_enter("cuDevSmResourceSplit",
                             "result=%s nbGroups=%u input.smCount=%u remainder=%s flags=0x%x "
                             "group0=(%u,%u,%u,0x%x)", result ? "array" : "NULL", nb,
                             shown_sms(input), remainder ? "set" : "NULL", flags,
                             params && nb ? params[0].smCount : 0,
                             params && nb ? params[0].coscheduledSmCount : 0,
                             params && nb ? params[0].preferredCoscheduledSmCount : 0,
                             params && nb ? params[0].flags : 0);
    FAKE_DEV_SM_RESOURCE in;
    res_tag tag;
    unsigned *take = NULL, left = 0;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && (!input || !params || nb == 0 || flags != 0))
        rc = CUDA_ERROR_INVALID_VALUE;          /* cuda.h: no flags yet, 0 */
    if (rc == CUDA_SUCCESS)
        rc = res_read(input, &in, &tag);
    for (unsigned i = 0; rc == CUDA_SUCCESS && i < nb; i++)
        rc = group_check(&params[i], &in);
    if (rc == CUDA_SUCCESS && !(take = calloc(nb, sizeof *take)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS)
        rc = split_assign(params, nb, &in, result != NULL, take, &left);
    for (unsigned i = 0; rc == CUDA_SUCCESS && i < nb; i++)
        if (!params[i].smCount)
            params[i].smCount = take[i];        /* discovery: the count it would get */
    if (rc == CUDA_SUCCESS && result) {
        res_tag out = { RES_MAGIC, tag.device, ++split_ids, 0, 0, 0, 1 };
        for (unsigned i = 0; i < nb; i++) {
            /* localityDomainId: the one domain, 0, whatever the group asked */
            const FAKE_DEV_SM_RESOURCE group = { take[i], in.minSmPartitionSize,
                                                 group_coscheduled(&params[i], &in),
                                                 params[i].flags, 0 };
            out.index = i;
            out.sms = take[i];
            res_write(&result[i], &group, &out);
        }
        const FAKE_DEV_SM_RESOURCE rest = { left, in.minSmPartitionSize, 2, 0, 0 };
        out.index = RES_REMAINDER;
        out.sms = left;
        if (remainder && left)
            res_write(remainder, &rest, &out);
        else if (remainder)
            res_empty(remainder);
    }
    free(take);
    return fake_leave(rc);
}

/* ---- descriptors ---------------------------------------------------------------------------- */

int fake_desc_get(CUdevResourceDesc desc, CUdevice *dev, unsigned *sms, unsigned *min,
                  unsigned *align)
{
    const fake_desc *d = NULL;
    for (size_t i = 0; i < descs.count && !d; i++)
        if (descs.items[i] == (void *)desc)
            d = descs.items[i];
    if (!d)
        return -1;
    *dev = d->device;
    *sms = d->sms;
    *min = d->min;
    *align = d->align;
    return 0;
}

/* Whether resource i may join the first ones: same device, same split instance (not a query),
 * not one already given, same alignment and locality domain. */
static int joins(const res_tag *tags, const FAKE_DEV_SM_RESOURCE *sms, unsigned i)
{
    if (tags[i].device != tags[0].device || !tags[i].split || tags[i].split != tags[0].split ||
        sms[i].smCoscheduledAlignment != sms[0].smCoscheduledAlignment ||
        sms[i].localityDomainId != sms[0].localityDomainId)
        return 0;
    for (unsigned j = 0; j < i; j++)
        if (tags[j].index == tags[i].index)
            return 0;
    return 1;
}

static CUresult CUDAAPI f_cuDevResourceGenerateDesc(CUdevResourceDesc *desc,
                                                    CUdevResource *resources, unsigned int nb)
{
    CUresult rc = fake_enter("cuDevResourceGenerateDesc", "nbResources=%u first.smCount=%u", nb,
                             resources && nb ? shown_sms(resources) : 0);
    res_tag *tags = NULL;
    FAKE_DEV_SM_RESOURCE *sms = NULL;
    fake_desc *d = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && (!desc || !resources || nb == 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (!(tags = calloc(nb, sizeof *tags)) ||
                               !(sms = calloc(nb, sizeof *sms))))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    for (unsigned i = 0; rc == CUDA_SUCCESS && i < nb; i++)
        rc = res_read(&resources[i], &sms[i], &tags[i]);
    for (unsigned i = 1; rc == CUDA_SUCCESS && i < nb; i++)
        if (!joins(tags, sms, i))
            rc = CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION;
    if (rc == CUDA_SUCCESS && (!(d = calloc(1, sizeof *d)) || fake_vec_push(&descs, d) != 0)) {
        free(d);
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc == CUDA_SUCCESS) {
        *d = (fake_desc){ tags[0].device, 0, sms[0].minSmPartitionSize,
                          sms[0].smCoscheduledAlignment };
        for (unsigned i = 0; i < nb; i++)
            d->sms += sms[i].smCount;
        *desc = (CUdevResourceDesc)d;
    }
    free(tags);
    free(sms);
    return fake_leave(rc);
}

const proc_entry fake_procs_resource[] = {
    {"cuDeviceGetDevResource", 12040, 99999, (void *)f_cuDeviceGetDevResource},
    {"cuDevSmResourceSplitByCount", 12040, 99999, (void *)f_cuDevSmResourceSplitByCount},
    {"cuDevSmResourceSplit", 13010, 99999, (void *)f_cuDevSmResourceSplit},
    {"cuDevResourceGenerateDesc", 12040, 99999, (void *)f_cuDevResourceGenerateDesc},
    {NULL, 0, 0, NULL},
};
