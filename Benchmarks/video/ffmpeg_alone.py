#!/usr/bin/env python3
"""ffmpeg alone on flick's frames: turns `flick render … --dry-run` (stdin, one command a line)
into a shell script that runs the same ffmpeg commands reading a raw BGRA file instead of
flick's pipe (Benchmarks/video/templates.sh, Benchmarks/peers/run.sh).

    ffmpeg_alone.py RAW.bgra OUT.sh [YUV Y.sh]

An MP4's ffmpeg reads the yuv420p planes flick converts; OUT.sh has it read the BGRA file and
convert with ffmpeg's own `scale` step instead (the filter flick's command used before flick
converted, the same bytes), so it is the whole job from rendered frames. With YUV and Y.sh, and
when every command reads yuv420p, it also writes the planes of RAW.bgra to YUV (with that same
filter) and Y.sh, the commands as flick runs them, reading YUV.
"""
import shlex
import subprocess
import sys

SCALE = "scale=out_color_matrix=bt709:out_range=tv:flags=bicubic+accurate_rnd+full_chroma_int,format=yuv420p"


def reads_yuv(args):
    i = args.index("-pix_fmt")
    return args[i + 1] == "yuv420p" and i < args.index("-i")


def converting(args, raw):
    args = list(args)
    if reads_yuv(args):
        args[args.index("-pix_fmt") + 1] = "bgra"
        args[args.index("-vf") + 1] = SCALE + "," + args[args.index("-vf") + 1]
    return [raw if a == "pipe:0" else a for a in args]


def script(path, commands):
    with open(path, "w") as f:
        f.write("set -e\n")
        for args in commands:
            f.write(" ".join(shlex.quote(a) for a in args) + " >/dev/null\n")


def main():
    raw, out = sys.argv[1], sys.argv[2]
    commands = [shlex.split(line) for line in sys.stdin if line.strip()]
    script(out, [converting(args, raw) for args in commands])
    if len(sys.argv) == 5 and commands and all(reads_yuv(args) for args in commands):
        yuv, yout = sys.argv[3], sys.argv[4]
        first = commands[0]
        size = first[first.index("-s") + 1]
        subprocess.run(
            ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "bgra", "-s", size,
             "-i", raw, "-vf", SCALE, "-f", "rawvideo", yuv], check=True)
        script(yout, [[yuv if a == "pipe:0" else a for a in args] for args in commands])


main()
