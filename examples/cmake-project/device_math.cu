#include "device_math.cuh"

__device__ float axpy_element(float a, float x, float y)
{
    return a * x + y;
}
