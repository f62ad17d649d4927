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

# Where each facet's values came from, and the keys no facet reads; every tag.
check meta-report-facets "$INDEXER" --vault "$M" --index "$idx" --report facets
check meta-list-tag S --list tag
# A facet almost no note has is said in the summary (a vault of 20 notes without years).
few="$WORK/few"
mkdir -p "$few"
for i in $(seq 1 20); do printf '# Note %s\nメモ。\n' "$i" >"$few/note-$i.md"; done
check meta-summary-empty-facets "$INDEXER" --vault "$few" --index "$WORK/few-idx"
# A #word inside the text of a help file is no tag of the file: Vim's builtin.jax is no organization.
jax="$WORK/jax"
mkdir -p "$jax/doc"
printf 'autocmd_get({opts})\n\t\tgroup\tautocmd group name #group#event\n' >"$jax/doc/builtin.jax"
"$INDEXER" --vault "$jax" --index "$WORK/jax-idx" --ext '*' --quiet
check meta-jax-kind "$SEARCHER" --index "$WORK/jax-idx" --list kind

# The vault config file: keys, paths and kinds of the vault's own; a change rebuilds the index.
c="$WORK/configured"
cp -r "$M" "$c"
mkdir -p "$c/.sagasu"
printf 'keys:\n  venue: [Session]\nkinds:\n  paper: [journalArticle]\n' >"$c/.sagasu/config.yaml"
"$INDEXER" --vault "$c" --index "$WORK/cidx" --quiet
check meta-config-session "$SEARCHER" --index "$WORK/cidx" --snippets 0 --facets none 'venue:"Planning and Language"'
check meta-config-own-kind "$SEARCHER" --index "$WORK/cidx" --list kind
# Another config reads the notes differently: the index is built again, not updated.
printf 'keys:\n  venue: [Session]\n' >"$c/.sagasu/config.yaml"
check meta-config-change-rebuilds "$INDEXER" --vault "$c" --index "$WORK/cidx"
check meta-config-changed-kinds "$SEARCHER" --index "$WORK/cidx" --list kind
# A broken config is one line naming the file, the line and the problem; nothing is written.
printf 'keys:\n  venue: [Session]\npaths:\n  - papers/(\\d+)/\n' >"$c/.sagasu/config.yaml"
check meta-config-broken "$INDEXER" --vault "$c" --index "$WORK/broken-idx"
expect "a broken config writes no index" test ! -e "$WORK/broken-idx"

# Front-matter tags are read once, as the parser reads them: split into words, '#' dropped
# (they were also read as whole values: "#beta", "gamma delta").
t="$WORK/tags"
mkdir -p "$t"
printf -- '---\ntags: [alpha, "#beta"]\n---\n# A\ntext\n' >"$t/a.md"
printf -- '---\ntags: gamma delta\n---\n# B\ntext\n' >"$t/b.md"
"$INDEXER" --vault "$t" --index "$WORK/tags-idx" --quiet
check meta-tags-once "$SEARCHER" --index "$WORK/tags-idx" --list tag
# A Web Clipper vault (tests/e2e/fixtures/webclipper, written with the traps real ones hold): sites
# credited as authors ([[Zenn]], [[note]], [[qiita]]), a sync plugin's source: LINE, a linked PDF as
# source, a textbook's chapter titles ending in 機構 and a placeholder title are no persons, venues,
# organizations or titles; every front-matter value and link address is text, --exact as grep -F.
w="$SAGASU_SRC/tests/e2e/fixtures/webclipper"
"$INDEXER" --vault "$w" --index "$WORK/wc" --quiet
W() { "$SEARCHER" --index "$WORK/wc" --snippets 0 --facets none "$@"; }
check webclipper-venues W --list venue
check webclipper-persons W --list person
check webclipper-orgs W --list org
expect "webclipper: a placeholder title falls back to the first heading" \
  test "$(cd "$w" && W --paths '"細胞生物学ノート"' | head -1)" = "Textbook/細胞生物学ノート.md"
for word in ゼロから実装 Zotero rl-lecture zenn.dev REINFORCE architecture-diagram 2023-11-20 clippings python; do
  expect "webclipper: --exact $word finds the notes grep -F finds" \
    test "$(cd "$w" && W --paths --null --exact -- "$word" | tr '\0' '\n' | sort)" = "$(cd "$w" && grep -rlF -- "$word" . | sed 's|^\./||' | sort)"
done
check webclipper-description-snippet "$SEARCHER" --index "$WORK/wc" --facets none --color never ゼロから実装
if [ -x "$SAGASU_BIN/tests/sagasu-parity" ]; then
  expect "webclipper: 60 words of the files, --exact = grep -F, the default a superset" \
    sh -c "'$SAGASU_BIN/tests/sagasu-parity' --index '$WORK/wc' --vault '$w' --samples 3 --substrings 20 \
      --file-words 60 >'$WORK/wc-parity' || { cat '$WORK/wc-parity'; false; }"
fi
finish
