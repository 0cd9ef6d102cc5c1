/* jpeg_split.c - a baseline JPEG's scan decoded on several threads at once, to the very pixels
 * libjpeg-turbo's scaled decode gives.
 *
 * Why: the entropy-coded scan is one serial bitstream, and undoing it takes nine tenths of a
 * 12 MP photo's decode even at 1/4 scale, where the IDCT is cheap (README, Status). Huffman
 * codes fall back into step by themselves: a decoder started at a guessed bit soon lands on the
 * true block boundaries, usually within a few MCUs. So the scan is cut into parts. Part 0
 * starts at the true beginning; every other part starts at a guess, as if an MCU began there,
 * on its own thread, and logs where its first blocks began. When the part before it reaches an
 * MCU start that the log holds as an MCU start too, the two decodes are one from there on: the
 * part before stops and the later part's MCUs from that point are the true ones. A guessed part
 * cannot know the running DC, so every part keeps the coded DC differences, summed once all
 * parts are joined. A part that never falls into step costs time, never pixels: the part
 * before decodes on.
 *
 * Where the file has restart markers (some Android phones' hardware encoders write them), every
 * part starts at an interval instead, where the DC values start from 0 again: no guessing.
 *
 * It takes what phones write: baseline Huffman, 8-bit YCbCr, one interleaved scan, 4:2:0 or
 * 4:4:4, scaled to 1/8, 2/8 or 3/8. Anything else, and anything off in the data (a code no table
 * holds, a scan that ends early, a restart marker out of its turn), is left to libjpeg, which
 * says what is wrong. The scaled IDCTs and the colour conversion (jpeg_idct.c) follow libjpeg's
 * integer arithmetic step by step; tests/test_vision_decode.c checks the pixels are identical. */
#define _GNU_SOURCE /* sched_getaffinity: the cores this process may use, as taskset sets them */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h> /* before jpeglib.h, which needs FILE */
#include <string.h>

#include <jpeglib.h>

#include "internal.h"

#define LOOKAHEAD 10    /* bits a code is looked up by at once; longer ones walk the tree */
#define LOG_BLOCKS 1024 /* block starts a guessed part logs; parts fall into step in 20 */
#define MAX_PARTS 8
#define FAST_END_OF_BLOCK 0x1000 /* in fast_ac: the code ends the block */
#define MAX_KINDS 10             /* blocks in an MCU: a baseline scan allows 10 */
#define PAD_BYTES 320 /* zeros after the scan: a block read past the end stays in bounds */
/* Bad codes a guessed part starts over after; then the part before decodes its stretch, so
 * data made to defeat the guesses costs about what a decode on one core does. */
#define MAX_RESTARTS 64

/* Tests: the parts asked for (vision_testing.h), and how many scans this decoder gave. */
static atomic_int forced_parts;
static atomic_long split_decodes;
/* The cores a decode may use (yz_vision_decode_cores; 0: all). */
static atomic_int decode_cores;

void yz_vision_decode_cores(int n_cores)
{
    atomic_store(&decode_cores, n_cores > 0 ? n_cores : 0);
}

void yz_vision_testing_jpeg_parts(int n_parts)
{
    atomic_store(&forced_parts, n_parts);
}

long yz_vision_testing_jpeg_split_decodes(void)
{
    return atomic_load(&split_decodes);
}

/* Zigzag order to natural order, with libjpeg's 16 spare entries: a corrupt run past 63 lands
 * on coefficient 63, as it does there. */
static const uint8_t natural_order[64 + 16] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33,
    40, 48, 41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36,
    29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54,
    47, 55, 62, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63};

typedef struct {
    uint16_t fast[1 << LOOKAHEAD]; /* (length << 8) | symbol; 0 when the code is longer */
    /* AC tables: a coefficient whose code and value bits fit in LOOKAHEAD, whole:
     * (value << 16) | (run << 8) | bits, or FAST_END_OF_BLOCK | bits; 0 when they do not fit. */
    int32_t fast_ac[1 << LOOKAHEAD];
    int32_t maxcode[18]; /* the longest code of each length, -1 if none */
    int32_t valoffset[18];
    uint8_t values[256];
} huff_table;

typedef struct {
    const huff_table *dc, *ac;
    const uint16_t *quant; /* natural order */
    uint64_t wanted;       /* coefficients (natural order) the scaled IDCT reads */
    int component;         /* index in the frame: 0 Y, 1 Cb, 2 Cr */
    int size;              /* its scaled IDCT's: size x size pixels */
    int x0, y0;            /* where they go in the MCU's pixels */
} block_kind;

typedef struct split_scan split_scan;

