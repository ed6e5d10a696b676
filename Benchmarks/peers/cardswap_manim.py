"""The card-swap benchmark motion in Manim Community (Cairo renderer), for `make bench-peers`.

The same four cards, slots, swing-out (easeIn, 0.55 s) and springs (response/damping ratio, from
rest) as Benchmarks/video/card-swap.json5, evaluated per frame by an updater, every 2.5 s for
10 s. What Manim draws differs where it has no equivalent (see docs/benchmarks.md): hard offset
shadows instead of blurred ones, a static gradient background instead of an animated one, the
photo unclipped (Manim cannot clip an image to a rounded frame), text by Pango as in Flick.
"""
import math
import os

from manim import (Arc, ImageMobject, RoundedRectangle, Rectangle, Scene, Text, ValueTracker, config,
                   ManimColor, linear)

W, H = 1280, 720
PHOTO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "video", "photo.png")
PALETTES = [("#F472B6", "#DB2777"), ("#60A5FA", "#2563EB"), ("#FBBF24", "#D97706"), ("#34D399", "#059669")]
TITLES = ["Northern Lights", "Harbour at Dawn", "Desert Roads", "Forest Rain"]
SLOTS = [(560 + k * 60, 380 - k * 34) for k in range(4)]  # front → back
OUT = (980, 300)
DURATION = 10.0


def units(x, y):
    """Flick canvas pixels (y down) → Manim scene units (y up, origin in the middle)."""
    fw, fh = config.frame_width, config.frame_height
    return ((x - W / 2) / W * fw, (H / 2 - y) / H * fh, 0)


def ease_in(u):
    # CSS/CA easeIn, cubic-bezier(0.42, 0, 1, 1), solved for x by bisection.
    lo, hi = 0.0, 1.0
    for _ in range(30):
        s = (lo + hi) / 2
        x = 3 * (1 - s) ** 2 * s * 0.42 + 3 * (1 - s) * s * s + s ** 3
        lo, hi = (s, hi) if x < u else (lo, s)
    s = (lo + hi) / 2
    return 3 * (1 - s) * s * s + s ** 3


def spring(t, response, damping):
    w0 = 2 * math.pi / response
    if damping >= 1:
        return 1 - math.exp(-w0 * t) * (1 + w0 * t)
    wd = w0 * math.sqrt(1 - damping * damping)
    return 1 - math.exp(-damping * w0 * t) * (math.cos(wd * t) + damping * w0 / wd * math.sin(wd * t))


def segments(card):
    """(start, kind, from, to) for one card: kind "out" (easeIn swing), "back" or "forward" (springs)."""
    slot = card  # current slot index
    segs = []
    for k in range(4):
        start = 0.5 + 2.5 * k
        if k % 4 == card:
            segs.append((start, "out", (SLOTS[slot], 0.0), (OUT, 0.18)))
            segs.append((start + 0.55, "back", (OUT, 0.18), (SLOTS[3], 0.0)))
            slot = 3
        else:
            segs.append((start + 0.15, "forward", (SLOTS[slot], 0.0), (SLOTS[slot - 1], 0.0)))
            slot -= 1
    return segs


def state(card, t):
    pos, rot, z = SLOTS[card], 0.0, 4 - card
    for start, kind, (p0, r0), (p1, r1) in segments(card):
        if t < start:
            break
        dt = t - start
        f = ease_in(min(dt / 0.55, 1)) if kind == "out" else spring(dt, 0.6 if kind == "back" else 0.5,
                                                                   0.8 if kind == "back" else 0.75)
        pos = (p0[0] + (p1[0] - p0[0]) * f, p0[1] + (p1[1] - p0[1]) * f)
        rot = r0 + (r1 - r0) * f
        slot = SLOTS.index(p1) if p1 in SLOTS else None
        z = 0 if kind in ("out", "back") and dt >= (0.55 if kind == "out" else 0) else (4 - slot if slot is not None else z)
    return pos, rot, z


class CardSwap(Scene):
    def construct(self):
        px = config.frame_width / W
        background = Rectangle(width=config.frame_width, height=config.frame_height, stroke_width=0)
        background.set_fill(color=[ManimColor("#0F172A"), ManimColor("#312E81"), ManimColor("#0E7490")], opacity=1)
        background.set_sheen_direction((1, -1, 0))
        self.add(background)
        cards = []
        for i, (top, bottom) in enumerate(PALETTES):
            shadow = RoundedRectangle(corner_radius=24 * px, width=300 * px, height=400 * px, stroke_width=0)
            shadow.set_fill(ManimColor("#020617"), opacity=0.45)
            body = RoundedRectangle(corner_radius=24 * px, width=300 * px, height=400 * px, stroke_width=0)
            body.set_fill(color=[ManimColor(top), ManimColor(bottom)], opacity=1)
            body.set_sheen_direction((1, -1, 0))
            photo = ImageMobject(PHOTO)
            photo.height = 512 * 0.6 * px * 210 / 512 * 1.0
            title = Text(TITLES[i], font_size=24 * px * 48, weight="BOLD", color="#FFFFFF")
            subtitle = Text("Tromsø · 14 photos · 3 min read", font_size=15 * px * 48, color="#FFFFFF")
            subtitle.set_opacity(0.8)
            cards.append((shadow, body, photo, title, subtitle))
            for m in (shadow, body, photo, title, subtitle):
                self.add(m)
        track = Arc(radius=40 * px, angle=2 * math.pi, stroke_width=10 * px * 100 / 1.39, color="#FFFFFF")
        track.set_stroke(opacity=0.15)
        track.move_to(units(1190, 90))
        self.add(track)
        clock = ValueTracker(0)

        def ring():
            t = clock.get_value()
            arc = Arc(radius=40 * px, start_angle=math.pi / 2, angle=-max(1e-3, 2 * math.pi * t / DURATION),
                      stroke_width=10 * px * 100 / 1.39, color="#A5F3FC")
            arc.shift(units(1190, 90) - arc.get_arc_center())
            return arc

        from manim import always_redraw
        self.add(always_redraw(ring))

        def place(_):
            t = clock.get_value()
            for i, (shadow, body, photo, title, subtitle) in enumerate(cards):
                (x, y), rot, z = state(i, t)
                for m in (shadow, body, photo, title, subtitle):
                    m.set_z_index(10 * z + [0, 1, 2, 3, 3][(shadow, body, photo, title, subtitle).index(m)])
                body.move_to(units(x, y)).rotate(rot - getattr(body, "_angle", 0.0))
                shadow.move_to(units(x, y + 12)).rotate(rot - getattr(shadow, "_angle", 0.0))
                body._angle = shadow._angle = rot
                photo.move_to(units(x, y - 70)).rotate(6.0 * t / DURATION - getattr(photo, "_angle", 0.0))
                photo._angle = 6.0 * t / DURATION
                title.move_to(units(x, y + 70))
                subtitle.move_to(units(x, y + 104))

        background.add_updater(place)
        self.play(clock.animate.set_value(DURATION), run_time=DURATION, rate_func=linear)
