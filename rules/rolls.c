/* rolls.c - the 252 distinct rolls, indexed in lexicographic order of their sorted dice. */
#include "internal.h"

void yz_rules_roll_from_index(int index, yz_roll *roll)
{
    int i = 0;
    for (int a = 1; a <= 6; a++)
        for (int b = a; b <= 6; b++)
            for (int c = b; c <= 6; c++)
                for (int d = c; d <= 6; d++)
                    for (int e = d; e <= 6; e++, i++)
                        if (i == index) {
                            roll->dice[0] = (uint8_t)a;
                            roll->dice[1] = (uint8_t)b;
                            roll->dice[2] = (uint8_t)c;
                            roll->dice[3] = (uint8_t)d;
                            roll->dice[4] = (uint8_t)e;
                            return;
                        }
}
