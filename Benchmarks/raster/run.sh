#!/usr/bin/env bash
# Side-by-side raster benchmark: the hand-written C card-swap renderer (naive and
# cached) and, when wired, Flick's Swift renderer on the same scene.
#
#   Benchmarks/raster/run.sh [--runs N] [--frames N] [--width W --height H] [--out DIR] [--ablate]
#                            [--instructions START:COUNT | --no-instructions]
#   Benchmarks/raster/run.sh --templates [--runs N] [NAME ...]
#
# Runs are interleaved (C naive, C cached, Swift naive, Swift cached, repeat) so the
# ratios compare numbers measured back to back; the table shows medians of N runs.
# Instruction counts (valgrind's callgrind, load-independent) of frames START..START+COUNT-1
# follow (default 126:36, a card swap). --ablate also estimates the Swift stage costs.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
RUNS=5
FRAMES=180          # one 3 s swap cycle at 60 fps: 135 resting frames, 45 swapping
WIDTH=1920
HEIGHT=1080
OUT="$ROOT/out/bench-raster"
IMAGE="$HERE/image512.png"
ABLATE=0
INSTR_START=126     # frames 126-161: the last rest frames and a card swap (the background animates)
INSTR_FRAMES=36

die() { echo "run.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=${2:?--runs expects a number}; shift 2 ;;
    --frames) FRAMES=${2:?--frames expects a number}; shift 2 ;;
    --width) WIDTH=${2:?--width expects a number}; shift 2 ;;
    --height) HEIGHT=${2:?--height expects a number}; shift 2 ;;
    --out) OUT=${2:?--out expects a directory}; shift 2 ;;
    --ablate) ABLATE=1; shift ;;
    --instructions)
      [[ "${2:-}" =~ ^([0-9]+):([1-9][0-9]*)$ ]] || die "--instructions expects START:COUNT, e.g. 126:36"
      INSTR_START=${BASH_REMATCH[1]}; INSTR_FRAMES=${BASH_REMATCH[2]}; shift 2 ;;
    --no-instructions) INSTR_FRAMES=0; shift ;;
    --templates)
      # Every bundled template at its own size, Flick only: the kept static prefix off and on,
      # interleaved (Benchmarks/raster/templates).
      shift
      (cd "$ROOT" && scripts/swift-release --product flick-bench-raster-templates) \
        || { echo "run.sh: building flick-bench-raster-templates failed" >&2; exit 3; }
      exec "$ROOT/.build/release/flick-bench-raster-templates" --runs "$RUNS" "$@" ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (try --help)" ;;
  esac
done
for n in "$RUNS" "$FRAMES" "$WIDTH" "$HEIGHT"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || die "expected a positive integer, got '$n'"
done

# ==== Swift renderer slot ==========================================================
# To add Flick's renderer, set SWIFT_BUILD (optional) and SWIFT_CMD, here or in the
# environment. SWIFT_CMD must accept the C program's flags
#   --frames N --start I --width W --height H --split --cached --checksum --png P --image P
# and print one line
#   RESULT renderer=swift mode=naive|cached wall_ms=… cpu_ms=… [rss_mib=…] background=… shadow=… fill=… image=… text=… ring=…
# (stage fields with --split, checksum=… with --checksum). The table then gains the
# Swift rows and the ratio rows (Swift naive / C naive, Swift cached / C naive).
# Stage fields that a renderer cannot measure may be 'na'; the table shows them as '-'.
# The default is Flick's harness, Benchmarks/raster/cardswap-swift (flick-cardswap);
# SWIFT_CMD= (empty) runs the C program alone.
SWIFT_BUILD=${SWIFT_BUILD-scripts/swift-release --product flick-cardswap}
SWIFT_CMD=${SWIFT_CMD-$ROOT/.build/release/flick-cardswap}
# ===================================================================================

mkdir -p "$OUT"
C_BIN="$OUT/cardswap"
CC=${CC:-gcc}
command -v pkg-config >/dev/null || { echo "run.sh: pkg-config not found (run scripts/bootstrap)" >&2; exit 3; }
command -v "$CC" >/dev/null || { echo "run.sh: C compiler '$CC' not found (apt-get install gcc, or set CC)" >&2; exit 3; }
# shellcheck disable=SC2046
"$CC" -O2 -o "$C_BIN" "$HERE/cardswap.c" $(pkg-config --cflags --libs cairo pangocairo) -lm \
  || { echo "run.sh: building cardswap.c failed" >&2; exit 3; }
if [ -n "$SWIFT_CMD" ] && [ -n "$SWIFT_BUILD" ]; then
  (cd "$ROOT" && eval "$SWIFT_BUILD") || { echo "run.sh: '$SWIFT_BUILD' failed" >&2; exit 3; }
fi

renderers=(c)
[ -n "$SWIFT_CMD" ] && renderers+=(swift)

command_for() { # renderer
  case "$1" in
    c) printf '%s' "$C_BIN" ;;
    swift) printf '%s' "$SWIFT_CMD" ;;
  esac
}

