/* jpeg_idct.c - libjpeg-turbo's scaled IDCTs (an 8x8 block to 1x1, 2x2, 3x3, 4x4 or 6x6
 * pixels, jidctred.c and jidctint.c) and its YCbCr to RGB (jdcolor.c), integer for integer, so
 * that vision/jpeg_split.c gives the very pixels libjpeg does. The range limit wraps as
 * libjpeg's table does (x & 1023 looked up). The 2x2 and 4x4, which a 12 MP photo's blocks
 * take, also run a block's eight columns at once in 32-bit lanes, to the same values, wherever
 * its coefficients are small enough (all but always). */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "vision_testing.h"

#define CONST_BITS 13
#define PASS1_BITS 2
#define DESCALE(x, n) (((x) + ((int32_t)1 << ((n)-1))) >> (n))

/* libjpeg's post-IDCT range limit: x & 1023 looked up, so that a wild value wraps as it does. */
static uint8_t idct_limit[1024];
static uint8_t clamp_table[256 * 3];
static int cr_r[256], cb_b[256];
static int32_t cr_g[256], cb_g[256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void)
{
    for (int i = 0; i < 1024; i++)
        idct_limit[i] = (uint8_t)(i < 128 ? i + 128 : i < 512 ? 255 : i < 896 ? 0 : i - 896);
    for (int i = 0; i < 768; i++)
        clamp_table[i] = (uint8_t)(i < 256 ? 0 : i < 512 ? i - 256 : 255);
    for (int i = 0; i < 256; i++) {
        int32_t x = i - 128;
        cr_r[i] = (int)((91881 * x + 32768) >> 16);  /* FIX(1.40200) */
        cb_b[i] = (int)((116130 * x + 32768) >> 16); /* FIX(1.77200) */
        cr_g[i] = -46802 * x;                        /* FIX(0.71414) */
        cb_g[i] = -22554 * x + 32768;                /* FIX(0.34414), plus a half */
    }
}

/* libjpeg's JLONG is a long: 64 bits here, and its passes hand on ints. */
typedef int64_t wide;
#define DEQ(i) ((wide)c[i] * q[i])

static void idct_1x1(const int16_t *c, const uint16_t *q, uint8_t *out, size_t stride)
{
    (void)stride;
    out[0] = idct_limit[(int)DESCALE(DEQ(0), 3) & 1023];
}

static void idct_2x2(const int16_t *c, const uint16_t *q, uint8_t *out, size_t stride)
{
    int work[8 * 2];
    static const int columns[5] = {0, 1, 3, 5, 7};
    for (int i = 0; i < 5; i++) {
        int k = columns[i];
        if (!c[8 + k] && !c[24 + k] && !c[40 + k] && !c[56 + k]) {
            work[k] = work[8 + k] = (int)(DEQ(k) * (1 << PASS1_BITS));
            continue;
        }
        wide even = DEQ(k) * (1 << (CONST_BITS + 2));
        wide odd =
            DEQ(56 + k) * -5906 + DEQ(40 + k) * 6967 + DEQ(24 + k) * -10426 + DEQ(8 + k) * 29692;
        work[k] = (int)DESCALE(even + odd, CONST_BITS - PASS1_BITS + 2);
        work[8 + k] = (int)DESCALE(even - odd, CONST_BITS - PASS1_BITS + 2);
    }
    for (int row = 0; row < 2; row++) {
        const int *w = work + 8 * row;
        uint8_t *o = out + row * stride;
        if (!w[1] && !w[3] && !w[5] && !w[7]) {
            o[0] = o[1] = idct_limit[(int)DESCALE((wide)w[0], PASS1_BITS + 3) & 1023];
            continue;
        }
        wide even = (wide)w[0] * (1 << (CONST_BITS + 2));
        wide odd =
            (wide)w[7] * -5906 + (wide)w[5] * 6967 + (wide)w[3] * -10426 + (wide)w[1] * 29692;
        o[0] = idct_limit[(int)DESCALE(even + odd, CONST_BITS + PASS1_BITS + 3 + 2) & 1023];
        o[1] = idct_limit[(int)DESCALE(even - odd, CONST_BITS + PASS1_BITS + 3 + 2) & 1023];
    }
}

