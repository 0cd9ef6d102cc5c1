/* profiles.c - every rulebook as a table. Where a rulebook is silent the note quotes it and
 * states the choice; tests/test_rules.c pins each choice. */
#include <string.h>

#include "rules.h"

#define YAHTZEE_BOXES                                                                              \
    .n_boxes = 13,                                                                                 \
    .boxes = {YZ_BOX_ONES,       YZ_BOX_TWOS,           YZ_BOX_THREES,         YZ_BOX_FOURS,       \
              YZ_BOX_FIVES,      YZ_BOX_SIXES,          YZ_BOX_THREE_KIND,     YZ_BOX_FOUR_KIND,   \
              YZ_BOX_FULL_HOUSE, YZ_BOX_SMALL_STRAIGHT, YZ_BOX_LARGE_STRAIGHT, YZ_BOX_YAHTZEE,     \
              YZ_BOX_CHANCE},                                                                      \
    .kinds = YZ_KIND_SUM_ALL, .house = YZ_HOUSE_FIXED, .house_points = 25,                         \
    .straights = YZ_STRAIGHT_RUNS, .small_straight_points = 30, .large_straight_points = 40,       \
    .yahtzee_points = 50, .upper_bonus_threshold = 63, .upper_bonus = 35,                          \
    .extra_yahtzee_bonus = 100, .tiebreak = {{YZ_TIE_END, 0}}

#define YAHTZEE_LABELS(yahtzee_label)                                                              \
    .box_labels = {[YZ_BOX_ONES] = "Aces",                                                         \
                   [YZ_BOX_TWOS] = "Twos",                                                         \
                   [YZ_BOX_THREES] = "Threes",                                                     \
                   [YZ_BOX_FOURS] = "Fours",                                                       \
                   [YZ_BOX_FIVES] = "Fives",                                                       \
                   [YZ_BOX_SIXES] = "Sixes",                                                       \
                   [YZ_BOX_THREE_KIND] = "3 of a Kind",                                            \
                   [YZ_BOX_FOUR_KIND] = "4 of a Kind",                                             \
                   [YZ_BOX_FULL_HOUSE] = "Full House",                                             \
                   [YZ_BOX_SMALL_STRAIGHT] = "Sm Straight",                                        \
                   [YZ_BOX_LARGE_STRAIGHT] = "Lg Straight",                                        \
                   [YZ_BOX_YAHTZEE] = yahtzee_label,                                               \
                   [YZ_BOX_CHANCE] = "Chance"}

/* Shared by every Yahtzee-family profile: no rulebook says a five of a kind is a Full House on
 * its own ("both a 3 of a kind and a pair"), so it is one only as a joker. */
#define NOTE_FIVE_KIND_NOT_HOUSE                                                                   \
    "Full House is three of one face and two of another; five of a kind is a Full House "          \
    "only as a joker (\"both a 3 of a kind and a pair\" is read as two different faces)."

#define YATZY_BOXES                                                                                \
    .n_boxes = 15,                                                                                 \
    .boxes = {YZ_BOX_ONES,       YZ_BOX_TWOS,      YZ_BOX_THREES,         YZ_BOX_FOURS,            \
              YZ_BOX_FIVES,      YZ_BOX_SIXES,     YZ_BOX_ONE_PAIR,       YZ_BOX_TWO_PAIRS,        \
              YZ_BOX_THREE_KIND, YZ_BOX_FOUR_KIND, YZ_BOX_SMALL_STRAIGHT, YZ_BOX_LARGE_STRAIGHT,   \
              YZ_BOX_FULL_HOUSE, YZ_BOX_CHANCE,    YZ_BOX_YAHTZEE},                                \
    .kinds = YZ_KIND_SUM_MATCHING, .yahtzee_points = 50, .upper_bonus_threshold = 63,              \
    .upper_bonus = 50, .extra = YZ_EXTRA_NONE, .extra_yahtzee_bonus = 0,                           \
    .tiebreak = {{YZ_TIE_BOX, YZ_BOX_YAHTZEE},                                                     \
                 {YZ_TIE_BOX, YZ_BOX_CHANCE},                                                      \
                 {YZ_TIE_UPPER_TOTAL, 0},                                                          \
                 {YZ_TIE_BOX, YZ_BOX_FOUR_KIND},                                                   \
                 {YZ_TIE_BOX, YZ_BOX_THREE_KIND},                                                  \
                 {YZ_TIE_BOX, YZ_BOX_TWO_PAIRS},                                                   \
                 {YZ_TIE_BOX, YZ_BOX_ONE_PAIR},                                                    \
                 {YZ_TIE_FIRST_PLAYER, 0},                                                         \
                 {YZ_TIE_END, 0}}

