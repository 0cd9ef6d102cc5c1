#!/usr/bin/python3
"""The render folders the reader was trained, tuned and judged on, by name, drawn again with one
command: each is tools/render_scenes.py with the seeds and options below, written to ROOT/NAME.
tools/READER_HISTORY.md and tools/render/README.md name them; they are not kept in the repo.

  usage: tools/render_sets.py --list
         tools/render_sets.py [--root DIR] [--jobs N] NAME...
  e.g.   tools/render_sets.py w5 lv12a lv12b close8      # dev sets, into /tmp/w5 ...
         tools/render_sets.py yz-frozen                  # issue 24's frozen test set

A folder whose scenes.csv already lists all its scenes is left as it is, so a stopped run picks
up where it stopped (a folder cut short is drawn again whole). Scenes are rendered --jobs at a
time (render_scenes.py's default: twice the cores); the folders one after another. samples/lawn
and samples/readme live in the repo and are drawn as tools/render/README.md says.
"""
import argparse
import pathlib
import subprocess
import sys

RENDER = pathlib.Path(__file__).resolve().parent / "render_scenes.py"
W640 = "--world --long-side 640"  # the world scenes the nets learn from

# name: (render_scenes.py options, what the folder is for). The first part of each comment says
# which try of READER_HISTORY.md drew it.
SETS = {
    "hard": ("--count 160 --seed 21000 --low-and-crowded",
             "low cameras, dice touching or one behind another"),
    "fresh": ("--count 200 --seed 41000 --prefix v4_", "samples-like lawn scenes, fresh seeds"),
    "glare": ("--count 80 --seed 55000 --sun-glare --prefix gv_", "sun glare on the lawn"),
    "cut": ("--count 60 --seed 61000 --cut-off --prefix cut_", "a die across the frame's edge"),
    "close": ("--count 50 --seed 71000 --close-up --prefix cl1_", "crouching close-ups"),
    "yz-frozen": ("--count 300 --seed 91000 --world --prefix frozen_",
                  "issue 24's frozen test set: read its totals only, never train or tune on it"),
    "world": ("--count 200 --seed 93000 --world --prefix w_", "issue 24's first world scenes"),
    "clutter": ("--count 200 --seed 95000 --world --clutter-only --prefix cw_",
                "lawn clutter without dice (hard negatives)"),
    "world2": (f"--count 400 --seed 101000 {W640} --prefix w2_", "second try: more world"),
    "world3": (f"--count 150 --seed 107000 {W640} --prefix w3_", "second try: more world"),
    "clutter3": (f"--count 100 --seed 105000 {W640} --clutter-only --prefix cw3_",
                 "second try: more clutter"),
    "behind1": ("--count 80 --seed 131000 --long-side 640 --one-behind-another --prefix ob1_",
                "eighth try: a die partly behind another in every scene"),
    "behind2": ("--count 80 --seed 133000 --long-side 640 --one-behind-another --prefix ob2_",
                "eighth try: the same, other seeds"),
    "world4": (f"--count 300 --seed 141000 {W640} --prefix w4_",
               "tenth try: a world set measured whole before any net learned from it"),
    "hg151000": (f"--count 210 --seed 151000 {W640} --hard-ground --prefix hg151_",
                 "eleventh try: the grounds where world4's dice were missed most"),
    "hg153000": (f"--count 210 --seed 153000 {W640} --hard-ground --prefix hg153_",
                 "eleventh try: the same, other seeds"),
    "w5": (f"--count 200 --seed 171000 {W640} --prefix w5_",
           "twelfth try: the world dev set no net learned from"),
    "world6": (f"--count 400 --seed 181000 {W640} --masks --prefix w6_",
               "thirteenth try: world scenes with each die's pixels"),
    "clutter6": (f"--count 100 --seed 183000 {W640} --clutter-only --masks --prefix cw6_",
                 "thirteenth try: clutter with masks"),
    "plain6": ("--count 121 --seed 185000 --long-side 640 --masks --prefix pl6_",
               "thirteenth try: plain lawn with masks (drawn with --count 150, 121 used)"),
    "close8": ("--count 40 --seed 191000 --close-up --long-side 640 --prefix cl8_",
               "thirteenth try: fresh close-ups (dev)"),
    "w7": (f"--count 623 --seed 201000 {W640} --masks --prefix w7_",
           "fourteenth try: more world for the whole-die reader"),
    "w8": (f"--count 494 --seed 203000 {W640} --masks --prefix w8_", "fourteenth try: the same"),
    "glare9": ("--count 80 --seed 205000 --sun-glare --long-side 640 --masks --prefix gl9_",
               "fourteenth try: sun glare with masks"),
    "w9": (f"--count 700 --seed 207000 {W640} --masks --prefix w9_",
           "fifteenth try: 1400 more world scenes for both readers"),
    "w10": (f"--count 700 --seed 209000 {W640} --masks --prefix w10_", "fifteenth try: the same"),
    "gl11": ("--count 120 --seed 211000 --sun-glare --long-side 640 --masks --prefix gl11_",
             "eighteenth try: lawn keep-sets grown with the world"),
    "pl11": ("--count 150 --seed 213000 --long-side 640 --masks --prefix pl11_",
             "eighteenth try: the same, plain lawn"),
    "lv12a": ("--count 80 --seed 215000 --prefix lv12a_",
              "a fresh lawn dev set drawn as samples/lawn is (1024 px)"),
    "lv12b": ("--count 80 --seed 217000 --prefix lv12b_", "its second half"),
    "w13": (f"--count 300 --seed 221000 {W640} --masks --prefix w13_",
            "twenty-first try: world beside epanemu-dice unstretched"),
    "pl13": ("--count 120 --seed 223000 --long-side 640 --masks --prefix pl13_",
             "twenty-first try: plain lawn"),
    "gl13": ("--count 60 --seed 225000 --sun-glare --long-side 640 --masks --prefix gl13_",
             "twenty-first try: sun glare"),
    "pl14": ("--count 200 --seed 231000 --long-side 640 --masks --prefix pl14_",
             "twenty-second try: lawn keep-set, plain"),
    "ob14": ("--count 80 --seed 233000 --one-behind-another --long-side 640 --masks "
             "--prefix ob14_", "twenty-second try: lawn keep-set, a die half behind another"),
    "gl14": ("--count 80 --seed 235000 --sun-glare --long-side 640 --masks --prefix gl14_",
             "twenty-second try: lawn keep-set, glare"),
    "cl14": ("--count 60 --seed 237000 --close-up --long-side 640 --masks --prefix cl14_",
             "twenty-second try: close-ups for the detector's world half"),
    "w15": (f"--count 400 --seed 241000 {W640} --masks --prefix w15_",
            "twenty-fifth try: more world for the detector's world half (du9)"),
    "w16": (f"--count 400 --seed 253000 {W640} --masks --prefix w16_",
            "twenty-sixth try: more world (du11); a dev set for the twenty-seventh"),
    "w16b": (f"--count 169 --seed 255000 {W640} --masks --prefix w16b_",
             "twenty-sixth try (drawn with --count 400, stopped at 169)"),
    "ob16": ("--count 150 --seed 251000 --one-behind-another --long-side 640 --masks "
             "--prefix ob16_", "twenty-sixth try: more dice one behind another"),
    "six29": ("--count 120 --seed 261000 --six-close --prefix six29_",
              "twenty-ninth try: six dice, two touching or one behind another, on the lawn"),
    "wsix29": (f"--count 120 --seed 263000 {W640} --six-close --prefix wsix29_",
               "twenty-ninth try: the same in the world"),
    "wob33": (f"--count 200 --seed 281000 {W640} --one-behind-another --masks --prefix wob33_",
              "thirty-third try: world dice touching or one behind another, for a second "
              "detector (fb2, not kept)"),
    "wsix33": (f"--count 120 --seed 283000 {W640} --six-close --masks --prefix wsix33_",
               "thirty-third try: six close world dice, for the same (a training set; wsix29 "
               "stays the dev set)"),
    "m69": (f"--count 300 --seed 331000 {W640} --marbled 1 --prefix m69_",
            "thirty-ninth try: world scenes, painted dice marbled (byler-d6's gaming dice)"),
    "m69d": (f"--count 100 --seed 333000 {W640} --marbled 1 --prefix m69d_",
             "thirty-ninth try: the same, a dev set no net learned from"),
    "w70": (f"--count 200 --seed 341000 {W640} --prefix w70_",
            "fortieth try: a second world dev set, to confirm what w5 chose"),
    "wsix70": (f"--count 120 --seed 343000 {W640} --six-close --prefix wsix70_",
               "fortieth try: six close world dice, to confirm what wsix29 chose"),
    "w71": (f"--count 400 --seed 351000 {W640} --prefix w71_",
            "forty-first try: world scenes for the whole-die reader's side-face negatives"),
    "pl71": ("--count 150 --seed 353000 --long-side 640 --prefix pl71_",
             "forty-first try: plain lawn beside them"),
    "wsix71": (f"--count 100 --seed 355000 {W640} --six-close --prefix wsix71_",
               "forty-first try: six close world dice beside them (wsix29 and wsix70 stay dev)"),
    "wlow75": (f"--count 240 --seed 361000 {W640} --low-camera --prefix wlow75_",
               "forty-third try: world scenes shot from 50 degrees or lower, for the readers"),
    "wlow75d": (f"--count 100 --seed 363000 {W640} --low-camera --prefix wlow75d_",
                "forty-third try: the same, a dev set no net learned from"),
    "wlow75b": (f"--count 600 --seed 365000 {W640} --low-camera --prefix wlow75b_",
                "forty-third try: more of wlow75, for the readers"),
    "wf76": ("--count 150 --seed 371000 --world --prefix wf76_",
             "forty-fourth try: a world dev set drawn as yz-frozen is (1024 px), fresh seeds"),
    "wt82": ("--count 300 --seed 381000 --world --prefix wt82_",
             "forty-ninth try: a second test set drawn as yz-frozen is, rendered before the "
             "try's change and read only at its end"),
    "wt83": ("--count 300 --seed 391000 --world --prefix wt83_",
             "fiftieth try: a third test set drawn as yz-frozen is, rendered before the try's "
             "change and read only at its end"),
    "wt84": ("--count 300 --seed 401000 --world --prefix wt84_",
             "fifty-first try: a fourth test set drawn as yz-frozen is, rendered before the "
             "try's change and read only at its end"),
    "wt85": ("--count 300 --seed 411000 --world --prefix wt85_",
             "fifty-second try: a fifth test set drawn as yz-frozen is, rendered before the "
             "try's change and read only at its end"),
    "wt86": ("--count 300 --seed 421000 --world --prefix wt86_",
             "fifty-third try: a sixth test set drawn as yz-frozen is, rendered before the "
             "try's change and read only at its end"),
    "wt87": ("--count 200 --seed 431000 --world --prefix wt87_",
             "fifty-third try: a seventh (200 scenes, for time), rendered after wt86 was read "
             "to judge the same change again at a price chosen before"),
    "wt88": ("--count 300 --seed 441000 --world --prefix wt88_",
             "fifty-fourth try: an eighth test set drawn as yz-frozen is, rendered before the "
             "try's change and read only at its end"),
    "wt89": ("--count 300 --seed 451000 --world --prefix wt89_",
             "fifty-fifth try: a ninth test set drawn as yz-frozen is, rendered before the "
             "try's change and read only at its end"),
    "wt90": ("--count 300 --seed 461000 --world --prefix wt90_",
             "fifty-sixth try: a tenth test set drawn as yz-frozen is, rendered after wt89 "
             "was read and before the try's candidate was judged"),
    "wt91": ("--count 300 --seed 471000 --world --prefix wt91_",
             "fifty-seventh try: an eleventh test set drawn as yz-frozen is, rendered before "
             "the try's change and read only at its end"),
    "wt92": ("--count 300 --seed 481000 --world --prefix wt92_",
             "fifty-eighth try: a twelfth test set drawn as yz-frozen is, rendered before the "
             "try's change and read only at its end"),
    "wt93": ("--count 300 --seed 491000 --world --prefix wt93_",
             "a thirteenth test set drawn as yz-frozen is, rendered in session 90 for the next "
             "try; its totals were read once for session 90's review, nothing tuned on it"),
    "wt94": ("--count 300 --seed 501000 --world --prefix wt94_",
             "fifty-ninth try: a fourteenth test set drawn as yz-frozen is, rendered before the "
             "try's change and read only at its end (for the committed reader)"),
    "ob94": ("--count 80 --seed 503000 --one-behind-another --long-side 640 --prefix ob94_",
             "fifty-ninth try: lawn keep-set, a die half behind another"),
    "wt95": ("--count 300 --seed 511000 --world --prefix wt95_",
             "a fifteenth test set drawn as yz-frozen is, rendered in session 91 for the next "
             "try; its totals were read once for session 91's review, nothing tuned on it"),
    "wt96": ("--count 300 --seed 521000 --world --prefix wt96_",
             "sixty-first try: a sixteenth test set drawn as yz-frozen is, rendered before the "
             "try's change and read only at its end"),
    "wt97": ("--count 300 --seed 531000 --world --prefix wt97_",
             "a seventeenth test set drawn as yz-frozen is, rendered in session 92 for the next "
             "try and read once at the sixty-second try's end (committed reader)"),
    "wt98": ("--count 300 --seed 541000 --world --prefix wt98_",
             "an eighteenth test set drawn as yz-frozen is, rendered in session 93 before the "
             "sixty-third try's change and read only at its end"),
    "wt99": ("--count 300 --seed 551000 --world --prefix wt99_",
             "a nineteenth test set drawn as yz-frozen is, rendered in session 94 before its "
             "change and read only at its end"),
    "wt100": ("--count 300 --seed 561000 --world --prefix wt100_",
              "a twentieth test set drawn as yz-frozen is, rendered in session 95 before its "
              "change and read only at its end"),
    "wt101": ("--count 300 --seed 571000 --world --prefix wt101_",
              "a twenty-first test set drawn as yz-frozen is, rendered in session 96 before its "
              "change and read only at its end"),
    "wt102": ("--count 300 --seed 581000 --world --prefix wt102_",
              "a twenty-second test set drawn as yz-frozen is, rendered in session 97 before its "
              "change and read only at its end"),
    "wt103": ("--count 300 --seed 591000 --world --prefix wt103_",
              "a twenty-third test set drawn as yz-frozen is, rendered in session 97 before its "
              "second candidate was trained and read once at its end"),
    "wt104": ("--count 300 --seed 601000 --world --prefix wt104_",
              "a twenty-fourth test set drawn as yz-frozen is, rendered in session 98 before the "
              "sixty-eighth try and read once at its end (committed reader, two soups for "
              "information)"),
    "wt105": ("--count 300 --seed 611000 --world --prefix wt105_",
              "a twenty-fifth test set drawn as yz-frozen is, rendered in session 98 before the "
              "sixty-ninth try and read once at its end"),
    "wt106": ("--count 300 --seed 621000 --world --prefix wt106_",
              "a twenty-sixth test set drawn as yz-frozen is, rendered in session 99 before the "
              "seventieth try and read once at its end"),
    "wt107": ("--count 300 --seed 631000 --world --prefix wt107_",
              "a twenty-seventh test set drawn as yz-frozen is, rendered in session 99 before the "
              "seventy-first try and read once at its end"),
    "wt108": ("--count 300 --seed 641000 --world --prefix wt108_",
              "a twenty-eighth test set drawn as yz-frozen is, rendered in session 100 before the "
              "seventy-second try and read once at its end"),
    "wt109": ("--count 300 --seed 651000 --world --prefix wt109_",
              "a twenty-ninth test set drawn as yz-frozen is, rendered in session 100 for the "
              "seventy-third try, whose candidate failed at dev: left unread for the next try"),
}


