#!/usr/bin/env python3
"""Writes the sample games of `yardzee game review` (samples/games/): whole 2-player games of
the yahtzee rules between two rule-of-thumb players, with seeded dice, so the review has real
mistakes to find. Ann keeps her most common face (a run of four when she has one) and scores
the box worth most now; Bob does the same but never keeps more than three of a kind and fills
Chance early. The moves are the truth: `yardzee game show` replays them through the rules.

usage: tools/make_review_games.py OUT_DIR [N_GAMES]"""
import json
import os
import random
import sys

BOXES = ["aces", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
         "full_house", "small_straight", "large_straight", "yahtzee", "chance"]


def points(box, dice):
    counts = [dice.count(f) for f in range(7)]
    faces = set(dice)
    if box in BOXES[:6]:
        face = BOXES.index(box) + 1
        return face * counts[face]
    if box == "three_kind":
        return sum(dice) if max(counts) >= 3 else 0
    if box == "four_kind":
        return sum(dice) if max(counts) >= 4 else 0
    if box == "full_house":
        return 25 if sorted(counts)[-2:] == [2, 3] or max(counts) == 5 else 0
    if box == "small_straight":
        return 30 if any(set(run) <= faces for run in ([1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6])) else 0
    if box == "large_straight":
        return 40 if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    if box == "yahtzee":
        return 50 if max(counts) == 5 else 0
    return sum(dice)


def keep_of(dice, cautious):
    faces = set(dice)
    for run in ([3, 4, 5, 6], [2, 3, 4, 5], [1, 2, 3, 4]):
        if set(run) <= faces:
            return run
    face = max(range(1, 7), key=lambda f: (dice.count(f), f))
    return [face] * min(dice.count(face), 3 if cautious else 5)


def play(seed):
    rng = random.Random(seed)
    players = ["Ann", "Bob"]
    open_boxes = {p: list(BOXES) for p in players}
    moves = []
    for _ in range(len(BOXES)):
        for player in players:
            cautious = player == "Bob"
            kept = []
            for throw in range(3):
                dice = kept + [rng.randint(1, 6) for _ in range(5 - len(kept))]
                moves.append({"player": player, "throw": dice})
                best = max(open_boxes[player], key=lambda b: (points(b, dice), -BOXES.index(b)))
                if throw == 2 or points(best, dice) >= 25:
                    break
                kept = keep_of(dice, cautious)
                moves.append({"player": player, "keep": kept})
            if cautious and "chance" in open_boxes[player] and sum(dice) >= 20:
                best = "chance"
            open_boxes[player].remove(best)
            moves.append({"player": player, "score": best})
    return {"yardzee_game": 1, "rules": "yahtzee", "players": players, "moves": moves}


def main():
    out_dir = sys.argv[1]
    n_games = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    os.makedirs(out_dir, exist_ok=True)
    for i in range(n_games):
        game = play(2700 + i)
        with open(os.path.join(out_dir, f"game_{i + 1}.json"), "w") as out:
            out.write('{\n  "yardzee_game": 1,\n  "rules": "yahtzee",\n  "players": ["Ann", "Bob"],\n')
            out.write('  "moves": [\n    ')
            out.write(",\n    ".join(json.dumps(m, separators=(",", ":")) for m in game["moves"]))
            out.write("\n  ]\n}\n")


if __name__ == "__main__":
    main()
