#!/usr/bin/env bash
# Facets researchers trust: drill-sideways counts, facet selection, listing,
# alias-aware entity filters, link and citation queries, the entity report.
. "$(dirname "$0")/lib.sh"
idx="$WORK/idx"
S() { "$SEARCHER" --index "$idx" --snippets 0 "$@"; }
check entity-report "$INDEXER" --vault "$VAULT" --index "$idx" --quiet --report entities

check sideways-text S --limit 0 venue:OSDI year:2025..2026
check sideways-json S --json --limit 0 --facets venue,year venue:OSDI year:2025..2026
check facet-select S --limit 0 --facet venue --facet-limit 20 GPU
check facets-none S --limit 3 --facets none GPU
check facets-all-unlimited S --limit 0 --facets all --facet-limit 0 ストラグラー
check list-person S --list person
check list-venue-json S --list venue --json
check list-bad-facet S --list planet
check org-alias S --limit 0 --facet org org:バイトダンス
check org-alias-same S --limit 0 --facet org org:ByteDance
check person-case-width S --limit 0 --facet person 'person:"ｘｉｎ liu"'
check links S --limit 3 --facets none links:ByteDance
check cites-prefix S --limit 20 --facets none 'cites:2026__OSDI__*'
check cites-title S --limit 20 --facets none 'cites:"SDCs in the Wild"'
check cites-key S --limit 0 --facets none 'cites:"@2025__arXiv__DAPO - An Open-Source LLM Reinforcement Learning System at Scale"'
check cites-key-prefix S --limit 0 --facets none 'cites:@2025__arXiv__DAPO'
# Kinds are the vault's words: a synonym says what it means; a word that is
# no kind is an error listing the kinds the index holds.
check kind-synonym S --limit 2 --facets none kind:paper
check kind-unknown S kind:planet

# Drill-sideways by the numbers: the venue counts with venue:OSDI applied are
# the counts of the same query without it; the year counts are those within OSDI.
side=$(S --json --limit 0 --facets venue,year venue:OSDI year:2025..2026)
plain=$(S --json --limit 0 --facets venue year:2025..2026)
osdi=$(S --json --limit 0 --facets year venue:OSDI)
counts() {  # counts JSON FACET → "value=count ..." without selection marks
  python3 -c 'import json,sys
print(" ".join("%s=%d" % (v["value"], v["count"]) for v in json.loads(sys.argv[1])["facets"][sys.argv[2]]))' "$1" "$2"
}
expect "the venue facet is not empty" test -n "$(counts "$plain" venue)"
expect "venue facet under venue:OSDI = venue facet without it" test "$(counts "$side" venue)" = "$(counts "$plain" venue)"
expect "year facet under year:2025..2026 = year facet within OSDI" test "$(counts "$side" year)" = "$(counts "$osdi" year)"

# One name folding for resolution, filter terms and query values: a link
# written [[Xin_Liu]] resolves to the page "Xin Liu", and person:Xin_Liu,
# links:Xin_Liu and person:"Xin Liu" all find the note that writes it.
u="$WORK/underscore"
mkdir -p "$u"
printf -- '---\nentity_type: person\n---\n# Xin Liu\n研究者。\n' >"$u/Xin Liu.md"
printf '# Paper\n[[Xin_Liu]] の論文メモ。\n' >"$u/Paper.md"
"$INDEXER" --vault "$u" --index "$WORK/underscore-idx" --quiet
U() { "$SEARCHER" --index "$WORK/underscore-idx" --paths "$@"; }
expect "person:Xin_Liu finds the note linking [[Xin_Liu]]" grep -q '/Paper\.md$' <(U person:Xin_Liu)
expect "links:Xin_Liu finds it" grep -q '/Paper\.md$' <(U links:Xin_Liu)
expect "person:\"Xin Liu\" finds it" grep -q '/Paper\.md$' <(U 'person:"Xin Liu"')
expect "links:\"xin liu\" finds it" grep -q '/Paper\.md$' <(U 'links:"xin liu"')
finish