/* The 4-point IDCT both passes share: x0, x2, x6 the even inputs, x1, x3, x5, x7 the odd. */
static inline void idct4_parts(wide x0, wide x2, wide x6, wide x1, wide x3, wide x5, wide x7,
                               wide out[4], int shift)
{
    wide t0 = x0 * (1 << (CONST_BITS + 1));
    wide t2 = x2 * 15137 + x6 * -6270;
    wide even0 = t0 + t2, even1 = t0 - t2;
    wide odd0 = x7 * -1730 + x5 * 11893 + x3 * -17799 + x1 * 8697;
    wide odd2 = x7 * -4176 + x5 * -4926 + x3 * 7373 + x1 * 20995;
    out[0] = DESCALE(even0 + odd2, shift);
    out[3] = DESCALE(even0 - odd2, shift);
    out[1] = DESCALE(even1 + odd0, shift);
    out[2] = DESCALE(even1 - odd0, shift);
}

static void idct_4x4(const int16_t *c, const uint16_t *q, uint8_t *out, size_t stride)
{
    int work[8 * 4];
    for (int k = 0; k < 8; k++) {
        if (k == 4) continue;
        if (!c[8 + k] && !c[16 + k] && !c[24 + k] && !c[40 + k] && !c[48 + k] && !c[56 + k]) {
            work[k] = work[8 + k] = work[16 + k] = work[24 + k] = (int)(DEQ(k) * (1 << PASS1_BITS));
            continue;
        }
        wide column[4];
        idct4_parts(DEQ(k), DEQ(16 + k), DEQ(48 + k), DEQ(8 + k), DEQ(24 + k), DEQ(40 + k),
                    DEQ(56 + k), column, CONST_BITS - PASS1_BITS + 1);
        for (int r = 0; r < 4; r++)
            work[8 * r + k] = (int)column[r];
    }
    for (int row = 0; row < 4; row++) {
        const int *w = work + 8 * row;
        uint8_t *o = out + row * stride;
        if (!w[1] && !w[2] && !w[3] && !w[5] && !w[6] && !w[7]) {
            o[0] = o[1] = o[2] = o[3] = idct_limit[(int)DESCALE((wide)w[0], PASS1_BITS + 3) & 1023];
            continue;
        }
        wide line[4];
        idct4_parts(w[0], w[2], w[6], w[1], w[3], w[5], w[7], line,
                    CONST_BITS + PASS1_BITS + 3 + 1);
        for (int i = 0; i < 4; i++)
            o[i] = idct_limit[(int)line[i] & 1023];
    }
}

/* ---- the same 2x2 and 4x4 in 32-bit lanes --------------------------------------------------
 * Pass 1 over a block's 8 columns at once, in int32 lanes: what libjpeg computes in 64 bits, to
 * the same values wherever no sum passes 31 bits. Each function checks the bound that ensures it
 * (every dequantized coefficient under 2048 or 1024; photos' lie under about 1100) and returns 0
 * above it, the block then going to the 64-bit code. */
typedef int32_t lanes __attribute__((vector_size(32)));
typedef int16_t lanes16 __attribute__((vector_size(16)));
typedef uint16_t ulanes16 __attribute__((vector_size(16)));

/* The block's rows named in `rows` (a bit each) dequantized into d[row]; 0 when a coefficient
 * among them is bound or more in magnitude (bound a power of two: the magnitudes are ORed). d
 * is filled through a pointer: a 32-byte vector passed by value would depend on AVX in the
 * calling convention. */
static inline __attribute__((always_inline)) int
dequant_rows(const int16_t *c, const uint16_t *q, unsigned rows, int32_t bound, lanes d[8])
{
    lanes seen = {0};
    for (int r = 0; r < 8; r++) {
        if (!(rows >> r & 1)) continue;
        lanes16 c16;
        ulanes16 q16;
        memcpy(&c16, c + 8 * r, sizeof c16);
        memcpy(&q16, q + 8 * r, sizeof q16);
        d[r] = __builtin_convertvector(c16, lanes) * __builtin_convertvector(q16, lanes);
        lanes sign = d[r] >> 31;
        seen |= (d[r] ^ sign) - sign;
    }
    int32_t any = 0;
    for (int i = 0; i < 8; i++)
        any |= seen[i];
    return any < bound;
}

