#!/usr/bin/env bash
# Submits a Flick plan to Slurm: an array of SHARDS shard tasks and a merge that runs when all of
# them succeeded (and is cancelled if one fails). Prints "ARRAY_JOB_ID MERGE_JOB_ID".
#
#   scripts/slurm/submit.sh plan.json 3                # every shard, then the merge
#   scripts/slurm/submit.sh plan.json 3 --indices 1    # resubmit shard index 1 (0-based) alone
#
# Environment: FLICK (the flick binary, default: flick on PATH), SBATCH_ARGS (extra sbatch
# options for both jobs, such as "--partition=render --time=1:00:00").
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
usage() { echo "usage: $0 PLAN SHARDS [--indices LIST]" >&2; exit 2; }
[ $# -ge 2 ] || usage
plan="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shards="$2"
shift 2
indices="0-$((shards - 1))"
while [ $# -gt 0 ]; do
  case "$1" in
    --indices) [ $# -ge 2 ] || usage; indices="$2"; shift 2 ;;
    *) usage ;;
  esac
done
[ -f "$plan" ] || { echo "submit.sh: no plan file $plan" >&2; exit 2; }
flick="${FLICK:-$(command -v flick || true)}"
[ -n "$flick" ] || { echo "submit.sh: set FLICK to the flick binary" >&2; exit 2; }
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_ARGS:-} --array="$indices" --chdir="$(dirname "$plan")" \
  --export=ALL,FLICK="$flick",FLICK_PLAN="$plan",FLICK_SHARDS="$shards" "$here/flick-run.sbatch")
array="${array%%;*}"
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --dependency=afterok:"$array" --kill-on-invalid-dep=yes \
  --chdir="$(dirname "$plan")" --export=ALL,FLICK="$flick",FLICK_PLAN="$plan" "$here/flick-merge.sbatch")
echo "${array} ${merge%%;*}"
