/*
 * test_hidden.c - the runtime's undeclared entry points over the fake driver:
 * __cudaGetProcAddress, cudaGetExportTable, __cudaRegisterHostVar and __cudaRegisterUnifiedTable
 * (lib/core/entry_point.c, lib/load/register.c, lib/load/module_link.c).  The images are registered here the
 * way nvcc's constructors would register them: a PTX fatbin built from hand-written PTX.
 * argv[1] names the test.
 */
#include "e2e.h"

#include <cuda.h>
#include <stddef.h>
#include <stdio.h>

void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterHostVar(void **handle, const char *deviceName, char *hostVar, size_t size);
void __cudaRegisterUnifiedTable(void **handle, void *functionTable, size_t functionWindowSize,
                                void *dataTable, size_t dataWindowSize);
void *__cudaGetProcAddress(void);

static const char ptx_text[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .global .align 4 .u32 dv = 7;\n"
    ".extern .global .align 4 .u32 hostsym;\n"
    ".visible .entry readk(.param .u64 out)\n"
    "{\n"
    "  ret;\n"
    "}\n";

/* One uncompressed PTX entry for compute_90 in a fatbin container (PROTOCOL.md section 5). */
struct ptx_fatbin {
    uint32_t magic;
    uint16_t version, header_size;
    uint64_t fat_size;
    uint16_t kind, entry_version;
    uint32_t entry_header_size;
    uint64_t payload_size;
    uint32_t compressed_size, ext_desc_offset;
    uint16_t minor, major;
    uint32_t arch;
    uint32_t ident_offset, ident_size;
    uint64_t flags, reserved, uncompressed_size;
    uint32_t desc_offset, desc_size;
    uint8_t pad[8];
    char payload[(sizeof ptx_text + 7) & ~(size_t)7];
};
_Static_assert(offsetof(struct ptx_fatbin, payload) == 0x60, "fatbin layout");

struct wrapper {
    int magic;
    int version;
    const void *data;
    void *filename_or_fatbins;
};

static struct ptx_fatbin image;
static struct wrapper wrapper;
static char stub;
static unsigned host_value = 5;

/* Registers the image with kernel readk (host stub &stub); `extra` adds what the test is about. */
static void **register_image(void (*extra)(void **handle))
{
    memset(&image, 0, sizeof image);
    image.magic = 0xBA55ED50u;
    image.version = 1;
    image.header_size = 0x10;
    image.fat_size = sizeof image - 0x10;
    image.kind = 1;
    image.entry_version = 0x0101;
    image.entry_header_size = 0x50;
    image.payload_size = sizeof image.payload;
    image.ext_desc_offset = 0x40;
    image.major = 8;
    image.arch = 90;
    image.flags = 0x11;
    image.desc_offset = 0x48;
    memcpy(image.payload, ptx_text, sizeof ptx_text);
    wrapper = (struct wrapper){ 0x466243b1, 1, &image, NULL };
    void **h = __cudaRegisterFatBinary(&wrapper);
    assert_non_null(h);
    if (extra)
        extra(h);
    __cudaRegisterFunction(h, &stub, (char *)"readk", "readk", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFatBinaryEnd(h);
    return h;
}

static cudaError_t launch_readk(void)
{
    void *out = NULL;
    void *args[] = { &out };
    return cudaLaunchKernel(&stub, (dim3){ 1, 1, 1 }, (dim3){ 1, 1, 1 }, args, 0, NULL);
}

static const fake_call *last_call(const char *name)
{
    for (size_t i = fk.fake_call_count(); i-- > 0;) {
        const fake_call *c = fk.fake_call_at(i);
        if (strcmp(c->name, name) == 0)
            return c;
    }
    return NULL;
}

static void get_proc_address_returns_null_and_keeps_the_last_error(void **state)
{
    (void)state;
    void *p = NULL;
    assert_int_equal(cudaMalloc(&p, (size_t)1 << 62), cudaErrorMemoryAllocation);
    size_t calls = fk.fake_call_count();
    assert_null(__cudaGetProcAddress());
    assert_int_equal(fk.fake_call_count(), calls);           /* nothing reached the driver */
    assert_int_equal(cudaGetLastError(), cudaErrorMemoryAllocation);
}

static void export_table_forwards_to_the_driver(void **state)
{
    (void)state;
    const CUuuid known = FAKE_EXPORT_TABLE_ID;
    const CUuuid unknown = {{ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 }};
    const void *table = NULL, *again = NULL;
    assert_cuda(cudaGetExportTable(&table, (const cudaUUID_t *)&known), cudaSuccess);
    assert_non_null(table);
    assert_cuda(cudaGetExportTable(&again, (const cudaUUID_t *)&known), cudaSuccess);
    assert_ptr_equal(table, again);
    assert_int_equal(e2e_calls_with("cuGetExportTable", "id=6d69"), 2);     /* "mi..." */

    table = &known;
    assert_cuda(cudaGetExportTable(&table, (const cudaUUID_t *)&unknown), cudaErrorInvalidValue);
    assert_null(table);

    fk.fake_reset_log();
    assert_cuda(cudaGetExportTable(NULL, (const cudaUUID_t *)&known), cudaErrorInvalidValue);
    assert_cuda(cudaGetExportTable(&table, NULL), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuGetExportTable"), 0);
}

static void add_host_variables(void **h)
{
    __cudaRegisterHostVar(h, "hostsym", (char *)&host_value, sizeof host_value);
    __cudaRegisterHostVar(h, "other", (char *)&host_value, sizeof host_value);
    __cudaRegisterHostVar(h, NULL, (char *)&host_value, sizeof host_value);   /* ignored */
    __cudaRegisterHostVar(NULL, "hostsym", (char *)&host_value, 4);          /* ignored */
}

static void host_variables_become_global_symbol_relocations(void **state)
{
    (void)state;
    register_image(add_host_variables);
    fk.fake_reset_log();
    assert_cuda(launch_readk(), cudaSuccess);
    const fake_call *load = last_call("cuModuleLoadDataEx");
    assert_non_null(load);
    /* The error log (2 options) and CU_JIT_GLOBAL_SYMBOL_NAMES / _ADDRESSES / _COUNT. */
    assert_non_null(strstr(load->args, "numOptions=5"));
    assert_string_equal(fk.fake_last_launch()->kernel, "readk");
    /* The host variable is no symbol of the runtime's. */
    void *address = NULL;
    assert_cuda(cudaGetSymbolAddress(&address, &host_value), cudaErrorInvalidSymbol);
}

static void an_image_without_host_variables_passes_the_log_only(void **state)
{
    (void)state;
    register_image(NULL);
    fk.fake_reset_log();
    assert_cuda(launch_readk(), cudaSuccess);
    const fake_call *load = last_call("cuModuleLoadDataEx");
    assert_non_null(load);
    assert_non_null(strstr(load->args, "numOptions=2"));
}

static uint64_t table_words[4];

static void add_unified_table(void **h)
{
    __cudaRegisterUnifiedTable(h, table_words, sizeof table_words, table_words + 2, 16);
    __cudaRegisterUnifiedTable(NULL, table_words, 8, NULL, 0);               /* ignored */
}

static void a_unified_table_loads_through_a_library_with_the_table(void **state)
{
    (void)state;
    register_image(add_unified_table);
    fk.fake_reset_log();
    assert_cuda(launch_readk(), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuModuleLoadDataEx"), 0);
    assert_int_equal(fk.fake_count_calls("cuLibraryLoadData"), 1);
    assert_int_equal(fk.fake_count_calls("cuLibraryGetModule"), 1);
    const fake_call *load = last_call("cuLibraryLoadData");
    /* CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE is option 0. */
    assert_non_null(strstr(load->args, "lib=[0:"));
    assert_string_equal(fk.fake_last_launch()->kernel, "readk");

    /* A second launch finds the module: no second load. */
    assert_cuda(launch_readk(), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuLibraryLoadData"), 1);
}

static void a_library_load_failure_is_the_launch_error(void **state)
{
    (void)state;
    register_image(add_unified_table);
    fk.fake_fail_call("cuLibraryLoadData", 1, CUDA_ERROR_INVALID_IMAGE);
    assert_cuda(launch_readk(), cudaErrorInvalidKernelImage);
    assert_int_equal(fk.fake_count_calls("cuLibraryGetModule"), 0);
    /* The failure is remembered for the context: a second launch answers the same. */
    assert_cuda(launch_readk(), cudaErrorInvalidKernelImage);
    assert_int_equal(fk.fake_count_calls("cuLibraryLoadData"), 1);
}

#define TEST(name) { #name, name }

int main(int argc, char **argv)
{
    static const struct { const char *name; CMUnitTestFunction fn; } all[] = {
        TEST(get_proc_address_returns_null_and_keeps_the_last_error),
        TEST(export_table_forwards_to_the_driver),
        TEST(host_variables_become_global_symbol_relocations),
        TEST(an_image_without_host_variables_passes_the_log_only),
        TEST(a_unified_table_loads_through_a_library_with_the_table),
        TEST(a_library_load_failure_is_the_launch_error),
    };
    for (size_t i = 0; argc == 2 && i < sizeof all / sizeof *all; i++) {
        if (strcmp(argv[1], all[i].name) != 0)
            continue;
        const struct CMUnitTest tests[] = { { all[i].name, all[i].fn, NULL, NULL, NULL } };
        return cmocka_run_group_tests_name(all[i].name, tests, e2e_setup, NULL);
    }
    fprintf(stderr, "usage: %s TEST\n", argv[0]);
    return 2;
}
