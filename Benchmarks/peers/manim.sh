#!/usr/bin/env bash
# Part "manim" of run.sh (run it through run.sh, which sets FLICK, WORK, REPEAT, RAW_DIR, PEAK):
#   Manim Community (Cairo renderer, PyAV encoding), installed by this script into
#   Benchmarks/peers/.venv from PyPI at pinned versions, rendering cardswap_manim.py;
#   Flick rendering Benchmarks/video/card-swap.json5;
#   ffmpeg alone encoding Flick's raw frames (from a RAM file) with Flick's own arguments.
# Cases: 1280×720@60 MP4 (10 s) and a 640×360@30 GIF (10 s); then Manim/Flick ratios. The GIF is
#   also rendered by Flick with FLICK_GIFSICLE=none, which shows what its gifsicle -O3 pass costs.
set -euo pipefail

VENV=Benchmarks/peers/.venv
RAW="$RAW_DIR/flick-peers-$$.bgra"
trap 'rm -f "$RAW"' EXIT

# Manim's build needs: Cairo and Pango headers (pycairo, manimpango build from source where no
# wheel fits), pkg-config, a C compiler, Python headers, ffmpeg. scripts/bootstrap installs the
# first ones; the rest here, only when missing.
need=()
command -v cc >/dev/null 2>&1 || need+=(build-essential)
python3 -c 'import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
  || need+=(python3-dev)
python3 -c 'import venv, ensurepip' 2>/dev/null || need+=(python3-venv)
if [ ${#need[@]} -gt 0 ]; then
  echo "bench-peers: installing ${need[*]}" >&2
  scripts/apt-install "${need[@]}"
fi
if ! "$VENV/bin/python" -c 'import manim' 2>/dev/null; then
  echo "bench-peers: installing Manim into $VENV (pinned: Benchmarks/peers/requirements.txt)" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check -r Benchmarks/peers/requirements.txt
fi

SCENE=Benchmarks/video/card-swap.json5
MANIM=("$VENV/bin/manim" render -v WARNING --progress_bar none --disable_caching --media_dir "$WORK/media")

# ffmpeg alone: flick's commands for OUT with OPTIONS, reading the raw frames.
ffmpeg_script() {
  local out=$1; shift
  "$FLICK" render "$SCENE" "$@" -o "$RAW" -q >/dev/null
  # For a GIF, ffmpeg's two passes (palettegen, then paletteuse): the whole job done by ffmpeg
  # alone, although flick computes the palette itself.
  local palette=()
  case "$out" in *.gif) palette=(--gif-palette ffmpeg) ;; esac
  # For an MP4, ffmpeg's own BGRA → yuv420p conversion, although flick sends it planes it converted.
  "$FLICK" render "$SCENE" "$@" "${palette[@]}" -o "$out" --dry-run \
    | python3 Benchmarks/video/ffmpeg_alone.py "$RAW" "$WORK/ffmpeg.sh"
}

report() {
  local extra=()
  [ -s "$WORK/flick-plain" ] && extra=("flick, no gifsicle=$WORK/flick-plain")
  python3 Benchmarks/peers/report.py "$1" flick="$WORK/flick" manim="$WORK/manim" "ffmpeg alone=$WORK/ffmpeg" \
    "${extra[@]}"
}

echo "Manim: $("$VENV/bin/python" -c 'import manim; print("Manim Community", manim.__version__)')"
printf "%-22s %-13s %9s %9s %11s\n" case tool wall "CPU" "peak tree"

ffmpeg_script "$WORK/c.mp4"
rm -f "$WORK"/{flick,manim,ffmpeg,flick-plain}
for _ in $(seq "$REPEAT"); do
  python3 "$PEAK" "$FLICK" render "$SCENE" -o "$WORK/f.mp4" -q >>"$WORK/flick"
  python3 "$PEAK" "${MANIM[@]}" -r 1280,720 --frame_rate 60 --format mp4 -o m.mp4 \
    Benchmarks/peers/cardswap_manim.py CardSwap >>"$WORK/manim"
  python3 "$PEAK" bash "$WORK/ffmpeg.sh" >>"$WORK/ffmpeg"
done
report "1280x720@60 MP4 10 s"

ffmpeg_script "$WORK/c.gif" --size 640x360 --fps 30
rm -f "$WORK"/{flick,manim,ffmpeg,flick-plain}
for _ in $(seq "$REPEAT"); do
  python3 "$PEAK" "$FLICK" render "$SCENE" --size 640x360 --fps 30 -o "$WORK/f.gif" -q >>"$WORK/flick"
  FLICK_GIFSICLE=none python3 "$PEAK" "$FLICK" render "$SCENE" --size 640x360 --fps 30 -o "$WORK/g.gif" -q \
    >>"$WORK/flick-plain"
  python3 "$PEAK" "${MANIM[@]}" -r 640,360 --frame_rate 30 --format gif -o m.gif \
    Benchmarks/peers/cardswap_manim.py CardSwap >>"$WORK/manim"
  python3 "$PEAK" bash "$WORK/ffmpeg.sh" >>"$WORK/ffmpeg"
done
report "640x360@30 GIF 10 s"
manim_gif=$(find "$WORK/media" -name m.gif -print -quit)
printf "%-22s sizes: flick %s B, flick without gifsicle %s B, ffmpeg alone %s B, Manim %s B\n" \
  "640x360@30 GIF 10 s" "$(stat -c %s "$WORK/f.gif")" "$(stat -c %s "$WORK/g.gif")" "$(stat -c %s "$WORK/c.gif")" \
  "$(if [ -n "$manim_gif" ]; then stat -c %s "$manim_gif"; else echo "?"; fi)"
