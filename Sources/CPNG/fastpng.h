#ifndef FLICK_FASTPNG_H
#define FLICK_FASTPNG_H

// A special-purpose PNG encoder for Cairo ARGB32 frames (in the spirit of fpnge/fpng): the
// pixels a decoder reads back are exactly those flick_png_write (shim.h) and Cairo's own writer
// store, but the deflate stream is Flick's own, built for speed on rendered frames:
//
// - every row is filtered with None, Sub or Up, whichever has the smallest sum of |byte| (the
//   usual cheap estimate; signed bytes);
// - LZ77 only finds what is cheap to find: a repeat of the previous pixel (distance = bytes per
//   pixel) and runs of one byte (distance 1), up to 258 bytes a match, and long repeats (16 bytes
//   or more) found by one probe of a 4-byte hash after each match and every 16th literal; no hash
//   chains, no lazy matching; after a literal, where the next match could start is looked for
//   16 positions at a time (SSE2), and the literals before it are emitted without looking at each;
// - one dynamic Huffman block per FLICK_FASTPNG_BLOCK bytes of filtered data, its code lengths
//   (limited to 15, 7 for the code-length code) built from the block's own symbol histogram;
// - CRC-32 from zlib, Adler-32 with SSE2 (zlib's is scalar); the whole file is assembled in
//   memory and written with one write(2) loop.
//
// The bytes differ from libpng's; the decoded pixels do not. Header-only (the CPNG module is a
// system-library target); every function is static.
//
// Why Flick owns a PNG encoder: with libpng at zlib level 1 (flick_png_write, the fastest general
// setting) zlib's deflate was most of the cost of writing a frame, and a PNG sequence cost 1.7-1.8x
// rendering alone; libdeflate measured about as fast as zlib level 1 on these frames. Rendered
// frames repeat in a few cheap ways, so this encoder takes 2.1-3.5x less CPU for 0.56-1.01x the size
// (docs/benchmarks.md, "Fast PNG encoder"). What it must match: the decoded samples of flick_png_write
// and of Cairo's writer, colour type included (RGB when every pixel is opaque, else RGBA
// un-premultiplied with Cairo's rounding). Integer arithmetic only (the SSE2 and plain paths compute
// the same sums), so a frame's file is the same on every machine. Pinned by FastPNGEncoderTests
// (both encoders' files decoded by libpng and Cairo and compared, chunk CRCs checked) and by
// Benchmarks/raster/png-bench.sh's self-test.

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Bytes of filtered image data per deflate block (each block has its own Huffman codes).
#define FLICK_FASTPNG_BLOCK (128u * 1024u)
/// Largest IDAT chunk payload, in bytes.
#define FLICK_FASTPNG_IDAT (256u * 1024u)

// MARK: - Output buffer and bit writer

typedef struct {
  uint8_t *data;
  size_t length;
  size_t capacity;
  int failed;
} flick_fastpng_buffer;

/// Makes room for `more` bytes (plus 8 of slack for the bit writer's 64-bit stores).
static inline int flick_fastpng_reserve(flick_fastpng_buffer *b, size_t more) {
  if (b->failed) return 0;
  size_t need = b->length + more + 8;
  if (need <= b->capacity) return 1;
  size_t cap = b->capacity ? b->capacity : 4096;
  while (cap < need) cap *= 2;
  uint8_t *grown = realloc(b->data, cap);
  if (!grown) { b->failed = 1; return 0; }
  b->data = grown;
  b->capacity = cap;
  return 1;
}

