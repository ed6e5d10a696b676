#!/usr/bin/env bash
# Part "lottie" of run.sh (run it through run.sh, which sets FLICK, WORK, REPEAT, PEAK): every
# Lottie file in Benchmarks/peers/lottie/ (real files from other projects, lottie/README.md),
# at its own size and rate, by
#   Flick                `flick render FILE.json -o OUT.mp4` / `-o OUT.gif` (rlottie inside);
#   rlottie + ffmpeg     rlottie_ffmpeg.c (rlottie's C API → BGRA → ffmpeg's stdin), ffmpeg run
#                        with the arguments of Flick's own `--dry-run` (x264, same size, fps,
#                        frames), reading BGRA and converting it with ffmpeg's `scale`;
#   python-lottie        `lottie_convert.py FILE.json OUT.mp4` / `OUT.gif` (PyPI `lottie`, its
#                        cairosvg rasteriser; OpenCV's MPEG-4 Part 2 writer for MP4, Pillow for
#                        GIF), installed into Benchmarks/peers/.venv-lottie at the versions pinned
#                        in requirements-lottie.txt. Left out, and said so, when PyPI cannot be reached.
# A file longer than MAXFRAMES (default 180) frames is cut to its first MAXFRAMES for every tool
# (a copy with `op` lowered). Every output's frame count is checked with ffprobe before timing.
set -euo pipefail

MAXFRAMES=${MAXFRAMES:-180}
LVENV=Benchmarks/peers/.venv-lottie

if ! pkg-config --exists rlottie 2>/dev/null; then
  echo "bench-peers: installing librlottie-dev pkg-config" >&2
  scripts/apt-install librlottie-dev pkg-config
fi
command -v cc >/dev/null 2>&1 || scripts/apt-install build-essential
RF="$WORK/rlottie_ffmpeg"
# shellcheck disable=SC2046
cc -O2 -o "$RF" Benchmarks/peers/rlottie_ffmpeg.c $(pkg-config --cflags --libs rlottie) -lm

plottie=yes
if ! "$LVENV/bin/python" -c 'import lottie, cairosvg, cv2' 2>/dev/null; then
  echo "bench-peers: installing python-lottie into $LVENV (pinned: Benchmarks/peers/requirements-lottie.txt)" >&2
  python3 -m venv "$LVENV"
  if ! "$LVENV/bin/pip" install -q --disable-pip-version-check -r Benchmarks/peers/requirements-lottie.txt; then
    echo "python-lottie: not installed (pip failed: PyPI not reachable?); its rows are left out"
    plottie=no
  fi
fi
PL=("$LVENV/bin/python" "$LVENV/bin/lottie_convert.py")
[ "$plottie" = yes ] && echo "python-lottie: $("$LVENV/bin/pip" show lottie 2>/dev/null | sed -n 's/^Version: /lottie /p') (cairosvg, OpenCV, Pillow)"
echo "rlottie: $(pkg-config --modversion rlottie) (Debian), cc $(cc -dumpfullversion)"

