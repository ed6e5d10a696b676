# Sourced by the benchmarks that run "ffmpeg alone" with flick's own commands (--dry-run) on
# frames rendered to a raw file (`flick render -o X.bgra`, BGRA). An MP4's ffmpeg reads packed
# BGR (`-pix_fmt bgr24`, FFmpegCommand.inputPixelFormat): for such commands the raw file is
# rewritten as BGR, an exact drop of the alpha byte, so ffmpeg alone reads what flick sends.
#   raw_input RAW COMMANDS   rewrites RAW when COMMANDS (a file of command lines) reads bgr24;
#                            prints the bytes per pixel of RAW afterwards (3 or 4).
raw_input() {
  local raw=$1 commands=$2 size
  if grep -q -- "-pix_fmt bgr24" "$commands"; then
    size=$(grep -o -- "-s [0-9]*x[0-9]*" "$commands" | head -1 | cut -d' ' -f2)
    ffmpeg -v error -y -f rawvideo -pix_fmt bgra -s "$size" -i "$raw" -f rawvideo -pix_fmt bgr24 "$raw.bgr24"
    mv "$raw.bgr24" "$raw"
    echo 3
  else
    echo 4
  fi
}