static inline void flick_fastpng_put32be(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

/// LSB-first bit writer over a buffer whose capacity the caller has reserved.
typedef struct {
  uint8_t *out;
  uint64_t bits;
  unsigned count; // < 8 after every flush
} flick_fastpng_bits;

static inline void flick_fastpng_add(flick_fastpng_bits *w, uint64_t value, unsigned n) {
  w->bits |= value << w->count;
  w->count += n;
}

/// Stores the whole bytes gathered so far (an unaligned 64-bit little-endian store).
static inline void flick_fastpng_flush(flick_fastpng_bits *w) {
  uint64_t v = w->bits;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  memcpy(w->out, &v, 8);
#else
  for (int i = 0; i < 8; i++) w->out[i] = (uint8_t)(v >> (8 * i));
#endif
  unsigned bytes = w->count >> 3;
  w->out += bytes;
  w->bits = v >> (8 * bytes); // bytes < 8: at most 7 pending + 48 added bits between flushes
  w->count &= 7;
}

// MARK: - Huffman codes

/// Code lengths (at most `limit` bits) for `n` symbols of frequencies `freq` into `lengths`
/// (0 for an unused symbol), the Moffat-Katajainen in-place construction followed by the
/// usual length-limiting fix-up. At least two symbols must have a non-zero frequency.
static void flick_fastpng_lengths(const uint32_t *freq, int n, int limit, uint8_t *lengths) {
  uint32_t key[288];
  uint16_t sym[288];
  int used = 0;
  for (int i = 0; i < n; i++) {
    lengths[i] = 0;
    if (freq[i]) { key[used] = freq[i]; sym[used] = (uint16_t)i; used++; }
  }
  // Insertion sort by ascending frequency (stable; at most 286 symbols).
  for (int i = 1; i < used; i++) {
    uint32_t k = key[i]; uint16_t s = sym[i]; int j = i - 1;
    while (j >= 0 && key[j] > k) { key[j + 1] = key[j]; sym[j + 1] = sym[j]; j--; }
    key[j + 1] = k; sym[j + 1] = s;
  }
  if (used == 1) { lengths[sym[0]] = 1; return; }
  // Moffat & Katajainen, "In-place calculation of minimum-redundancy codes" (1995).
  {
    int root = 0, leaf = 2, next;
    key[0] += key[1];
    for (next = 1; next < used - 1; next++) {
      if (leaf >= used || key[root] < key[leaf]) { key[next] = key[root]; key[root++] = (uint32_t)next; }
      else key[next] = key[leaf++];
      if (leaf >= used || (root < next && key[root] < key[leaf])) {
        key[next] += key[root]; key[root++] = (uint32_t)next;
      } else key[next] += key[leaf++];
    }
    key[used - 2] = 0;
    for (next = used - 3; next >= 0; next--) key[next] = key[key[next]] + 1;
    int avbl = 1, taken = 0, depth = 0;
    root = used - 2; next = used - 1;
    while (avbl > 0) {
      while (root >= 0 && (int)key[root] == depth) { taken++; root--; }
      while (avbl > taken) { key[next--] = (uint32_t)depth; avbl--; }
      avbl = 2 * taken; depth++; taken = 0;
    }
  }
  // key[i] is now the length of sym[i] (longest first). Count, limit, and hand the shortest
  // lengths to the most frequent symbols.
  uint32_t count[33] = {0};
  for (int i = 0; i < used; i++) count[key[i] > 32 ? 32 : key[i]]++;
  for (int i = limit + 1; i <= 32; i++) { count[limit] += count[i]; count[i] = 0; }
  uint32_t total = 0;
  for (int i = limit; i > 0; i--) total += count[i] << (limit - i);
  while (total != (1u << limit)) {
    count[limit]--;
    for (int i = limit - 1; i > 0; i--) {
      if (count[i]) { count[i]--; count[i + 1] += 2; break; }
    }
    total--;
  }
  int j = used;
  for (int len = 1; len <= limit; len++) {
    for (uint32_t c = count[len]; c > 0; c--) lengths[sym[--j]] = (uint8_t)len;
  }
}

/// Canonical codes for `lengths`, bit-reversed for the LSB-first writer.
static void flick_fastpng_codes(const uint8_t *lengths, int n, uint16_t *codes) {
  uint16_t count[16] = {0}, next[16];
  for (int i = 0; i < n; i++) count[lengths[i]]++;
  count[0] = 0;
  uint16_t code = 0;
  for (int len = 1; len < 16; len++) { code = (uint16_t)((code + count[len - 1]) << 1); next[len] = code; }
  for (int i = 0; i < n; i++) {
    unsigned len = lengths[i];
    if (!len) { codes[i] = 0; continue; }
    unsigned c = next[len]++, r = 0;
    for (unsigned k = 0; k < len; k++) { r = (r << 1) | (c & 1); c >>= 1; }
    codes[i] = (uint16_t)r;
  }
}

// MARK: - Deflate

/// Length symbol (257...285), extra-bit count and extra value of a match length (3...258).
static inline void flick_fastpng_length_symbol(unsigned length, unsigned *symbol, unsigned *extra,
                                               unsigned *value) {
  static const uint16_t base[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                    35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
  static const uint8_t bits[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                   3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
  int s = 28;
  while (base[s] > length) s--;
  *symbol = 257u + (unsigned)s;
  *extra = bits[s];
  *value = length - base[s];
}

/// Length of the match of `a` against `b` (b < a in the same buffer), at most `limit` bytes.
static inline size_t flick_fastpng_match(const uint8_t *a, const uint8_t *b, size_t limit) {
  size_t n = 0;
  while (n + 8 <= limit) {
    uint64_t x, y;
    memcpy(&x, a + n, 8);
    memcpy(&y, b + n, 8);
    uint64_t d = x ^ y;
    if (d) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      return n + ((size_t)__builtin_ctzll(d) >> 3);
#else
      break;
#endif
    }
    n += 8;
  }
  while (n < limit && a[n] == b[n]) n++;
  return n;
}

/// Per-stream state: the block's histograms and Huffman codes, and the match length → length
/// symbol, extra-bit count and extra value table.
typedef struct {
  uint32_t lit_freq[286];
  uint32_t dist_freq[30];
  uint8_t lit_len[286];
  uint8_t dist_len[30];
  uint16_t lit_code[286];
  uint16_t dist_code[30];
  uint8_t len_symbol[259]; // length → symbol - 257
  uint8_t len_extra[259];
  uint8_t len_value[259];
  uint8_t dist_extra[30];  // extra-bit count of a distance code
  uint32_t len_bits[259];  // the block's length code and extra bits of a length, LSB first
  uint8_t len_count[259];  // … and their bit count
} flick_fastpng_tables;

/// Writes the dynamic-block header: BFINAL, BTYPE, HLIT, HDIST, HCLEN, the code-length code and
/// the run-length coded literal/length and distance code lengths.
static void flick_fastpng_block_header(flick_fastpng_bits *w, const flick_fastpng_tables *t, int last) {
  int hlit = 286;
  while (hlit > 257 && t->lit_len[hlit - 1] == 0) hlit--;
  int hdist = 30;
  while (hdist > 1 && t->dist_len[hdist - 1] == 0) hdist--;
  uint8_t all[316];
  memcpy(all, t->lit_len, (size_t)hlit);
  memcpy(all + hlit, t->dist_len, (size_t)hdist);
  int total = hlit + hdist;
  // Run-length code the lengths: symbols 0..15, 16 (repeat the previous length 3..6 times),
  // 17 (3..10 zeros), 18 (11..138 zeros).
  uint8_t rle_sym[316], rle_extra[316];
  int nrle = 0;
  for (int i = 0; i < total;) {
    uint8_t v = all[i];
    int run = 1;
    while (i + run < total && all[i + run] == v) run++;
    int left = run;
    if (v == 0) {
      while (left >= 11) {
        int r = left > 138 ? 138 : left;
        rle_sym[nrle] = 18; rle_extra[nrle++] = (uint8_t)(r - 11); left -= r;
      }
      if (left >= 3) { rle_sym[nrle] = 17; rle_extra[nrle++] = (uint8_t)(left - 3); left = 0; }
      while (left-- > 0) { rle_sym[nrle] = 0; rle_extra[nrle++] = 0; }
    } else {
      rle_sym[nrle] = v; rle_extra[nrle++] = 0; left--;
      while (left >= 3) {
        int r = left > 6 ? 6 : left;
        rle_sym[nrle] = 16; rle_extra[nrle++] = (uint8_t)(r - 3); left -= r;
      }
      while (left-- > 0) { rle_sym[nrle] = v; rle_extra[nrle++] = 0; }
    }
    i += run;
  }
  uint32_t cl_freq[19] = {0};
  for (int i = 0; i < nrle; i++) cl_freq[rle_sym[i]]++;
  // Two used symbols at least, so that the code is complete.
  if (!cl_freq[0]) cl_freq[0] = 1;
  if (!cl_freq[1]) cl_freq[1] = 1;
  uint8_t cl_len[19];
  uint16_t cl_code[19];
  flick_fastpng_lengths(cl_freq, 19, 7, cl_len);
  flick_fastpng_codes(cl_len, 19, cl_code);
  static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
  int hclen = 19;
  while (hclen > 4 && cl_len[order[hclen - 1]] == 0) hclen--;
  flick_fastpng_add(w, last ? 1u : 0u, 1);
  flick_fastpng_add(w, 2, 2); // dynamic Huffman codes
  flick_fastpng_add(w, (uint64_t)(hlit - 257), 5);
  flick_fastpng_add(w, (uint64_t)(hdist - 1), 5);
  flick_fastpng_add(w, (uint64_t)(hclen - 4), 4);
  flick_fastpng_flush(w);
  for (int i = 0; i < hclen; i++) {
    flick_fastpng_add(w, cl_len[order[i]], 3);
    flick_fastpng_flush(w);
  }
  static const uint8_t extra_bits[19] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7};
  for (int i = 0; i < nrle; i++) {
    uint8_t s = rle_sym[i];
    flick_fastpng_add(w, cl_code[s], cl_len[s]);
    flick_fastpng_add(w, rle_extra[i], extra_bits[s]);
    flick_fastpng_flush(w);
  }
}

/// A literal byte (< 256) or a match: 1 << 31 | length << 18 | distance code << 13 | the
/// distance's extra bits.
typedef uint32_t flick_fastpng_token;

/// The one non-run match kind: a hash of 4 bytes (2^FLICK_FASTPNG_HASH_BITS entries, the last
/// position probed) is probed at the first literal after a match and at every
/// FLICK_FASTPNG_PROBE-th literal after it, and a match found there is taken when it is at least
/// FLICK_FASTPNG_HASH_MIN bytes long (repeated content such as identical cards side by side;
/// shorter far matches cost more bits than they save on rendered frames).
#define FLICK_FASTPNG_HASH_BITS 12
#define FLICK_FASTPNG_PROBE 16
#define FLICK_FASTPNG_HASH_MIN 16

/// Distance code (0...29), extra-bit count and value of a distance (1...32768).
static inline void flick_fastpng_distance_symbol(unsigned distance, unsigned *code, unsigned *extra, unsigned *value) {
  unsigned v = distance - 1;
  if (v < 4) { *code = v; *extra = 0; *value = 0; return; }
  unsigned top = 31u - (unsigned)__builtin_clz(v); // v >= 4: top >= 2
  *code = 2 * top + ((v >> (top - 1)) & 1);
  *extra = top - 1;
  *value = v & ((1u << (top - 1)) - 1);
}

/// The first probe of each hash bucket in a part of the stream deflated before the hash of the
/// part before it was known (flick_fastpng_encode_threads): where it was and which bucket. Only
/// such a probe can come out differently once the real hash is known; every later probe of the
/// bucket reads a position of the part itself.
typedef struct {
  uint8_t seen[1u << FLICK_FASTPNG_HASH_BITS];
  uint32_t at[1u << FLICK_FASTPNG_HASH_BITS];
  uint32_t held[1u << FLICK_FASTPNG_HASH_BITS];
  uint16_t bucket[1u << FLICK_FASTPNG_HASH_BITS];
  size_t count;
} flick_fastpng_probes;

#if defined(__SSE2__)
/// Bit k (0...15) set when the 3 bytes at p + k equal the 3 bytes `back` bytes before them: where
/// a match of distance `back` may start. Reads p - back ... p + 31.
static inline uint32_t flick_fastpng_starts(const uint8_t *p, unsigned back) {
  __m128i a0 = _mm_loadu_si128((const __m128i *)p), a1 = _mm_loadu_si128((const __m128i *)(p + 16));
  __m128i b0 = _mm_loadu_si128((const __m128i *)(p - back)), b1 = _mm_loadu_si128((const __m128i *)(p + 16 - back));
  uint32_t same = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a0, b0)) |
                  (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a1, b1)) << 16;
  return same & (same >> 1) & (same >> 2) & 0xFFFFu;
}
#endif

