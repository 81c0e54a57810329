#!/usr/bin/env bash
# Installs landscape's Debian packages, then configures and builds it in ./build.
# Usage: tools/setup.sh [--no-install]   (CUDA is built when nvcc is found; see README.md)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake libeigen3-dev libboost-program-options-dev libhdf5-dev
          hdf5-tools libgtest-dev libgmock-dev python3
          libopenmpi-dev openmpi-bin  # mpirun -n K gmin (docs/cluster.md)
          clang-14 libclang-rt-14-dev)  # the sanitizer pass of run_tests.sh and the fuzz targets
if [[ "${1:-}" != "--no-install" ]]; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    echo "setup: installing ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
  fi
  # The Python module (python/, docs/python.md) and its tests: into the python3 first on PATH,
  # the interpreter CMake builds the module for and ctest runs pytest with.
  python_packages=(nanobind scikit-build-core numpy matplotlib networkx h5py ase pytest)
  if ! python3 -c "import nanobind, numpy, matplotlib, networkx, h5py, ase, pytest" 2>/dev/null; then
    echo "setup: installing Python packages ${python_packages[*]} for $(command -v python3)"
    python3 -m pip install --quiet --disable-pip-version-check "${python_packages[@]}" ||
      echo "setup: pip failed; the Python module and its tests will be skipped"
  fi
fi

# nvcc from the CUDA toolkit is used when present (LANDSCAPE_CUDA=AUTO); it is not on PATH by
# default on Debian installs of the toolkit.
[[ -x /usr/local/cuda/bin/nvcc ]] && export PATH="/usr/local/cuda/bin:$PATH"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLANDSCAPE_CUDA="${LANDSCAPE_CUDA:-AUTO}" \
      -DPython_EXECUTABLE="$(command -v python3)"
cmake --build build -j"$(nproc)"
echo "setup: built build/gmin, build/landscape_tests and (when Python was found) the Python"
echo "       module: PYTHONPATH=build/python python3 -c 'import landscape'"
