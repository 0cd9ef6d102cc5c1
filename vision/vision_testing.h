/* vision_testing.h - hooks for tests only. */
#ifndef YZ_VISION_TESTING_H
#define YZ_VISION_TESTING_H

#include "vision.h"

/* Make the nth allocation libyzvision asks for from now on fail (1 = the next); 0 turns it off. */
void yz_vision_testing_fail_allocation(long nth);

/* The verdict step alone (vision/verdict.c, with the committed thresholds) on dice already
 * found and read: sets the roll, the status and the reason, distrusts dice whose boxes or top
 * faces say they cannot be trusted, and sets aside an unread die boxed inside a sure one. */
void yz_vision_testing_verdict(yz_vision_result *result, int expect);

/* How vision/read.c makes one reading of one die from its two readers' probabilities
 * (0 = no readable top face, 1..6), the whole-die reader's and the top-face reader's, with the
 * tuning value face_alone (0: never the whole-die reader's alone). */
void yz_vision_testing_combine_readers(const float whole_die[7], const float face[7],
                                       double face_alone, float combined[7]);

/* detect.c's closer look at overlapping dice: the dice the first look found (first[i] = {cx, cy,
 * w, h}, pixels of a photo_w x photo_h photo) with what the closer look at window = {x, y, w, h}
 * alone sees (closer) added, into dice (room for n_first + n_closer, each at most 256);
 * returns how many. */
int yz_vision_testing_closer_look(int photo_w, int photo_h, const int window[4],
                                  const double first[][4], int n_first, const double closer[][4],
                                  int n_closer, double dice[][4]);

/* Where the annotated picture puts each die's label, plate included: rects[i] = {x, y, w, h}
 * for result->dice[i], on a picture picture_w x picture_h showing the full-size photo scaled by
 * scale (no banner). */
void yz_vision_testing_label_rects(const yz_vision_result *result, const yz_vision_claim *claim,
                                   int picture_w, int picture_h, double scale, double rects[][4]);

/* 0: JPEGs decode as they would (vision/jpeg_split.c where it takes the file, in a part per
 * core); 1: always with libjpeg; 2..8: jpeg_split.c in that many parts wherever it takes the
 * file, however small. */
void yz_vision_testing_jpeg_parts(int n_parts);

/* How many JPEGs vision/jpeg_split.c has decoded so far. */
long yz_vision_testing_jpeg_split_decodes(void);

/* One block through vision/jpeg_idct.c's 2x2 or 4x4 IDCT (size 2 or 4) by each of its paths,
 * each into an 8-wide out[k] zeroed first: 0 libjpeg's arithmetic in 64 bits, 1 the 32-bit
 * lanes, 2 the lanes as this processor runs them (AVX2 where it has it). Returns 1 when the
 * lanes took the block, 0 when it is past their bound (out[1] and out[2] then untouched), -1
 * when the two lane paths disagree on that. */
int yz_vision_testing_idct_paths(int size, const int16_t coef[64], const uint16_t quant[64],
                                 uint8_t out[3][64]);

#endif
