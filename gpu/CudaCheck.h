#pragma once
// Checks for every CUDA runtime and cuBLAS call: every CUDA/cuBLAS call and every kernel launch
// goes through one of these macros (docs/architecture.md, house rules).
//
//   LANDSCAPE_CUDA_CHECK(cudaMemcpy(...));
//   kernel<<<grid, block, 0, stream>>>(args);
//   LANDSCAPE_CUDA_CHECK_LAUNCH();
//   LANDSCAPE_CUBLAS_CHECK(cublasDdot(...));
//
// A failure throws std::runtime_error naming file:line, the call as written and the library's
// error string. Only CUDA-enabled code includes this header (it needs the CUDA toolkit headers);
// g++ can compile it, nvcc is not required.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace landscape {
namespace detail {

inline std::string cudaFailureMessage(const char* call, const char* file, int line,
                                      const std::string& what) {
  return std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " + what;
}

inline void checkCuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  // Clear a non-sticky error so that it is not reported again by the next unrelated check.
  (void)cudaGetLastError();
  throw std::runtime_error(cudaFailureMessage(
      call, file, line,
      std::string(cudaGetErrorName(status)) + " (" + cudaGetErrorString(status) + ")"));
}

inline void checkCublas(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw std::runtime_error(cudaFailureMessage(
      call, file, line,
      std::string(cublasGetStatusName(status)) + " (" + cublasGetStatusString(status) + ")"));
}

}  // namespace detail
}  // namespace landscape

/// Checks a cudaError_t-returning call.
#define LANDSCAPE_CUDA_CHECK(call) ::landscape::detail::checkCuda((call), #call, __FILE__, __LINE__)

/// Checks the launch that just happened (configuration errors surface at once; errors inside the
/// kernel surface at the next synchronising call, which is itself checked).
#define LANDSCAPE_CUDA_CHECK_LAUNCH() \
  ::landscape::detail::checkCuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

/// Checks a cublasStatus_t-returning call.
#define LANDSCAPE_CUBLAS_CHECK(call) \
  ::landscape::detail::checkCublas((call), #call, __FILE__, __LINE__)
