#!/usr/bin/env bash
# Flick on a real Slurm (issue 14): a one-node cluster on loopback runs a 3-shard array and its
# dependent merge, the result is compared with a single-machine render, one shard is made to fail
# with exit 3 (the merge must be cancelled) and resubmitting that index alone completes.
#
#   scripts/slurm/test.sh [FLICK_BINARY]        (default: .build/debug/flick)
#
# Installs slurmctld, slurmd, slurm-client and munge from Debian if missing (without starting
# their system services), starts munged, slurmctld and slurmd in the foreground with a config
# made from slurm.conf.in in a private folder with free ports, and stops every daemon by the PID
# it started on every exit path. Needs root (slurmd runs jobs as root here). Prints
# "slurm-test: daemons PID..." and ends with "slurm-test: PASS" on success.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
flick="${1:-${FLICK_BIN:-$root/.build/debug/flick}}"
flick="$(cd "$(dirname "$flick")" && pwd)/$(basename "$flick")"
start_time=$SECONDS
log() { echo "slurm-test: $* [$((SECONDS - start_time)) s]" >&2; }
fail() { log "FAIL: $*"; exit 1; }
[ -x "$flick" ] || { log "no flick binary at $flick (run swift build first)"; exit 3; }
[ "$(id -u)" -eq 0 ] || { log "needs root: slurmd must run as root to start jobs"; exit 3; }

# --- Install what is missing ------------------------------------------------------------------
"$here/install" || { log "could not install Slurm and munge"; exit 3; }

