// libjpeg reports fatal errors by longjmp, which Swift cannot catch; this wrapper keeps the
// setjmp on the C side and returns a status instead.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>

typedef struct flick_jpeg_error {
  struct jpeg_error_mgr base;
  jmp_buf escape;
  char message[JMSG_LENGTH_MAX];
} flick_jpeg_error;

static void flick_jpeg_error_exit(j_common_ptr info) {
  flick_jpeg_error *error = (flick_jpeg_error *)info->err;
  (*info->err->format_message)(info, error->message);
  longjmp(error->escape, 1);
}

static void flick_jpeg_silence(j_common_ptr info, int level) { (void)info; (void)level; }

/// The most scans a progressive JPEG may have. Each scan is a pass over the whole image: a file of
/// a few hundred kilobytes that is nothing but refinement scans takes minutes to decode. Real
/// progressive files have about ten (libjpeg's own scripts, mozjpeg); libjpeg-turbo's TurboJPEG
/// API offers the same kind of limit.
enum { FLICK_JPEG_MAXIMUM_SCANS = 100 };

/// libjpeg's progress hook, called as it reads each scan: stops a file of more scans than the limit.
static void flick_jpeg_progress(j_common_ptr info) {
  if (!info->is_decompressor) return;
  j_decompress_ptr decompress = (j_decompress_ptr)info;
  if (decompress->input_scan_number > FLICK_JPEG_MAXIMUM_SCANS) {
    flick_jpeg_error *error = (flick_jpeg_error *)info->err;
    snprintf(error->message, JMSG_LENGTH_MAX, "more than %d progressive scans", FLICK_JPEG_MAXIMUM_SCANS);
    longjmp(error->escape, 1);
  }
}

/// Converts `width` CMYK pixels at `cmyk` to RGB at `rgb` (which may start before `cmyk` in the
/// same buffer: each pixel is read before its RGB is written, and no write reaches a pixel not
/// read yet) with
/// the plain formula R = 255 (1 - C)(1 - K), G and B likewise from M and Y; no ICC colour
/// management. Adobe's files (`inverted`: they carry the APP14 marker, as Photoshop's and
/// Pillow's do) store 255 - ink for each channel, the others the ink itself.
static inline void flick_jpeg_cmyk_to_rgb(const unsigned char *cmyk, unsigned char *rgb, unsigned width,
                                          int inverted) {
  for (unsigned x = 0; x < width; x++) {
    unsigned c = cmyk[4 * x], m = cmyk[4 * x + 1], y = cmyk[4 * x + 2], k = cmyk[4 * x + 3];
    if (!inverted) {
      c = 255 - c;
      m = 255 - m;
      y = 255 - y;
      k = 255 - k;
    }
    // Now 255 - ink: (1 - C)(1 - K) = c k / 255², rounded.
    rgb[3 * x] = (unsigned char)((c * k + 127) / 255);
    rgb[3 * x + 1] = (unsigned char)((m * k + 127) / 255);
    rgb[3 * x + 2] = (unsigned char)((y * k + 127) / 255);
  }
}

/// Decodes JPEG bytes into tightly packed 8-bit RGB rows (malloc'd; the caller frees `*rgb`),
/// refusing a frame of more than `max_pixels` pixels (as libjpeg reads the frame header, before
/// anything is allocated for it) and a progressive file of more than FLICK_JPEG_MAXIMUM_SCANS
/// scans. Returns 0 on success, else 1 with a message in `message` (at least JMSG_LENGTH_MAX
/// bytes).
static inline int flick_jpeg_decode(const unsigned char *data, unsigned long size, unsigned long long max_pixels,
                                    unsigned char **rgb, int *width, int *height, char *message) {
  struct jpeg_decompress_struct info;
  struct jpeg_progress_mgr progress;
  flick_jpeg_error error;
  unsigned char *volatile pixels = NULL;
  memset(&info, 0, sizeof info);
  memset(&progress, 0, sizeof progress);
  info.err = jpeg_std_error(&error.base);
  error.base.error_exit = flick_jpeg_error_exit;
  error.base.emit_message = flick_jpeg_silence;
  error.message[0] = 0;
  if (setjmp(error.escape)) {
    jpeg_destroy_decompress(&info);
    free(pixels);
    strncpy(message, error.message, JMSG_LENGTH_MAX - 1);
    message[JMSG_LENGTH_MAX - 1] = 0;
    return 1;
  }
  jpeg_create_decompress(&info);
  progress.progress_monitor = flick_jpeg_progress;
  info.progress = &progress;
  jpeg_mem_src(&info, data, size);
  jpeg_read_header(&info, TRUE);
  if ((unsigned long long)info.image_width * info.image_height > max_pixels) {
    snprintf(error.message, JMSG_LENGTH_MAX, "the frame header gives %u×%u pixels, more than %llu",
             (unsigned)info.image_width, (unsigned)info.image_height, max_pixels);
    longjmp(error.escape, 1);
  }
  // libjpeg converts only YCbCr, RGB and greyscale to RGB: CMYK and YCCK (Adobe's YCbCr of
  // C, M, Y with K beside) come out as CMYK and are converted here, row by row.
  int cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
  info.out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
  jpeg_start_decompress(&info);
  size_t stride = (size_t)info.output_width * 3;
  // One more row for CMYK: each row is decoded at the end (4 bytes a pixel over its own 3 and
  // the next row's first) and converted forwards into its place, which never overtakes the read.
  size_t rows = (size_t)info.output_height + (cmyk ? 1 : 0);
  pixels = (unsigned char *)malloc(stride * rows);
  if (!pixels) {
    jpeg_destroy_decompress(&info);
    strcpy(message, "out of memory");
    return 1;
  }
  while (info.output_scanline < info.output_height) {
    unsigned char *place = pixels + stride * info.output_scanline;
    JSAMPROW row = cmyk ? place + stride - info.output_width : place;
    jpeg_read_scanlines(&info, &row, 1);
    if (cmyk) flick_jpeg_cmyk_to_rgb(row, place, info.output_width, info.saw_Adobe_marker);
  }
  jpeg_finish_decompress(&info);
  *width = (int)info.output_width;
  *height = (int)info.output_height;
  *rgb = pixels;
  jpeg_destroy_decompress(&info);
  return 0;
}
