#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastpng.h"
#include "pngdecode.h"

/// Writes premultiplied Cairo ARGB32 pixels (BGRA in memory, `stride` bytes a row) to `path` as
/// an 8-bit PNG the way cairo_surface_write_to_png stores them: RGB when every pixel is opaque,
/// otherwise RGBA un-premultiplied with Cairo's rounding ((c * 255 + a / 2) / a; a = 0 gives 0),
/// so the decoded pixels are Cairo's. Compression is tuned for speed: zlib level 1 and the Up
/// filter on every row (about 5x faster than libpng's defaults, and smaller on rendered frames).
/// libpng reports errors by longjmp, which Swift cannot cross, so it all happens here.
/// Frame.writePNG now uses fastpng.h (same decoded pixels, about twice as fast or more); this
/// writer stays as the reference its tests and Benchmarks/raster/png-bench.c compare against.
///
/// Returns 0, or an errno value (EIO when libpng failed without one).
static inline int flick_png_write(const char *path, const uint8_t *pixels, int width, int height, int stride) {
  int opaque = 1;
  for (int y = 0; y < height && opaque; y++) {
    const uint8_t *row = pixels + (size_t)y * (size_t)stride;
    for (int x = 0; x < width; x++) {
      if (row[4 * x + 3] != 255) { opaque = 0; break; }
    }
  }
  int channels = opaque ? 3 : 4;
  FILE *volatile file = fopen(path, "wb");
  if (!file) return errno ? errno : EIO;
  errno = 0;
  uint8_t *volatile line = malloc((size_t)width * (size_t)channels + 1);
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!line || !png || !info) {
    png_destroy_write_struct(&png, &info);
    free(line);
    fclose(file);
    return ENOMEM;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    free(line);
    fclose(file);
    return errno ? errno : EIO;
  }
  png_init_io(png, file);
  png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
               opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, 1);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
  png_write_info(png, info);
  for (int y = 0; y < height; y++) {
    // The same conversion as the fast encoder's (`line` has the byte of slack it needs).
    flick_fastpng_convert(pixels + (size_t)y * (size_t)stride, width, opaque, line);
    png_write_row(png, line);
  }
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  free(line);
  errno = 0;
  if (fclose(file) != 0) return errno ? errno : EIO;
  return 0;
}

/// Decodes the PNG file at `path` with libpng's simplified reader into 8-bit straight RGBA
/// (`*rgba`, malloc'd, width × height × 4 bytes; the caller frees it): an independent decoder for
/// the tests of Flick's own encoder (fastpng.h).
///
/// Returns 0, or -1 when the file is not a PNG libpng accepts (or memory ran out).
static inline int flick_png_read_rgba(const char *path, int *width, int *height, uint8_t **rgba) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  *rgba = NULL;
  if (!png_image_begin_read_from_file(&image, path)) return -1;
  image.format = PNG_FORMAT_RGBA;
  uint8_t *buffer = malloc(PNG_IMAGE_SIZE(image));
  if (!buffer || !png_image_finish_read(&image, NULL, buffer, 0, NULL)) {
    free(buffer);
    png_image_free(&image);
    return -1;
  }
  *width = (int)image.width;
  *height = (int)image.height;
  *rgba = buffer;
  return 0;
}

/// How many bytes the zlib stream `data[0, n)` inflates to, counted through a fixed 64 KiB buffer
/// (zlib's 32 KiB window and that buffer, whatever the stream) and stopping as soon as the count
/// passes `limit`. A stream that stops being valid (or needs a preset dictionary, which PNG
/// never has) is counted up to where zlib stops, as far as a decoder could get.
static inline long flick_inflated_size(const uint8_t *data, size_t n, long limit) {
  z_stream s;
  memset(&s, 0, sizeof s);
  if (inflateInit(&s) != Z_OK) return 0;
  static _Thread_local unsigned char out[1 << 16];
  s.next_in = (unsigned char *)data;
  s.avail_in = n > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uInt)n;
  long total = 0;
  for (;;) {
    s.next_out = out;
    s.avail_out = sizeof out;
    int status = inflate(&s, Z_NO_FLUSH);
    total += (long)(sizeof out - s.avail_out);
    if (status != Z_OK || total > limit) break;
  }
  inflateEnd(&s);
  return total;
}
