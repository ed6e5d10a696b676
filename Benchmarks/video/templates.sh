#!/usr/bin/env bash
# Short clips, where previews live: every bundled template at its own size to MP4, GIFs and an APNG, each
# beside its two halves, side by side (part of `make bench-video`, see docs/benchmarks.md).
#   (a) flick render → OUT     (b) flick render --null     (c) ffmpeg alone on the same frames
#   from a raw BGRA file in RAM, with exactly flick's arguments (for a GIF, ffmpeg's two passes,
#   palettegen then paletteuse, although flick computes the palette itself; for an MP4, ffmpeg's
#   own BGRA → yuv420p conversion, although flick now sends it yuv420p planes it converted).
# L = max(b, c, (CPU b + CPU c) / cores). For an MP4 also (y): ffmpeg alone on the yuv420p planes
# flick sends (made by ffmpeg's scale filter, the same bytes), and Ly = max(b, y, (CPU b + CPU y) / cores),
# the limit for the work as flick now divides it (b does not include flick's conversion), and (p): b and y
# started together as two independent processes (no pipe between them), which shows what two halves
# sharing the cores cost before any pipeline (Ly assumes they would not slow each other down). With BASELINE=path/to/older/flick, (a) is also run with
# that binary, interleaved, and the CPU ratio baseline/new is reported (CPU does not depend on load).
# It ends with `flick still` of every bundled template (wall and CPU; beside BASELINE when given).
# Environment: REPEAT (default 3), RAW_DIR (default /dev/shm), FLICK (default .build/release/flick),
# ONLY (template names, e.g. "card-swap decay-flick": only their MP4 cases, no GIF, APNG or still).
set -euo pipefail
cd "$(dirname "$0")/../.."

REPEAT=${REPEAT:-3}
CORES=$(nproc)
RAW_DIR=${RAW_DIR:-/dev/shm}
FLICK=${FLICK:-.build/release/flick}
BASELINE=${BASELINE:-}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/flick-bench-templates.XXXXXX")
RAW="$RAW_DIR/flick-bench-templates-$$.bgra"
YUV="$RAW_DIR/flick-bench-templates-$$.yuv"
trap 'rm -rf "$WORK" "$RAW" "$YUV"' EXIT

measure() {
  local name=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" "$@" >/dev/null 2>"$WORK/stderr" || { cat "$WORK/stderr" >&2; exit 1; }
  awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$WORK/time" >>"$WORK/$name"
}
median() { sort -n -k"$2" "$1" | awk -v k="$2" '{ v[NR] = $k } END { print v[int((NR + 1) / 2)] }'; }

