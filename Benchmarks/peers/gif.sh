#!/usr/bin/env bash
# Part "gif" of run.sh (run it through run.sh, which sets FLICK, WORK, RAW_DIR): for each bundled
# template (TEMPLATES: names without .json5, default every Templates/*.json5) at its own size and
# rate, the GIF's size and its quality against Flick's lossless frames:
#   flick          `flick render T -o T.gif` (Flick's palette, then gifsicle -O3 inside);
#   flick plain    the same with FLICK_GIFSICLE=none; "plain -O3" is `gifsicle -O3` on it, which
#                  must be byte-identical to flick's (checked);
#   ffmpeg         ffmpeg's two passes at their defaults on Flick's raw BGRA frames
#                  (`palettegen`, then `paletteuse`: 256 colours, sierra2_4a dithering);
#   ffmpeg -O3     `gifsicle -O3` on ffmpeg's GIF (its decoded frames must equal ffmpeg's: checked).
# Quality: SSIM and PSNR (ffmpeg's ssim/psnr filters, RGB planes) of each GIF's decoded frames,
# resampled to the template's frame rate (`fps=R`: a GIF's merged frames and centisecond delays
# change its frame count, not what shows at each instant), against the raw frames; the number of
# frames compared must be the template's.
set -euo pipefail

RAW="$RAW_DIR/flick-peers-gif-$$.bgra"
trap 'rm -f "$RAW"' EXIT
if [ -z "${TEMPLATES:-}" ]; then
  TEMPLATES=$(for t in Templates/*.json5; do basename "$t" .json5; done)
fi

echo "GIF size and quality: $(gifsicle --version | head -1)"
printf "%-17s %-12s %11s %9s %9s %9s\n" template GIF bytes "vs flick" SSIM "PSNR dB"
# rgbmd5 GIF: md5 of its decoded RGBA frames (as they show, at their own timing).
rgbmd5() { ffmpeg -v error -i "$1" -f rawvideo -pix_fmt rgba - | md5sum | cut -d' ' -f1; }
for name in $TEMPLATES; do
  t="Templates/$name.json5"
  [ -f "$t" ] || { echo "bench-peers: no template $t" >&2; exit 2; }
  d="$WORK/gif-$name"; mkdir -p "$d"
  "$FLICK" render "$t" -o "$RAW" -q
  "$FLICK" render "$t" -o "$d/flick.gif" -q
  FLICK_GIFSICLE=none "$FLICK" render "$t" -o "$d/plain.gif" -q
  read -r size rate < <("$FLICK" render "$t" -o "$d/x.mp4" --dry-run \
    | python3 -c 'import shlex, sys; a = shlex.split(sys.stdin.readline())
print(a[a.index("-s") + 1], a[a.index("-framerate") + 1])')
  w=${size%x*} h=${size#*x}
  count=$(( $(stat -c %s "$RAW") / (w * h * 4) ))
  in=(-f rawvideo -pix_fmt bgra -s "$size" -framerate "$rate" -i "$RAW")
  ffmpeg -v error -y "${in[@]}" -vf palettegen "$d/palette.png"
  ffmpeg -v error -y "${in[@]}" -i "$d/palette.png" -lavfi paletteuse "$d/ffmpeg.gif"
  gifsicle -O3 "$d/plain.gif" -o "$d/plain-O3.gif"
  gifsicle -O3 "$d/ffmpeg.gif" -o "$d/ffmpeg-O3.gif"
  cmp -s "$d/plain-O3.gif" "$d/flick.gif" \
    || { echo "bench-peers: $name: gifsicle -O3 on the plain GIF is not flick's GIF" >&2; exit 1; }
  [ "$(rgbmd5 "$d/ffmpeg.gif")" = "$(rgbmd5 "$d/ffmpeg-O3.gif")" ] \
    || { echo "bench-peers: $name: gifsicle -O3 changed ffmpeg's pixels" >&2; exit 1; }
  fbytes=$(stat -c %s "$d/flick.gif")
  for gif in flick plain plain-O3 ffmpeg ffmpeg-O3; do
    bytes=$(stat -c %s "$d/$gif.gif")
    ssim="" psnr=""
    case "$gif" in flick | ffmpeg)
      log=$(ffmpeg -v info -nostats "${in[@]}" -i "$d/$gif.gif" -lavfi \
        "[1:v]fps=$rate,format=gbrp,split[g1][g2];[0:v]format=gbrp,split[r1][r2];[g1][r1]ssim;[g2][r2]psnr=stats_file=$d/psnr.log" \
        -f null - 2>&1)
      ssim=$(sed -n 's/.*SSIM .* All:\([0-9.]*\).*/\1/p' <<<"$log")
      psnr=$(sed -n 's/.*PSNR .* average:\([0-9.inf]*\).*/\1/p' <<<"$log")
      compared=$(wc -l <"$d/psnr.log")
      [ "$compared" = "$count" ] \
        || { echo "bench-peers: $name: $gif: $compared frames compared, expected $count" >&2; exit 1; } ;;
    esac
    printf "%-17s %-12s %11s %8.3fx %9s %9s\n" "$name" "$gif" "$bytes" \
      "$(python3 -c "print($bytes / $fbytes)")" "${ssim:-=}" "${psnr:-=}"
  done
  rm -rf "$d" "$RAW"
done
echo "(=: the same decoded pixels as flick (plain, plain-O3) or ffmpeg (ffmpeg-O3); flick = plain-O3 byte for byte)"
