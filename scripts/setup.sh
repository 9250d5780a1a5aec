#!/usr/bin/env bash
# Installs the Debian 12 packages geotrain needs, only those missing.
# Usage: scripts/setup.sh [--quickstart | --slurm]   (needs root or sudo when something is missing)
#   --quickstart  only what building the geotrain binary and running it needs
#   --slurm  also what the cluster tests run for real: a one-node Slurm (slurmctld,
#            slurmd, client, munge) for the sweep-as-job-array test, and GNU parallel
#            for the test of examples/sweeps/parallel.sh
set -euo pipefail

PKGS=(
  build-essential cmake pkg-config        # toolchain
  libns3-dev libgsl-dev libsqlite3-dev    # ns-3 3.37 (its .pc files name gsl and sqlite3 libs directly,
  libxml2-dev                             #   and libxml2's include directory, which CMake requires to exist)
  libeigen3-dev                           # model maths
  libmimalloc-dev                         # the allocator every binary links (core/base/allocator_settings.h)
  nlohmann-json3-dev                      # scenario/topology/summary JSON
  libcli11-dev                            # the geotrain command line
  libboost-dev                            # Boost.Asio: the real-mode socket runtime
  libssl-dev                              # HMAC authentication of real-mode connections
  zlib1g-dev                              # reading gzip'd data files (IDX, CSV, SVMlight, NumPy)
  libfast-float-dev                       # parsing CSV and SVMlight numbers
  dataset-fashion-mnist                   # the default real dataset (IDX files)
  libonnx-dev libprotobuf-dev             # geotrain profile: ONNX models as profile files
  python3 python3-matplotlib              # geotrain report: PNG plots (the README's tour)
)
if [ "${1:-}" != "--quickstart" ]; then
  PKGS+=(
    clang libclang-rt-14-dev              # fuzz targets: libFuzzer, ASan, UBSan (scripts/fuzz.sh)
    libgtest-dev googletest               # tests
    libbenchmark-dev                      # bench/
    python3-jsonschema                    # schema test for shipped JSON files
    python3-onnx                          # the ONNX importer's test builds small models
  )
fi

[ "${1:-}" = "--slurm" ] && PKGS+=(slurmctld slurmd slurm-client munge parallel)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PKGS[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
