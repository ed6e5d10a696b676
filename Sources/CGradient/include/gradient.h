#ifndef FLICK_GRADIENT_H
#define FLICK_GRADIENT_H

// The per-pixel work of FlickRaster's gradient rasters, in pixman 0.42's arithmetic.
//
// pixman's gradient walker (pixman-gradient-walker.c) for the pad extend: the premultiplied
// ARGB32 colour of a 16.16 gradient parameter, from the two stops around it, in the same float
// operations in the same order (FlickRaster's GradientWalker holds one; LinearGradientRaster
// and RadialGradientRaster read their colours from it).
//
// The per-pixel loop of FlickRaster's RadialGradientRaster: pixman 0.42's radial gradient scanline
// for an affine transform and the pad extend (pixman-radial-gradient.c, radial_get_scanline and
// radial_write_color: the same integer and double operations in the same order), composited with
// OVER onto the row (pixman's combine_over_u, exact 8-bit arithmetic). The colour of each gradient
// parameter comes from a table the Swift side fills with pixman's own gradient walker.
//
// Why C: these run once per pixel of every gradient Flick paints (and the walker for each of the
// 65,537 parameters of a radial gradient's table), and the debug build the tests run compiles
// Swift without optimisation. Where the CPU has AVX2, the table and the radial row run on eight
// floats or four doubles at a time: the same IEEE operations lane by lane (no fused
// multiply-add; sqrt and the conversions are exact the same way), so the same bytes; the scalar
// loops take whatever the vector ones hand back (flick_gradient_limit_vectors turns them off).

#include <stdint.h>

/// A walker over `count` stops (at least 2) plus the pad extend's two sentinels: `x` (16.16
/// positions, sorted, the first INT32_MIN and the last INT32_MAX) and the 16-bit channels
/// (`count` + 2 of each, the sentinels repeating the end stops). The caller keeps the arrays.
typedef struct {
  const int64_t *x;
  const uint16_t *alpha, *red, *green, *blue;
  int count;
  int needs_reset;
  int64_t left_x, right_x;
  float a_s, a_b, r_s, r_b, g_s, g_b, b_s, b_b;
} flick_gradient_walker;

/// pixman's `_pixman_gradient_walker_pixel_32`: the premultiplied colour of `t` (16.16).
uint32_t flick_gradient_walker_pixel(flick_gradient_walker *walker, int64_t t);

/// The colours of every t in `low...high`, into `out` (high − low + 1 entries).
void flick_gradient_walker_table(flick_gradient_walker *walker, int64_t low, int64_t high, uint32_t *out);

/// The gradient's constants as pixman holds them: `a` = A (exact, then as a double), `inva` =
/// 65536 / A, `dr` = the radius difference (16.16), `mindr` = −65536 · r₁.
typedef struct {
  double a, inva, dr, mindr;
} flick_radial_gradient;

/// The colours of t (16.16) for `low <= t <= high`: `table[t - low]`; `below` under `low` and
/// `above` over `high`.
typedef struct {
  const uint32_t *table;
  int64_t low, high;
  uint32_t below, above;
} flick_radial_colors;

/// One row of `width` premultiplied ARGB32 pixels: pixel i gets the gradient's colour at the
/// quadratic's state after i steps (b += db; c += dc; dc += ddc, 32.32 integers as pixman keeps
/// them), composited over what `row` holds; or, when `clear` is non-zero and the row holds only
/// zeros, stored (what OVER gives there, with none of its arithmetic).
void flick_radial_over_row(uint32_t *row, int width, int64_t b, int64_t db, int64_t c, int64_t dc, int64_t ddc,
                           flick_radial_gradient gradient, flick_radial_colors colors, int clear);

/// Limits the vector loops to `bits` (256: AVX2 where the CPU has it; 0: the scalar loops only,
/// which give the same bytes) and returns the width they now use. For tests and benchmarks.
int flick_gradient_limit_vectors(int bits);

#endif