#define YATZY_LABELS(house_label)                                                                  \
    .box_labels = {[YZ_BOX_ONES] = "Ones",                                                         \
                   [YZ_BOX_TWOS] = "Twos",                                                         \
                   [YZ_BOX_THREES] = "Threes",                                                     \
                   [YZ_BOX_FOURS] = "Fours",                                                       \
                   [YZ_BOX_FIVES] = "Fives",                                                       \
                   [YZ_BOX_SIXES] = "Sixes",                                                       \
                   [YZ_BOX_ONE_PAIR] = "One Pair",                                                 \
                   [YZ_BOX_TWO_PAIRS] = "Two Pairs",                                               \
                   [YZ_BOX_THREE_KIND] = "Three of a Kind",                                        \
                   [YZ_BOX_FOUR_KIND] = "Four of a Kind",                                          \
                   [YZ_BOX_SMALL_STRAIGHT] = "Small Straight",                                     \
                   [YZ_BOX_LARGE_STRAIGHT] = "Large Straight",                                     \
                   [YZ_BOX_FULL_HOUSE] = house_label,                                              \
                   [YZ_BOX_CHANCE] = "Chance",                                                     \
                   [YZ_BOX_YAHTZEE] = "Yatzy"}

static const yz_profile profiles[] = {
    {
        .name = "yahtzee",
        .title = "Yahtzee with free-choice jokers (Yardzee Game Play and Scoring; XL Yard Yahtzee)",
        YAHTZEE_BOXES,
        YAHTZEE_LABELS("Yahtzee"),
        .extra = YZ_EXTRA_FREE,
        .min_players = 1,
        .max_players = YZ_MAX_PLAYERS,
        .notes = {"Upper bonus 35 at 63 or more.",
                  "Each extra Yahtzee earns 100 when the Yahtzee box holds 50 (none after a 0).",
                  "Once the Yahtzee box is filled (0 or 50), a five of a kind may go in any open "
                  "box; in a lower box it is a joker (Full House 25, Small Straight 30, Large "
                  "Straight 40) when the matching upper box is filled.",
                  NOTE_FIVE_KIND_NOT_HOUSE,
                  "Players: 1-6 (the XL rules are solitaire; the group game adds players). "
                  "A tie stands: neither rulebook breaks ties."},
    },
    {
        .name = "hasbro",
        .title = "Yahtzee, official US rule sheet (forced joker)",
        YAHTZEE_BOXES,
        YAHTZEE_LABELS("Yahtzee"),
        .extra = YZ_EXTRA_FORCED,
        .min_players = 1,
        .max_players = YZ_MAX_PLAYERS,
        .notes = {"Upper bonus 35 at 63 or more.",
                  "Each extra Yahtzee earns 100 when the Yahtzee box holds 50 (none after a 0).",
                  "Once the Yahtzee box is filled, a five of a kind must go in the matching upper "
                  "box if open; else in any open lower box as a joker at full value; else a zero "
                  "in an open upper box.",
                  NOTE_FIVE_KIND_NOT_HOUSE, "Players: 1-6. A tie stands."},
    },
    {
        .name = "yardzee",
        .title = "The TLG Rulebook: Yardzee (giant yard dice, 2-5 players)",
        YAHTZEE_BOXES,
        YAHTZEE_LABELS("Yardzee"),
        .extra = YZ_EXTRA_TLG,
        .min_players = 2,
        .max_players = 5,
        .notes = {"Upper bonus 35 at 63 or more.",
                  "\"If you roll a second Yardzee and you scored your first Yardzee in the "
                  "Yardzee box, your second Yardzee is worth 100 points. You must also put this "
                  "roll into another category\": the matching upper box if open, else a zero "
                  "anywhere in the upper section. There is no joker.",
                  "Silent: when the upper section is full, the extra Yardzee goes in any open "
                  "lower box and scores as an ordinary roll.",
                  "Silent: after a 0 in the Yardzee box, a five of a kind is an ordinary roll "
                  "(any open box, no bonus).",
                  NOTE_FIVE_KIND_NOT_HOUSE, "Players: 2-5, as the rulebook says. A tie stands."},
    },
    {
        .name = "belknap",
        .title = "Belknap Hill Trading Post leaflet: Yard \"Yahtzee!\"",
        YAHTZEE_BOXES,
        YAHTZEE_LABELS("Yahtzee"),
        .extra = YZ_EXTRA_BELKNAP,
        .min_players = 1,
        .max_players = YZ_MAX_PLAYERS,
        .notes = {"Upper bonus 35 at 63 or more.",
                  "\"A second Yahtzee is scored 100 points as long as a first Yahtzee has already "
                  "been scored\"; it must go in the matching upper box if that is open.",
                  "Silent: with the matching upper box filled, the extra Yahtzee goes in any open "
                  "box and scores as an ordinary roll (the leaflet has no joker).",
                  "\"Once the first Yahtzee has been scratched ... Subsequent Yahtzees may be "
                  "recorded in open Upper Section categories or in Chance\"; with none of those "
                  "open it is a scratch: a 0 in any open box.",
                  NOTE_FIVE_KIND_NOT_HOUSE,
                  "Players: 1-6 (the leaflet gives no number). A tie stands."},
    },
    {
        .name = "yatzy",
        .title = "Yatzy (15 boxes, 50-point bonus, 2-6 players)",
        YATZY_BOXES,
        YATZY_LABELS("House"),
        .house = YZ_HOUSE_FIXED,
        .house_points = 25,
        .straights = YZ_STRAIGHT_RUNS,
        .small_straight_points = 30,
        .large_straight_points = 40,
        .min_players = 2,
        .max_players = 6,
        .notes = {"Upper bonus 50 at 63 or more. No Yatzy bonus, no joker.",
                  "Three and Four of a Kind score only the matching dice, of the highest face "
                  "that qualifies (\"Sum of those three dice\").",
                  "Silent: Two Pairs needs two different faces; four of a kind is one pair.",
                  "Silent: House is three of one face and two of another; five of a kind is "
                  "not a House.",
                  "Small Straight is any four in a row (30), Large Straight five in a row (40).",
                  "Tiebreak: Yatzy, Chance, upper total, Four of a Kind, Three of a Kind, Two "
                  "Pairs, One Pair, then the player who went first. Players: 2-6."},
    },
    {
        .name = "yatzy-scandinavian",
        .title = "Scandinavian Yatzy (straights 15 and 20, Full House = sum of dice)",
        YATZY_BOXES,
        YATZY_LABELS("Full House"),
        .house = YZ_HOUSE_SUM,
        .house_points = 0,
        .straights = YZ_STRAIGHT_FIXED,
        .small_straight_points = 15,
        .large_straight_points = 20,
        .min_players = 1,
        .max_players = 6,
        .notes = {"Upper bonus 50 at 63 or more. No Yatzy bonus, no joker.",
                  "Small Straight is exactly 1-2-3-4-5 (15), Large Straight exactly 2-3-4-5-6 "
                  "(20).",
                  "Full House is three of one face and two of another, scoring the sum of the "
                  "dice.",
                  "Two Pairs needs two different faces; Three and Four of a Kind score only the "
                  "matching dice.",
                  "Tiebreak as in Yatzy. Players: 1-6."},
    },
};

size_t yz_rules_profile_count(void)
{
    return sizeof profiles / sizeof profiles[0];
}

const yz_profile *yz_rules_profile_at(size_t index)
{
    return index < yz_rules_profile_count() ? &profiles[index] : NULL;
}

const yz_profile *yz_rules_profile_find(const char *name)
{
    for (size_t i = 0; i < yz_rules_profile_count(); i++)
        if (strcmp(profiles[i].name, name) == 0) return &profiles[i];
    return NULL;
}

const yz_profile *yz_rules_profile_default(void)
{
    return &profiles[0];
}
