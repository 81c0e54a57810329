#pragma once
// Marks physics functions that both the CPU reference loops and the CUDA kernels call: physics
// written once, loops written twice (docs/architecture.md, house rules).
#if defined(__CUDACC__)
#define LANDSCAPE_HD __host__ __device__ __forceinline__
#else
#define LANDSCAPE_HD inline
#endif