def complete(folder, count):
    """Whether folder's scenes.csv lists count scenes (render_scenes.py writes it as it goes)."""
    scenes = folder / "scenes.csv"
    return scenes.exists() and len(scenes.read_text().splitlines()) == count + 1


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", metavar="NAME")
    parser.add_argument("--root", type=pathlib.Path, default=pathlib.Path("/tmp"))
    parser.add_argument("--jobs", type=int, help="render_scenes.py's --jobs")
    parser.add_argument("--list", action="store_true", help="each set's name, options and use")
    args = parser.parse_args()
    if args.list:
        for name, (options, use) in SETS.items():
            print(f"{name:10} {options}\n{'':10} {use}")
        return 0
    unknown = [name for name in args.names if name not in SETS]
    if unknown or not args.names:
        parser.error(f"unknown set {', '.join(unknown)} (--list names them)" if unknown
                     else "name a set (--list names them)")
    for name in args.names:
        options = SETS[name][0].split()
        folder = args.root / name
        if complete(folder, int(options[options.index("--count") + 1])):
            print(f"render_sets: {folder} is there", flush=True)
            continue
        command = [sys.executable, str(RENDER), "--out", str(folder), *options]
        if args.jobs:
            command += ["--jobs", str(args.jobs)]
        print("render_sets:", " ".join(command[1:]), flush=True)
        if subprocess.run(command).returncode != 0:
            print(f"render_sets: {name} failed", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
