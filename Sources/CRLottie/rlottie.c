#include "CRLottie.h"

#include <flick_dynamic_library.h>

flick_rlottie_functions flick_rlottie;

// Debian's soname first (librlottie.so.0-1), then upstream's.
static const char *const names[] = {"librlottie.so.0-1", "librlottie.so.0", "librlottie.so", NULL};
#define FLICK_RLOTTIE_NAME(field, symbol) #symbol,
static const char *const symbols[] = {FLICK_RLOTTIE_FUNCTIONS(FLICK_RLOTTIE_NAME) NULL};
static flick_dynamic_library library = FLICK_DYNAMIC_LIBRARY(names, symbols, (void **)&flick_rlottie);

int flick_rlottie_load(const char **error) { return flick_dynamic_library_require(&library, error); }
