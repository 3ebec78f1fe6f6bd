#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for tests: munged, slurmctld and
# slurmd, each a plain process under DIR (no systemd, no cgroups: processes
# are tracked by /proc, tasks are not confined).  Prints the SLURM_CONF to
# export.  Needs slurm-wlm and munge (scripts/deps.sh installs them).
# usage: scripts/slurm/local_cluster.sh start DIR | stop DIR
set -euo pipefail
if [[ $# -ne 2 || ( $1 != start && $1 != stop ) ]]; then
  echo "usage: scripts/slurm/local_cluster.sh start DIR | stop DIR" >&2
  exit 2
fi
cmd=$1
dir=$(mkdir -p "$2" && cd "$2" && pwd)
stop() {
  for d in slurmd slurmctld munged; do
    if [[ -f $dir/$d.pid ]]; then
      kill "$(cat "$dir/$d.pid")" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$(cat "$dir/$d.pid")" 2>/dev/null || break; sleep 0.1; done
      rm -f "$dir/$d.pid"
    fi
  done
}
if [[ $cmd == stop ]]; then stop; exit 0; fi
[[ $cmd == start ]] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
for tool in munged slurmctld slurmd sbatch; do
  command -v "$tool" >/dev/null || [[ -x /usr/sbin/$tool ]] || { echo "local_cluster: $tool is not installed (apt-get install slurm-wlm munge)" >&2; exit 3; }
done
export PATH=$PATH:/usr/sbin
stop
mkdir -p "$dir/spool" "$dir/state" "$dir/munge"
chmod 700 "$dir/munge"
[[ -f $dir/munge/munge.key ]] || { head -c 1024 /dev/urandom >"$dir/munge/munge.key"; chmod 400 "$dir/munge/munge.key"; }
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed"
host=$(hostname -s)
# free ports for this cluster, so a test never meets another's daemons
port=$(( 20000 + (RANDOM % 20000) ))
user=$(id -un)
read -r cpus mem < <(slurmd -C | awk '{for (i = 1; i <= NF; i++) {split($i, kv, "="); v[kv[1]] = kv[2]}} END {print v["CPUs"], v["RealMemory"]}')
cat >"$dir/slurm.conf" <<CONF
ClusterName=animbench-test
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SlurmctldTimeout=30
SlurmdTimeout=30
MaxArraySize=4097
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 100); do
  if sinfo -h -o %t 2>/dev/null | grep -q '^idle'; then echo "$SLURM_CONF"; exit 0; fi
  sleep 0.2
done
echo "local_cluster: the node did not come up; logs in $dir" >&2
tail -5 "$dir"/*.log >&2 || true
stop
exit 1
