#!/usr/bin/env python3
"""Precision@5 of `searcher --related` against judged pairs (data/labels/related).

    related_p5.py SEARCHER INDEX VAULT LABELS [--min P]

LABELS is a TSV of target, note, related (1/0), reason, judged by reading the
notes. Each target's five related notes are looked up; a note no judge has
seen counts as not related (and is named), so a change of the lists cannot
raise the figure unseen. Prints each target's judgments and the overall
precision; exits 1 below --min (default 0.8)."""
import csv
import json
import subprocess
import sys


def main():
    args = sys.argv[1:]
    least = 0.8
    if "--min" in args:
        i = args.index("--min")
        least = float(args[i + 1])
        del args[i:i + 2]
    searcher, index, vault, labels = args
    judged = {}
    for row in csv.DictReader(open(labels, encoding="utf-8"), delimiter="\t"):
        judged[(row["target"], row["note"])] = row["related"] == "1"
    targets = sorted({t for t, _ in judged})
    right = listed = 0
    for target in targets:
        out = subprocess.run([searcher, "--index", index, "--related", target, "--limit", "5", "--json"],
                             cwd=vault, capture_output=True, text=True)
        if out.returncode not in (0, 1):
            print(f"{target}: searcher failed: {out.stderr.strip()}")
            return 1
        notes = [n["path"] for n in json.loads(out.stdout)["related"]]
        marks = []
        for n in notes:
            ok = judged.get((target, n))
            marks.append("1" if ok else "0" if ok is not None else "?")
            if ok is None:
                print(f"  unjudged: {target} -> {n}")
        right += marks.count("1")
        listed += len(notes)
        print(f"{''.join(marks):5}  {target}")
    p = right / listed if listed else 0.0
    print(f"precision@5 {p:.3f} ({right} of {listed}, {len(targets)} targets)")
    return 0 if p >= least else 1


if __name__ == "__main__":
    sys.exit(main())