run_one() { # renderer mode extra-args...
  local renderer=$1 mode=$2; shift 2
  local flags=(--frames "$FRAMES" --width "$WIDTH" --height "$HEIGHT" --image "$IMAGE" "$@")
  [ "$mode" = cached ] && flags+=(--cached)
  local line
  # shellcheck disable=SC2046
  line=$($(command_for "$renderer") "${flags[@]}" | grep '^RESULT ') \
    || { echo "run.sh: $renderer $mode failed" >&2; exit 3; }
  # Tag the line with the renderer/mode this script asked for.
  echo "$line" | sed "s/renderer=[a-z]*/renderer=$renderer/; s/mode=[a-z]*/mode=$mode/"
}

echo "raster benchmark: card-swap scene ${WIDTH}x${HEIGHT}, $FRAMES frames, median of $RUNS runs"
echo "machine: $(nproc) CPU ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), load $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. Caching must never change a pixel: compare checksums over every frame.
declare -A sums
for r in "${renderers[@]}"; do
  for m in naive cached; do
    sums[$r.$m]=$(run_one "$r" "$m" --checksum | sed -n 's/.*checksum=\([0-9a-f]*\).*/\1/p')
  done
  if [ -z "${sums[$r.naive]}" ] || [ -z "${sums[$r.cached]}" ]; then
    echo "$r: no checksum in the RESULT line (expected checksum=… with --checksum)" >&2
    exit 3
  fi
  if [ "${sums[$r.naive]}" = "${sums[$r.cached]}" ]; then
    echo "$r: cached and naive frames are byte-identical (checksum ${sums[$r.naive]})"
  else
    echo "$r: cached frames DIFFER from naive (${sums[$r.naive]} vs ${sums[$r.cached]})" >&2
    exit 1
  fi
  # A still of a resting frame and one mid-swap, to look at.
  for f in 90 157; do
    run_one "$r" naive --frames 1 --start "$f" --png "$OUT/$r-frame$f.png" >/dev/null
  done
done

# 2. Timed runs, interleaved.
RESULTS="$OUT/results.txt"
: >"$RESULTS"
for ((i = 1; i <= RUNS; i++)); do
  for r in "${renderers[@]}"; do
    for m in naive cached; do
      run_one "$r" "$m" --split >>"$RESULTS"
    done
  done
done

