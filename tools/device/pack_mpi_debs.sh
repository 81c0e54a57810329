#!/usr/bin/env bash
# Copies Open MPI's Debian 12 packages (the runtime gmin's MPI build needs, and with --dev the
# headers to build it) into DIR, from the apt cache or by `apt-get download`, so that a machine
# without network access can install them with `dpkg -i DIR/*.deb` (docs/cluster.md).
# Usage: tools/device/pack_mpi_debs.sh DIR [--dev]
set -euo pipefail
dir="${1:?usage: tools/device/pack_mpi_debs.sh DIR [--dev]}"
runtime=(openmpi-bin openmpi-common libopenmpi3 libpmix2 libhwloc15 libhwloc-plugins
         libevent-2.1-7 libevent-core-2.1-7 libevent-pthreads-2.1-7 libevent-extra-2.1-7
         libevent-openssl-2.1-7 libfabric1 libucx0 libibverbs1 ibverbs-providers librdmacm1
         libpsm-infinipath1 libpsm2-2 libnl-3-200 libnl-route-3-200 libmunge2 libltdl7 libxnvctrl0
         ocl-icd-libopencl1)
development=(libopenmpi-dev libhwloc-dev libevent-dev libpmix-dev libibverbs-dev libnl-3-dev
             libnl-route-3-dev libnuma-dev libltdl-dev)
packages=("${runtime[@]}")
[[ "${2:-}" == "--dev" ]] && packages+=("${development[@]}")
mkdir -p "$dir"
for p in "${packages[@]}"; do
  version=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || true)
  cached=$(ls /var/cache/apt/archives/"${p}"_*.deb 2>/dev/null | head -1 || true)
  if [[ -n "$cached" ]]; then
    cp "$cached" "$dir/"
  else
    (cd "$dir" && apt-get download "$p${version:+=$version}")
  fi
done
echo "pack_mpi_debs: $(ls "$dir"/*.deb | wc -l) packages, $(du -sh "$dir" | cut -f1) in $dir"
