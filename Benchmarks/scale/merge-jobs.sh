#!/usr/bin/env bash
# `flick merge` one clip at a time against clips side by side (docs/scale-out.md, "Chunks and
# `flick merge`"): Examples/batch's 48 clips (3 templates × 8 variants × 2 sizes, MP4 + GIF), each
# rendered in chunks of CHUNK frames, then merged with `--jobs 1` and with `--jobs JOBS`, round
# by round (`--force`, so every clip is merged each time). Per run: wall time and CPU (user + sys
# of flick and its ffmpeg and gifsicle children, GNU time); then the medians, their ratios, and
# whether the two wrote the same bytes (every merged output).
#   Benchmarks/scale/merge-jobs.sh   (make bench-merge-jobs)
# Environment: FLICK (default: a release build, made first), REPEAT (rounds, default 3), CHUNK
# (frames per chunk, default 20), JOBS (the side-by-side count, default: the number of cores).
set -euo pipefail
cd "$(dirname "$0")/../.."
REPEAT=${REPEAT:-3}
CHUNK=${CHUNK:-20}
JOBS=${JOBS:-$(nproc)}
if [ -z "${FLICK:-}" ]; then
  scripts/swift-release --product flick >/dev/null
  FLICK=$PWD/.build/release/flick
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/flick-bench-merge-jobs.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cp -R Examples/batch "$WORK/batch"
rm -rf "$WORK/batch/out" "$WORK/batch/plan.json"
# Every render of the example in chunks.
sed -i "s/formats: \[\"mp4\", \"gif\"\],/formats: [\"mp4\", \"gif\"], chunk: $CHUNK,/" "$WORK/batch/batch.json5"
cd "$WORK/batch"
"$FLICK" plan batch.json5 -o plan.json # says how many clips it planned
"$FLICK" run plan.json -q

# One merge: "wall cpu".
measure() {
  /usr/bin/time -f "%e %U %S" -o "$WORK/time" "$FLICK" merge plan.json --force -q --jobs "$1"
  awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$WORK/time"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# The merged outputs' bytes (the chunks and stamps under out/.flick are not outputs).
digest() { find out -path out/.flick -prune -o -type f ! -name '.*' -print0 | sort -z | xargs -0 sha256sum | sha256sum; }

echo "flick merge --jobs 1 against --jobs $JOBS — $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $REPEAT rounds"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
one_wall=() one_cpu=() wide_wall=() wide_cpu=()
for round in $(seq "$REPEAT"); do
  read -r w c < <(measure 1)
  one_wall+=("$w") one_cpu+=("$c")
  one_digest=$(digest)
  read -r w c < <(measure "$JOBS")
  wide_wall+=("$w") wide_cpu+=("$c")
  wide_digest=$(digest)
  echo "round $round: --jobs 1 ${one_wall[-1]} s wall, ${one_cpu[-1]} s CPU; --jobs $JOBS $w s wall, $c s CPU"
done
ow=$(printf '%s\n' "${one_wall[@]}" | median) oc=$(printf '%s\n' "${one_cpu[@]}" | median)
ww=$(printf '%s\n' "${wide_wall[@]}" | median) wc=$(printf '%s\n' "${wide_cpu[@]}" | median)
echo
echo "| merge | wall (median) | CPU (median) |"
echo "|---|---|---|"
echo "| --jobs 1 | $ow s | $oc s |"
echo "| --jobs $JOBS | $ww s | $wc s |"
echo "| ratio (--jobs 1 / --jobs $JOBS) | $(echo "scale=2; $ow / $ww" | bc) | $(echo "scale=2; $oc / $wc" | bc) |"
echo "same bytes: $([ "$one_digest" = "$wide_digest" ] && echo yes || echo NO)"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
