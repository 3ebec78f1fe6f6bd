#!/usr/bin/env bash
# Runs a sweep definition on a Slurm cluster: a job array of N shards
# (`animbench sweep DEF --shard I/N`, one task each) and a merge job that
# starts when every shard has succeeded (`animbench merge ... --out OUTPUT`).
# The merged OUTPUT equals what `animbench sweep DEF` writes in one process,
# clocks and provenance aside (docs/cluster.md).
#
# Resumable: run the same command again after a failed or cancelled task.
# Shards that finished find every point stored and exit in seconds; the
# others resume from their file and journal.  Tasks are also requeued by
# Slurm when their node fails (--requeue).
#
# usage: scripts/slurm/submit.sh DEF.json [--shards N] [--partition P] [--time T]
#          [--cpus C] [--mem M] [--bin PATH] [--wait]
#   --shards N      parts of the sweep, one array task each (default 4)
#   --partition P   Slurm partition (default: the cluster's default)
#   --time T        time limit per task, Slurm's format (default 4:00:00)
#   --cpus C        cores per task; the task measures on that many threads (default 1)
#   --mem M         memory per task, Slurm's format (default: the partition's)
#   --bin PATH      the animbench binary every node runs (default bin/animbench; it must be
#                   on a file system the nodes share, as must DEF, the data and the output)
#   --wait          return when the merge job has ended: 0 when it completed
# Prints the two job ids.  Logs: OUTPUT.slurm/.
set -euo pipefail
def="" shards=4 partition="" time_limit=4:00:00 cpus=1 mem="" bin=bin/animbench wait=""
usage="usage: submit.sh DEF.json [--shards N] [--partition P] [--time T] [--cpus C] [--mem M] [--bin PATH] [--wait]"
value() { # option, and the argument count left: an option's value must be there and not empty
  [[ $2 -ge 2 && -n ${3:-} ]] || { echo "submit.sh: $1 needs a value" >&2; exit 2; }
}
while [[ $# -gt 0 ]]; do
  case $1 in
    --shards) value "$1" $# "${2:-}"; shards=$2; shift 2 ;;
    --partition) value "$1" $# "${2:-}"; partition=$2; shift 2 ;;
    --time) value "$1" $# "${2:-}"; time_limit=$2; shift 2 ;;
    --cpus) value "$1" $# "${2:-}"; cpus=$2; shift 2 ;;
    --mem) value "$1" $# "${2:-}"; mem=$2; shift 2 ;;
    --bin) value "$1" $# "${2:-}"; bin=$2; shift 2 ;;
    --wait) wait=--wait; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "submit.sh: unknown option '$1'" >&2; echo "$usage" >&2; exit 2 ;;
    *) [[ -z $def ]] || { echo "submit.sh: one definition only ('$def', then '$1')" >&2; exit 2; }
       def=$1; shift ;;
  esac
done
[[ -n $def ]] || { echo "$usage" >&2; exit 2; }
# decimal digits without a leading zero: bash would read 010 as octal
[[ $shards =~ ^[1-9][0-9]*$ && ${#shards} -le 4 && $shards -le 4096 ]] || { echo "submit.sh: --shards: 1 to 4096, found '$shards'" >&2; exit 2; }
[[ $cpus =~ ^[1-9][0-9]*$ && ${#cpus} -le 4 ]] || { echo "submit.sh: --cpus: a positive integer, found '$cpus'" >&2; exit 2; }
[[ -f $bin && -x $bin ]] || { echo "submit.sh: --bin $bin is not an executable file (make, or --bin PATH)" >&2; exit 2; }
command -v sbatch >/dev/null || { echo "submit.sh: sbatch not found: run this on a Slurm login node" >&2; exit 3; }
abs() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }
bin=$(abs "$bin")
workdir=$(pwd)
# The paths come from animbench itself, which also checks the definition.
output=$("$bin" sweep "$def" --output-path)
shard_files=()
for ((i = 1; i <= shards; i++)); do shard_files+=("$("$bin" sweep "$def" --shard "$i/$shards" --output-path)"); done
logs="$output.slurm"
mkdir -p "$logs"
common=(--chdir "$workdir" --time "$time_limit")
[[ -n $partition ]] && common+=(--partition "$partition")
[[ -n $mem ]] && common+=(--mem "$mem")
q() { printf '%q ' "$@"; }
array=$(sbatch --parsable "${common[@]}" --job-name "animbench-shards" --array "1-$shards" \
  --cpus-per-task "$cpus" --requeue --output "$logs/shard-%a-of-$shards.log" \
  --export "ALL,ANIMBENCH_THREADS=$cpus" \
  --wrap "$(q "$bin" sweep "$def") --shard \${SLURM_ARRAY_TASK_ID}/$shards")
array=${array%%;*}
echo "shards: job $array (array 1-$shards), logs in $logs/"
merge=$(sbatch --parsable "${common[@]}" --job-name "animbench-merge" --cpus-per-task 1 \
  --dependency "afterok:$array" --kill-on-invalid-dep=yes --output "$logs/merge.log" \
  --wrap "$(q "$bin" merge "${shard_files[@]}" --out "$output")")
merge=${merge%%;*}
echo "merge: job $merge -> $output (after every shard succeeds)"
[[ -z $wait ]] && exit 0
# sbatch --wait polls at growing intervals (tens of seconds): ask every second instead
unknown=0
while :; do
  state=$(scontrol show job "$merge" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' || true)
  case $state in
    COMPLETED) exit 0 ;;
    "") unknown=$((unknown + 1))  # the controller busy, or the job already purged
        [[ $unknown -lt 60 ]] || { echo "merge: job $merge: no state from scontrol for a minute (logs in $logs/)" >&2; exit 1; }
        sleep 1 ;;
    PENDING | RUNNING | CONFIGURING | COMPLETING | REQUEUED | RESIZING | SUSPENDED) unknown=0; sleep 1 ;;
    *) echo "merge: job $merge ended $state (logs in $logs/)" >&2; exit 1 ;;
  esac
done
