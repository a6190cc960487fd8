#!/bin/bash
# A cil-lab sweep as a Slurm job array (docs/sweeps.md). Each array task trains one shard: its index is
# SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN and the number of shards is SLURM_ARRAY_TASK_COUNT, so the array range
# alone decides the split (use a contiguous range such as 0-7, or 0-7%2 to run two at a time; no step like 0-7:2).
#
# From the project folder (npm ci and npm run prepare-data done once, on a shared file system):
#   jid=$(sbatch --parsable deploy/batch/slurm-sweep.sh)
#   sbatch --dependency=afterok:$jid --wrap "node bin/cil-lab.mjs sweep merge sweep-out/shard-*.jsonl --out sweep-out/results.json"
# A task that hit its time limit or was pre-empted resumes where it stopped when it runs again: resubmit the whole
# array (finished shards train nothing), or only that index with the total given, since a one-task array has
# SLURM_ARRAY_TASK_COUNT = 1:   CIL_SHARDS=8 sbatch --array=5 deploy/batch/slurm-sweep.sh
# (keep the range 0-based, 0-N, so that the index is the task id in both cases).
#
# With the container image instead of a checkout (Apptainer/Singularity, common on clusters):
#   apptainer build cil-lab.sif docker://REGISTRY/cil-lab:TAG
#   CIL_LAB="apptainer run cil-lab.sif" sbatch deploy/batch/slurm-sweep.sh
#SBATCH --job-name=cil-lab-sweep
#SBATCH --array=0-7
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=04:00:00
#SBATCH --output=cil-lab-sweep-%A_%a.out
set -euo pipefail

CIL_LAB=${CIL_LAB:-"node bin/cil-lab.mjs"}
OUT=${OUT:-sweep-out}
# the experiment: the flags of `cil-lab run` (or --config F / --link URL), the same in every task
EXPERIMENT=${EXPERIMENT:-"--dataset fashion-mnist --classes 0-5 --tasks 3 --strategy finetune --orderings all --backend wasm"}
mkdir -p "$OUT"

# a re-submitted single index: the total from CIL_SHARDS, the index from the task id
if [ -n "${CIL_SHARDS:-}" ]; then
  unset SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_COUNT
  SHARDS="--shards $CIL_SHARDS"
else
  SHARDS=""
fi

# ($CIL_LAB, $EXPERIMENT and $SHARDS are split into words on purpose)
$CIL_LAB sweep $EXPERIMENT $SHARDS --out "$OUT/shard-${SLURM_ARRAY_TASK_ID}.jsonl"
