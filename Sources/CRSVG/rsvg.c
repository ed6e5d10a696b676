// CRSVG is a C target rather than a system library so that its include/ folder, where the
// library's headers are linked from /usr/include, is on dependents' header search path (the
// library's pkg-config flags carry -pthread, from gio-2.0, which SwiftPM refuses with a warning in
// every client build), and so that librsvg is loaded only when an SVG is drawn.
#include "CRSVG.h"

#include <flick_dynamic_library.h>

flick_rsvg_symbols flick_rsvg;

static const char *const names[] = {"librsvg-2.so.2", "librsvg-2.so", NULL};
#define FLICK_RSVG_NAME(field, symbol) #symbol,
static const char *const symbols[] = {FLICK_RSVG_SYMBOLS(FLICK_RSVG_NAME) NULL};
static flick_dynamic_library library = FLICK_DYNAMIC_LIBRARY(names, symbols, (void **)&flick_rsvg);

int flick_rsvg_load(const char **error) { return flick_dynamic_library_require(&library, error); }
