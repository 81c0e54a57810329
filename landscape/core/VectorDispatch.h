#pragma once
// Hot host loops compiled twice, for AVX2 and for baseline x86-64, and chosen when the program
// runs: the release build targets baseline x86-64 (its binaries run on any such machine), while
// the clusters and GPU hosts our users run on have had AVX2 since 2013 (Haswell, Zen).
//
// Bits: a loop compiled both ways must give the same bits, so its file is compiled with
// -ffp-contract=off (CMakeLists.txt: AVX2 hosts have FMA, and a contracted a * b + c rounds once),
// and the loop may use only operations whose result does not depend on the vector width
// (elementwise arithmetic, min and max); a sum's order would, so sums stay outside.
//
// Usage, a loop the compiler vectorises (landscape/geometry/Alignment.cpp):
//   LANDSCAPE_VECTOR_LOOP void body(...) { plain loop }
//   LANDSCAPE_TARGET_AVX2 void bodyAvx2(...) { body(...); }
//   if (cpuHasAvx2()) bodyAvx2(...); else body(...);
// or, where the loop needs AVX2 intrinsics (gathers, masks: landscape/geometry/Hungarian.cpp), a
// lambda marked LANDSCAPE_TARGET_AVX2 under `if (cpuHasAvx2())`, then the plain loop for the rest.

namespace landscape {

/// True when the processor running this program has AVX2 (x86-64 with GCC or Clang) and the
/// baseline loops were not asked for; false elsewhere, and then LANDSCAPE_TARGET_AVX2 is empty.
bool cpuHasAvx2();

/// Makes cpuHasAvx2() answer false (true) or the processor's answer (false) from now on, in every
/// thread: for the tests and benchmarks that compare the two versions of a loop.
void useBaselineLoops(bool baseline);

}  // namespace landscape

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define LANDSCAPE_TARGET_AVX2 __attribute__((target("avx2")))
#else
#define LANDSCAPE_TARGET_AVX2
#endif
// Inlined into each caller, so that the AVX2 caller compiles the loop for AVX2.
#define LANDSCAPE_VECTOR_LOOP inline __attribute__((always_inline))
