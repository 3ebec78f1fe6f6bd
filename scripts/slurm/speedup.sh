#!/usr/bin/env bash
# The speed-up of a sharded sweep on this machine's one-node Slurm: the same
# definition (the 174 Bandai clips, 4 codecs at 3 tolerances and an
# equal-error search) run as 1, 2 and 4 shards of one core each, wall time
# from submission to the merged output, against one process on 1 and on all
# cores.  Every merged output is checked against the one-process file.
# Writes results/cluster_speedup.md.  About 5 minutes on 2 cores.
# usage: scripts/slurm/speedup.sh [bin/animbench]
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
bin=$(cd "$(dirname "${1:-bin/animbench}")" && pwd)/$(basename "${1:-bin/animbench}")
data=${ANIMBENCH_DATA:-../shared/data}
[ -d "$data/bandai_namco_1" ] || { echo "speedup: needs $data/bandai_namco_1" >&2; exit 3; }
export ANIMBENCH_DATA=$(cd "$data" && pwd)
work=$(mktemp -d)
trap '"$root/scripts/slurm/local_cluster.sh" stop "$work/cluster" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
SLURM_CONF=$("$root/scripts/slurm/local_cluster.sh" start "$work/cluster")
export SLURM_CONF
clips=$(find "$ANIMBENCH_DATA/bandai_namco_1" -name '*.bvh' | sort |
  sed 's|.*/|"data:bandai_namco_1/|; s|$|"|' | paste -sd, -)
cd "$work"
cat >def.json <<DEF
{"name": "speedup", "output": "out/points.json",
 "runs": [{"clips": [$clips], "codecs": ["linear", "cubic", "cubic-q-sc", "every-nth"], "tol_mm": [0.5, 1, 2]},
          {"clips": [$clips], "codecs": ["cubic"], "targets": {"metric": "shell_max_mm", "mm": [1]}}]}
DEF
mkdir -p out
now() { date +%s.%N; }
stable() { grep -v '"date":\|"command_line":' "$1"; }
declare -A secs
for threads in 1 2; do
  rm -f out/points.json
  t0=$(now); ANIMBENCH_THREADS=$threads "$bin" sweep def.json 2>/dev/null; t1=$(now)
  secs[process-$threads]=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')
  echo "speedup: one process, $threads thread(s): ${secs[process-$threads]} s" >&2
done
cp out/points.json reference.json
points=$(grep -c '"key":' reference.json)
for shards in 1 2 4; do
  rm -rf out && mkdir out
  t0=$(now); "$root/scripts/slurm/submit.sh" def.json --shards "$shards" --cpus 1 --bin "$bin" --wait >/dev/null; t1=$(now)
  secs[shards-$shards]=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')
  cmp -s <(stable reference.json) <(stable out/points.json) || { echo "speedup: $shards shards: merged output differs from one process" >&2; exit 1; }
  echo "speedup: $shards shard(s): ${secs[shards-$shards]} s (merged output = one process)" >&2
done
cd "$root"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
base=${secs[shards-1]}
{
  echo "# Sharded sweep speed-up (scripts/slurm/speedup.sh)"
  echo
  echo "$points points (the $(find "$ANIMBENCH_DATA/bandai_namco_1" -name '*.bvh' | wc -l) Bandai clips; linear, cubic, cubic-q-sc, every-nth at 0.5, 1 and 2 mm; cubic at"
  echo "1 mm shell max by equal-error search) on a one-node Slurm on this machine: $(nproc) cores,"
  echo "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1). Wall time from submission to"
  echo "the merged file, one core per shard; every merged file equals the one-process file but for clocks."
  echo "One run each on a shared VM: the spread between runs is not measured here."
  echo
  echo "| run | wall time | speed-up vs 1 shard |"
  echo "|---|---:|---:|"
  echo "| one process, 1 thread | ${secs[process-1]} s | $(ratio "$base" "${secs[process-1]}") |"
  echo "| one process, 2 threads | ${secs[process-2]} s | $(ratio "$base" "${secs[process-2]}") |"
  for s in 1 2 4; do echo "| $s shard(s) on Slurm | ${secs[shards-$s]} s | $(ratio "$base" "${secs[shards-$s]}") |"; done
  echo
  echo "Clips: Bandai Namco Research Motion Dataset 1 (CC BY-NC 4.0), see README."
} >results/cluster_speedup.md.tmp
mv results/cluster_speedup.md.tmp results/cluster_speedup.md
scripts/record.sh "$bin" rows:linear,cubic,cubic-q-sc,every-nth results/cluster_speedup.md
cat results/cluster_speedup.md
