#ifndef FLICK_PNGDECODE_H
#define FLICK_PNGDECODE_H

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/// zlib's CRC-32 of `count` bytes (PNG's chunk CRC), for the Swift pre-check and writer.
static inline uint32_t flick_png_crc32(const uint8_t *bytes, size_t count) {
  uLong crc = crc32(0L, Z_NULL, 0);
  while (count > 0) {
    uInt n = count > 0x40000000u ? 0x40000000u : (uInt)count;
    crc = crc32(crc, bytes, n);
    bytes += n;
    count -= n;
  }
  return (uint32_t)crc;
}

/// Decodes golden PNGs with libpng for FlickSnapshot's PNGImage, behind its Swift header
/// pre-check (size limits from IHDR and "deflate cannot expand the data into that many rows",
/// both before any pixel memory exists). libpng then checks every chunk's CRC (critical and
/// ancillary: PNG_CRC_ERROR_QUIT), the zlib stream and its Adler-32, every filter byte, palette
/// indices and the amount of data; benign errors are errors, so a damaged file never decodes.
/// Every ancillary chunk but tRNS (colour metadata: iCCP, sRGB, gAMA, cHRM, cICP; text; bKGD,
/// pHYs, sBIT, tIME, eXIf, private chunks …) is skipped unread, CRC still checked: Flick never
/// applies colour metadata, and one libpng finds odd (an RGB ICC profile on a grey image, sRGB
/// with another gAMA, an invalid cHRM) made a valid PNG "damaged". The renderer fingerprint
/// (tEXt) is read by the Swift chunk walk (PNGFile.check), the one reader of it.
/// Limits: png_set_user_limits to the header's own size (checked by the caller) and
/// png_set_chunk_malloc_max for every chunk libpng buffers. libpng reports errors by longjmp,
/// which Swift cannot cross, so the whole decode happens here.

/// Where libpng reads from, and where its error message goes.
typedef struct {
  const uint8_t *bytes;
  size_t count;
  size_t offset;
  char message[200];
  jmp_buf jump;
} flick_png_source;

static void flick_png_read(png_structp png, png_bytep out, size_t length) {
  flick_png_source *source = (flick_png_source *)png_get_io_ptr(png);
  if (length > source->count - source->offset) png_error(png, "the file ends early (truncated)");
  memcpy(out, source->bytes + source->offset, length);
  source->offset += length;
}

static void flick_png_error(png_structp png, png_const_charp message) {
  flick_png_source *source = (flick_png_source *)png_get_error_ptr(png);
  snprintf(source->message, sizeof source->message, "%s", message ? message : "libpng error");
  longjmp(source->jump, 1);
}

static void flick_png_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;
}

/// Decodes `count` bytes of PNG into `out`: `width * height` straight-alpha words, B | G<<8 |
/// R<<16 | A<<24 (little-endian BGRA), every colour type, depth (16-bit keeps the high byte) and
/// interlacing. Returns 0, or 1 with the reason in `message`.
static inline int flick_png_decode(const uint8_t *bytes, size_t count, uint32_t width, uint32_t height,
                                   size_t chunk_malloc_max, uint32_t *out, char *message, size_t message_size) {
  flick_png_source source = {bytes, count, 0, {0}};
  png_bytep *volatile rows = NULL;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &source, flick_png_error, flick_png_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  png_infop end = png ? png_create_info_struct(png) : NULL;
  if (!png || !info || !end) {
    png_destroy_read_struct(&png, &info, &end);
    snprintf(message, message_size, "out of memory");
    return 1;
  }
  if (setjmp(source.jump)) {
    free(rows);
    png_destroy_read_struct(&png, &info, &end);
    snprintf(message, message_size, "%s", source.message);
    return 1;
  }
  png_set_read_fn(png, &source, flick_png_read);
  png_set_user_limits(png, width, height);
  png_set_chunk_malloc_max(png, chunk_malloc_max);
  png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
  png_set_benign_errors(png, 0);
#ifdef PNG_CHECK_FOR_INVALID_INDEX_SUPPORTED
  png_set_check_for_invalid_index(png, 1);
#endif
  // A negative count: every unknown chunk and every known one but IHDR, PLTE, tRNS, IDAT and
  // IEND is handled as "never keep" (libpng manual, "Unknown-chunk handling"), so skipped with
  // its CRC checked. An unknown critical chunk is still an error.
#ifdef PNG_HANDLE_AS_UNKNOWN_SUPPORTED
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
#endif
  png_read_info(png, info);
  if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height) {
    png_error(png, "the header changed between the checks");
  }
  int type = png_get_color_type(png, info);
  // Palette images are read as one index a byte and mapped here: libpng's own index check does
  // not run once it expands the palette, and an index beyond PLTE must be an error.
  png_colorp palette = NULL;
  int entries = 0;
  png_bytep alphas = NULL;
  int alphaCount = 0;
  if (type == PNG_COLOR_TYPE_PALETTE) {
    if (png_get_PLTE(png, info, &palette, &entries) != PNG_INFO_PLTE) png_error(png, "palette image without PLTE");
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_get_tRNS(png, info, &alphas, &alphaCount, NULL);
    png_set_packing(png);
  } else {
    png_set_expand(png);
  }
  png_set_strip_16(png);
  if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
  if (type != PNG_COLOR_TYPE_PALETTE) {
    png_set_bgr(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
  }
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  size_t expected = type == PNG_COLOR_TYPE_PALETTE ? (size_t)width : (size_t)width * 4;
  if (png_get_rowbytes(png, info) != expected) png_error(png, "unexpected row layout");
  rows = malloc(sizeof(png_bytep) * (height ? height : 1));
  if (!rows) png_error(png, "out of memory");
  for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)(out + (size_t)y * width);
  png_read_image(png, rows);
  if (type == PNG_COLOR_TYPE_PALETTE) {
    // Each row holds `width` indices at its start: expanded in place from the end.
    for (uint32_t y = 0; y < height; y++) {
      uint8_t *index = (uint8_t *)(out + (size_t)y * width);
      for (uint32_t x = width; x-- > 0;) {
        int i = index[x];
        if (i >= entries) png_error(png, "palette index beyond the PLTE entries");
        uint32_t a = i < alphaCount ? alphas[i] : 0xFF;
        out[(size_t)y * width + x] =
          (uint32_t)palette[i].blue | (uint32_t)palette[i].green << 8 | (uint32_t)palette[i].red << 16 | a << 24;
      }
    }
  }
  png_read_end(png, end);
  free(rows);
  png_destroy_read_struct(&png, &info, &end);
  return 0;
}

#endif
