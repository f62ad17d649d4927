#!/usr/bin/env bash
# Facet correctness measured: the facets the index holds for every note of a
# vault against the hand-made labels of data/labels/ (README.md there says how
# they were made); per-facet precision and recall over (note, value) pairs, and
# the kind of each note (tests/e2e/facet_labels.py).
. "$(dirname "$0")/lib.sh"

# Every note of the index at $1, as JSON: an OR of every kind the index holds.
all_notes() {
  local kinds
  kinds=$("$SEARCHER" --index "$1" --list kind | cut -f1 | sed 's/^/kind:/' | paste -sd' ' | sed 's/ / OR /g')
  "$SEARCHER" --index "$1" --json --limit 100000 --snippets 0 --facets none "($kinds)"
}

# labels NAME VAULT LABELS [facet_labels.py options]
labels() {
  local name=$1 vault=$2 file=$3
  shift 3
  "$INDEXER" --vault "$vault" --index "$WORK/$name" --quiet
  all_notes "$WORK/$name" >"$WORK/$name.json"
  echo "# $name"
  python3 "$SAGASU_SRC/tests/e2e/facet_labels.py" "$WORK/$name.json" "$file" "$@"
  local rc=$?
  checks=$((checks + 1))
  [ $rc -eq 0 ] || { failures=$((failures + 1)); echo "FAIL $name labels"; }
}

labels sample "$VAULT" "$SAGASU_SRC/data/labels/vault.json" --min-f1 1.0 --min-kind 1.0 --every-note-labelled

# The real vaults of ../shared/corpus, with no config: they are not in this
# repository, so CI without them skips them (and says so).
corpus="${SAGASU_CORPUS:-$SAGASU_SRC/../shared/corpus}"
if [ -d "$corpus/robotics-paper-notes/notes" ] && [ -d "$corpus/matsuura-research-note/notes" ]; then
  labels robotics "$corpus/robotics-paper-notes/notes" "$SAGASU_SRC/data/labels/robotics.json" \
    --min-f1 0.95 --min-kind 0.95
  # Kinds: many of its pages say what they are only by tags of their own
  # (#programming-language, #word) that a config maps (README, "Vault config").
  labels matsuura "$corpus/matsuura-research-note/notes" "$SAGASU_SRC/data/labels/matsuura.json" \
    --min-f1 0.95 --min-kind 0.8
else
  echo "skip real vaults: $corpus/robotics-paper-notes and matsuura-research-note not found (set SAGASU_CORPUS)"
fi
finish
