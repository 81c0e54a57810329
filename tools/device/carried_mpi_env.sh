#!/usr/bin/env bash
# Unpacks Open MPI's Debian 12 runtime packages (made by tools/device/pack_mpi_debs.sh DIR) into a
# prefix of its own, without dpkg -i and without touching /, and prints the environment that makes
# `mpirun` and an MPI build of gmin/pathsample use it: for a machine that has no Open MPI and
# where installing into / could break its own libraries (the lead's GPU device; docs/cluster.md).
# Usage: eval "$(tools/device/carried_mpi_env.sh DIR [PREFIX])"
#        (PREFIX default /tmp/carried-openmpi)
set -euo pipefail
dir="${1:?usage: eval \"\$(tools/device/carried_mpi_env.sh DIR [PREFIX])\"}"
prefix="${2:-/tmp/carried-openmpi}"
shopt -s nullglob
debs=("$dir"/*.deb)
if (( ${#debs[@]} == 0 )); then
  echo "carried_mpi_env: no .deb files in $dir (make them with tools/device/pack_mpi_debs.sh" \
    "$dir)" >&2
  exit 1
fi
mkdir -p "$prefix"
for f in "${debs[@]}"; do dpkg-deb -x "$f" "$prefix"; done
lib="$prefix/usr/lib/x86_64-linux-gnu"
# Open MPI finds its components and help files from OPAL_PREFIX, PMIx from PMIX_INSTALL_PREFIX;
# both were built for /usr. mpirun is a Debian alternatives link that the packages do not carry.
cat <<EOF
export OPAL_PREFIX="$prefix/usr"
export PMIX_INSTALL_PREFIX="$lib/pmix2"
export PMIX_MCA_mca_base_component_path="$lib/pmix2/lib/pmix"
export PMIX_MCA_pcompress_base_silence_warning=1
export PATH="$prefix/usr/bin:\$PATH"
export LD_LIBRARY_PATH="$lib:$lib/openmpi/lib:$lib/pmix2/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun() { "$prefix/usr/bin/orterun" "\$@"; }
export MPIRUN="$prefix/usr/bin/orterun"
EOF