/// The tokens of `data[start, end)` as one block deflates them (matches may reach back before
/// `start`) into `tokens` (room for FLICK_FASTPNG_BLOCK), their histograms into `t`; returns how
/// many. `hash` holds 2^FLICK_FASTPNG_HASH_BITS positions (any values: a candidate is compared
/// before it is used). `probes`, when not NULL, records the first probe of every bucket not yet
/// recorded, with the position the bucket held.
static size_t flick_fastpng_tokenize(flick_fastpng_tables *t, flick_fastpng_token *tokens, uint32_t *hash,
                                     const uint8_t *data, size_t start, size_t end, unsigned bpp,
                                     flick_fastpng_probes *probes) {
  memset(t->lit_freq, 0, sizeof t->lit_freq);
  memset(t->dist_freq, 0, sizeof t->dist_freq);
  size_t ntok = 0;
  size_t i = start;
  unsigned since_match = 0;
  // The first bpp bytes of the stream have no pixel before them (nor the first byte a byte).
  while (i < end && i < bpp) {
    tokens[ntok++] = data[i];
    t->lit_freq[data[i]]++;
    i++;
  }
  while (i < end) {
    size_t left = end - i;
    size_t len = 0;
    unsigned dist = 0;
    if (left >= 4) {
      // Three bytes must match before a match is worth looking at (one 32-bit load each).
      uint32_t here, back_pixel, back_byte;
      memcpy(&here, data + i, 4);
      memcpy(&back_pixel, data + i - bpp, 4);
      memcpy(&back_byte, data + i - 1, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      const uint32_t three = 0x00FFFFFFu;
#else
      const uint32_t three = 0xFFFFFF00u;
#endif
      size_t limit = left < 258 ? left : 258;
      if (((here ^ back_pixel) & three) == 0) {
        len = 3 + flick_fastpng_match(data + i + 3, data + i + 3 - bpp, limit - 3);
        dist = bpp;
      }
      if (len < 16 && ((here ^ back_byte) & three) == 0) {
        size_t l1 = 3 + flick_fastpng_match(data + i + 3, data + i + 2, limit - 3);
        if (l1 > len) { len = l1; dist = 1; }
      }
    }
    if (len < 3 && left >= 8 && (since_match++ & (FLICK_FASTPNG_PROBE - 1)) == 0) {
      uint32_t here;
      memcpy(&here, data + i, 4);
      uint32_t h = (here * 2654435761u) >> (32 - FLICK_FASTPNG_HASH_BITS);
      size_t cand = hash[h];
      if (probes && !probes->seen[h]) {
        probes->seen[h] = 1;
        probes->at[probes->count] = (uint32_t)i;
        probes->held[probes->count] = (uint32_t)cand;
        probes->bucket[probes->count++] = (uint16_t)h;
      }
      hash[h] = (uint32_t)i;
      uint32_t there;
      if (cand < i && i - cand <= 32768 && (memcpy(&there, data + cand, 4), there == here)) {
        size_t limit = left < 258 ? left : 258;
        size_t l = 4 + flick_fastpng_match(data + i + 4, data + cand + 4, limit - 4);
        if (l >= FLICK_FASTPNG_HASH_MIN) { len = l; dist = (unsigned)(i - cand); }
      }
    }
    if (len >= 3) {
      since_match = 0;
      unsigned dcode, dextra, dvalue;
      flick_fastpng_distance_symbol(dist, &dcode, &dextra, &dvalue);
      tokens[ntok++] = (flick_fastpng_token)(0x80000000u | (unsigned)len << 18 | dcode << 13 | dvalue);
      t->lit_freq[257 + t->len_symbol[len]]++;
      t->dist_freq[dcode]++;
      i += len;
    } else {
      tokens[ntok++] = data[i];
      t->lit_freq[data[i]]++;
      i++;
#if defined(__SSE2__)
      // After a literal, the literals before the next position where a run match may start or
      // a probe is due, found 16 positions at a time: the tokens this loop would make one by one
      // there (a position with neither is a literal, and counts towards the next probe).
      unsigned due = (0u - since_match) & (FLICK_FASTPNG_PROBE - 1);
      if (due && end - i >= 64) {
        uint32_t starts = flick_fastpng_starts(data + i, bpp) | flick_fastpng_starts(data + i, 1);
        unsigned run = starts ? (unsigned)__builtin_ctz(starts) : 16u;
        if (run > due) run = due;
        for (unsigned k = 0; k < run; k++) {
          tokens[ntok++] = data[i + k];
          t->lit_freq[data[i + k]]++;
        }
        i += run;
        since_match += run;
      }
#endif
    }
  }
  return ntok;
}

/// Deflates `data[start, end)` as one dynamic block (matches may reach back before `start`)
/// into `out`, continuing the bit stream of `w` (its pending bits, fewer than 8, belong to the
/// byte at out->length). `tokens` has room for FLICK_FASTPNG_BLOCK tokens; `hash` and `probes`
/// as for flick_fastpng_tokenize. Returns 0 when out of memory.
static int flick_fastpng_block(flick_fastpng_buffer *out, flick_fastpng_bits *w, flick_fastpng_tables *t,
                               flick_fastpng_token *tokens, uint32_t *hash, const uint8_t *data, size_t start,
                               size_t end, unsigned bpp, int last, flick_fastpng_probes *probes) {
  size_t ntok = flick_fastpng_tokenize(t, tokens, hash, data, start, end, bpp, probes);
  t->lit_freq[256] = 1;
  // Keep both codes complete (two used symbols at least).
  if (!t->lit_freq[0]) t->lit_freq[0] = 1;
  if (!t->dist_freq[0]) t->dist_freq[0] = 1;
  if (!t->dist_freq[1]) t->dist_freq[1] = 1;
  flick_fastpng_lengths(t->lit_freq, 286, 15, t->lit_len);
  flick_fastpng_lengths(t->dist_freq, 30, 15, t->dist_len);
  flick_fastpng_codes(t->lit_len, 286, t->lit_code);
  flick_fastpng_codes(t->dist_len, 30, t->dist_code);
  // Worst case: 15 bits a literal, 48 a match (which covers 3 bytes or more), plus the header.
  if (!flick_fastpng_reserve(out, 2 * (end - start) + 1024)) return 0;
  w->out = out->data + out->length;
  flick_fastpng_block_header(w, t, last);
  for (unsigned len = 3; len <= 258; len++) {
    unsigned s = 257u + t->len_symbol[len];
    t->len_bits[len] = t->lit_code[s] | (uint32_t)t->len_value[len] << t->lit_len[s];
    t->len_count[len] = (uint8_t)(t->lit_len[s] + t->len_extra[len]);
  }
  for (size_t k = 0; k < ntok; k++) {
    unsigned tok = tokens[k];
    if (tok & 0x80000000u) {
      unsigned len = (tok >> 18) & 0x1FFu, dcode = (tok >> 13) & 31u, dvalue = tok & 0x1FFFu;
      flick_fastpng_add(w, t->len_bits[len], t->len_count[len]);
      flick_fastpng_add(w, t->dist_code[dcode] | (uint64_t)dvalue << t->dist_len[dcode],
                        t->dist_len[dcode] + t->dist_extra[dcode]);
    } else {
      flick_fastpng_add(w, t->lit_code[tok], t->lit_len[tok]);
    }
    flick_fastpng_flush(w);
  }
  flick_fastpng_add(w, t->lit_code[256], t->lit_len[256]);
  flick_fastpng_flush(w);
  out->length = (size_t)(w->out - out->data);
  return 1;
}

// MARK: - Rows

/// |b| of a byte read as signed: the cost one filtered byte adds to a row's estimate.
static inline uint32_t flick_fastpng_byte_cost(uint8_t b) { return b < 128 ? b : 256u - b; }

#if defined(__SSE2__)
/// `acc` plus the costs of the 16 bytes of `v`, in its two 64-bit lanes.
static inline __m128i flick_fastpng_add_cost16(__m128i acc, __m128i v) {
  __m128i zero = _mm_setzero_si128();
  return _mm_add_epi64(acc, _mm_sad_epu8(_mm_min_epu8(v, _mm_sub_epi8(zero, v)), zero));
}

/// The sum of both lanes of `acc`.
static inline uint64_t flick_fastpng_lanes(__m128i acc) {
  uint64_t lanes[2];
  _mm_storeu_si128((__m128i *)lanes, acc);
  return lanes[0] + lanes[1];
}
#endif

/// The cheap size estimate of a filtered row: the sum of |byte| read as signed.
static inline uint64_t flick_fastpng_cost(const uint8_t *row, size_t n) {
  uint64_t sum = 0;
  size_t i = 0;
#if defined(__SSE2__)
  __m128i acc = _mm_setzero_si128();
  for (; i + 16 <= n; i += 16) acc = flick_fastpng_add_cost16(acc, _mm_loadu_si128((const __m128i *)(row + i)));
  sum = flick_fastpng_lanes(acc);
#endif
  for (; i < n; i++) sum += flick_fastpng_byte_cost(row[i]);
  return sum;
}

/// out[i] = a[i] - b[i] (bytes, modulo 256) for i < n; returns the estimate of `out`.
static inline uint64_t flick_fastpng_difference(const uint8_t *a, const uint8_t *b, uint8_t *out, size_t n) {
  uint64_t sum = 0;
  size_t i = 0;
#if defined(__SSE2__)
  __m128i acc = _mm_setzero_si128();
  for (; i + 16 <= n; i += 16) {
    __m128i v = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(a + i)), _mm_loadu_si128((const __m128i *)(b + i)));
    _mm_storeu_si128((__m128i *)(out + i), v);
    acc = flick_fastpng_add_cost16(acc, v);
  }
  sum = flick_fastpng_lanes(acc);
