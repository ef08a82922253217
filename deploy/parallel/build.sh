#!/bin/bash
# One bankgen job in N shards with GNU parallel, on this machine or on many
# (over ssh), then the merge. Rerun the same command after a failure or an
# interruption: --resume-failed (--resume, and the failed shards again)
# skips the shards the joblog records as done, and a shard run again
# counts the families it already holds toward its share.
#
#   deploy/parallel/build.sh                     # 16 shards here, one per core
#   SHARDS=64 JOBS=1 HOSTS=a,b,c deploy/parallel/build.sh
#
# Environment: SHARDS (16), SEED (20261127), COUNT (the whole job's
# families, 1000000), VARIANTS (0), BANKS (./banks: on many hosts, a
# directory every host mounts at the same path), JOBS (parallel's -j: shards
# at a time per host, 1 when each takes all cores), WORKERS (bankgen -workers,
# default all cores), HOSTS (comma-separated ssh logins; this machine when
# empty), BANKGEN and BANKQUERY (the programs).
set -euo pipefail
SHARDS=${SHARDS:-16}
SEED=${SEED:-20261127}
COUNT=${COUNT:-1000000}
VARIANTS=${VARIANTS:-0}
BANKS=${BANKS:-$PWD/banks}
JOBS=${JOBS:-1}
BANKGEN=${BANKGEN:-bankgen}
BANKQUERY=${BANKQUERY:-bankquery}
mkdir -p "$BANKS"
hosts=()
if [ -n "${HOSTS:-}" ]; then
	hosts=(--sshlogin "$HOSTS" --workdir "$PWD")
fi
workers=()
if [ -n "${WORKERS:-}" ]; then
	workers=(-workers "$WORKERS")
fi
# parallel's {} is the shard's index.
parallel --joblog "$BANKS/joblog" --resume-failed --halt soon,fail=1 -j "$JOBS" "${hosts[@]}" \
	"$BANKGEN" -shard "{}/$SHARDS" -seed "$SEED" -count "$COUNT" -variants "$VARIANTS" "${workers[@]}" \
	-quiet -db "$BANKS/shard-{}.db" ::: $(seq 0 $((SHARDS - 1)))
shards=()
for i in $(seq 0 $((SHARDS - 1))); do
	shards+=("$BANKS/shard-$i.db")
done
"$BANKGEN" merge -db "$BANKS/bank.db" "${shards[@]}"
"$BANKQUERY" check -db "$BANKS/bank.db"