typedef struct {
    split_scan *scan;
    int index;
    uint64_t start_bit;
    /* Per block: its DC difference (an entry of index 0), then its wanted AC coefficients, each
     * (natural index << 16) | (uint16_t)value. */
    uint32_t *entries;
    size_t n_entries, cap_entries;
    size_t n_blocks;
    /* Per MCU it began: its first entry, and the sums of the DC differences before it. */
    uint32_t *mcu_entry;
    uint16_t (*mcu_dc)[3];
    size_t n_mcus;
    /* A guessed part's first blocks' bits: block i is at place i % blocks_per_mcu in its MCU. */
    uint64_t *log_bit;
    size_t n_log;
    int published; /* the log is final (scan->lock) */
    int abandoned; /* an earlier part decoded through this one's stretch (scan->lock) */
    int joined;    /* an earlier part fell into step with this one (scan->lock) */
    atomic_int stop;
    size_t first_interval; /* with restart markers: where this part starts, its MCUs' quota */
    size_t quota_blocks;
    int next_part;      /* the later part this one fell into step with, -1 if none */
    size_t next_mcu;    /* that part's MCU there */
    uint16_t dc_sum[3]; /* the sums of its DC differences where it stopped */
    int out_of_memory;
} split_part;

struct split_scan {
    const uint8_t *bits; /* the scan without its stuffed zero bytes, PAD_BYTES of zeros after */
    uint64_t n_bits;
    block_kind kinds[MAX_KINDS];
    int blocks_per_mcu;
    size_t total_blocks;
    /* Restart markers: every restart_mcus MCUs (0: none) the DC values start again from 0
     * and the data from the byte restart_byte[k] of bits (interval k). */
    size_t restart_mcus;
    size_t *restart_byte;
    size_t n_intervals;
    int n_parts;
    split_part parts[MAX_PARTS];
    pthread_mutex_t lock;
    pthread_cond_t published;
};

/* ---- Huffman decoding ---------------------------------------------------------------------- */

/* libjpeg's checks (jdhuff.c, jpeg_make_d_derived_tbl): 0 when it would refuse the table. */
static int build_table(const JHUFF_TBL *source, int is_dc, huff_table *table)
{
    if (!source) return 0;
    unsigned code = 0;
    int p = 0;
    memset(table->fast, 0, sizeof table->fast);
    for (int length = 1; length <= 16; length++) {
        int count = source->bits[length];
        if (p + count > 256) return 0;
        if (count) {
            table->valoffset[length] = p - (int32_t)code;
            for (int i = 0; i < count; i++, p++, code++) {
                if (code >= (1u << length)) return 0;
                if (length <= LOOKAHEAD) {
                    unsigned first = code << (LOOKAHEAD - length);
                    for (unsigned fill = 0; fill < 1u << (LOOKAHEAD - length); fill++)
                        table->fast[first + fill] = (uint16_t)(length << 8 | source->huffval[p]);
                }
            }
            table->maxcode[length] = (int32_t)code - 1;
        } else {
            table->maxcode[length] = -1;
        }
        if (code >= (1u << length)) return 0; /* no code may be all ones */
        code <<= 1;
    }
    table->maxcode[17] = 0xFFFFF;
    table->valoffset[17] = 0;
    memcpy(table->values, source->huffval, sizeof table->values);
    for (unsigned ahead = 0; ahead < 1u << LOOKAHEAD; ahead++) {
        unsigned hit = table->fast[ahead];
        int length = (int)(hit >> 8), run = (hit >> 4) & 15, s = hit & 15;
        table->fast_ac[ahead] = 0;
        if (!hit || length + s > LOOKAHEAD) continue;
        if (!s && run != 15) { /* end of block */
            table->fast_ac[ahead] = FAST_END_OF_BLOCK | length;
            continue;
        }
        int value = 0; /* 16 zeros (run 15, size 0) write a zero: the same as writing none */
        if (s) {
            int raw = (int)((ahead >> (LOOKAHEAD - length - s)) & ((1u << s) - 1));
            value = raw < (1 << (s - 1)) ? raw - (1 << s) + 1 : raw;
        }
        table->fast_ac[ahead] =
            (int32_t)((uint32_t)value << 16 | (uint32_t)run << 8 | (uint32_t)(length + s));
    }
    if (is_dc)
        for (int i = 0; i < p; i++)
            if (source->huffval[i] > 15) return 0;
    return 1;
}

/* A bit buffer over the unstuffed scan: buf holds count bits left-aligned, next is the first
 * byte not yet in it. */
typedef struct {
    uint64_t buf;
    int count;
    const uint8_t *next;
} bit_reader;

static inline uint64_t load_be64(const uint8_t *at)
{
    uint64_t word;
    memcpy(&word, at, sizeof word);
    return __builtin_bswap64(word);
}

