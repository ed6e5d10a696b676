// Pango's headers include <hb.h>; HarfBuzz's headers are under harfbuzz/ (linked from
// /usr/include/harfbuzz). HarfBuzz itself is loaded with Pango, on first use (CPango.h).
#include "harfbuzz/hb.h"
