/*
 * module_link.c - loading beyond one image into one context: the options of a load, the library
 * a module shares across devices, and JIT linking of -rdc images.
 *
 * Load options.  Every load asks for the JIT's error log (it goes to the trace).  A module given
 * host variables (__cudaRegisterHostVar, register.c) also passes them as
 * CU_JIT_GLOBAL_SYMBOL_NAMES / _ADDRESSES / _COUNT: the driver relocates those extern symbols of
 * the device image to the host addresses, as NVIDIA's runtime has it do.
 *
 * The library.  A module with __managed__ variables must have one instance of each, shared by
 * the host and every device: NVIDIA's runtime loads such a module once with cuLibraryLoadData and
 * reads the variables with cuLibraryGetManaged.  minicudart does the same, with the image it
 * chose for the first device that loads the module; each context then gets the library's module
 * with cuLibraryGetModule, so kernels and other variables resolve as from any module.  A device
 * whose choice differs (another SM) loads a module of its own, as before: its managed variables
 * are then its own.  A module given a unified table (__cudaRegisterUnifiedTable) is loaded the
 * same way, with the table as CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE.
 *
 * JIT linking.  An -rdc program's linked image holds SASS for the -arch list only, and no PTX
 * (PROTOCOL.md section 4).  For any other device -- or under MINICUDART_FORCE_PTX -- the wrapper's
 * prelinked array still has each object as nvcc made it, with relocatable SASS and PTX.  The
 * runtime chooses an entry of each for the device (the same rules as for a whole image), and
 * links them with cuLinkCreate / cuLinkAddData / cuLinkComplete; the linked cubin is then loaded
 * like any other.  NVIDIA's runtime links the same objects (it hands the driver each fatbin whole).
 */
#include <stdlib.h>
#include <string.h>

#include "load/module.h"

/* Scalar option values travel cast into the pointer slot, as the driver takes them.  The size
 * option is read (the cap, NUL included) and written (what the log filled), so each load gets a
 * fresh set. */
cudaError_t rt_load_options_init(rt_load_options *o, const rt_module *m)
{
    memset(o, 0, sizeof *o);
    o->option[0] = CU_JIT_ERROR_LOG_BUFFER;
    o->value[0] = o->log;
    o->option[1] = CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES;
    o->value[1] = (void *)(uintptr_t)sizeof o->log;
    o->count = 2;
    unsigned n = m->host_var_count;
    if (n == 0)
        return cudaSuccess;
    o->names = calloc(n, sizeof *o->names);
    o->addresses = calloc(n, sizeof *o->addresses);
    if (!o->names || !o->addresses) {
        rt_load_options_free(o);
        return cudaErrorMemoryAllocation;
    }
    unsigned i = 0;
    for (const rt_host_var *h = m->host_vars; h && i < n; h = h->next, i++) {
        o->names[i] = h->name;
        o->addresses[i] = h->address;
    }
    o->option[2] = CU_JIT_GLOBAL_SYMBOL_NAMES;
    o->value[2] = (void *)o->names;
    o->option[3] = CU_JIT_GLOBAL_SYMBOL_ADDRESSES;
    o->value[3] = (void *)o->addresses;
    o->option[4] = CU_JIT_GLOBAL_SYMBOL_COUNT;
    o->value[4] = (void *)(uintptr_t)i;
    o->count = 5;
    return cudaSuccess;
}

void rt_load_options_free(rt_load_options *o)
{
    free(o->names);
    free(o->addresses);
    o->names = NULL;
    o->addresses = NULL;
}

/* ---- the library ----------------------------------------------------------------------------- */

/* A library's managed memory is shared across devices, registered when the library is first
 * loaded into a context (the driver's documentation of cuLibraryGetManaged): the one instance
 * __managed__ promises.  A unified table is an option of cuLibraryLoadData only. */
static bool rt_module_wants_library(const rt_module *m)
{
    return m->has_managed || m->has_table;
}

CUresult rt_module_load_driver(rt_module *m, rt_module_dev *md, const void *image,
                               size_t entry_offset, rt_load_options *o)
{
    md->from_library = false;
    /* A library loaded from another entry (a device of another SM chose differently) cannot
     * serve this device: it gets a module of its own, as every other module does. */
    if (!rt_module_wants_library(m) ||
        (m->library && m->library_image != entry_offset))
        return rt_drv.cuModuleLoadDataEx(&md->module, image, o->count, o->option, o->value);
    if (!m->library) {
        /* The driver keeps its own copy of the image (no CU_LIBRARY_BINARY_IS_PRESERVED): a
         * decompressed image is freed when the context that chose it is reset, the library
         * lives on until the module is unregistered. */
        /* The table option is always in the array, but counted only when there is a table; the
         * JIT options (the error log, host variables) serve the library's load as a module's. */
        CUlibraryOption lib_option[1] = { CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE };
        void *lib_value[1] = { &m->table };
        CUresult r = rt_drv.cuLibraryLoadData(&m->library, image, o->option, o->value, o->count,
                                              lib_option, lib_value, m->has_table ? 1 : 0);
        RT_TRACE("module %p: cuLibraryLoadData%s: %d", m->wrapper,
                 m->has_table ? " with the unified table" : "", (int)r);
        if (r != CUDA_SUCCESS) {
            m->library = NULL;
            return r;
        }
        m->library_image = entry_offset;
    }
    /* The library's module in the current context: kernels and ordinary variables resolve from
     * it like from any module.  The library itself outlives a cudaDeviceReset: it goes only with
     * rt_module_drop_library. */
    CUresult r = rt_drv.cuLibraryGetModule(&md->module, m->library);
    md->from_library = r == CUDA_SUCCESS;
    return r;
}

