#!/usr/bin/env bash
# Slurm job array: 4 array tasks (SLURM_ARRAY_TASK_ID 0…3, SLURM_ARRAY_TASK_COUNT 4), then the
# merge once they all succeed, with scripts/slurm/ (flick-run.sbatch runs
# `flick run "$FLICK_PLAN" --shard auto --shard-count "$FLICK_SHARDS"`). Run from the repository
# on a shared file system; FLICK names the binary.
set -euo pipefail
cd "$(dirname "$0")/../../.."
"${FLICK:-flick}" plan Examples/batch/batch.json5 -o Examples/batch/plan.json --shards 4
FLICK=${FLICK:-flick} scripts/slurm/submit.sh "$PWD/Examples/batch/plan.json" 4
