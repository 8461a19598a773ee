// Built with -default-stream per-thread: every stream and event call below is renamed by the
// toolkit's headers to its _ptsz entry point, where stream 0 means the per-thread stream.
#include <cuda_runtime.h>

extern "C" {

int ptsz_calls(cudaStream_t s, cudaEvent_t e, cudaStreamCallback_t cb, cudaHostFn_t fn)
{
    unsigned flags = 0;
    int value = 0, device = 0;
    unsigned long long id = 0;
    cudaStreamAttrValue attr = {};
    int failures = 0;
    failures += cudaStreamSynchronize(s) != cudaSuccess;
    failures += cudaStreamQuery(s) != cudaSuccess;
    failures += cudaStreamWaitEvent(s, e, 0) != cudaSuccess;
    failures += cudaStreamAddCallback(s, cb, 0, 0) != cudaSuccess;
    failures += cudaLaunchHostFunc(s, fn, 0) != cudaSuccess;
    failures += cudaStreamGetFlags(s, &flags) != cudaSuccess;
    failures += cudaStreamGetPriority(s, &value) != cudaSuccess;
    failures += cudaStreamGetDevice(s, &device) != cudaSuccess;
    failures += cudaStreamGetId(s, &id) != cudaSuccess;
    failures += cudaStreamGetAttribute(s, cudaLaunchAttributePriority, &attr) != cudaSuccess;
    failures += cudaEventRecord(e, s) != cudaSuccess;
    failures += cudaEventRecordWithFlags(e, s, 0) != cudaSuccess;
    return failures;
}

// The fake keeps no settable state on the special streams: these report its answer.
cudaError_t ptsz_set_attribute(cudaStream_t s, const cudaStreamAttrValue *v)
{
    return cudaStreamSetAttribute(s, cudaLaunchAttributePriority, v);
}

cudaError_t ptsz_copy_attributes(cudaStream_t dst, cudaStream_t src)
{
    return cudaStreamCopyAttributes(dst, src);
}
}
