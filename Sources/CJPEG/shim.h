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

/// Decodes JPEG bytes into tightly packed 8-bit RGB rows (malloc'd; the caller frees `*rgb`).
/// Returns 0 on success, else 1 with a message in `message` (at least JMSG_LENGTH_MAX bytes).
static inline int flick_jpeg_decode(const unsigned char *data, unsigned long size, unsigned char **rgb,
                                    int *width, int *height, char *message) {
  struct jpeg_decompress_struct info;
  flick_jpeg_error error;
  unsigned char *volatile pixels = NULL;
  memset(&info, 0, sizeof info);
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
  jpeg_mem_src(&info, data, size);
  jpeg_read_header(&info, TRUE);
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