#endif
  for (; i < n; i++) {
    out[i] = (uint8_t)(a[i] - b[i]);
    sum += flick_fastpng_byte_cost(out[i]);
  }
  return sum;
}

/// One row of Cairo pixels (premultiplied BGRA) as PNG bytes: RGB, or RGBA un-premultiplied with
/// Cairo's rounding ((c * 255 + a / 2) / a; a = 0 gives 0 0 0 0), exactly as flick_png_write.
static inline void flick_fastpng_convert(const uint8_t *row, int width, int opaque, uint8_t *out) {
  if (opaque) {
    // Four bytes stored for three (`out` has a byte of slack): BGRA → RGB_.
    for (int x = 0; x < width; x++, row += 4, out += 3) {
      uint32_t p;
      memcpy(&p, row, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      p = __builtin_bswap32(p) >> 8;
      memcpy(out, &p, 4);
#else
      out[0] = row[2]; out[1] = row[1]; out[2] = row[0];
#endif
    }
  } else {
    for (int x = 0; x < width; x++, row += 4, out += 4) {
      unsigned a = row[3];
      if (a == 255) {
        out[0] = row[2]; out[1] = row[1]; out[2] = row[0]; out[3] = 255;
      } else if (a == 0) {
        out[0] = out[1] = out[2] = out[3] = 0;
      } else {
        out[0] = (uint8_t)((row[2] * 255u + a / 2) / a);
        out[1] = (uint8_t)((row[1] * 255u + a / 2) / a);
        out[2] = (uint8_t)((row[0] * 255u + a / 2) / a);
        out[3] = (uint8_t)a;
      }
    }
  }
}

/// Appends a chunk (length, type, data, CRC-32 of type and data) to `b`, which has room.
static inline void flick_fastpng_chunk(flick_fastpng_buffer *b, const char type[4], const uint8_t *data, size_t n) {
  uint8_t *p = b->data + b->length;
  flick_fastpng_put32be(p, (uint32_t)n);
  memcpy(p + 4, type, 4);
  if (n) memcpy(p + 8, data, n);
  uLong crc = crc32(0L, p + 4, 4);
  if (n) crc = crc32(crc, data, (uInt)n); // (crc32 of a NULL buffer is the initial value, not crc)
  flick_fastpng_put32be(p + 8 + n, (uint32_t)crc);
  b->length += 12 + n;
}

/// Adler-32 of `data` continuing `adler` (zlib's definition), with SSE2 where available.
static uint32_t flick_fastpng_adler32(uint32_t adler, const uint8_t *data, size_t n) {
  uint32_t s1 = adler & 0xFFFFu, s2 = adler >> 16;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  const __m128i weight_lo = _mm_setr_epi16(16, 15, 14, 13, 12, 11, 10, 9);
  const __m128i weight_hi = _mm_setr_epi16(8, 7, 6, 5, 4, 3, 2, 1);
  while (n >= 16) {
    // At most 5552 bytes before the sums are reduced (zlib's NMAX), so nothing overflows.
    size_t vectors = (n < 5552 ? n : 5552) / 16;
    __m128i sum1 = zero, prefix = zero, sum2 = zero;
    for (size_t k = 0; k < vectors; k++, data += 16) {
      __m128i v = _mm_loadu_si128((const __m128i *)data);
      prefix = _mm_add_epi32(prefix, sum1);
      sum1 = _mm_add_epi32(sum1, _mm_sad_epu8(v, zero));
      sum2 = _mm_add_epi32(sum2, _mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(v, zero), weight_lo),
                                               _mm_madd_epi16(_mm_unpackhi_epi8(v, zero), weight_hi)));
    }
    uint32_t lanes1[4], lanesp[4], lanes2[4];
    _mm_storeu_si128((__m128i *)lanes1, sum1);
    _mm_storeu_si128((__m128i *)lanesp, prefix);
    _mm_storeu_si128((__m128i *)lanes2, sum2);
    uint64_t b1 = (uint64_t)lanes1[0] + lanes1[1] + lanes1[2] + lanes1[3];
    uint64_t bp = (uint64_t)lanesp[0] + lanesp[1] + lanesp[2] + lanesp[3];
    uint64_t b2 = (uint64_t)lanes2[0] + lanes2[1] + lanes2[2] + lanes2[3];
    uint64_t t2 = (uint64_t)s2 + 16u * (uint64_t)vectors * s1 + 16u * bp + b2;
    s1 = (uint32_t)((s1 + b1) % 65521u);
    s2 = (uint32_t)(t2 % 65521u);
    n -= vectors * 16;
  }