/* 2x2 with every dequantized coefficient under 2048: pass 1 sums stay under 2^28, its outputs
 * under 21431 and pass 2's sums under 1.84e9. */
static inline __attribute__((always_inline)) int
idct_2x2_narrow(const int16_t *c, const uint16_t *q, uint8_t *out, size_t stride)
{
    lanes d[8];
    if (!dequant_rows(c, q, 1u << 0 | 1u << 1 | 1u << 3 | 1u << 5 | 1u << 7, 2048, d)) return 0;
    lanes even = d[0] * (1 << (CONST_BITS + 2));
    lanes odd = d[7] * -5906 + d[5] * 6967 + d[3] * -10426 + d[1] * 29692;
    const int shift1 = CONST_BITS - PASS1_BITS + 2;
    lanes w[2] = {(even + odd + (1 << (shift1 - 1))) >> shift1,
                  (even - odd + (1 << (shift1 - 1))) >> shift1};
    const int shift2 = CONST_BITS + PASS1_BITS + 3 + 2;
    for (int row = 0; row < 2; row++) {
        int32_t e = w[row][0] * (1 << (CONST_BITS + 2)) + (1 << (shift2 - 1));
        int32_t o = w[row][7] * -5906 + w[row][5] * 6967 + w[row][3] * -10426 + w[row][1] * 29692;
        out[row * stride] = idct_limit[((e + o) >> shift2) & 1023];
        out[row * stride + 1] = idct_limit[((e - o) >> shift2) & 1023];
    }
    return 1;
}

/* 4x4 with every dequantized coefficient under 1024: pass 1 sums stay under 8e7, its outputs
 * under 19461 and pass 2's sums under 1.52e9. */
static inline __attribute__((always_inline)) int
idct_4x4_narrow(const int16_t *c, const uint16_t *q, uint8_t *out, size_t stride)
{
    lanes d[8]; /* row 4 is not read */
    if (!dequant_rows(c, q, 0xFFu & ~(1u << 4), 1024, d)) return 0;
    const int shift1 = CONST_BITS - PASS1_BITS + 1;
    lanes t0 = d[0] * (1 << (CONST_BITS + 1)) + (1 << (shift1 - 1));
    lanes t2 = d[2] * 15137 + d[6] * -6270;
    lanes even0 = t0 + t2, even1 = t0 - t2;
    lanes odd0 = d[7] * -1730 + d[5] * 11893 + d[3] * -17799 + d[1] * 8697;
    lanes odd2 = d[7] * -4176 + d[5] * -4926 + d[3] * 7373 + d[1] * 20995;
    lanes w[4] = {(even0 + odd2) >> shift1, (even1 + odd0) >> shift1, (even1 - odd0) >> shift1,
                  (even0 - odd2) >> shift1};
    const int shift2 = CONST_BITS + PASS1_BITS + 3 + 1;
    for (int row = 0; row < 4; row++) {
        const lanes x = w[row];
        int32_t e0 = x[0] * (1 << (CONST_BITS + 1)) + (1 << (shift2 - 1));
        int32_t e2 = x[2] * 15137 + x[6] * -6270;
        int32_t o0 = x[7] * -1730 + x[5] * 11893 + x[3] * -17799 + x[1] * 8697;
        int32_t o2 = x[7] * -4176 + x[5] * -4926 + x[3] * 7373 + x[1] * 20995;
        uint8_t *o = out + row * stride;
        o[0] = idct_limit[((e0 + e2 + o2) >> shift2) & 1023];
        o[3] = idct_limit[((e0 + e2 - o2) >> shift2) & 1023];
        o[1] = idct_limit[((e0 - e2 + o0) >> shift2) & 1023];
        o[2] = idct_limit[((e0 - e2 - o0) >> shift2) & 1023];
    }
    return 1;
}

/* The narrow IDCTs built for AVX2 too, where lanes of eight are one instruction; which of the
 * two runs is settled once, by the processor. */
