/* app12.c - prints the runtime version the linked runtime answers (12090: CUDA 12.9's ABI),
 * declared here as CUDA 12.9's cuda_runtime_api.h declares it, so that no toolkit is needed. */
#include <stdio.h>

int cudaRuntimeGetVersion(int *runtimeVersion);

int main(void)
{
    int version = -1;
    int rc = cudaRuntimeGetVersion(&version);
    printf("cudaRuntimeGetVersion %d, version %d\n", rc, version);
    return rc;
}
