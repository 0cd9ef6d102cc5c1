/* jpeg_idct.c - libjpeg-turbo's scaled IDCTs (an 8x8 block to 1x1, 2x2 or 4x4 pixels,
 * jidctred.c) and its YCbCr to RGB (jdcolor.c), integer for integer, so that
 * vision/jpeg_split.c gives the very pixels libjpeg does. The range limits wrap as libjpeg's
 * tables do (x & 1023 looked up), so even corrupt coefficients come out the same. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

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

static void idct_1x1(const int16_t *c, const uint16_t *q, uint8_t *out, size_t stride)
{
    (void)stride;
    int dc = c[0] * q[0];
    out[0] = idct_limit[DESCALE(dc, 3) & 1023];
}

static void idct_2x2(const int16_t *c, const uint16_t *q, uint8_t *out, size_t stride)
{
    int work[8 * 2];
    static const int columns[5] = {0, 1, 3, 5, 7};
    for (int i = 0; i < 5; i++) {
        int col = columns[i];
        const int16_t *in = c + col;
        const uint16_t *qc = q + col;
        if (!in[8] && !in[24] && !in[40] && !in[56]) {
            int dc = (in[0] * qc[0]) * (1 << PASS1_BITS);
            work[col] = work[8 + col] = dc;
            continue;
        }
        int32_t even = (int32_t)(in[0] * qc[0]) * (1 << (CONST_BITS + 2));
        int32_t odd = (int32_t)(in[56] * qc[56]) * -5906 + (int32_t)(in[40] * qc[40]) * 6967 +
                      (int32_t)(in[24] * qc[24]) * -10426 + (int32_t)(in[8] * qc[8]) * 29692;
        work[col] = (int)DESCALE(even + odd, CONST_BITS - PASS1_BITS + 2);
        work[8 + col] = (int)DESCALE(even - odd, CONST_BITS - PASS1_BITS + 2);
    }
    for (int row = 0; row < 2; row++) {
        const int *w = work + 8 * row;
        uint8_t *o = out + row * stride;
        if (!w[1] && !w[3] && !w[5] && !w[7]) {
            o[0] = o[1] = idct_limit[DESCALE(w[0], PASS1_BITS + 3) & 1023];
            continue;
        }
        int32_t even = (int32_t)w[0] * (1 << (CONST_BITS + 2));
        int32_t odd = (int32_t)w[7] * -5906 + (int32_t)w[5] * 6967 + (int32_t)w[3] * -10426 +
                      (int32_t)w[1] * 29692;
        o[0] = idct_limit[DESCALE(even + odd, CONST_BITS + PASS1_BITS + 3 + 2) & 1023];
        o[1] = idct_limit[DESCALE(even - odd, CONST_BITS + PASS1_BITS + 3 + 2) & 1023];
    }
}

/* The even and odd halves of the 4-point IDCT both passes share. */
static inline void idct4_parts(int32_t x0, int32_t x2, int32_t x6, int32_t x1, int32_t x3,
                               int32_t x5, int32_t x7, int32_t out[4], int shift)
{
    int32_t t0 = x0 * (1 << (CONST_BITS + 1));
    int32_t t2 = x2 * 15137 + x6 * -6270;
    int32_t even0 = t0 + t2, even1 = t0 - t2;
    int32_t odd0 = x7 * -1730 + x5 * 11893 + x3 * -17799 + x1 * 8697;
    int32_t odd2 = x7 * -4176 + x5 * -4926 + x3 * 7373 + x1 * 20995;
    out[0] = DESCALE(even0 + odd2, shift);
    out[3] = DESCALE(even0 - odd2, shift);
    out[1] = DESCALE(even1 + odd0, shift);
    out[2] = DESCALE(even1 - odd0, shift);
}

static void idct_4x4(const int16_t *c, const uint16_t *q, uint8_t *out, size_t stride)
{
    int32_t work[8 * 4];
    for (int col = 0; col < 8; col++) {
        if (col == 4) continue;
        const int16_t *in = c + col;
        const uint16_t *qc = q + col;
        if (!in[8] && !in[16] && !in[24] && !in[40] && !in[48] && !in[56]) {
            int32_t dc = (int32_t)(in[0] * qc[0]) * (1 << PASS1_BITS);
            work[col] = work[8 + col] = work[16 + col] = work[24 + col] = dc;
            continue;
        }
        int32_t column[4];
        idct4_parts(in[0] * qc[0], in[16] * qc[16], in[48] * qc[48], in[8] * qc[8], in[24] * qc[24],
                    in[40] * qc[40], in[56] * qc[56], column, CONST_BITS - PASS1_BITS + 1);
        for (int r = 0; r < 4; r++)
            work[8 * r + col] = column[r];
    }
    for (int row = 0; row < 4; row++) {
        const int32_t *w = work + 8 * row;
        uint8_t *o = out + row * stride;
        if (!w[1] && !w[2] && !w[3] && !w[5] && !w[6] && !w[7]) {
            o[0] = o[1] = o[2] = o[3] = idct_limit[DESCALE(w[0], PASS1_BITS + 3) & 1023];
            continue;
        }
        int32_t line[4];
        idct4_parts(w[0], w[2], w[6], w[1], w[3], w[5], w[7], line,
                    CONST_BITS + PASS1_BITS + 3 + 1);
        for (int i = 0; i < 4; i++)
            o[i] = idct_limit[line[i] & 1023];
    }
}

uint64_t yz_vision_idct_reads(int size)
{
    static const char rows_2[8] = {1, 1, 0, 1, 0, 1, 0, 1}, rows_4[8] = {1, 1, 1, 1, 0, 1, 1, 1};
    uint64_t mask = 0;
    for (int i = 0; i < 64; i++) {
        int r = i / 8, c = i % 8;
        int used = size == 1 ? i == 0 : size == 2 ? rows_2[r] && rows_2[c] : rows_4[r] && rows_4[c];
        if (used) mask |= 1ull << i;
    }
    return mask;
}

void yz_vision_idct_prepare(void)
{
    pthread_once(&tables_once, build_tables);
}

void yz_vision_idct_scaled(int size, const int16_t coef[64], const uint16_t quant[64], int dc_only,
                           uint8_t *out, size_t stride)
{
    if (dc_only) { /* every scaled IDCT gives the rounded eighth of the DC everywhere */
        uint8_t flat = idct_limit[DESCALE(coef[0] * quant[0], 3) & 1023];
        for (int i = 0; i < size; i++)
            memset(out + (size_t)i * stride, flat, (size_t)size);
    } else if (size == 1) {
        idct_1x1(coef, quant, out, stride);
    } else if (size == 2) {
        idct_2x2(coef, quant, out, stride);
    } else {
        idct_4x4(coef, quant, out, stride);
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
