#!/usr/bin/env bash
# Flick beside its peers (docs/benchmarks.md, "Peers"). Parts, chosen with PEERS (default: all
# three, space-separated):
#   manim   the card-swap motion by Manim Community and by ffmpeg alone (manim.sh);
#   lottie  real Lottie files (Benchmarks/peers/lottie/) by rlottie + ffmpeg and python-lottie (lottie.sh);
#   gif     GIF size and quality of the bundled templates: Flick's GIF, ffmpeg's two passes,
#           gifsicle -O3 (gif.sh).
# Timed cases report wall, CPU (user+sys of the whole process tree) and the peak summed resident
# memory of the tree (treepeak.py), medians of REPEAT runs made interleaved.
# Environment: PEERS, REPEAT (default 3), RAW_DIR (default /dev/shm), FLICK (a flick binary to use
# instead of building the release one), TEMPLATES (gif: template names, default all).
set -euo pipefail
cd "$(dirname "$0")/../.."

PEERS=${PEERS:-manim lottie gif}
for part in $PEERS; do
  case "$part" in
    manim | lottie | gif) ;;
    *) echo "bench-peers: unknown part '$part' in PEERS (manim, lottie, gif)" >&2; exit 2 ;;
  esac
done

export REPEAT=${REPEAT:-3}
export RAW_DIR=${RAW_DIR:-/dev/shm}
export PEAK=Benchmarks/peers/treepeak.py
WORK=$(mktemp -d "${TMPDIR:-/tmp}/flick-peers.XXXXXX")
export WORK
trap 'rm -rf "$WORK"' EXIT

if [ -z "${FLICK:-}" ]; then
  scripts/swift-release --product flick >/dev/null
  FLICK=.build/release/flick
fi
export FLICK

echo "Peers — $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), REPEAT=$REPEAT"
echo "$(ffmpeg -version | head -1 | cut -d' ' -f1-3), $("$FLICK" --version)"
for part in $PEERS; do
  echo
  bash "Benchmarks/peers/$part.sh"
done
