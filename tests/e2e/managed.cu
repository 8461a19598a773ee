// A __managed__ variable read by the host and changed by a kernel.
__managed__ int mvar = 42;

__global__ void bump_managed() { mvar += 1; }

extern "C" int e2e_read_managed(void) { return mvar; }
extern "C" const void *e2e_managed_address(void) { return &mvar; }
extern "C" void e2e_launch_bump_managed(void) { bump_managed<<<1, 1>>>(); }