static inline void reader_start(bit_reader *r, const uint8_t *bits, uint64_t pos)
{
    r->next = bits + (pos >> 3);
    r->buf = load_be64(r->next) << (pos & 7);
    r->count = 64 - (int)(pos & 7) - 8; /* keep whole bytes: the last byte is read again */
    r->next += 7;
}

/* At least 56 bits in the buffer, without a branch. */
static inline void refill(bit_reader *r)
{
    r->buf |= load_be64(r->next) >> r->count;
    r->next += (63 - r->count) >> 3;
    r->count |= 56;
}

static inline uint64_t reader_pos(const bit_reader *r, const uint8_t *bits)
{
    return (uint64_t)(r->next - bits) * 8 - (uint64_t)r->count;
}

/* The next symbol (the buffer holding 16 bits or more), or -1 for a code no table holds. */
static inline int decode_symbol(const huff_table *table, bit_reader *r)
{
    unsigned hit = table->fast[r->buf >> (64 - LOOKAHEAD)];
    if (hit) {
        r->buf <<= hit >> 8;
        r->count -= (int)(hit >> 8);
        return hit & 0xFF;
    }
    int length = LOOKAHEAD + 1;
    int32_t code = (int32_t)(r->buf >> (64 - length));
    while (code > table->maxcode[length]) {
        length++;
        code = (int32_t)(r->buf >> (64 - length));
    }
    if (length > 16) return -1;
    r->buf <<= length;
    r->count -= length;
    return table->values[(code + table->valoffset[length]) & 0xFF];
}

/* s more bits (1..15, in the buffer) as the signed value they code (JPEG's EXTEND). */
static inline int take_value(bit_reader *r, int s)
{
    int raw = (int)(r->buf >> (64 - s));
    r->buf <<= s;
    r->count -= s;
    int low = ((raw >> (s - 1)) & 1) - 1; /* -1 when the top bit is clear: a negative value */
    return raw + (low & (1 - (1 << s)));
}

/* One block into out (room for 64 entries); 0 on a code no table holds, r then undefined. */
static int decode_block(const block_kind *kind, bit_reader *restrict reader, uint32_t *restrict out,
                        size_t *n_out)
{
    bit_reader r = *reader;
    size_t n = *n_out;
    if (r.count < 32) refill(&r);
    /* Values past what 8-bit samples can give (DC differences of 11 bits, AC values of 10) are
     * left to libjpeg, whose own SIMD and C code part ways on them. */
    int s = decode_symbol(kind->dc, &r);
    if (s < 0 || s > 11) return 0;
    out[n++] = (uint16_t)(s ? take_value(&r, s) : 0);
    const huff_table *ac = kind->ac;
    const uint64_t wanted = kind->wanted;
    for (int k = 1; k < 64; k++) {
        if (r.count < 32) refill(&r); /* a code and its value take 31 bits at most */
        int32_t whole = ac->fast_ac[r.buf >> (64 - LOOKAHEAD)];
        int value;
        if (whole) {
            r.buf <<= whole & 0xFF;
            r.count -= whole & 0xFF;
            if (whole & FAST_END_OF_BLOCK) break;
            k += (whole >> 8) & 15;
            value = whole >> 16;
        } else {
            int rs = decode_symbol(ac, &r);
            if (rs < 0) return 0;
            int run = rs >> 4;
            s = rs & 15;
            if (!s && run != 15) break;
            if (s > 10) return 0;
            k += run;
            value = s ? take_value(&r, s) : 0;
        }
        /* Written always, kept when the scaled IDCT reads it: no branch to mispredict. */
        unsigned natural = natural_order[k];
        out[n] = natural << 16 | (uint16_t)value;
        n += wanted >> natural & 1;
    }
    *reader = r;
    *n_out = n;
    return 1;
}

/* ---- the parts, each on its thread ------------------------------------------------------- */

static void publish(split_part *part)
{
    split_scan *scan = part->scan;
    pthread_mutex_lock(&scan->lock);
    if (!part->published) {
        part->published = 1;
        pthread_cond_broadcast(&scan->published);
    }
    pthread_mutex_unlock(&scan->lock);
}

static void wait_published(split_part *part)
{
    split_scan *scan = part->scan;
    pthread_mutex_lock(&scan->lock);
    while (!part->published)
        pthread_cond_wait(&scan->published, &scan->lock);
    pthread_mutex_unlock(&scan->lock);
}

/* Under the lock, so a part is never both joined and abandoned. */
static int try_join(split_part *later)
{
    split_scan *scan = later->scan;
    pthread_mutex_lock(&scan->lock);
    int joined = !later->abandoned;
    if (joined) later->joined = 1;
    pthread_mutex_unlock(&scan->lock);
    return joined;
}