typedef int (*narrow_idct)(const int16_t *, const uint16_t *, uint8_t *, size_t);
static int idct_2x2_lanes(const int16_t *c, const uint16_t *q, uint8_t *out, size_t stride)
{
    return idct_2x2_narrow(c, q, out, stride);
}
static int idct_4x4_lanes(const int16_t *c, const uint16_t *q, uint8_t *out, size_t stride)
{
    return idct_4x4_narrow(c, q, out, stride);
}
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) static int idct_2x2_avx2(const int16_t *c, const uint16_t *q,
                                                         uint8_t *out, size_t stride)
{
    return idct_2x2_narrow(c, q, out, stride);
}
__attribute__((target("avx2"))) static int idct_4x4_avx2(const int16_t *c, const uint16_t *q,
                                                         uint8_t *out, size_t stride)
{
    return idct_4x4_narrow(c, q, out, stride);
}
#endif
static narrow_idct narrow_2x2 = idct_2x2_lanes, narrow_4x4 = idct_4x4_lanes;

static void prepare(void)
{
    build_tables();
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) {
        narrow_2x2 = idct_2x2_avx2;
        narrow_4x4 = idct_4x4_avx2;
    }
#endif
}

/* jidctint.c's 3x3 and 6x6, which add their rounding before the passes instead of after. */
#define FIX_0_707106781 5793
#define FIX_1_224744871 10033
#define FIX_0_366025404 2998

static void idct_3x3(const int16_t *c, const uint16_t *q, uint8_t *out, size_t stride)
{
    int work[3 * 3];
    for (int k = 0; k < 3; k++) {
        wide t0 = DEQ(k) * (1 << CONST_BITS) + (1 << (CONST_BITS - PASS1_BITS - 1));
        wide t12 = DEQ(16 + k) * FIX_0_707106781;
        wide t10 = t0 + t12, t2 = t0 - t12 - t12;
        wide odd = DEQ(8 + k) * FIX_1_224744871;
        work[k] = (int)((t10 + odd) >> (CONST_BITS - PASS1_BITS));
        work[6 + k] = (int)((t10 - odd) >> (CONST_BITS - PASS1_BITS));
        work[3 + k] = (int)(t2 >> (CONST_BITS - PASS1_BITS));
    }
    for (int row = 0; row < 3; row++) {
        const int *w = work + 3 * row;
        uint8_t *o = out + row * stride;
        wide t0 = ((wide)w[0] + (1 << (PASS1_BITS + 2))) * (1 << CONST_BITS);
        wide t12 = (wide)w[2] * FIX_0_707106781;
        wide t10 = t0 + t12, t2 = t0 - t12 - t12;
        wide odd = (wide)w[1] * FIX_1_224744871;
        o[0] = idct_limit[(int)((t10 + odd) >> (CONST_BITS + PASS1_BITS + 3)) & 1023];
        o[2] = idct_limit[(int)((t10 - odd) >> (CONST_BITS + PASS1_BITS + 3)) & 1023];
        o[1] = idct_limit[(int)(t2 >> (CONST_BITS + PASS1_BITS + 3)) & 1023];
    }
}

/* The 6-point IDCT both passes share; pass 1 keeps one of its outputs unshifted (odd1). */
static inline void idct6_parts(wide t0, wide x2, wide x4, wide z1, wide z2, wide z3, int pass1,
                               wide out[6])
{
    int shift = pass1 ? CONST_BITS - PASS1_BITS : CONST_BITS + PASS1_BITS + 3;
    wide t10 = x4 * FIX_0_707106781;
    wide t1 = t0 + t10;
    wide t11 = t0 - t10 - t10;
    if (pass1) t11 >>= CONST_BITS - PASS1_BITS;
    wide t0b = x2 * FIX_1_224744871;
    wide e10 = t1 + t0b, e12 = t1 - t0b;
    wide m = (z1 + z3) * FIX_0_366025404;
    wide o0 = m + (z1 + z2) * (1 << CONST_BITS);
    wide o2 = m + (z3 - z2) * (1 << CONST_BITS);
    wide o1 = (z1 - z2 - z3) * (1 << (pass1 ? PASS1_BITS : CONST_BITS));
    out[0] = (e10 + o0) >> shift;
    out[5] = (e10 - o0) >> shift;
    out[2] = (e12 + o2) >> shift;
    out[3] = (e12 - o2) >> shift;
    out[1] = pass1 ? t11 + o1 : (t11 + o1) >> shift;
    out[4] = pass1 ? t11 - o1 : (t11 - o1) >> shift;
}

