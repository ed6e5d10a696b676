#!/usr/bin/env python3
"""Writes a template whose one text layer changes N times, each a `set` with a `transition`.

    python3 Benchmarks/compile/text-changes.py N [string|number|mixed] > changes.json5

`string` (the default) sets N distinct strings ("item 0", "item 1", ...), `number` sets N numbers,
`mixed` alternates the two; the transitions alternate `roll` and `fade`. Each change is two
animations (the text and its `transitionProgress`), so 100,000 changes reach the 200,000
animations a template may compile to. The changes share the canvas's 10 s evenly; the file is
about 120 bytes a change. docs/benchmarks.md ("Template compile time") times `flick still` of it.
"""
import sys


def main() -> None:
    n = int(sys.argv[1])
    kind = sys.argv[2] if len(sys.argv) > 2 else "string"
    if kind not in ("string", "number", "mixed"):
        sys.exit("kind: string, number or mixed")
    duration = 10.0
    step = duration / (n + 1)
    lines = [
        "{ flick: 1, canvas: { width: 320, height: 120, duration: %g }," % duration,
        '  layers: [{ id: "label", size: [300, 40], position: [160, 60], string: "start", fontSize: 20 }],',
        "  timeline: [",
    ]
    for i in range(n):
        as_string = kind == "string" or (kind == "mixed" and i % 2 == 0)
        value = 'string: "item %d"' % i if as_string else "number: %d" % i
        lines.append(
            '    { at: %.6f, target: "label", set: { %s }, transition: { kind: "%s", duration: %.6f } },'
            % ((i + 1) * step, value, ("roll", "fade")[i % 2], step * 0.9)
        )
    lines.append("  ] }")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