# frames FILE: the number of frames ffprobe decodes.
frames() { ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$1"; }
# seconds FILE: the container's duration.
seconds() { ffprobe -v error -show_entries format=duration -of csv=p=0 "$1"; }
expect() { # expect WHAT GOT WANTED
  if [ "$2" != "$3" ]; then echo "bench-peers: $1: $2, expected $3" >&2; exit 1; fi
}

printf "%-22s %-17s %9s %9s %11s\n" case tool wall "CPU" "peak tree"
for json in Benchmarks/peers/lottie/*.json; do
  name=$(basename "$json" .json)
  # The file as every tool reads it (cut to MAXFRAMES), and its size, rate and frame count.
  read -r src w h fr count < <(python3 - "$json" "$WORK/$name.json" "$MAXFRAMES" <<'PY'
import json, math, sys
path, copy, cap = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = json.load(open(path))
count = math.floor(d["op"] - d["ip"])
if count > cap:
    d["op"] = d["ip"] + cap
    count = cap
    json.dump(d, open(copy, "w"), separators=(",", ":"))
    path = copy
print(path, d["w"], d["h"], d["fr"], count)
PY
)
  # Flick's ffmpeg command, made to read BGRA from rlottie_ffmpeg's pipe into r.mp4.
  "$FLICK" render "$src" -o "$WORK/f.mp4" --dry-run | python3 Benchmarks/video/ffmpeg_alone.py pipe:0 "$WORK/r.sh"
  mapfile -t ff < <(python3 - "$WORK/r.sh" "$WORK/f.mp4" "$WORK/r.mp4" <<'PY'
import shlex, sys
args = shlex.split(open(sys.argv[1]).read().splitlines()[1])[:-1]  # drop ">/dev/null"
print("\n".join(sys.argv[3] if a == sys.argv[2] else a for a in args))
PY
)
  fps=$(python3 -c 'import sys; a = sys.argv[1:]; print(a[a.index("-framerate") + 1])' "${ff[@]}")

  # Reference runs, and the frame checks.
  "$FLICK" render "$src" -o "$WORK/f.mp4" -o "$WORK/f.gif" -q
  n=$(frames "$WORK/f.mp4")
  if python3 -c 'import sys; sys.exit(float(sys.argv[1]) != int(sys.argv[2]))' "$fr" "$fps"; then
    expect "$name: flick's MP4 frames" "$n" "$count"
  fi
  "$RF" "$src" "$w" "$h" "$fps" "$n" FFFFFF -- "${ff[@]}" 2>"$WORK/rf.log" || { cat "$WORK/rf.log" >&2; exit 1; }
  expect "$name: rlottie + ffmpeg MP4 frames" "$(frames "$WORK/r.mp4")" "$n"
  if [ "$plottie" = yes ]; then
    "${PL[@]}" "$src" "$WORK/p.mp4" 2>/dev/null
    "${PL[@]}" "$src" "$WORK/p.gif" 2>/dev/null
    # python-lottie draws the out point too: op − ip + 1 frames.
    expect "$name: python-lottie MP4 frames" "$(frames "$WORK/p.mp4")" "$((count + 1))"
  fi
  echo "$name: ${w}x$h, fr $fr, $count frames; Flick and rlottie + ffmpeg: $n frames at $fps fps;" \
    "GIF seconds: flick $(seconds "$WORK/f.gif")$([ "$plottie" = yes ] && echo ", python-lottie $(seconds "$WORK/p.gif")")"

  rm -f "$WORK"/{fm,rm,pm,fg,pg}
  for _ in $(seq "$REPEAT"); do
    python3 "$PEAK" "$FLICK" render "$src" -o "$WORK/f.mp4" -q >>"$WORK/fm"
    python3 "$PEAK" "$RF" "$src" "$w" "$h" "$fps" "$n" FFFFFF -- "${ff[@]}" >>"$WORK/rm"
    [ "$plottie" = yes ] && python3 "$PEAK" "${PL[@]}" "$src" "$WORK/p.mp4" >>"$WORK/pm"
    python3 "$PEAK" "$FLICK" render "$src" -o "$WORK/f.gif" -q >>"$WORK/fg"
    [ "$plottie" = yes ] && python3 "$PEAK" "${PL[@]}" "$src" "$WORK/p.gif" >>"$WORK/pg"
  done
  if [ "$plottie" = yes ]; then
    python3 Benchmarks/peers/report.py "$name MP4" flick="$WORK/fm" "rlottie+ffmpeg=$WORK/rm" "python-lottie=$WORK/pm"
    python3 Benchmarks/peers/report.py "$name GIF" flick="$WORK/fg" "python-lottie=$WORK/pg"
  else
    python3 Benchmarks/peers/report.py "$name MP4" flick="$WORK/fm" "rlottie+ffmpeg=$WORK/rm"
    python3 Benchmarks/peers/report.py "$name GIF" flick="$WORK/fg"
  fi
done