#endif
  while (n > 0) {
    size_t k = n < 5552 ? n : 5552;
    n -= k;
    while (k--) { s1 += *data++; s2 += s1; }
    s1 %= 65521u;
    s2 %= 65521u;
  }
  return s1 | s2 << 16;
}

// MARK: - Encoder

/// How many of the `n` bytes at `p` are not 0.
static inline uint32_t flick_fastpng_nonzero(const uint8_t *p, size_t n) {
  size_t zeros = 0, i = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  for (; i + 16 <= n; i += 16) {
    zeros += (size_t)__builtin_popcount((unsigned)_mm_movemask_epi8(
      _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i)), zero)));
  }
#endif
  for (; i < n; i++) zeros += p[i] == 0;
  return (uint32_t)(n - zeros);
}

/// Filters rows `y0..<y1` into `filtered` (row y at y * (rowbytes + 1)): None, Sub or Up, the
/// smallest estimate (Up on a tie, None on the first row). `scratch` holds three rows of
/// rowbytes + 16 bytes. A row's filter depends on it and the row above alone, so rows can be
/// filtered in any grouping. `nonzero`, when not NULL, gets each row's count of filtered bytes
/// that are not 0 (at index y): a measure of the literals it will cost to deflate.
static void flick_fastpng_filter_rows(const uint8_t *pixels, int width, int stride, int opaque, int y0, int y1,
                                      uint8_t *filtered, uint8_t *scratch, uint32_t *nonzero) {
  unsigned bpp = opaque ? 3 : 4;
  size_t rowbytes = (size_t)width * bpp;
  size_t line = rowbytes + 1;
  uint8_t *prev = scratch, *cur = scratch + rowbytes + 16, *sub = scratch + 2 * (rowbytes + 16);
  if (y0 > 0) flick_fastpng_convert(pixels + (size_t)(y0 - 1) * (size_t)stride, width, opaque, prev);
  for (int y = y0; y < y1; y++) {
    const uint8_t *src = pixels + (size_t)y * (size_t)stride;
    uint8_t *dst = filtered + (size_t)y * line;
    flick_fastpng_convert(src, width, opaque, cur);
    size_t head = bpp < rowbytes ? bpp : rowbytes;
    memcpy(sub, cur, head);
    uint64_t cost_sub = flick_fastpng_cost(sub, head) +
                        flick_fastpng_difference(cur + head, cur, sub + head, rowbytes - head);
    uint64_t cost_none = flick_fastpng_cost(cur, rowbytes);
    uint64_t cost_up = UINT64_MAX;
    if (y > 0) cost_up = flick_fastpng_difference(cur, prev, dst + 1, rowbytes);
    if (cost_up <= cost_sub && cost_up <= cost_none) {
      dst[0] = 2;
    } else if (cost_sub < cost_none) {
      dst[0] = 1;
      memcpy(dst + 1, sub, rowbytes);
    } else {
      dst[0] = 0;
      memcpy(dst + 1, cur, rowbytes);
    }
    if (nonzero) nonzero[y] = flick_fastpng_nonzero(dst + 1, rowbytes);
    uint8_t *t = prev; prev = cur; cur = t;
  }
}

