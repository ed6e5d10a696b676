#ifndef FLICK_GRADIENT_VECTORS_H
#define FLICK_GRADIENT_VECTORS_H

// Which vector loops CGradient's functions may use (internal; flick_gradient_limit_vectors in
// gradient.h sets the limit).

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define FLICK_GRADIENT_AVX2 1
#endif

/// Non-zero when the AVX2 loops may run: this CPU has AVX2 and the limit allows 256-bit vectors.
int flick_gradient_uses_avx2(void);

#endif
