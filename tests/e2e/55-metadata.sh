#!/usr/bin/env bash
# Facets from any vault: front matter, property tables, inline fields, paths
# and tags (tests/e2e/fixtures/metadata, notes shaped like the real vaults in
# ../shared/corpus), names in every spelling, kinds from the vault's words,
# and the vault config file.
. "$(dirname "$0")/lib.sh"
M="$SAGASU_SRC/tests/e2e/fixtures/metadata"
idx="$WORK/idx"
S() { "$SEARCHER" --index "$idx" --snippets 0 --facets none "$@"; }
"$INDEXER" --vault "$M" --index "$idx" --quiet

check meta-venue-year S venue:ICRA year:2025
check meta-person-last-first S 'person:"Shin, Suyeon"'
expect 'person:"Suyeon Shin" = person:"Shin, Suyeon"' \
  test "$(S --paths 'person:"Suyeon Shin"')" = "$(S --paths 'person:"Shin, Suyeon"')"
check meta-person-comma-row S 'person:"Howie Choset"'
check meta-person-japanese S --json 'person:吉野賢二'
expect 'person:"吉野 賢二" = person:吉野賢二' test "$(S --paths 'person:"吉野 賢二"')" = "$(S --paths 'person:吉野賢二')"
check meta-sterne S --json 'person:"Sterne, Jonathan"'
check meta-kind-book S kind:book
# A page that is not a work takes the years of the works it links to.
check meta-linked-works S year:2012 year:2021
check meta-kind-paper S kind:paper
check meta-list-person S --list person
check meta-sort-year S --sort year --limit 20 'path:zotero OR kind:book OR venue:ICRA'
expect "a tag index (- #person) does not make index.md a person" \
  test "$(S --json --limit 1 path:index.md | python3 -c 'import json,sys; print(json.load(sys.stdin)["hits"][0]["kind"])')" = other

# The vault config file: keys, paths and kinds of the vault's own; a change rebuilds the index.
c="$WORK/configured"
cp -r "$M" "$c"
mkdir -p "$c/.sagasu"
printf 'keys:\n  venue: [Session]\nkinds:\n  paper: [journalArticle]\n' >"$c/.sagasu/config.yaml"
"$INDEXER" --vault "$c" --index "$WORK/cidx" --quiet
check meta-config-session "$SEARCHER" --index "$WORK/cidx" --snippets 0 --facets none 'venue:"Planning and Language"'
check meta-config-own-kind "$SEARCHER" --index "$WORK/cidx" --list kind
# A broken config is one line naming the file, the line and the problem; nothing is written.
printf 'keys:\n  venue: [Session]\npaths:\n  - papers/(\\d+)/\n' >"$c/.sagasu/config.yaml"
check meta-config-broken "$INDEXER" --vault "$c" --index "$WORK/broken-idx"
expect "a broken config writes no index" test ! -e "$WORK/broken-idx"
finish
