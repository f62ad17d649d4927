#!/usr/bin/env python3
"""Facets measured against hand-made labels (data/labels/*.json).

Usage: facet_labels.py HITS.json LABELS.json [--min-f1 X] [--min-kind X] [--every-note-labelled]

HITS.json is `searcher --json` output holding every note; per facet, precision and recall are
counted over (note, value) pairs of the labelled notes. Exits 1 when a facet's F1 or the kind
accuracy is below its minimum, or a labelled note is not indexed.
"""
import argparse
import json
import sys

FACETS = {"venue": "venues", "year": "years", "person": "persons", "org": "orgs"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("hits")
    ap.add_argument("labels")
    ap.add_argument("--min-f1", type=float, default=0.98)
    ap.add_argument("--min-kind", type=float, default=0.98)
    ap.add_argument("--every-note-labelled", action="store_true")
    ap.add_argument("--show", type=int, default=5, help="wrong notes shown per facet")
    a = ap.parse_args()
    hits = {h["path"]: h for h in json.load(open(a.hits))["hits"]}
    labels = json.load(open(a.labels))
    failed = 0

    def report(ok, line):
        nonlocal failed
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {line}")

    missing = sorted(set(labels) - set(hits))
    report(not missing, f"every labelled note is indexed (missing: {missing[:5]})")
    if a.every_note_labelled:
        extra = sorted(set(hits) - set(labels))
        report(not extra, f"every indexed note is labelled (extra: {extra[:5]})")
    for facet, key in FACETS.items():
        tp = fp = fn = 0
        wrong = []
        for path, lab in sorted(labels.items()):
            got = set(hits.get(path, {}).get(key, []))
            want = set(lab[facet])
            tp += len(got & want)
            fp += len(got - want)
            fn += len(want - got)
            if got != want:
                wrong.append(f"{path}: +{sorted(got - want)} -{sorted(want - got)}")
        p = tp / (tp + fp) if tp + fp else 1.0
        r = tp / (tp + fn) if tp + fn else 1.0
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        report(f1 >= a.min_f1,
               f"{facet}: precision {p:.3f} recall {r:.3f} F1 {f1:.3f} ({tp} right, {fp} extra, {fn} missed)")
        for w in wrong[: a.show]:
            print("       ", w)
    right = [p for p, lab in labels.items() if hits.get(p, {}).get("kind") == lab["kind"]]
    report(len(right) / len(labels) >= a.min_kind, f"kind: {len(right)} of {len(labels)} right")
    shown = 0
    for p, lab in sorted(labels.items()):
        if hits.get(p, {}).get("kind") != lab["kind"] and shown < a.show:
            print("       ", p, hits.get(p, {}).get("kind"), "!=", lab["kind"])
            shown += 1
    print(f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