static void abandon(split_part *later)
{
    split_scan *scan = later->scan;
    pthread_mutex_lock(&scan->lock);
    if (!later->joined) {
        later->abandoned = 1;
        atomic_store(&later->stop, 1);
    }
    pthread_mutex_unlock(&scan->lock);
}

static int grow(split_part *part)
{
    if (part->n_entries + 64 <= part->cap_entries) return 1;
    /* First guess: an entry per four bits of the part's stretch (a coefficient takes two at
     * least, and most are far longer); doubled when that is short. */
    size_t cap = part->cap_entries
                     ? part->cap_entries * 2
                     : (size_t)(part->scan->n_bits / 4 / (uint64_t)part->scan->n_parts) + 4096;
    uint32_t *entries = yz_vision_alloc(cap * sizeof *entries);
    if (!entries) return 0;
    if (part->n_entries) memcpy(entries, part->entries, part->n_entries * sizeof *entries);
    yz_vision_release(part->entries);
    part->entries = entries;
    part->cap_entries = cap;
    return 1;
}

static void *run_part(void *arg)
{
    split_part *part = arg;
    split_scan *scan = part->scan;
    bit_reader reader;
    reader_start(&reader, scan->bits, part->start_bit);
    uint64_t pos = part->start_bit;
    int phase = 0;
    uint16_t dc_sum[3] = {0, 0, 0};
    /* With restart markers every part starts where an interval does: nothing to guess. */
    int restarting = scan->restart_mcus != 0;
    size_t interval = part->first_interval;
    size_t quota = restarting ? part->quota_blocks : scan->total_blocks;
    int guessing = part->index > 0 && !restarting;
    int later_index = restarting ? scan->n_parts : part->index + 1;
    size_t cursor = 0; /* into the later part's log */
    int restarts = 0;
    part->next_part = -1;

    while (part->n_blocks < quota && !atomic_load(&part->stop)) {
        /* In a later part's stretch: does this MCU start where the later part's one does? */
        while (phase == 0 && later_index < scan->n_parts &&
               pos >= scan->parts[later_index].start_bit) {
            split_part *later = &scan->parts[later_index];
            publish(part); /* never wait on a later part with this one's log unpublished */
            wait_published(later);
            while (cursor < later->n_log && later->log_bit[cursor] < pos)
                cursor++;
            if (cursor < later->n_log) {
                if (later->log_bit[cursor] == pos && cursor % (size_t)scan->blocks_per_mcu == 0 &&
                    try_join(later)) {
                    part->next_part = later_index;
                    part->next_mcu = cursor / (size_t)scan->blocks_per_mcu;
                    memcpy(part->dc_sum, dc_sum, sizeof dc_sum);
                    publish(part);
                    return NULL;
                }
                break; /* its log goes on beyond this MCU: decode on */
            }
            /* Past its log without falling into step: decode its stretch here instead. */
            abandon(later);
            later_index++;
            cursor = 0;
        }
        if (!grow(part)) {
            part->out_of_memory = 1;
            break;
        }
        if (guessing && !part->published) {
            if (part->n_log == LOG_BLOCKS)
                publish(part);
            else
                part->log_bit[part->n_log++] = pos;
        }
        if (restarting && phase == 0 && part->n_mcus && part->n_mcus % scan->restart_mcus == 0) {
            /* The next interval: the last one must have ended before it, as libjpeg reads. */
            if (pos > (uint64_t)scan->restart_byte[++interval] * 8) break;
            pos = (uint64_t)scan->restart_byte[interval] * 8;
            reader_start(&reader, scan->bits, pos);
            memset(dc_sum, 0, sizeof dc_sum);
        }
        if (phase == 0) {
            part->mcu_entry[part->n_mcus] = (uint32_t)part->n_entries;
            memcpy(part->mcu_dc[part->n_mcus], dc_sum, sizeof dc_sum);
            part->n_mcus++;
        }
        size_t first = part->n_entries;
        const block_kind *kind = &scan->kinds[phase];
        int decoded = decode_block(kind, &reader, part->entries, &part->n_entries);
        uint64_t block_end = decoded ? reader_pos(&reader, scan->bits) : 0;
        if (decoded && block_end <= scan->n_bits) {
            pos = block_end;
            part->n_blocks++;
            dc_sum[kind->component] = (uint16_t)(dc_sum[kind->component] + part->entries[first]);
            phase = phase + 1 == scan->blocks_per_mcu ? 0 : phase + 1;
        } else if (!decoded && guessing && !part->published && ++restarts <= MAX_RESTARTS) {
            /* Still guessing: start over one bit on. */
            part->n_entries = part->n_blocks = part->n_log = part->n_mcus = 0;
            memset(dc_sum, 0, sizeof dc_sum);
            pos++;
            phase = 0;
            reader_start(&reader, scan->bits, pos);
        } else {
            break; /* a bad code, or the scan's end */
        }
    }
    memcpy(part->dc_sum, dc_sum, sizeof dc_sum);
    if (restarting && part->n_blocks == quota) {
        size_t next = interval + 1;
        uint64_t end =
            next < scan->n_intervals ? (uint64_t)scan->restart_byte[next] * 8 : scan->n_bits;
        if (pos <= end && part->index + 1 < scan->n_parts) {
            part->next_part = part->index + 1; /* which starts at its first MCU, DC at 0 */
            part->next_mcu = 0;
        } else if (pos > end) {
            part->n_blocks = 0; /* read into the next interval: libjpeg says what is wrong */
        }
    }
    publish(part);
    return NULL;
}