/// A run of whole deflate blocks, `start..<end` of the filtered bytes, deflated into a bit
/// stream of its own that starts at bit 0 of `z` (after `z`'s first `z.length` bytes).
typedef struct {
  const uint8_t *data;
  size_t raw;
  unsigned bpp;
  size_t start;
  size_t end;
  int width, height, stride, opaque, y0, y1; // the rows this part filters first (y0 == y1: none)
  const uint8_t *pixels;
  uint8_t *filtered;
  uint32_t *nonzero;
  uint32_t *hash;
  flick_fastpng_probes *probes;  // NULL: the hash is the real one
  int warm;                      // with probes: guess the hash from the block before the part
  flick_fastpng_buffer z;
  unsigned count;                // bits used in z's last byte (0: all eight, or z is empty)
  uint32_t adler;                // Adler-32 of data[start, end), from 1
  int ok;
} flick_fastpng_part;

static void flick_fastpng_prepare_tables(flick_fastpng_tables *tables) {
  for (unsigned len = 3; len <= 258; len++) {
    unsigned symbol, extra, value;
    flick_fastpng_length_symbol(len, &symbol, &extra, &value);
    tables->len_symbol[len] = (uint8_t)(symbol - 257);
    tables->len_extra[len] = (uint8_t)extra;
    tables->len_value[len] = (uint8_t)value;
  }
  for (unsigned code = 0; code < 30; code++) tables->dist_extra[code] = (uint8_t)(code < 4 ? 0 : code / 2 - 1);
}

/// Deflates the part's blocks (BFINAL on the block that ends the stream) and its Adler-32.
static void flick_fastpng_deflate_part(flick_fastpng_part *p) {
  p->ok = 0;
  flick_fastpng_token *tokens = malloc(sizeof(flick_fastpng_token) * FLICK_FASTPNG_BLOCK);
  flick_fastpng_tables *tables = malloc(sizeof *tables);
  if (tokens && tables) {
    flick_fastpng_prepare_tables(tables);
    if (p->probes && p->warm && p->start >= FLICK_FASTPNG_BLOCK) {
      // The guess: the hash as the block before the part leaves it when it starts from an empty
      // one. Blocks start afresh (no match crosses into one), and a probe only takes a
      // position less than 32 KiB back, so the guess is usually the real hash where it matters.
      flick_fastpng_tokenize(tables, tokens, p->hash, p->data, p->start - FLICK_FASTPNG_BLOCK, p->start, p->bpp,
                             NULL);
    }
    flick_fastpng_bits w = {NULL, 0, 0};
    p->ok = 1;
    for (size_t start = p->start; start < p->end && p->ok; start += FLICK_FASTPNG_BLOCK) {
      size_t end = p->end - start > FLICK_FASTPNG_BLOCK ? start + FLICK_FASTPNG_BLOCK : p->end;
      p->ok = flick_fastpng_block(&p->z, &w, tables, tokens, p->hash, p->data, start, end, p->bpp, end == p->raw,
                                  p->probes);
    }
    if (p->ok && w.count) p->z.length++; // the last, partial byte (already stored by the flush)
    p->count = w.count;
    p->adler = flick_fastpng_adler32(1, p->data + p->start, p->end - p->start);
  }
  free(tokens);
  free(tables);
}

/// The part's work on a thread of its own: its rows' filtering, or its deflating.
static void *flick_fastpng_filter_thread(void *arg) {
  flick_fastpng_part *p = arg;
  size_t rowbytes = (size_t)p->width * p->bpp;
  uint8_t *scratch = calloc(3, rowbytes + 16);
  p->ok = scratch != NULL;
  if (scratch) {
    flick_fastpng_filter_rows(p->pixels, p->width, p->stride, p->opaque, p->y0, p->y1, p->filtered, scratch,
                              p->nonzero);
  }
  free(scratch);
  return NULL;
}

static void *flick_fastpng_deflate_thread(void *arg) {
  flick_fastpng_deflate_part(arg);
  return NULL;
}

/// The match a probe at `i` finds at `cand` (the length, 0 for none), as flick_fastpng_tokenize
/// decides it: `left` bytes to the end of the block.
static size_t flick_fastpng_probe_match(const uint8_t *data, size_t i, size_t cand, size_t left) {
  uint32_t here, there;
  memcpy(&here, data + i, 4);
  if (cand < i && i - cand <= 32768 && (memcpy(&there, data + cand, 4), there == here)) {
    size_t limit = left < 258 ? left : 258;
    size_t l = 4 + flick_fastpng_match(data + i + 4, data + cand + 4, limit - 4);
    if (l >= FLICK_FASTPNG_HASH_MIN) return l;
  }
  return 0;
}

