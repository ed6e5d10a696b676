#include "gradient.h"

#include <math.h>

// pixman's double expressions, term by term; no fused multiply-add.
#pragma STDC FP_CONTRACT OFF

// pixman's `(pixman_fixed_48_16_t) t`: x86-64's truncating conversion, whose result for NaN and
// values out of range is INT64_MIN (C leaves it undefined, so it is spelled out here).
static inline int64_t truncate_parameter(double t) {
  if (!(t > -9.2e18 && t < 9.2e18)) return INT64_MIN;
  return (int64_t)t;
}

static inline uint32_t color_of(const flick_radial_colors *colors, int64_t t) {
  if (t < colors->low) return colors->below;
  if (t > colors->high) return colors->above;
  return colors->table[t - colors->low];
}

// radial_write_color for the pad extend (a != 0): the colour, or 0 where no circle reaches.
static inline uint32_t radial_color(const flick_radial_gradient *g, const flick_radial_colors *colors, double b,
                                    double c) {
  // fdot (b, a, 0, b, -c, 0), term by term.
  double discr = b * b + g->a * -c + 0.0 * 0.0;
  if (discr >= 0) {
    double sqrtdiscr = sqrt(discr);
    double t0 = (b + sqrtdiscr) * g->inva;
    double t1 = (b - sqrtdiscr) * g->inva;
    if (t0 * g->dr >= g->mindr) return color_of(colors, truncate_parameter(t0));
    if (t1 * g->dr >= g->mindr) return color_of(colors, truncate_parameter(t1));
  }
  return 0;
}

// pixman's UN8x4_MUL_UN8_ADD_UN8x4 (pixman-combine32.h): d · (255 − αs) / 255 rounded, plus s,
// saturated, two channels at a time.
static inline uint32_t over(uint32_t s, uint32_t d) {
  uint32_t ia = 255 - (s >> 24);
  uint32_t result = 0;
  for (int shift = 0; shift < 16; shift += 8) {
    uint32_t t = ((d >> shift) & 0x00ff00ff) * ia + 0x00800080;
    t = ((t + ((t >> 8) & 0x00ff00ff)) >> 8) & 0x00ff00ff;
    t += (s >> shift) & 0x00ff00ff;
    t |= 0x10000100 - ((t >> 8) & 0x00ff00ff);
    result |= (t & 0x00ff00ff) << shift;
  }
  return result;
}

void flick_radial_over_row(uint32_t *row, int width, int64_t b, int64_t db, int64_t c, int64_t dc, int64_t ddc,
                           flick_radial_gradient gradient, flick_radial_colors colors, int clear) {
  // pixman keeps b, c and dc in 64-bit integers and lets them wrap; unsigned arithmetic here.
  uint64_t ub = (uint64_t)b, uc = (uint64_t)c, udc = (uint64_t)dc;
  if (clear) {
    for (int i = 0; i < width; i++) {
      row[i] = radial_color(&gradient, &colors, (double)(int64_t)ub, (double)(int64_t)uc);
      ub += (uint64_t)db;
      uc += udc;
      udc += (uint64_t)ddc;
    }
    return;
  }
  for (int i = 0; i < width; i++) {
    uint32_t s = radial_color(&gradient, &colors, (double)(int64_t)ub, (double)(int64_t)uc);
    uint32_t alpha = s >> 24;
    if (alpha == 0xff) {
      row[i] = s;
    } else if (s != 0) {
      row[i] = over(s, row[i]);
    }
    ub += (uint64_t)db;
    uc += udc;
    udc += (uint64_t)ddc;
  }
}