/* ---- the whole decode ------------------------------------------------------------------- */

/* The scan from its first byte to its closing marker, stuffed zeros dropped and restart
 * markers taken out, where each interval's first byte is noted (scan->restart_byte). n_bytes is
 * set to the bytes kept. NULL unless EOI follows, and the restart markers are the ones the
 * header promises, in their order (libjpeg is left anything else). */
static uint8_t *unstuff(const uint8_t *bytes, size_t n_scan, split_scan *scan, size_t *n_bytes)
{
    uint8_t *out = yz_vision_alloc(n_scan + PAD_BYTES);
    if (!out) return NULL;
    size_t n = 0, i = 0, restarts = 0;
    for (;;) {
        const uint8_t *ff = memchr(bytes + i, 0xFF, n_scan - i);
        size_t run = (ff ? (size_t)(ff - bytes) : n_scan) - i;
        memcpy(out + n, bytes + i, run);
        n += run;
        i += run;
        if (!ff || i + 1 >= n_scan) break;
        if (bytes[i + 1] == 0x00) {
            out[n++] = 0xFF;
            i += 2;
            continue;
        }
        while (i + 1 < n_scan && bytes[i + 1] == 0xFF)
            i++; /* fill bytes before a marker */
        if (i + 1 >= n_scan) break;
        int marker = bytes[i + 1];
        if (marker == 0xD9 && restarts + 1 == scan->n_intervals) { /* EOI */
            memset(out + n, 0, PAD_BYTES);
            *n_bytes = n;
            return out;
        }
        if (marker != 0xD0 + (int)(restarts % 8) || restarts + 1 >= scan->n_intervals) break;
        scan->restart_byte[++restarts] = n;
        i += 2;
    }
    yz_vision_release(out);
    return NULL;
}

static int available_cores(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
    return 1;
}

/* The kinds of block an MCU holds, and the scaled IDCT of each component; 0 when this file is
 * not one this decoder takes. */
static int describe_scan(j_decompress_ptr cinfo, split_scan *scan, huff_table tables[8])
{
    if (cinfo->progressive_mode || cinfo->arith_code || cinfo->data_precision != 8 ||
        cinfo->num_components != 3 || cinfo->comps_in_scan != 3 ||
        cinfo->jpeg_color_space != JCS_YCbCr || cinfo->out_color_space != JCS_RGB ||
        cinfo->Ss != 0 || cinfo->Se != 63 || cinfo->Ah != 0 || cinfo->Al != 0 ||
        cinfo->scale_denom != 8 || cinfo->scale_num > 3)
        return 0;
    int luma_size = (int)cinfo->scale_num;
    int ssize[3]; /* each component's scaled IDCT */
    const jpeg_component_info *y = &cinfo->comp_info[0];
    for (int c = 0; c < 3; c++) {
        const jpeg_component_info *comp = &cinfo->comp_info[c];
        int h = comp->h_samp_factor, v = comp->v_samp_factor;
        int full = c == 0 || (h == 1 && v == 1);
        if (!full || (c > 0 && !((y->h_samp_factor == 1 && y->v_samp_factor == 1) ||
                                 (y->h_samp_factor == 2 && y->v_samp_factor == 2))))
            return 0;
        /* libjpeg scales chroma up in the IDCT rather than upsampling it (jdmaster.c). */
        ssize[c] = luma_size * y->h_samp_factor / h;
        if (comp->DCT_scaled_size != ssize[c] || ssize[c] == 5 || ssize[c] > 6) return 0;
        /* libjpeg checks the table numbers only once the decode starts: here, before. */
        if (comp->quant_tbl_no < 0 || comp->quant_tbl_no >= NUM_QUANT_TBLS ||
            !cinfo->quant_tbl_ptrs[comp->quant_tbl_no])
            return 0;
    }
    int n = 0;
    for (int s = 0; s < 3; s++) {
        const jpeg_component_info *comp = cinfo->cur_comp_info[s];
        int c = (int)(comp - cinfo->comp_info);
        if (c < 0 || c > 2 || comp->dc_tbl_no < 0 || comp->dc_tbl_no >= NUM_HUFF_TBLS ||
            comp->ac_tbl_no < 0 || comp->ac_tbl_no >= NUM_HUFF_TBLS)
            return 0;
        huff_table *dc = &tables[comp->dc_tbl_no], *ac = &tables[4 + comp->ac_tbl_no];
        if (!build_table(cinfo->dc_huff_tbl_ptrs[comp->dc_tbl_no], 1, dc) ||
            !build_table(cinfo->ac_huff_tbl_ptrs[comp->ac_tbl_no], 0, ac))
            return 0;
        for (int by = 0; by < comp->v_samp_factor; by++)
            for (int bx = 0; bx < comp->h_samp_factor; bx++) {
                block_kind *kind = &scan->kinds[n++];
                kind->dc = dc;
                kind->ac = ac;
                kind->quant = cinfo->quant_tbl_ptrs[comp->quant_tbl_no]->quantval;
                kind->wanted = yz_vision_idct_reads(ssize[c]);
                kind->component = c;
                kind->size = ssize[c];
                kind->x0 = bx * ssize[c];
                kind->y0 = by * ssize[c];
            }
    }
    scan->blocks_per_mcu = n;
    return 1;
}

