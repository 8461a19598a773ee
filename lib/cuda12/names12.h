/*
 * cuda12/names12.h - the names the runtime's bodies take in the CUDA 12.9 build.
 *
 * libcudart.so.12 and libminicudart12.a are the same runtime as libcudart.so.13, compiled a second
 * time with this header put before everything else (-include, lib/CMakeLists.txt), plus the face
 * of cuda12/.  The bodies are written against CUDA 13's headers and keep their 13 prototypes.
 * Where CUDA 12.9 gives one of those prototypes another name, or gives the plain name another
 * prototype, struct layout or behaviour, the body is renamed here, before any header declares it:
 *
 *   - to the name 12.9 exports the 13 prototype under (cudaMemAdvise -> cudaMemAdvise_v2: in 12.9,
 *     cudaMemAdvise_v2 is exactly 13.0's cudaMemAdvise);  the face then defines the plain name
 *     with 12.9's prototype, converting and calling the _v2 body;
 *   - or, where 12.9 has no such name, to rt_v13_<name>, which the version script keeps local: the
 *     face's function of the plain name converts 12.9's arguments or structs and calls it.
 *
 * The renaming reaches the header's declaration and every call inside the runtime alike, so a body
 * that calls another (cudaChooseDevice calls cudaGetDeviceProperties) still calls the 13 one.
 * NVIDIA's own 12.9 headers do the same thing the other way round (`#define cudaGetDeviceProperties
 * cudaGetDeviceProperties_v2`, cuda_runtime_api.h): this is the one list of such names.
 * docs/cuda12.md tells, change by change, what the face does with each.
 */
#ifndef MINICUDART_CUDA12_NAMES12_H
#define MINICUDART_CUDA12_NAMES12_H

/* The runtime's version (cudaRuntimeGetVersion), and the driver ABI that cudaGetDriverEntryPoint
 * asks for: 12.9's, as NVIDIA's libcudart.so.12 12.9 hard-codes (so cuCtxSynchronize comes as
 * CUresult(void), not 13.0's CUresult(CUcontext)). */
#define RT_RUNTIME_VERSION 12090
#define RT_ABI12 1
/* A launch whose shape no device runs (a zero, a block over 1024 threads, a grid over 2^31 - 1
 * in x or 65535 in y or z), refused by the driver, is cudaErrorInvalidConfiguration in 12.9, where
 * 13 passes on the driver's CUDA_ERROR_INVALID_VALUE as cudaErrorInvalidValue (both measured on
 * the H200; launch/launch.c). */
#define RT_LAUNCH_BAD_SHAPE cudaErrorInvalidConfiguration
/* NVIDIA's 12.9 runtime runs on 12.x drivers too (CUDA's minor version compatibility), which is
 * what most machines running CUDA 12 programs have.  The runtime's required driver entry points
 * (core/driver_*.def, DRIVER_FN) are all in 12.8's driver (575 series): cuStreamGetDevice and
 * cuEventElapsedTime_v2 are the newest of them.  Every 13.0 entry point is optional and asked for
 * only where the driver has it (rt_driver_drop_newer).  Older 12.x drivers are refused with
 * cudaErrorInsufficientDriver, as before; tests/cuda12 runs the CUDA 12 programs on a fake driver
 * of version 12.8. */
#define RT_DRIVER_MIN_VERSION 12080

/* ---- 12.9 exports the 13 prototype under a _vN name; the plain name is the face's ------------ */
#define cudaMemAdvise cudaMemAdvise_v2
#define cudaMemPrefetchAsync cudaMemPrefetchAsync_v2
#define cudaMemPrefetchAsync_ptsz cudaMemPrefetchAsync_v2_ptsz
#define cudaGraphAddNode cudaGraphAddNode_v2
#define cudaGraphAddDependencies cudaGraphAddDependencies_v2
#define cudaGraphRemoveDependencies cudaGraphRemoveDependencies_v2
#define cudaGraphGetEdges cudaGraphGetEdges_v2
#define cudaGraphNodeGetDependencies cudaGraphNodeGetDependencies_v2
#define cudaGraphNodeGetDependentNodes cudaGraphNodeGetDependentNodes_v2
#define cudaStreamUpdateCaptureDependencies cudaStreamUpdateCaptureDependencies_v2
#define cudaStreamUpdateCaptureDependencies_ptsz cudaStreamUpdateCaptureDependencies_v2_ptsz
#define cudaStreamGetCaptureInfo cudaStreamGetCaptureInfo_v3
#define cudaStreamGetCaptureInfo_ptsz cudaStreamGetCaptureInfo_v3_ptsz
#define cudaSignalExternalSemaphoresAsync cudaSignalExternalSemaphoresAsync_v2
#define cudaSignalExternalSemaphoresAsync_ptsz cudaSignalExternalSemaphoresAsync_v2_ptsz
#define cudaWaitExternalSemaphoresAsync cudaWaitExternalSemaphoresAsync_v2
#define cudaWaitExternalSemaphoresAsync_ptsz cudaWaitExternalSemaphoresAsync_v2_ptsz
#define cudaEventElapsedTime cudaEventElapsedTime_v2

/* ---- 12.9 has no name for the 13 form: the body becomes local, the face calls it ------------- */
/* cudaDeviceProp: 1032 bytes in 12.9, 8 more fields, the later ones at other offsets */
#define cudaGetDeviceProperties rt_v13_cudaGetDeviceProperties
#define cudaChooseDevice rt_v13_cudaChooseDevice
/* cudaPointerAttributes: 24 bytes in 12.9, 88 in 13 */
#define cudaPointerGetAttributes rt_v13_cudaPointerGetAttributes
/* the batch copies take a failIdx in 12.9 */
#define cudaMemcpyBatchAsync rt_v13_cudaMemcpyBatchAsync
#define cudaMemcpyBatchAsync_ptsz rt_v13_cudaMemcpyBatchAsync_ptsz
#define cudaMemcpy3DBatchAsync rt_v13_cudaMemcpy3DBatchAsync
#define cudaMemcpy3DBatchAsync_ptsz rt_v13_cudaMemcpy3DBatchAsync_ptsz
/* a host pointer that is no registered kernel: 12.9 answers otherwise (cuda12/launch12.c) */
#define __cudaGetKernel rt_v13___cudaGetKernel
#define cudaFuncSetCacheConfig rt_v13_cudaFuncSetCacheConfig
#define cudaFuncSetSharedMemConfig rt_v13_cudaFuncSetSharedMemConfig
/* cudaResourceDesc 64 bytes (13: 144), cudaResourceViewDesc 48 (112) */
#define cudaCreateTextureObject rt_v13_cudaCreateTextureObject
#define cudaCreateSurfaceObject rt_v13_cudaCreateSurfaceObject
#define cudaGetTextureObjectResourceDesc rt_v13_cudaGetTextureObjectResourceDesc
#define cudaGetSurfaceObjectResourceDesc rt_v13_cudaGetSurfaceObjectResourceDesc
#define cudaGetTextureObjectResourceViewDesc rt_v13_cudaGetTextureObjectResourceViewDesc
/* the external memory and semaphore descriptors end before 13's reserved words */
#define cudaImportExternalMemory rt_v13_cudaImportExternalMemory
#define cudaExternalMemoryGetMappedBuffer rt_v13_cudaExternalMemoryGetMappedBuffer
#define cudaExternalMemoryGetMappedMipmappedArray rt_v13_cudaExternalMemoryGetMappedMipmappedArray
#define cudaImportExternalSemaphore rt_v13_cudaImportExternalSemaphore

#endif
