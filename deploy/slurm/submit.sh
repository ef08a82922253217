#!/bin/bash
# Submit the shard array, then the merge to run once every task of it has
# succeeded.
set -euo pipefail
here=$(dirname "$0")
export BANKS=${BANKS:-$PWD/banks}
array=$(sbatch --parsable --export=ALL "$here/shards.sbatch")
sbatch --dependency=afterok:"$array" --export=ALL "$here/merge.sbatch"
