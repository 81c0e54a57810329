#!/usr/bin/env bash
# Builds (if needed) and runs the default test suite: everything but the "slow" label.
# GPU tests skip cleanly without a CUDA device. Slow suite: ctest --test-dir build -L slow
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -x /usr/local/cuda/bin/nvcc ]] && export PATH="/usr/local/cuda/bin:$PATH"
[[ -f build/CMakeCache.txt ]] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
ctest --test-dir build -LE slow --output-on-failure -j"$(nproc)" --timeout 600
