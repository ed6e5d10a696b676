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
  info.out_color_space = JCS_RGB;
  jpeg_start_decompress(&info);
  size_t stride = (size_t)info.output_width * 3;
  pixels = (unsigned char *)malloc(stride * info.output_height);
  if (!pixels) {
    jpeg_destroy_decompress(&info);
    strcpy(message, "out of memory");
    return 1;
  }
  while (info.output_scanline < info.output_height) {
    JSAMPROW row = pixels + stride * info.output_scanline;
    jpeg_read_scanlines(&info, &row, 1);
  }
  jpeg_finish_decompress(&info);
  *width = (int)info.output_width;
  *height = (int)info.output_height;
  *rgb = pixels;
  jpeg_destroy_decompress(&info);
  return 0;
}