/* A stretch of whole MCUs one part decoded, in the chain that joins the parts. */
typedef struct {
    const split_part *part;
    size_t from_mcu, to_mcu; /* the part's own MCU numbers */
    size_t first_mcu;        /* the first one's number in the photo */
    uint16_t dc[3];          /* each component's DC value before it */
} segment;

/* Follows the joins from part 0; 0 segments when they do not reach the scan's last MCU (the
 * scan ends early or holds a bad code: libjpeg is left to say so). */
static int chain_segments(const split_scan *scan, segment segments[MAX_PARTS])
{
    size_t per_mcu = (size_t)scan->blocks_per_mcu, total = scan->total_blocks / per_mcu;
    size_t done = 0, from = 0;
    uint16_t dc[3] = {0, 0, 0};
    const split_part *part = &scan->parts[0];
    for (int n = 0; n < MAX_PARTS; n++) {
        size_t to = part->n_blocks / per_mcu;
        if (to > from + (total - done)) to = from + (total - done);
        if (to < from) return 0;
        segments[n] = (segment){part, from, to, done, {dc[0], dc[1], dc[2]}};
        done += to - from;
        if (done == total) return n + 1;
        if (part->next_part < 0) return 0;
        for (int c = 0; c < 3; c++) /* with restart markers each part starts from 0 */
            dc[c] = scan->restart_mcus
                        ? 0
                        : (uint16_t)(dc[c] + part->dc_sum[c] - part->mcu_dc[from][c]);
        from = part->next_mcu;
        part = &scan->parts[part->next_part];
    }
    return 0;
}

typedef struct {
    const split_scan *scan;
    const segment *segments; /* reach the scan's last MCU */
    int mcus_x;
    size_t first_row, end_row; /* MCU rows this worker draws */
    /* Y, Cb and Cr at full output size (libjpeg scales chroma up in the IDCT), an MCU being
     * mcu_w x mcu_h pixels in each. */
    uint8_t *planes[3];
    size_t plane_w;
    int mcu_w, mcu_h;
    int width, height;
    uint8_t *rgb;
} rows_job;

