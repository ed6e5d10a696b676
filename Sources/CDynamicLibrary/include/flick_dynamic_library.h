#ifndef FLICK_DYNAMIC_LIBRARY_H
#define FLICK_DYNAMIC_LIBRARY_H

#include <pthread.h>
#include <stddef.h>

/// A C library Flick uses only for some inputs (rlottie for Lottie, librsvg for SVG,
/// libmicrohttpd for the studio), loaded on first use so that a process which never needs it
/// does not map and relocate it and its dependencies at every start (together about 5 ms of each
/// `flick` process; docs/benchmarks.md, "Stills").
///
/// `names`: the file names tried in order with `dlopen` (the Debian soname first), ending with
/// NULL. `symbols`: the functions and variables to resolve, ending with NULL, written in order
/// into `slots` (a struct of as many pointers). Define one with ``FLICK_DYNAMIC_LIBRARY``.
typedef struct flick_dynamic_library {
  const char *const *names;
  const char *const *symbols;
  void **slots;
  pthread_mutex_t lock;
  /// 0: not tried yet; 1: loaded; -1: failed, with the reason in `failure`.
  int state;
  char failure[512];
} flick_dynamic_library;

#define FLICK_DYNAMIC_LIBRARY(names, symbols, slots) {(names), (symbols), (slots), PTHREAD_MUTEX_INITIALIZER, 0, ""}

/// Loads `library` on the first call (thread-safe; later calls give the first answer). Returns 1
/// when the library and every symbol were found; otherwise 0 with `*error` (when not NULL)
/// pointing at a one-line reason that lives as long as the process: the names tried and
/// dlerror's text, or the first missing symbol.
int flick_dynamic_library_require(flick_dynamic_library *library, const char **error);

#endif
