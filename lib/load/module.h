/*
 * load/module.h - what the rooms of module loading share: image.c (choose, decompress, the
 * parameter layout), module.c (load, resolve, unload) and module_link.c (the load options, the
 * one library shared by every device, and JIT linking of -rdc images).
 */
#ifndef MINICUDART_MODULE_H
#define MINICUDART_MODULE_H

#include "load/load.h"

/* The JIT options of one load: the error log, and the host variables the image's extern
 * symbols are relocated to (__cudaRegisterHostVar).  Built per load; rt_load_options_free
 * releases what rt_load_options_init allocated. */
typedef struct rt_load_options {
    CUjit_option option[5];
    void *value[5];
    unsigned count;
    const char **names;
    void **addresses;
    char log[4096];
} rt_load_options;

cudaError_t rt_load_options_init(rt_load_options *o, const rt_module *m);
void rt_load_options_free(rt_load_options *o);

/* Produces the image of a fatbin entry: in place when stored plain (and NUL-terminated PTX),
 * else decompressed into *owned (malloc'd, NUL-terminated).  cudaErrorInvalidKernelImage when it
 * cannot be decompressed. */
/* image.c, steps 1-2: chooses the entry of m for device d and produces its image.  On success
 * *image is what to hand the driver (NUL-terminated when PTX) and md->image owns it when it had
 * to be allocated. */
cudaError_t rt_module_image(rt_module *m, rt_device *d, rt_module_dev *md, fatbin_entry *entry,
                            const void **image, size_t *size);
cudaError_t rt_entry_image(const void *wrapper, const fatbin_entry *entry, void **owned,
                           const void **image, size_t *size);

/* Loads `image` (chosen as entry `entry_offset` of the module, or RT_IMAGE_LINKED) into the
 * current context: through the module's library when it wants one (managed variables, a unified
 * table) and the library was loaded from the same entry, else with cuModuleLoadDataEx.  Sets
 * md->module and md->from_library. */
#define RT_IMAGE_LINKED SIZE_MAX
CUresult rt_module_load_driver(rt_module *m, rt_module_dev *md, const void *image,
                               size_t entry_offset, rt_load_options *o);

/* An -rdc image with nothing for this device: JIT-links the module's prelinked relocatable
 * fatbins (what each object carried) with cuLink*, into md->image.  True when the module has
 * such objects. */
bool rt_module_linkable(const rt_module *m);
cudaError_t rt_module_link(rt_module *m, rt_device *d, rt_module_dev *md, rt_load_options *o,
                           const void **image, size_t *size);

/* The address of managed variable v: the library's one instance when the module has a library,
 * else the context's (md). */
CUresult rt_module_managed_address(rt_module *m, rt_module_dev *md, rt_var *v, CUdeviceptr *ptr,
                                   size_t *bytes);

/* Unloads the module's library (after its per-context modules are gone). */
void rt_module_drop_library(rt_module *m);

/* MINICUDART_FORCE_PTX=1: SASS is never chosen (image.c). */
bool rt_force_ptx(void);

/* image.c, step 4b: the parameter layout of kernel k, whose function is f, from what was loaded
 * for it (md: NULL for a library's kernel).  NULL: no layout known, and the launch passes
 * nvcc's argument array through.  Called under module.c's load lock. */
rt_param_layout *rt_layout_build(rt_kernel *k, CUfunction f, rt_module_dev *md);

#endif
