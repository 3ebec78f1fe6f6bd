#!/usr/bin/env bash
# Makes sure the build dependencies are installed: Debian's packages for
# cJSON, zlib, cmocka, gnuplot and assimp with its test models (and, for make check, clang and Slurm).  As root it installs what is missing with
# apt-get; otherwise it prints the exact command and fails.
set -euo pipefail

need=()
have_header() { printf '#include <%s>\n' "$1" | ${CC:-cc} -E -x c - >/dev/null 2>&1; }
have_header cjson/cJSON.h || need+=(libcjson-dev)
have_header zlib.h || need+=(zlib1g-dev)
have_header cmocka.h || need+=(libcmocka-dev)
command -v gnuplot >/dev/null 2>&1 || need+=(gnuplot-nox)
# FBX, glTF 2.0, COLLADA and the other scene formats (generators/scene_import.c), and the files
# written by assimp's users that the tests and make assimp-models read
have_header assimp/cimport.h || need+=(libassimp-dev)
[ -d /usr/share/assimp/models ] || need+=(assimp-testmodels)
command -v ${CC:-cc} >/dev/null 2>&1 || need+=(build-essential)
# ACL's and ozz's rows (codecs/acl/acl_shim.cpp, codecs/ozz/ozz_shim.cpp) need a C++ compiler when
# their sources are present.
if [ -f "${ACL_DIR:-../shared/third_party/acl}/includes/acl/compression/compress.h" ] ||
   [ -f "${OZZ_DIR:-../shared/third_party/ozz}/include/ozz/animation/runtime/animation.h" ]; then
  command -v g++ >/dev/null 2>&1 || need+=(g++)
fi
if [ "${ANIMBENCH_NEED_CLANG:-0}" = 1 ]; then   # the determinism check and the fuzzer
  command -v clang >/dev/null 2>&1 || need+=(clang)
  printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){return 0;}\n' |
    clang -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1 || need+=(libclang-rt-dev)
fi

if [ "${ANIMBENCH_NEED_SLURM:-0}" = 1 ]; then   # tests/slurm.sh: a one-node cluster
  { command -v sbatch >/dev/null 2>&1 && [ -x /usr/sbin/slurmctld ] && [ -x /usr/sbin/slurmd ]; } || need+=(slurm-wlm)
  [ -x /usr/sbin/munged ] || need+=(munge)
fi

[ ${#need[@]} -eq 0 ] && exit 0

cmd="apt-get update && apt-get install -y --no-install-recommends ${need[*]}"
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "deps: installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
else
  echo "deps: missing ${need[*]}; install them with:" >&2
  echo "  sudo sh -c '$cmd'" >&2
  exit 1
fi
