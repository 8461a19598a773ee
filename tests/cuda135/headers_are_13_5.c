/* headers_are_13_5.c - compiled with the files of lib/ in tests/cuda135's check of the runtime
 * against CUDA 13.5's headers: if the include path gave the 13.0 toolkit's headers instead, the
 * check would prove nothing (lib/core/cuda135.h would take its 13.0 branch), so the build stops here.
 */
#include <cuda.h>
#include <cuda_runtime_api.h>

_Static_assert(CUDART_VERSION == 13050, "cuda_runtime_api.h is not CUDA 13.5's");
_Static_assert(CUDA_VERSION == 13050, "cuda.h is not CUDA 13.5's");