CUresult rt_module_managed_address(rt_module *m, rt_module_dev *md, rt_var *v, CUdeviceptr *ptr,
                                   size_t *bytes)
{
    if (md->from_library)
        return rt_drv.cuLibraryGetManaged(ptr, bytes, m->library, v->name);
    return rt_drv.cuModuleGetGlobal(ptr, bytes, md->module, v->name);
}

void rt_module_drop_library(rt_module *m)
{
    if (m->kernel_library) {
        CUresult r = rt_drv.cuLibraryUnload(m->kernel_library);
        RT_TRACE("module %p: the library of its kernel nodes unloaded (%d)", m->wrapper, (int)r);
        m->kernel_library = NULL;
    }
    if (!m->library)
        return;
    CUresult r = rt_drv.cuLibraryUnload(m->library);
    RT_TRACE("module %p: library unloaded (%d)", m->wrapper, (int)r);
    m->library = NULL;
}

/* ---- JIT linking of -rdc images -------------------------------------------------------------- */

/* A version-2 wrapper is the -rdc registration of link.stub: its prelinked array, NULL-terminated,
 * points at the fatbin of each object of the link unit (PROTOCOL.md section 4). */
bool rt_module_linkable(const rt_module *m)
{
    return m->wrapper_ok && m->fw.version == 2 && m->fw.prelinked && m->fw.prelinked[0];
}

/* Adds object i (a prelinked fatbin) to the link: its entry for the device, decompressed. */
static cudaError_t rt_link_add(rt_module *m, rt_device *d, CUlinkState link, size_t i)
{
    fatbin_container c;
    fatbin_choice choice;
    fatbin_error err;
    if (fatbin_container_open(&c, m->fw.prelinked[i], SIZE_MAX, &err) != FATBIN_OK ||
        fatbin_choose(&c, d->sm, rt_force_ptx(), &choice, &err) != FATBIN_OK) {
        RT_TRACE("module %p: prelinked object %zu is malformed: %s", m->wrapper, i, err.message);
        return cudaErrorInvalidKernelImage;
    }
    RT_TRACE("module %p: prelinked object %zu on device %d: %s", m->wrapper, i, d->ordinal,
             choice.reason);
    if (!choice.found)
        return cudaErrorNoKernelImageForDevice;
    void *owned = NULL;
    const void *image;
    size_t size;
    cudaError_t e = rt_entry_image(m->wrapper, &choice.entry, &owned, &image, &size);
    if (e != cudaSuccess)
        return e;
    bool ptx = choice.entry.kind == FATBIN_KIND_PTX;
    char name[32];
    snprintf(name, sizeof name, "object%zu", i);
    /* PTX is handed over with its terminating NUL (the driver's rule for PTX input).  Every input
     * is relocatable code to the JIT linker, as -rdc made it; PTX is compiled with the link's
     * options first.  The driver keeps no reference to the data after the call, so a decompressed
     * copy is freed at once. */
    CUresult r = rt_drv.cuLinkAddData(link, ptx ? CU_JIT_INPUT_PTX : CU_JIT_INPUT_CUBIN,
                                      (void *)(uintptr_t)image, ptx ? strlen(image) + 1 : size,
                                      name, 0, NULL, NULL);
    free(owned);
    if (r != CUDA_SUCCESS) {
        RT_TRACE("module %p: cuLinkAddData of object %zu: %d", m->wrapper, i, (int)r);
        return rt_error_from_cu(r);
    }
    return cudaSuccess;
}

cudaError_t rt_module_link(rt_module *m, rt_device *d, rt_module_dev *md, rt_load_options *o,
                           const void **image, size_t *size)
{
    uint64_t span = rt_span_begin();
    CUlinkState link = NULL;
    /* The link gets the error log only: the host-variable relocations are the loader's (the
     * driver documents CU_JIT_GLOBAL_SYMBOL_* for its dynamic linker, which loads the result). */
    CUresult r = rt_drv.cuLinkCreate(2, o->option, o->value, &link);
    if (r != CUDA_SUCCESS)
        return rt_error_from_cu(r);
    cudaError_t e = cudaSuccess;
    size_t objects = 0;
    for (; e == cudaSuccess && m->fw.prelinked[objects]; objects++)
        e = rt_link_add(m, d, link, objects);
    void *linked = NULL;
    size_t cubin_size = 0;
    if (e == cudaSuccess) {
        r = rt_drv.cuLinkComplete(link, &linked, &cubin_size);
        if (r != CUDA_SUCCESS)
            e = rt_error_from_cu(r);
    }
    if (e == cudaSuccess) {
        /* The linker's output dies with the link state: keep a copy for the load and .nv.info. */
        free(md->image);
        md->image = malloc(cubin_size ? cubin_size : 1);
        if (md->image)
            memcpy(md->image, linked, cubin_size);
        else
            e = cudaErrorMemoryAllocation;
    }
    rt_drv.cuLinkDestroy(link);       /* `linked` is gone from here on */
    RT_SPAN_END(span, "JIT link", "\"objects\":%zu,\"bytes\":%zu,\"result\":\"%s\"", objects,
                cubin_size, rt_error_name(e));
    if (e != cudaSuccess) {
        RT_TRACE("module %p: JIT linking %zu objects for sm_%u failed: %s%s%s", m->wrapper,
                 objects, d->sm, rt_error_name(e), o->log[0] ? "; log: " : "", o->log);
        return e;
    }
    RT_TRACE("module %p: JIT-linked %zu objects for sm_%u: %zu bytes", m->wrapper, objects,
             d->sm, cubin_size);
    md->cubin = md->image;
    md->cubin_size = cubin_size;
    *image = md->image;
    *size = cubin_size;
    return cudaSuccess;
}
