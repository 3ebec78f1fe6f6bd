#!/usr/bin/env bash
# A sharded sweep on a real Slurm: starts a one-node cluster on this machine
# (scripts/slurm/local_cluster.sh), submits a 4-shard sweep over a dozen
# Bandai clips (random clips without the data) with scripts/slurm/submit.sh,
# waits for the merge job, and checks:
#   1. the merged output equals the one-process sweep, byte for byte, but for
#      the clocks ("date") and the command lines;
#   2. a lost shard (its file removed, as if its task had been cancelled) is
#      measured again by submitting the same command, and nothing else is;
#   3. merge refuses an incomplete set of shards.
# Without Slurm it is skipped, unless ANIMBENCH_NEED_SLURM=1 (make check).
# Prints "slurm: N passed, M failed".
# usage: tests/slurm.sh [bin/animbench]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cd "$(dirname "${1:-bin/animbench}")" && pwd)/$(basename "${1:-bin/animbench}")
report() {
  echo "slurm: $1 passed, $2 failed"
  [ -z "${CHECK_SUMMARY:-}" ] || echo "slurm: $1 passed, $2 failed" >>"$CHECK_SUMMARY"
}
if ! command -v sbatch >/dev/null || ! [ -x /usr/sbin/slurmctld ] || ! [ -x /usr/sbin/munged ]; then
  if [ "${ANIMBENCH_NEED_SLURM:-0}" = 1 ]; then echo "slurm: Slurm is not installed"; report 0 1; exit 1; fi
  echo "slurm: skipped (no slurm-wlm and munge; scripts/deps.sh installs them for make check)"
  exit 0
fi
work=$(mktemp -d)
cluster=$work/cluster
local_cluster=$(pwd)/scripts/slurm/local_cluster.sh # the test changes folder: the trap must not depend on it
cleanup() { [ -n "${KEEP:-}" ] && return; "$local_cluster" stop "$cluster" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
SLURM_CONF=$("$local_cluster" start "$cluster") || { echo "slurm: the local cluster did not start"; report 0 1; exit 1; }
export SLURM_CONF

data=${ANIMBENCH_DATA:-../shared/data}
if [ -d "$data" ]; then data=$(cd "$data" && pwd); fi
export ANIMBENCH_DATA=$data # the tasks run elsewhere: an absolute path
clips=()
if [ -d "$data/bandai_namco_1" ]; then
  while IFS= read -r f; do clips+=("\"data:bandai_namco_1/$(basename "$f")\""); done \
    < <(find "$data/bandai_namco_1" -name '*.bvh' | sort | awk 'NR % 14 == 1' | head -12)
  what="12 Bandai clips"
else
  for seed in $(seq 12); do clips+=("\"random:bones=22,frames=300,rate=30,seed=$seed\""); done
  what="12 random clips (no $data/bandai_namco_1)"
fi
list=$(IFS=,; echo "${clips[*]}")
mkdir -p "$work/run"
cat >"$work/run/def.json" <<DEF
{"name": "slurm-test", "output": "out/points.json",
 "runs": [{"clips": [$list], "codecs": ["raw", "linear", "cubic", "every-nth"], "tol_mm": [1]},
          {"clips": [$list], "codecs": ["cubic-q-sc"], "targets": {"metric": "shell_max_mm", "mm": [1]}}]}
DEF
mkdir -p "$work/run/out"
passed=0 failed=0
check() { # name, then a command that succeeds when the check passes
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "  ok: $name"; else failed=$((failed + 1)); echo "  FAILED: $name"; fi
}
stable() { grep -v '"date":\|"command_line":' "$1"; }
cd "$work/run"
echo "slurm: 4 shards of $what on a one-node Slurm ($(sinfo -h -o '%c CPUs'))"
start=$(date +%s.%N)
"$OLDPWD/scripts/slurm/submit.sh" def.json --shards 4 --bin "$bin" --wait >submit.log 2>&1 ||
  { cat submit.log; for f in out/points.json.slurm/*.log; do tail -n 3 "$f"; done; }
echo "slurm: shards and merge took $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}') s"
check "the merge job wrote the output" test -s out/points.json
cp out/points.json merged.json
rm out/points.json
"$bin" sweep def.json >single.log 2>&1
check "merged output = one-process output, byte for byte but for clocks" cmp -s <(stable merged.json) <(stable out/points.json)
check "the shards hold every point once" test "$(grep -c '"key":' merged.json)" = "$(cat out/points.shard-*-of-4.json | grep -c '"key":')"

# a lost shard: the same command measures it again, and only it
rm out/points.shard-2-of-4.json
rm out/points.json
"$OLDPWD/scripts/slurm/submit.sh" def.json --shards 4 --bin "$bin" --wait >resubmit.log 2>&1 || true
check "a resubmission rebuilds the lost shard and merges" cmp -s <(stable merged.json) <(stable out/points.json)
check "the other shards measured nothing again" bash -c \
  'for i in 1 3 4; do grep -q "(0 measured now" out/points.json.slurm/shard-$i-of-4.log || exit 1; done'
check "shard 2 measured its points again" grep -q "measured now, 0 stored" out/points.json.slurm/shard-2-of-4.log
if "$bin" merge out/points.shard-1-of-4.json out/points.shard-3-of-4.json out/points.shard-4-of-4.json --out x.json 2>merge.err; then
  check "merge refuses a missing shard" false
else
  check "merge refuses a missing shard" grep -q "shard 2 of 4 is missing" merge.err
fi
cd - >/dev/null
report "$passed" "$failed"
[ "$failed" -eq 0 ]