/* The IDCTs of a run of MCU rows into the planes, then those rows to RGB. */
static void *draw_rows(void *arg)
{
    const rows_job *job = arg;
    const split_scan *scan = job->scan;
    size_t mcu = job->first_row * (size_t)job->mcus_x;
    int k = 0;
    while (mcu >= job->segments[k].first_mcu + job->segments[k].to_mcu - job->segments[k].from_mcu)
        k++;
    const segment *seg = &job->segments[k];
    const split_part *part = seg->part;
    size_t own = seg->from_mcu + (mcu - seg->first_mcu);
    size_t entry = part->mcu_entry[own];
    uint16_t dc[3];
    for (int c = 0; c < 3; c++)
        dc[c] = (uint16_t)(seg->dc[c] + part->mcu_dc[own][c] - part->mcu_dc[seg->from_mcu][c]);
    int16_t coef[64];
    memset(coef, 0, sizeof coef);
    size_t since_restart = scan->restart_mcus ? mcu % scan->restart_mcus : 1;
    for (size_t row = job->first_row; row < job->end_row; row++)
        for (size_t mx = 0; mx < (size_t)job->mcus_x; mx++, own++) {
            if (since_restart == 0) memset(dc, 0, sizeof dc);
            if (scan->restart_mcus && ++since_restart == scan->restart_mcus) since_restart = 0;
            if (own == seg->to_mcu) { /* on into the part the last one joined */
                seg++;
                part = seg->part;
                own = seg->from_mcu;
                entry = part->mcu_entry[own];
            }
            for (int b = 0; b < scan->blocks_per_mcu; b++) {
                const block_kind *kind = &scan->kinds[b];
                int c = kind->component;
                dc[c] = (uint16_t)(dc[c] + part->entries[entry++]);
                coef[0] = (int16_t)dc[c];
                size_t first_ac = entry;
                while (entry < part->n_entries && part->entries[entry] >> 16) {
                    coef[part->entries[entry] >> 16] = (int16_t)(part->entries[entry] & 0xFFFF);
                    entry++;
                }
                size_t x = mx * (size_t)job->mcu_w + (size_t)kind->x0;
                size_t y = row * (size_t)job->mcu_h + (size_t)kind->y0;
                yz_vision_idct_scaled(kind->size, coef, kind->quant, entry == first_ac,
                                      job->planes[c] + y * job->plane_w + x, job->plane_w);
                for (size_t e = first_ac; e < entry; e++)
                    coef[part->entries[e] >> 16] = 0;
            }
        }

    size_t y_end = job->end_row * (size_t)job->mcu_h;
    if (y_end > (size_t)job->height) y_end = (size_t)job->height;
    for (size_t y = job->first_row * (size_t)job->mcu_h; y < y_end; y++)
        yz_vision_ycc_row_to_rgb(
            job->planes[0] + y * job->plane_w, job->planes[1] + y * job->plane_w,
            job->planes[2] + y * job->plane_w, job->width, job->rgb + y * (size_t)job->width * 3);
    return NULL;
}

