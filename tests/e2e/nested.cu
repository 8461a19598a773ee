// A launch inside an argument expression of another launch.
__global__ void add(int *a, const int *b, int n) { a[threadIdx.x] += b[threadIdx.x] + n; }
__global__ void noargs() {}

static int side_effect_launch()
{
    noargs<<<7, 8>>>();
    return 3;
}

extern "C" void e2e_nested_launch(int *a, const int *b)
{
    add<<<1, 4>>>(a, b, side_effect_launch());
}