# --- A private cluster ------------------------------------------------------------------------
work="$(mktemp -d "${TMPDIR:-/tmp}/flick-slurm.XXXXXX")"
chmod 700 "$work"
pids=()
cleanup() {
  local status=$?
  trap - EXIT INT TERM HUP
  if [ -n "${SLURM_CONF:-}" ] && [ ${#pids[@]} -ge 2 ]; then
    # Cancel anything still queued or running before the daemons go.
    scancel --quiet --user="$(id -un)" 2>/dev/null || true
    for _ in $(seq 50); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
  fi
  local i pid
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill -TERM "${pids[$i]}" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [ $status -ne 0 ]; then
    for f in "$work"/*.log "$work"/job/*.log; do
      [ -f "$f" ] && { echo "--- $f" >&2; tail -n 15 "$f" >&2; }
    done
  fi
  rm -rf "$work"
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

port_in_use() {
  local hex
  hex=$(printf '%04X' "$1")
  awk 'NR > 1 { split($2, a, ":"); print a[2] }' /proc/net/tcp /proc/net/tcp6 2>/dev/null | grep -qx "$hex"
}
free_port() {
  local p
  for _ in $(seq 200); do
    p=$((20000 + RANDOM % 40000))
    [ "$p" != "${1:-}" ] && ! port_in_use "$p" && { echo "$p"; return 0; }
  done
  return 1
}

dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge.key"
munged --foreground --force --socket="$work/munge.sock" --key-file="$work/munge.key" \
  --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munged.seed" \
  >"$work/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S "$work/munge.sock" ] && break; sleep 0.1; done
[ -S "$work/munge.sock" ] || fail "munged did not start"

export SLURM_CONF="$work/slurm.conf"
host="$(hostname -s)"
cpus="$(nproc)"
started=0
for attempt in 1 2 3; do
  ctld_port=$(free_port) && slurmd_port=$(free_port "$ctld_port") || fail "no free ports"
  mkdir -p "$work/state" "$work/spool"
  sed -e "s|@WORK@|$work|g" -e "s|@HOST@|$host|g" -e "s|@CTLD_PORT@|$ctld_port|g" \
    -e "s|@SLURMD_PORT@|$slurmd_port|g" -e "s|@USER@|$(id -un)|g" -e "s|@CPUS@|$cpus|g" \
    "$here/slurm.conf.in" >"$SLURM_CONF"
  slurmctld -D -i -f "$SLURM_CONF" >"$work/slurmctld.out" 2>&1 &
  ctld=$!
  slurmd -D -N flick-node -f "$SLURM_CONF" >"$work/slurmd.out" 2>&1 &
  sd=$!
  pids+=("$ctld" "$sd")
  for _ in $(seq 150); do
    state="$(sinfo -h -n flick-node -o %T 2>/dev/null || true)"
    [ "$state" = "idle" ] && { started=1; break; }
    kill -0 "$ctld" 2>/dev/null && kill -0 "$sd" 2>/dev/null || break
    sleep 0.2
  done
  [ $started -eq 1 ] && break
  log "attempt $attempt: the cluster did not come up (ports $ctld_port, $slurmd_port); retrying"
  kill -TERM "$sd" "$ctld" 2>/dev/null || true
  wait "$sd" "$ctld" 2>/dev/null || true
  pids=("${pids[0]}")
  rm -rf "$work/state" "$work/spool"
done
[ $started -eq 1 ] || fail "slurmctld/slurmd did not start"
log "daemons ${pids[*]} (munged, slurmctld on port $ctld_port, slurmd on port $slurmd_port)"

# --- The plan ---------------------------------------------------------------------------------
job="$work/job"
mkdir -p "$job"
cp "$root/Tests/FlickBatchTests/Fixtures/slide.json5" "$job/"
cat >"$job/batch.json5" <<'JSON'
{
  flick: 1,
  output: "out",
  renders: [
    { template: "slide.json5", variants: [{ accent: "#8B5CF6", distance: 80 }], formats: ["mp4", "gif", "png"], chunk: 15 },
  ],
}
JSON
"$flick" plan "$job/batch.json5" -o "$job/plan.json" 2>/dev/null
jobs=$(grep -c '"kind" : "chunk"' "$job/plan.json")
[ "$jobs" -eq 3 ] || fail "expected 3 chunk jobs, the plan has $jobs"

# Shard index 1 (shard 2 of 3) runs one chunk job (`flick run --list` names it; the jobs are the
# 3 chunks, numbered as the chunks are): a file where its frames folder goes makes it fail with exit 3.
chunk=$("$flick" run "$job/plan.json" --shard 2/3 --list | cut -f1)
[ "$(printf '%s\n' "$chunk" | wc -l)" -eq 1 ] || fail "shard 2/3 should run one job, it runs: $chunk"
blocker="$job/out/$(grep -o "\.flick/chunks/[^\"]*/$chunk\.frames" "$job/plan.json" | head -n 1)"
mkdir -p "$(dirname "$blocker")"
: >"$blocker"

# The state of a job (or of each task of an array job), one per line: "TASK STATE EXIT".
states() {
  scontrol -o show job "$1" 2>/dev/null | sed -E 's/.*ArrayTaskId=([^ ]+).*JobState=([^ ]+).*ExitCode=([^ ]+).*/\1 \2 \3/;
    t; s/.*JobState=([^ ]+).*ExitCode=([^ ]+).*/- \1 \2/'
}
finished() { ! states "$1" | grep -qE ' (PENDING|RUNNING|COMPLETING|CONFIGURING|SUSPENDED) '; }
await() {
  for _ in $(seq 300); do
    finished "$1" && [ -n "$(states "$1")" ] && return 0
    sleep 0.2
  done
  fail "job $1 did not finish: $(states "$1" | tr '\n' ';')"
}

read -r array merge < <(FLICK="$flick" "$here/submit.sh" "$job/plan.json" 3)
log "submitted array $array and merge $merge"
await "$array"
await "$merge"
log "array: $(states "$array" | tr '\n' ';') merge: $(states "$merge" | tr '\n' ';')"
states "$array" | grep -q '^1 FAILED 3:0$' || fail "shard index 1 should fail with exit 3"
[ "$(states "$array" | grep -c ' COMPLETED 0:0$')" -eq 2 ] || fail "shards 0 and 2 should complete"
states "$merge" | grep -q ' CANCELLED ' || fail "the merge should be cancelled after a failed shard"
[ ! -e "$job/out/slide/1/128x72.mp4" ] || fail "a cancelled merge wrote an output"

rm -f "$blocker"
read -r array2 merge2 < <(FLICK="$flick" "$here/submit.sh" "$job/plan.json" 3 --indices 1)
log "resubmitted index 1 as $array2, merge $merge2"
await "$array2"
await "$merge2"
states "$array2" | grep -q '^1 COMPLETED 0:0$' || fail "the resubmitted shard did not complete: $(states "$array2")"
states "$merge2" | grep -q ' COMPLETED 0:0$' || fail "the merge did not complete: $(states "$merge2")"
grep -q '"rendered" : 1' "$job/out/.flick/reports/shard-2-of-3.json" || fail "the resubmitted shard should render exactly its one job"

# --- Against a single-machine render ---------------------------------------------------------
single="$work/single"
mkdir -p "$single"
# A batch GIF is encoded as a plain render encodes its own (identical frames merged, docs/video.md).
(cd "$job" && "$flick" render slide.json5 --set accent=#8B5CF6 --set distance=80 \
  -o "$single/clip.gif" -o "$single/clip.mp4" -o "$single/frames/" -q >/dev/null)
cmp -s "$single/clip.gif" "$job/out/slide/1/128x72.gif" || fail "the merged GIF differs from a single render"
# Frames only: a single render also leaves its .flick-sequence marker (which frames it wrote).
(cd "$single/frames" && ls *.png) > "$work/single.list"
(cd "$job/out/slide/1/128x72" && ls *.png) > "$work/merged.list"
cmp -s "$work/single.list" "$work/merged.list" || fail "the merged PNG sequence has other frames than a single render"
while read -r f; do
  cmp -s "$single/frames/$f" "$job/out/slide/1/128x72/$f" || fail "frame $f of the merged PNG sequence differs from a single render"
done < "$work/single.list"
count() { ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames,duration -of csv=p=0 "$1"; }
[ "$(count "$single/clip.mp4")" = "$(count "$job/out/slide/1/128x72.mp4")" ] ||
  fail "MP4 frames/duration differ: $(count "$single/clip.mp4") vs $(count "$job/out/slide/1/128x72.mp4")"
log "PASS: 3-shard array + merge match a single render; a failed shard cancelled the merge; index 1 alone completed"
