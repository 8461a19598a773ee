/*
 * minicudart.h - what minicudart offers beyond NVIDIA's runtime API.
 *
 * Programs use the toolkit's cuda_runtime.h as usual; this header is only for those that want to
 * see the runtime at work.
 *
 * Environment:
 *   MINICUDART_TRACE=1            trace each step (registration, image choice, loads, launches,
 *                                 errors) to stderr, one "minicudart: " line each
 *   MINICUDART_TRACE=FILE.json    write the steps as a timeline in the Chrome trace-event format
 *                                 (open it in Perfetto or chrome://tracing): spans for driver
 *                                 initialisation, context creation, module loads (image choice,
 *                                 decompression, load or JIT), kernel resolution and each launch;
 *                                 tools/trace_check.py checks one and prints its spans as a tree
 *   MINICUDART_DRIVER=path        load this driver library instead of libcuda.so.1
 *   MINICUDART_FORCE_PTX=1        ignore SASS and JIT-compile the PTX
 *   MINICUDART_LAUNCH_PARAMS=...  "buffer" (pack the arguments into one buffer, the default when
 *                                 the layout is known) or "array" (pass nvcc's argument array)
 *   CUDA_MODULE_LOADING=EAGER     load every module when a device is first used (default LAZY)
 */
#ifndef MINICUDART_H
#define MINICUDART_H

#ifdef __cplusplus
extern "C" {
#endif

/* Receives each trace line, without prefix or newline.  Installing a hook turns tracing on;
 * NULL restores stderr.  Trace lines never go to a callback of cudaLogsRegisterCallback: that
 * one receives the driver's log messages only (lib/device/logs.c). */
typedef void (*minicudart_trace_hook)(const char *line, void *user);
void minicudart_set_trace_hook(minicudart_trace_hook hook, void *user);

/* Chooses how launches hand arguments to the driver, as MINICUDART_LAUNCH_PARAMS does: "buffer"
 * (packed at the offsets the driver reports) or "array" (nvcc's argument array, passed through).
 * For benchmarks that compare the two in one process.  Returns 0, or -1 for an unknown mode. */
int minicudart_set_launch_params(const char *mode);

#ifdef __cplusplus
}
#endif

#endif