int yz_vision_jpeg_split_decode(struct jpeg_decompress_struct *cinfo, const uint8_t *scan_bytes,
                                size_t n_scan, uint8_t *rgb)
{
    /* One part is slower than libjpeg's own loop: this pays only on two cores or more. */
    int forced = atomic_load(&forced_parts), allowed = atomic_load(&decode_cores);
    int n_parts = forced ? forced : available_cores();
    if (allowed && n_parts > allowed) n_parts = allowed;
    if (n_parts < 2) return 0;
    if (n_parts > MAX_PARTS) n_parts = MAX_PARTS;
    split_scan *scan = yz_vision_alloc(sizeof *scan);
    huff_table *tables = yz_vision_alloc(8 * sizeof *tables);
    if (!scan || !tables) goto fail_early;
    memset(scan, 0, sizeof *scan);
    if (!describe_scan(cinfo, scan, tables)) goto fail_early;
    yz_vision_idct_prepare();

    int max_h = cinfo->max_h_samp_factor, max_v = cinfo->max_v_samp_factor;
    int mcus_x = (int)((cinfo->image_width + 8u * (unsigned)max_h - 1) / (8u * (unsigned)max_h));
    int mcus_y = (int)((cinfo->image_height + 8u * (unsigned)max_v - 1) / (8u * (unsigned)max_v));
    scan->total_blocks = (size_t)mcus_x * (size_t)mcus_y * (size_t)scan->blocks_per_mcu;

    /* Parts far longer than their logs, or the guesses cost more than they save. */
    while (n_parts > 1 && scan->total_blocks / (size_t)n_parts < 16 * LOG_BLOCKS && !forced)
        n_parts--;
    size_t total_mcus = scan->total_blocks / (size_t)scan->blocks_per_mcu;
    scan->restart_mcus = cinfo->restart_interval;
    scan->n_intervals =
        scan->restart_mcus ? (total_mcus + scan->restart_mcus - 1) / scan->restart_mcus : 1;
    /* With restart markers the parts start at intervals, each its own beginning: no guesses. */
    if (scan->restart_mcus && (size_t)n_parts > scan->n_intervals) n_parts = (int)scan->n_intervals;
    if (n_parts < 2) goto fail_early;
    scan->n_parts = n_parts;
    scan->restart_byte = yz_vision_alloc(scan->n_intervals * sizeof *scan->restart_byte);
    if (!scan->restart_byte) goto fail_early;
    scan->restart_byte[0] = 0;
    size_t n_bytes = 0;
    uint8_t *bits = unstuff(scan_bytes, n_scan, scan, &n_bytes);
    if (!bits) goto fail_early;
    scan->bits = bits;
    scan->n_bits = (uint64_t)n_bytes * 8;
    pthread_mutex_init(&scan->lock, NULL);
    pthread_cond_init(&scan->published, NULL);

    int ok = 1;
    for (int i = 0; i < n_parts; i++) {
        split_part *part = &scan->parts[i];
        part->scan = scan;
        part->index = i;
        part->next_part = -1;
        if (!scan->restart_mcus) {
            part->start_bit = (uint64_t)n_bytes * (uint64_t)i / (uint64_t)n_parts * 8;
        } else {
            part->first_interval = scan->n_intervals * (size_t)i / (size_t)n_parts;
            size_t end = scan->n_intervals * (size_t)(i + 1) / (size_t)n_parts;
            size_t first_mcu = part->first_interval * scan->restart_mcus;
            size_t end_mcu = end == scan->n_intervals ? total_mcus : end * scan->restart_mcus;
            part->start_bit = (uint64_t)scan->restart_byte[part->first_interval] * 8;
            part->quota_blocks = (end_mcu - first_mcu) * (size_t)scan->blocks_per_mcu;
        }
        part->mcu_entry = yz_vision_alloc((total_mcus + 1) * sizeof *part->mcu_entry);
        part->mcu_dc = yz_vision_alloc((total_mcus + 1) * sizeof *part->mcu_dc);
        if (!part->mcu_entry || !part->mcu_dc) ok = 0;
        if (i > 0 && !scan->restart_mcus) {
            part->log_bit = yz_vision_alloc(LOG_BLOCKS * sizeof *part->log_bit);
            if (!part->log_bit) ok = 0;
        }
    }
    pthread_t threads[MAX_PARTS];
    int started[MAX_PARTS] = {0};
    for (int i = 1; i < n_parts && ok; i++) {
        if (pthread_create(&threads[i], NULL, run_part, &scan->parts[i]) == 0) {
            started[i] = 1;
        } else { /* no thread: the part before decodes its stretch */
            abandon(&scan->parts[i]);
            publish(&scan->parts[i]);
        }
    }
    if (ok) run_part(&scan->parts[0]);
    for (int i = 1; i < n_parts; i++)
        if (started[i]) pthread_join(threads[i], NULL);
    for (int i = 0; i < n_parts; i++)
        ok = ok && !scan->parts[i].out_of_memory;

    segment segments[MAX_PARTS];
    int n_segments = ok ? chain_segments(scan, segments) : 0;
    rows_job jobs[MAX_PARTS];
    rows_job job = {.scan = scan,
                    .segments = segments,
                    .mcus_x = mcus_x,
                    .width = (int)cinfo->output_width,
                    .height = (int)cinfo->output_height,
                    .mcu_w = max_h * (int)cinfo->scale_num, /* luma's IDCT size */
                    .mcu_h = max_v * (int)cinfo->scale_num,
                    .rgb = rgb};
    job.plane_w = (size_t)mcus_x * (size_t)job.mcu_w;
    uint8_t *planes[3] = {NULL, NULL, NULL};
    ok = n_segments > 0;
    for (int c = 0; c < 3 && ok; c++) {
        job.planes[c] = planes[c] =
            yz_vision_alloc(job.plane_w * (size_t)mcus_y * (size_t)job.mcu_h);
        if (!planes[c]) ok = 0;
    }
    if (ok) { /* the rows in as many runs as there were parts, one per thread */
        for (int i = 0; i < n_parts; i++) {
            jobs[i] = job;
            jobs[i].first_row = (size_t)mcus_y * (size_t)i / (size_t)n_parts;
            jobs[i].end_row = (size_t)mcus_y * (size_t)(i + 1) / (size_t)n_parts;
            started[i] = i > 0 && pthread_create(&threads[i], NULL, draw_rows, &jobs[i]) == 0;
        }
        for (int i = 0; i < n_parts; i++)
            if (!started[i]) draw_rows(&jobs[i]);
        for (int i = 1; i < n_parts; i++)
            if (started[i]) pthread_join(threads[i], NULL);
    }

    for (int c = 0; c < 3; c++)
        yz_vision_release(planes[c]);
    for (int i = 0; i < n_parts; i++) {
        split_part *part = &scan->parts[i];
        yz_vision_release(part->entries);
        yz_vision_release(part->mcu_entry);
        yz_vision_release(part->mcu_dc);
        yz_vision_release(part->log_bit);
    }
    pthread_cond_destroy(&scan->published);
    pthread_mutex_destroy(&scan->lock);
    yz_vision_release(bits);
    yz_vision_release(tables);
    yz_vision_release(scan->restart_byte);
    yz_vision_release(scan);
    if (ok) atomic_fetch_add(&split_decodes, 1);
    return ok;

fail_early:
    yz_vision_release(tables);
    if (scan) yz_vision_release(scan->restart_byte);
    yz_vision_release(scan);
    return 0;
}
