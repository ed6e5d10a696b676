#!/usr/bin/env bash
# Flick's PNG encoder (Sources/CPNG/fastpng.h) beside the libpng writer it replaced
# (Sources/CPNG/shim.h), on real frames: 20 frames (40...59) of bundled templates at their own
# size, of the 1280x720 bench scene and of card-swap on a transparent page (RGBA), rendered raw
# with the release `flick` into a temporary folder (in /dev/shm when there is one; removed on
# exit). Runs are interleaved per input (libpng, fast, libpng, ...); the table shows medians.
#
#   Benchmarks/raster/png-bench.sh [--runs N] [--cc CC]
#
# Needs a release build: swift build -c release --product flick --static-swift-stdlib
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
RUNS=5
CC=${CC:-gcc}
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=${2:?--runs expects a number}; shift 2 ;;
    --cc) CC=${2:?--cc expects a compiler}; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "png-bench.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
FLICK="$ROOT/.build/release/flick"
[ -x "$FLICK" ] || { echo "png-bench.sh: no $FLICK (swift build -c release --product flick --static-swift-stdlib)" >&2; exit 3; }
BASE=/dev/shm; [ -d "$BASE" ] && [ -w "$BASE" ] || BASE=${TMPDIR:-/tmp}
WORK=$(mktemp -d "$BASE/flick-png-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM

"$CC" -O2 -pthread -I "$ROOT/Sources/CPNG" -o "$WORK/png-bench" "$HERE/png-bench.c" \
  $(pkg-config --cflags --libs libpng) -lz 2>/dev/null \
  || { echo "png-bench.sh: building png-bench with $CC failed" >&2; exit 3; }

inputs=()
for name in card-swap hello spring-gallery rotating-cover frosted-player settings-toggles swipe-deck chained-sequence; do
  size=$("$FLICK" info "$ROOT/Templates/$name.json5" | sed -n 's/^canvas: \([0-9]*\)×\([0-9]*\) px.*/\1x\2/p')
  "$FLICK" render "$ROOT/Templates/$name.json5" --frames 40..59 -q -o "$WORK/$name.bgra" >/dev/null
  inputs+=("$name=$WORK/$name.bgra:$size")
done
"$FLICK" render "$ROOT/Benchmarks/video/card-swap.json5" --size 1280x720 --frames 40..59 -q -o "$WORK/bench720.bgra" >/dev/null
inputs+=("bench-scene-720p=$WORK/bench720.bgra:1280x720")
# Translucent frames (RGBA PNGs): card-swap on a transparent page (its shadows, 59 % of the
# pixels not opaque); every bundled template's own background is opaque.
"$FLICK" render "$ROOT/Templates/card-swap.json5" --set background=transparent --frames 40..59 -q \
  -o "$WORK/card-swap-clear.bgra" >/dev/null
inputs+=("card-swap-clear-rgba=$WORK/card-swap-clear.bgra:960x540")

"$WORK/png-bench" --selftest --out "$WORK"
"$WORK/png-bench" --runs "$RUNS" --out "$WORK" "${inputs[@]}"