static void idct_6x6(const int16_t *c, const uint16_t *q, uint8_t *out, size_t stride)
{
    int work[6 * 6];
    for (int k = 0; k < 6; k++) {
        wide column[6];
        wide t0 = DEQ(k) * (1 << CONST_BITS) + (1 << (CONST_BITS - PASS1_BITS - 1));
        idct6_parts(t0, DEQ(16 + k), DEQ(32 + k), DEQ(8 + k), DEQ(24 + k), DEQ(40 + k), 1, column);
        for (int r = 0; r < 6; r++)
            work[6 * r + k] = (int)column[r];
    }
    for (int row = 0; row < 6; row++) {
        const int *w = work + 6 * row;
        uint8_t *o = out + row * stride;
        wide line[6];
        wide t0 = ((wide)w[0] + (1 << (PASS1_BITS + 2))) * (1 << CONST_BITS);
        idct6_parts(t0, w[2], w[4], w[1], w[3], w[5], 0, line);
        for (int i = 0; i < 6; i++)
            o[i] = idct_limit[(int)line[i] & 1023];
    }
}

uint64_t yz_vision_idct_reads(int size)
{
    /* jidctred.c's 2x2 and 4x4 skip rows and columns 2, 4, 6 and 4; jidctint.c's 3x3 and 6x6
     * read the top-left 3x3 and 6x6. */
    static const char rows_2[8] = {1, 1, 0, 1, 0, 1, 0, 1}, rows_4[8] = {1, 1, 1, 1, 0, 1, 1, 1};
    uint64_t mask = 0;
    for (int i = 0; i < 64; i++) {
        int r = i / 8, c = i % 8;
        int used = size == 2   ? rows_2[r] && rows_2[c]
                   : size == 4 ? rows_4[r] && rows_4[c]
                               : r < size && c < size;
        if (used) mask |= 1ull << i;
    }
    return mask;
}

void yz_vision_idct_prepare(void)
{
    pthread_once(&tables_once, prepare);
}

void yz_vision_idct_scaled(int size, const int16_t coef[64], const uint16_t quant[64], int dc_only,
                           uint8_t *out, size_t stride)
{
    if (dc_only) { /* every scaled IDCT gives the rounded eighth of the DC everywhere */
        uint8_t flat = idct_limit[DESCALE(coef[0] * quant[0], 3) & 1023];
        for (int i = 0; i < size; i++)
            memset(out + (size_t)i * stride, flat, (size_t)size);
    } else {
        static void (*const idct[7])(const int16_t *, const uint16_t *, uint8_t *, size_t) = {
            NULL, idct_1x1, idct_2x2, idct_3x3, idct_4x4, NULL, idct_6x6};
        if (size == 2 && narrow_2x2(coef, quant, out, stride)) return;
        if (size == 4 && narrow_4x4(coef, quant, out, stride)) return;
        idct[size](coef, quant, out, stride);
    }
}

void yz_vision_ycc_row_to_rgb(const uint8_t *y, const uint8_t *cb, const uint8_t *cr, int width,
                              uint8_t *rgb)
{
    const uint8_t *clamp = clamp_table + 256;
    for (int x = 0; x < width; x++) {
        int luma = y[x];
        rgb[3 * x] = clamp[luma + cr_r[cr[x]]];
        rgb[3 * x + 1] = clamp[luma + (int)((cb_g[cb[x]] + cr_g[cr[x]]) >> 16)];
        rgb[3 * x + 2] = clamp[luma + cb_b[cb[x]]];
    }
}

int yz_vision_testing_idct_paths(int size, const int16_t coef[64], const uint16_t quant[64],
                                 uint8_t out[3][64])
{
    yz_vision_idct_prepare();
    memset(out, 0, 3 * 64);
    if (size == 2)
        idct_2x2(coef, quant, out[0], 8);
    else
        idct_4x4(coef, quant, out[0], 8);
    narrow_idct plain = size == 2 ? idct_2x2_lanes : idct_4x4_lanes,
                chosen = size == 2 ? narrow_2x2 : narrow_4x4;
    int taken = plain(coef, quant, out[1], 8);
    if (chosen(coef, quant, out[2], 8) != taken) return -1;
    return taken;
}