/// Whether the part deflated from a guessed hash is what the real hash (`hash`, as the stream
/// before the part left it) gives: true when every recorded first probe of a bucket finds the
/// same match (or none) at the real position as at the guessed one. Until a probe finds
/// something else, both runs make the same tokens, probe the same places and store the same
/// positions, so the first difference is at such a probe.
static int flick_fastpng_guess_holds(const flick_fastpng_part *p, const uint32_t *hash) {
  for (size_t k = 0; k < p->probes->count; k++) {
    size_t i = p->probes->at[k];
    size_t guessed = p->probes->held[k], real = hash[p->probes->bucket[k]];
    if (guessed == real) continue;
    // `left` as the probe saw it: to the end of its block.
    size_t block_end = p->start + ((i - p->start) / FLICK_FASTPNG_BLOCK + 1) * FLICK_FASTPNG_BLOCK;
    size_t left = (block_end < p->end ? block_end : p->end) - i;
    if (flick_fastpng_probe_match(p->data, i, guessed, left) || flick_fastpng_probe_match(p->data, i, real, left)) {
      return 0;
    }
  }
  return 1;
}

/// Appends the bit stream `src` (`count` bits used in its last byte, 0: all eight) to `dst`
/// (`*dst_count` bits used in its last byte) as the deflate stream would have continued.
static int flick_fastpng_append_bits(flick_fastpng_buffer *dst, unsigned *dst_count, const flick_fastpng_buffer *src,
                                     unsigned count) {
  if (!src->length) return 1;
  if (!flick_fastpng_reserve(dst, src->length)) return 0;
  unsigned s = *dst_count;
  if (s == 0) {
    memcpy(dst->data + dst->length, src->data, src->length);
    dst->length += src->length;
    *dst_count = count;
    return 1;
  }
  uint8_t *out = dst->data + dst->length - 1; // the partial byte; its unused bits are 0
  for (size_t k = 0; k < src->length; k++) {
    out[0] |= (uint8_t)(src->data[k] << s);
    out[1] = (uint8_t)(src->data[k] >> (8 - s));
    out++;
  }
  size_t bits = 8 * (dst->length - 1) + s + 8 * src->length - (count ? 8 - count : 0);
  dst->length = (bits + 7) / 8;
  *dst_count = (unsigned)(bits % 8);
  return 1;
}

/// Where the second part starts (a block boundary, at least one block into `raw` bytes of two
/// or more blocks): where the two threads' work comes nearest to even. A block's work is taken
/// as its rows' bytes that are not 0 (most of them become literals; the rest, runs, cost little)
/// plus a quarter of its bytes; the second part also tokenizes the block before it for its guess
/// (about 0.6 of that block's work).
static size_t flick_fastpng_middle(const uint32_t *nonzero, int height, size_t line, size_t raw) {
  size_t blocks = (raw + FLICK_FASTPNG_BLOCK - 1) / FLICK_FASTPNG_BLOCK;
  double *work = malloc(sizeof(double) * blocks);
  if (!work) return blocks / 2 * FLICK_FASTPNG_BLOCK;
  for (size_t k = 0; k < blocks; k++) {
    size_t end = (k + 1) * FLICK_FASTPNG_BLOCK < raw ? (k + 1) * FLICK_FASTPNG_BLOCK : raw;
    work[k] = (double)(end - k * FLICK_FASTPNG_BLOCK) / 4;
  }
  for (int y = 0; y < height; y++) work[(size_t)y * line / FLICK_FASTPNG_BLOCK] += nonzero[y];
  double total = 0;
  for (size_t k = 0; k < blocks; k++) total += work[k];
  size_t best = 1;
  double best_cost = -1, before = 0;
  for (size_t m = 1; m < blocks; m++) {
    before += work[m - 1];
    double first = before, second = total - before + 0.6 * work[m - 1];
    double cost = first > second ? first : second;
    if (best_cost < 0 || cost < best_cost) { best_cost = cost; best = m; }
  }
  free(work);
  return best * FLICK_FASTPNG_BLOCK;
}