# 3. Medians and the table.
awk -v runs="$RUNS" '
  function median(key,   n, i, j, tmp, a) {
    n = count[key]
    for (i = 1; i <= n; i++) a[i] = val[key, i]
    for (i = 2; i <= n; i++) { tmp = a[i]; for (j = i - 1; j >= 1 && a[j] > tmp; j--) a[j + 1] = a[j]; a[j + 1] = tmp }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  function ratio(label, a, b, note) {
    printf "  %-24s %7.3f %7.3f  %s\n", label, ms[a] / ms[b], cpu[a] / cpu[b], note
  }
  function minimum(key,   i, m) {
    m = val[key, 1]
    for (i = 2; i <= count[key]; i++) if (val[key, i] < m) m = val[key, i]
    return m
  }
  /^RESULT / {
    delete kv
    for (i = 2; i <= NF; i++) { split($i, p, "="); kv[p[1]] = p[2] }
    row = kv["renderer"] " " kv["mode"]
    if (!(row in seen)) { seen[row] = 1; order[++rows] = row }
    # Only numbers are kept: a stage the renderer cannot time is reported as "na".
    for (f in kv) if (f != "renderer" && f != "mode" && kv[f] ~ /^-?[0-9.]+$/) { key = row SUBSEP f; val[key, ++count[key]] = kv[f] }
  }
  END {
    nstages = split("background shadow fill image text ring", stage, " ")
    printf "\nmedians (min CPU: fastest run); stage columns: CPU ms per frame and share of the CPU time\n"
    printf "%-14s %9s %7s %8s %8s %8s", "renderer", "ms/frame", "fps", "CPU ms", "min CPU", "peak MiB"
    for (s = 1; s <= nstages; s++) printf " %12s", stage[s]
    printf "\n"
    for (r = 1; r <= rows; r++) {
      row = order[r]
      ms[row] = median(row SUBSEP "wall_ms")
      cpu[row] = median(row SUBSEP "cpu_ms")
      printf "%-14s %9.2f %7.1f %8.2f %8.2f", row, ms[row], 1000 / ms[row], cpu[row], minimum(row SUBSEP "cpu_ms")
      if (count[row SUBSEP "rss_mib"]) printf " %8.1f", median(row SUBSEP "rss_mib"); else printf " %8s", "-"
      for (s = 1; s <= nstages; s++) {
        key = row SUBSEP stage[s]
        if (count[key]) printf " %6.2f %3.0f%%", median(key), 100 * median(key) / cpu[row]; else printf " %12s", "-"
      }
      printf "\n"
    }
    printf "\nratios of median frame times (lower is faster), by wall time and by CPU time\n"
    printf "  %-24s %7s %7s\n", "", "wall", "CPU"
    if ("c cached" in ms) ratio("C cached / C naive", "c cached", "c naive", "")
    if ("swift naive" in ms) ratio("Swift naive / C naive", "swift naive", "c naive", "target <= 1.10")
    if ("swift cached" in ms) {
      ratio("Swift cached / C naive", "swift cached", "c naive", "target <= 0.667 (1.5x faster)")
      ratio("Swift cached / C cached", "swift cached", "c cached", "")
    }
  }' "$RESULTS"

# 4. Instruction counts (valgrind's callgrind): exact and independent of the machine's load, so
# they settle what CPU times on a shared VM cannot. Only the measured frames are counted (the
# warm-up frame and start-up are outside measured_frames / measuredFrames).
if [ "$INSTR_FRAMES" -gt 0 ] && ! command -v valgrind >/dev/null; then
  echo "run.sh: no instruction counts: valgrind not found (scripts/bootstrap installs it on Debian)" >&2
elif [ "$INSTR_FRAMES" -gt 0 ]; then
  INSTRUCTIONS="$OUT/instructions.txt"
  : >"$INSTRUCTIONS"
  echo
  echo "instructions (callgrind), frames $INSTR_START-$((INSTR_START + INSTR_FRAMES - 1)) at ${WIDTH}x${HEIGHT}, millions per frame"
  for r in "${renderers[@]}"; do
    toggle='measured_frames*'
    [ "$r" = swift ] && toggle='*measuredFrames*'
    for m in naive cached; do
      flags=(--start "$INSTR_START" --frames "$INSTR_FRAMES" --width "$WIDTH" --height "$HEIGHT" --image "$IMAGE")
      [ "$m" = cached ] && flags+=(--cached)
      # shellcheck disable=SC2046
      count=$("$ROOT/scripts/callgrind-count" --toggle "$toggle" -- $(command_for "$r") "${flags[@]}") \
        || { echo "run.sh: counting the instructions of $r $m failed" >&2; exit 3; }
      echo "$r $m $count" >>"$INSTRUCTIONS"
    done
  done
  awk -v frames="$INSTR_FRAMES" '
    { n[$1 " " $2] = $3; order[++rows] = $1 " " $2 }
    END {
      for (r = 1; r <= rows; r++) printf "  %-14s %10.1f\n", order[r], n[order[r]] / frames / 1e6
      if ("swift cached" in n) {
        printf "  C naive / Swift cached:  %.2fx fewer instructions (target >= 2.5)\n", n["c naive"] / n["swift cached"]
        printf "  C cached / Swift cached: %.2fx\n", n["c cached"] / n["swift cached"]
        printf "  Swift naive / C naive:   %.2f\n", n["swift naive"] / n["c naive"]
      }
    }' "$INSTRUCTIONS"
fi

# 5. Optional: the Swift stage costs by ablation. Flick's renderer has no stage timers, so
# each stage is estimated as the median CPU time per frame of the whole scene minus that of
# the scene without the stage (`--without`), every variant in a fresh process, interleaved.
if [ "$ABLATE" = 1 ] && [ -n "$SWIFT_CMD" ]; then
  ABLATION="$OUT/ablation.txt"
  : >"$ABLATION"
  for ((i = 1; i <= RUNS; i++)); do
    for m in naive cached; do
      run_one swift "$m" | sed 's/$/ without=none/' >>"$ABLATION"
      for s in background shadow fill image text ring; do
        run_one swift "$m" --without "$s" >>"$ABLATION"
      done
    done
  done
  awk '
    function median(key,   n, i, j, tmp, a) {
      n = count[key]
      for (i = 1; i <= n; i++) a[i] = val[key, i]
      for (i = 2; i <= n; i++) { tmp = a[i]; for (j = i - 1; j >= 1 && a[j] > tmp; j--) a[j + 1] = a[j]; a[j + 1] = tmp }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    /^RESULT / {
      delete kv
      for (i = 2; i <= NF; i++) { split($i, p, "="); kv[p[1]] = p[2] }
      key = kv["mode"] SUBSEP kv["without"]
      val[key, ++count[key]] = kv["cpu_ms"]
    }
    END {
      n = split("background shadow fill image text ring", stage, " ")
      printf "\nSwift cost split by ablation: median CPU ms per frame of the whole scene minus the scene\n"
      printf "without the stage (fill: gradient faces minus solid faces); an estimate, not a timer\n"
      printf "%-14s %8s", "renderer", "CPU ms"
      for (s = 1; s <= n; s++) printf " %12s", stage[s]
      printf "\n"
      split("naive cached", modes, " ")
      for (m = 1; m <= 2; m++) {
        full = median(modes[m] SUBSEP "none")
        printf "%-14s %8.2f", "swift " modes[m], full
        for (s = 1; s <= n; s++) { d = full - median(modes[m] SUBSEP stage[s]); printf " %6.2f %3.0f%%", d, 100 * d / full }
        printf "\n"
      }
    }' "$ABLATION"
fi
echo
echo "raw results: $RESULTS, instructions.txt (and ablation.txt with --ablate); stills: $OUT/*-frame90.png (resting), $OUT/*-frame157.png (mid-swap)"