# case NAME TEMPLATE EXT [flick options...]
run_case() {
  local name=$1 template=$2 ext=$3; shift 3
  "$FLICK" render "$template" "$@" -o "$RAW" -q >/dev/null
  # ffmpeg alone: flick's own commands (one line each), reading the raw file. For a GIF, ffmpeg's
  # two passes (palettegen, then paletteuse: --gif-palette ffmpeg), the whole job done by the encoder
  # alone, although flick computes the palette itself by default.
  local palette=()
  [ "$ext" = gif ] && palette=(--gif-palette ffmpeg)
  rm -f "$WORK/y.sh"
  "$FLICK" render "$template" "$@" "${palette[@]}" -o "$WORK/c.$ext" --dry-run \
    | python3 Benchmarks/video/ffmpeg_alone.py "$RAW" "$WORK/c.sh" "$YUV" "$WORK/y.sh"
  local planes=
  [ -f "$WORK/y.sh" ] && planes=yes
  rm -f "$WORK"/{a,b,c,y,p,base}
  for _ in $(seq "$REPEAT"); do
    measure a "$FLICK" render "$template" "$@" -o "$WORK/a.$ext" -q
    [ -n "$BASELINE" ] && measure base "$BASELINE" render "$template" "$@" -o "$WORK/base.$ext" -q
    measure b "$FLICK" render "$template" "$@" --null -q
    measure c bash "$WORK/c.sh"
    if [ -n "$planes" ]; then
      measure y bash "$WORK/y.sh"
      measure p bash -c '"$1" render "$2" "${@:4}" --null -q & bash "$3"; wait' - "$FLICK" "$template" "$WORK/y.sh" "$@"
    fi
  done
  local yw=0 yc=0 pw=0
  if [ -n "$planes" ]; then yw=$(median "$WORK/y" 1); yc=$(median "$WORK/y" 2); pw=$(median "$WORK/p" 1); rm -f "$YUV"; fi
  if [ -n "$BASELINE" ]; then
    cmp -s "$WORK/a.$ext" "$WORK/base.$ext" && same=yes || same=NO
    # A GIF or APNG merges identical frames now: unmerged (--every-frame), the bytes must be the old ones.
    if [ "$same" = NO ] && { [ "$ext" = gif ] || [ "$ext" = apng ]; }; then
      "$FLICK" render "$template" "$@" -o "$WORK/every.$ext" --every-frame -q >/dev/null
      cmp -s "$WORK/every.$ext" "$WORK/base.$ext" && same="merged; unmerged yes" || same="NO (unmerged NO)"
    fi
    basec=$(median "$WORK/base" 2); basew=$(median "$WORK/base" 1); basem=$(median "$WORK/base" 3)
  else
    same=-; basec=0; basew=0; basem=0
  fi
  python3 - "$name" "$(median "$WORK/a" 1)" "$(median "$WORK/b" 1)" "$(median "$WORK/c" 1)" \
    "$(median "$WORK/a" 2)" "$(median "$WORK/b" 2)" "$(median "$WORK/c" 2)" "$CORES" \
    "$basew" "$basec" "$same" "$(median "$WORK/a" 3)" "$basem" "$yw" "$yc" "$pw" <<'PY'
import sys
name = sys.argv[1]
a, b, c, ac, bc, cc, cores, bw, bcpu = map(float, sys.argv[2:11])
same, am, bm = sys.argv[11], int(sys.argv[12]), int(sys.argv[13])
yw, yc, pw = float(sys.argv[14]), float(sys.argv[15]), float(sys.argv[16])
L = max(b, c, (bc + cc) / cores)
line = f"{name:<26} {a:6.2f}s {b:6.2f}s {c:6.2f}s {ac:6.2f}s {bc:6.2f}s {cc:6.2f}s {L:6.2f}s {a / L:5.2f} {am / 1024:6.0f}"
if yw:
    Ly = max(b, yw, (bc + yc) / cores)
    line += f"   y {yw:5.2f}s cpu {yc:5.2f}s Ly {Ly:5.2f}s a/Ly {a / Ly:4.2f}   p {pw:5.2f}s a/p {a / pw:4.2f}"
if bcpu:
    line += f"   | baseline {bw:6.2f}s cpu {bcpu:6.2f}s {bm / 1024:5.0f} MiB  cpu base/new {bcpu / ac:4.2f}  same bytes: {same}"
print(line)
PY
}

echo "Short clips — $(date -u +%Y-%m-%dT%H:%MZ), $CORES cores, $REPEAT runs each (median), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-26s %7s %7s %7s %7s %7s %7s %7s %5s %6s\n" case "a" "b" "c" "cpu a" "cpu b" "cpu c" "L" "a/L" "MiB a"
ONLY=${ONLY:-}
for t in Templates/*.json5; do
  n=$(basename "$t" .json5)
  [ -z "$ONLY" ] || [[ " $ONLY " == *" $n "* ]] || continue
  run_case "$n.mp4" "$t" mp4
done
[ -z "$ONLY" ] || { echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"; exit 0; }
run_case "card-swap 1 frame.mp4" Templates/card-swap.json5 mp4 --frames 0..0
run_case "card-swap.gif" Templates/card-swap.json5 gif
run_case "hello.gif" Templates/hello.json5 gif
run_case "card-swap 1 frame.gif" Templates/card-swap.json5 gif --frames 0..0
run_case "bench 640x360 3s.gif" Benchmarks/video/card-swap.json5 gif --size 640x360 --frames 0..179 --gif-fps 30
run_case "chained-sequence.apng" Templates/chained-sequence.json5 apng

# `flick still` of every bundled template (its first frame): wall and CPU, median of REPEAT
# (interleaved with BASELINE when given).
echo
echo "flick still (frame 0), median of $REPEAT: wall s, CPU s$([ -n "$BASELINE" ] && echo '; baseline wall, CPU')"
for t in Templates/*.json5; do
  n=$(basename "$t" .json5)
  rm -f "$WORK"/{s,sbase}
  for _ in $(seq "$REPEAT"); do
    measure s "$FLICK" still "$t" -o "$WORK/s.png" -q
    [ -n "$BASELINE" ] && measure sbase "$BASELINE" still "$t" -o "$WORK/sbase.png" -q
  done
  line=$(printf "%-22s %6.3f %6.3f" "$n" "$(median "$WORK/s" 1)" "$(median "$WORK/s" 2)")
  if [ -n "$BASELINE" ]; then
    cmp -s "$WORK/s.png" "$WORK/sbase.png" && same=yes || same=NO
    line+=$(printf "   | baseline %6.3f %6.3f  same bytes: %s" "$(median "$WORK/sbase" 1)" "$(median "$WORK/sbase" 2)" "$same")
  fi
  echo "$line"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