/// Encodes premultiplied Cairo ARGB32 pixels (BGRA in memory, `stride` bytes a row) as a PNG
/// file in memory: `*png` (malloc'd; the caller frees it) holds `*size` bytes. RGB when every
/// pixel is opaque, otherwise RGBA un-premultiplied like Cairo; the decoded pixels are exactly
/// flick_png_write's.
///
/// `threads` (1 or 2) is how many threads share the work; the bytes are the same for both.
/// With 2 the rows are filtered in two halves, and the second half of the blocks is deflated on
/// a second thread while the first half is, starting from a hash with every bucket empty; if the
/// real hash would have offered a match at one of that half's first probes of a bucket, the half
/// is deflated again after the first (`*redone` is set to 1; it may be NULL). The guess is the
/// hash as the block before the half leaves it from an empty one; `warm` 0 (for tests) starts
/// the half from the empty hash itself, which rendered frames nearly always contradict.
///
/// Returns 0, EINVAL (a side not in 1...2^31/4, or a stride shorter than a row) or ENOMEM.
static inline int flick_fastpng_encode_threads(const uint8_t *pixels, int width, int height, int stride,
                                               int threads, int warm, uint8_t **png, size_t *size, int *redone) {
  *png = NULL;
  *size = 0;
  if (redone) *redone = 0;
  if (width <= 0 || height <= 0 || width > (INT32_MAX / 4) || stride < 4 * width) return EINVAL;
  int opaque = 1;
  for (int y = 0; y < height && opaque; y++) {
    // The AND of a row's pixels has alpha 255 only when every pixel's alpha is 255.
    const uint8_t *row = pixels + (size_t)y * (size_t)stride;
    uint8_t all = 255;
    for (int x = 0; x < width; x++) all &= row[4 * x + 3];
    opaque = all == 255;
  }
  unsigned bpp = opaque ? 3 : 4;
  size_t rowbytes = (size_t)width * bpp;
  size_t line = rowbytes + 1;
  size_t raw = line * (size_t)height;
  size_t blocks = (raw + FLICK_FASTPNG_BLOCK - 1) / FLICK_FASTPNG_BLOCK;
  // Two parts only when each has a block, and positions fit the hash's 32 bits.
  int split = threads >= 2 && blocks >= 2 && height >= 2 && raw < ((size_t)1 << 31);
  uint8_t *filtered = malloc(raw);
  uint8_t *scratch = calloc(3, rowbytes + 16); // + slack for the 4-byte stores
  uint32_t *hash = calloc((size_t)1 << FLICK_FASTPNG_HASH_BITS, sizeof(uint32_t));
  uint32_t *guess = split ? malloc(sizeof(uint32_t) << FLICK_FASTPNG_HASH_BITS) : NULL;
  flick_fastpng_probes *probes = split ? calloc(1, sizeof *probes) : NULL;
  uint32_t *nonzero = split ? malloc(sizeof(uint32_t) * (size_t)height) : NULL;
  flick_fastpng_part a = {0}, b = {0};
  flick_fastpng_buffer file = {NULL, 0, 0, 0};
  int status = ENOMEM;
  if (!filtered || !scratch || !hash || (split && (!guess || !probes || !nonzero))) goto done;

  // The rows: the second half on a thread of its own when there are two parts.
  {
    int half = split ? height / 2 : height;
    pthread_t thread;
    b = (flick_fastpng_part){.width = width, .height = height, .stride = stride, .opaque = opaque, .y0 = half,
                             .y1 = height, .pixels = pixels, .filtered = filtered, .nonzero = nonzero, .bpp = bpp};
    int started = split && pthread_create(&thread, NULL, flick_fastpng_filter_thread, &b) == 0;
    flick_fastpng_filter_rows(pixels, width, stride, opaque, 0, started ? half : height, filtered, scratch, nonzero);
    if (started) {
      pthread_join(thread, NULL);
      if (!b.ok) goto done;
    }
  }

  // The zlib stream: header (deflate, 32 KiB window, no dictionary), blocks, Adler-32.
  {
    size_t middle = split ? flick_fastpng_middle(nonzero, height, line, raw) : raw;
    a = (flick_fastpng_part){.data = filtered, .raw = raw, .bpp = bpp, .start = 0, .end = middle, .hash = hash};
    b = (flick_fastpng_part){.data = filtered, .raw = raw, .bpp = bpp, .start = middle, .end = raw, .hash = guess,
                             .probes = probes, .warm = warm};
    if (!flick_fastpng_reserve(&a.z, 2)) goto done;
    a.z.data[a.z.length++] = 0x78;
    a.z.data[a.z.length++] = 0x01;
    pthread_t thread;
    int started = 0;
    if (split) {
      memset(guess, 0xFF, sizeof(uint32_t) << FLICK_FASTPNG_HASH_BITS); // no position: every probe misses
      started = pthread_create(&thread, NULL, flick_fastpng_deflate_thread, &b) == 0;
    }
    flick_fastpng_deflate_part(&a);
    if (started) pthread_join(thread, NULL);
    if (!a.ok) goto done;
    if (split && (!started || !b.ok || !flick_fastpng_guess_holds(&b, hash))) {
      // Deflated again from where the first part left the hash: what one thread writes.
      if (redone && started && b.ok) *redone = 1;
      free(b.z.data);
      b.z = (flick_fastpng_buffer){NULL, 0, 0, 0};
      b.hash = hash;
      b.probes = NULL;
      flick_fastpng_deflate_part(&b);
      if (!b.ok) goto done;
    }
    unsigned count = a.count;
    if (split && !flick_fastpng_append_bits(&a.z, &count, &b.z, b.count)) goto done;
    uint32_t adler = split ? (uint32_t)adler32_combine(a.adler, b.adler, (z_off_t)(raw - middle)) : a.adler;
    if (!flick_fastpng_reserve(&a.z, 4)) goto done;
    flick_fastpng_put32be(a.z.data + a.z.length, adler);
    a.z.length += 4;
  }

  // The filtered rows are no longer needed: at most the filtered rows and the zlib stream, or
  // the zlib stream and the file, are held at once.
  free(filtered);
  filtered = NULL;

  // The file: signature, IHDR, IDAT chunks of at most FLICK_FASTPNG_IDAT bytes, IEND.
  {
    flick_fastpng_buffer *z = &a.z;
    size_t chunks = (z->length + FLICK_FASTPNG_IDAT - 1) / FLICK_FASTPNG_IDAT;
    if (!flick_fastpng_reserve(&file, 8 + 25 + z->length + 12 * chunks + 12)) goto done;
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    memcpy(file.data, signature, 8);
    file.length = 8;
    uint8_t ihdr[13];
    flick_fastpng_put32be(ihdr, (uint32_t)width);
    flick_fastpng_put32be(ihdr + 4, (uint32_t)height);
    ihdr[8] = 8;                 // bit depth
    ihdr[9] = opaque ? 2 : 6;    // RGB or RGBA
    ihdr[10] = ihdr[11] = ihdr[12] = 0; // deflate, adaptive filtering, no interlace
    flick_fastpng_chunk(&file, "IHDR", ihdr, 13);
    for (size_t off = 0; off < z->length; off += FLICK_FASTPNG_IDAT) {
      size_t n = z->length - off < FLICK_FASTPNG_IDAT ? z->length - off : FLICK_FASTPNG_IDAT;
      flick_fastpng_chunk(&file, "IDAT", z->data + off, n);
    }
    flick_fastpng_chunk(&file, "IEND", NULL, 0);
  }
  *png = file.data;
  *size = file.length;
  file.data = NULL;
  status = 0;

done:
  free(filtered);
  free(scratch);
  free(hash);
  free(guess);
  free(probes);
  free(nonzero);
  free(a.z.data);
  free(b.z.data);
  free(file.data);
  return status;
}

/// flick_fastpng_encode_threads on one thread.
static inline int flick_fastpng_encode(const uint8_t *pixels, int width, int height, int stride, uint8_t **png,
                                       size_t *size) {
  return flick_fastpng_encode_threads(pixels, width, height, stride, 1, 1, png, size, NULL);
}

/// Encodes like flick_fastpng_encode_threads (`threads` 1 or 2, the same bytes) and writes the
/// file to `path` (created with mode 0666 less the umask; never through a link, never into a file
/// that was already there) with one write(2) loop.
///
/// Returns 0 or an errno value.
static inline int flick_fastpng_write_threads(const char *path, const uint8_t *pixels, int width, int height,
                                              int stride, int threads) {
  uint8_t *png;
  size_t size;
  int status = flick_fastpng_encode_threads(pixels, width, height, stride, threads, 1, &png, &size, NULL);
  if (status) return status;
  // A new file of its own: never through a link, never into a file that was already there.
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) { status = errno ? errno : EIO; free(png); return status; }
  size_t done = 0;
  while (done < size) {
    ssize_t n = write(fd, png + done, size - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      status = errno ? errno : EIO;
      break;
    }
    done += (size_t)n;
  }
  free(png);
  if (close(fd) != 0 && !status) status = errno ? errno : EIO;
  return status;
}

/// flick_fastpng_write_threads on one thread.
static inline int flick_fastpng_write(const char *path, const uint8_t *pixels, int width, int height, int stride) {
  return flick_fastpng_write_threads(path, pixels, width, height, stride, 1);
}

#endif
