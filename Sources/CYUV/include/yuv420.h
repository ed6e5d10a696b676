#ifndef FLICK_YUV420_H
#define FLICK_YUV420_H

// The loops of Flick's BGRA → yuv420p conversion (FlickVideo's YUV420Converter, which
// derives the coefficients and documents the arithmetic: libswscale 5.1's, step for step). AVX2
// where the CPU has it and SSE2 otherwise on x86-64 (pmaddwd, as libswscale's own x86 code), plain
// C elsewhere; all three compute the same integers.
//
// Why C: written in Swift, these loops were not vectorised for the baseline x86-64 target and cost
// 1.7 ms a 960x540 frame (0.5 ms here; swscale 1.2-1.9 ms). Why not libswscale itself: the planes
// must not depend on the installed ffmpeg, and Debian's build is GPL-enabled. What they must match:
// libswscale 5.1's integers for the MP4's `scale` filter, on every CPU. Pinned by
// YUV420ConverterTests (FlickVideoTests), which compares the planes with ffmpeg's.

#include <stdint.h>

/// Coefficients of one output plane, 15-bit: Y (or Cb, Cr) = r·r + g·g + b·b + offset, >> shift.
typedef struct {
  int16_t r, g, b;
} flick_yuv_coefficients;

/// One row of `count` (even) BGRA pixels: `luma[x]` = (Y·pixel + 0x84100) >> 15 for each pixel,
/// and for each pair of pixels `cb[x/2]`, `cr[x/2]` = ((coefficients · sum of the pair +
/// 0x800200) >> 10) × 2, the 15-bit chroma of libswscale's horizontal stage.
void flick_yuv420_row(const uint8_t *pixels, int count, flick_yuv_coefficients y, flick_yuv_coefficients u,
                      flick_yuv_coefficients v, uint8_t *luma, int16_t *cb, int16_t *cr);

/// One output row of a chroma plane: `out[x]` = clamp((64 << 12 + Σ coefficients[t] ·
/// rows[t][x]) >> 19, 0, 255) for `taps` rows of `width` 15-bit values.
void flick_yuv420_filter_row(const int16_t *const *rows, int width, const int16_t *coefficients, int taps,
                             uint8_t *out);

/// The vertical chroma filter of one frame height (FlickVideo's YUV420Converter derives it): for
/// each output chroma row, `available[row]` (at most `taps`, at most 64) source rows from
/// `start[row]` weighted by `coefficients[row * taps ...]`; the horizontal stage's rows are kept
/// in rings of `ring_rows` rows (source row r at r % ring_rows), enough for every output row's
/// taps.
typedef struct {
  const int *start;
  const int *available;
  const int16_t *coefficients;
  int taps;
  int ring_rows;
} flick_yuv_chroma_filter;

/// A whole `width × height` BGRA frame (both even) into `out`: the Y plane, then Cb, then Cr. The
/// rows go through flick_yuv420_row in order, each output chroma row through
/// flick_yuv420_filter_row as soon as its taps are in, so `cb_ring` and `cr_ring`
/// (`ring_rows × width / 2` values each) stay in the cache. A filter of more than 64 taps is not
/// taken: nothing is written.
void flick_yuv420_frame(const uint8_t *pixels, int width, int height, flick_yuv_coefficients y,
                        flick_yuv_coefficients u, flick_yuv_coefficients v, const flick_yuv_chroma_filter *filter,
                        int16_t *cb_ring, int16_t *cr_ring, uint8_t *out);

/// Caps the vectors the two loops use at `bits` (256: AVX2 where the CPU has it, 128: SSE2, 0:
/// plain C; the default is 256) and returns the width now in use. For tests that compare the
/// paths: each gives the same bytes.
int flick_yuv420_limit_vectors(int bits);

#endif
