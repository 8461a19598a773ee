// Defined in device_math.cu, called from main.cu's kernel: a call across translation units, which
// needs relocatable device code and a device link (CUDA_SEPARABLE_COMPILATION ON).
#pragma once

__device__ float axpy_element(float a, float x, float y);
