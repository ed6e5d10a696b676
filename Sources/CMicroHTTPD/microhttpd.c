#include "CMicroHTTPD.h"

#include <flick_dynamic_library.h>

flick_microhttpd_functions flick_microhttpd;

static const char *const names[] = {"libmicrohttpd.so.12", "libmicrohttpd.so", NULL};
#define FLICK_MICROHTTPD_NAME(field, symbol) #symbol,
static const char *const symbols[] = {FLICK_MICROHTTPD_FUNCTIONS(FLICK_MICROHTTPD_NAME) NULL};
static flick_dynamic_library library = FLICK_DYNAMIC_LIBRARY(names, symbols, (void **)&flick_microhttpd);

int flick_microhttpd_load(const char **error) { return flick_dynamic_library_require(&library, error); }
