#!/usr/bin/env bash
# Facet correctness measured: the facets the index holds for every note of
# data/vault against the hand-made labels of data/labels.json; per-facet
# precision and recall over (note, value) pairs must reach 0.98.
. "$(dirname "$0")/lib.sh"
idx="$WORK/idx"
"$INDEXER" --vault "$VAULT" --index "$idx" --quiet
"$SEARCHER" --index "$idx" --json --limit 100000 --snippets 0 --facets none \
  kind:source kind:person kind:organization kind:product kind:concept kind:other >"$WORK/all.json"
python3 - "$WORK/all.json" "$SAGASU_SRC/data/labels.json" <<'PY'
import json, sys
hits = {h["path"]: h for h in json.load(open(sys.argv[1]))["hits"]}
labels = json.load(open(sys.argv[2]))
fields = {"venue": "venues", "year": "years", "person": "persons", "org": "orgs"}
failed = 0
missing = sorted(set(labels) - set(hits))
extra = sorted(set(hits) - set(labels))
print(f"{'ok  ' if not missing else 'FAIL'} every labelled note is indexed (missing: {missing})")
print(f"{'ok  ' if not extra else 'FAIL'} every indexed note is labelled (extra: {extra})")
failed += bool(missing) + bool(extra)
for facet, key in fields.items():
    tp = fp = fn = 0
    wrong = []
    for path, lab in labels.items():
        got = set(hits.get(path, {}).get(key, []))
        want = set(lab[facet])
        tp += len(got & want); fp += len(got - want); fn += len(want - got)
        if got != want: wrong.append(f"{path}: +{sorted(got - want)} -{sorted(want - got)}")
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    ok = p >= 0.98 and r >= 0.98
    failed += not ok
    print(f"{'ok  ' if ok else 'FAIL'} {facet}: precision {p:.3f} recall {r:.3f} ({tp} right, {fp} extra, {fn} missed)")
    for w in wrong[:5]: print("       ", w)
kinds = sum(hits.get(p, {}).get("kind") == lab["kind"] for p, lab in labels.items())
ok = kinds / len(labels) >= 0.98
failed += not ok
print(f"{'ok  ' if ok else 'FAIL'} kind: {kinds} of {len(labels)} right")
for p, lab in labels.items():
    if hits.get(p, {}).get("kind") != lab["kind"]: print("       ", p, hits.get(p, {}).get("kind"), "!=", lab["kind"])
print(f"{7 - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
rc=$?
checks=$((checks + 1)); [ $rc -eq 0 ] || failures=$((failures + 1))
finish
