#!/usr/bin/env bash
# The sample vault end to end: index it, search it in every output form, and
# check the facts a user relies on (facets of the seed notes, hand counts).
. "$(dirname "$0")/lib.sh"
idx="$WORK/idx"
S() { "$SEARCHER" --index "$idx" "$@"; }

check vault-index "$INDEXER" --vault "$VAULT" --index "$idx"
check vault-reindex-unchanged "$INDEXER" --vault "$VAULT" --index "$idx"

check search-sdc S SDC
check search-straggler S ストラグラー
check search-json-mlsys S --json venue:MLSys
check search-phrase S --snippets 0 '"本番クラスタ"'
check search-compound S --snippets 0 --limit 3 本番クラスタ
check search-filters S --snippets 0 GPU venue:OSDI year:2024..2026
check search-person S --snippets 0 --limit 3 'person:"Xin Liu"' kind:organization
check search-filter-or S --snippets 0 --limit 0 --filter venue:NSDI --filter venue:SOSP
check search-negation S --snippets 0 --limit 0 SDC -AEGIS
check search-variants S --snippets 0 --limit 0 ｻｰﾊﾞｰ
check search-fullwidth S --snippets 0 --limit 0 ＦＳＤＰ
check search-title S --snippets 0 'title:MegaScale'
check search-offset S --snippets 0 --limit 2 --offset 2 GPU
check search-color S --color=always --limit 1 --facet-limit 2 ストラグラー
check analyze "$SEARCHER" --analyze 'ｻｰﾊﾞｰ の本番クラスタで veScale-FSDP を Training'

# Facets of the seed notes, as the issue states them.
json=$(S --json --limit 100 --snippets 0 'kind:person kind:organization')
facet() {  # facet TITLE FIELD → sorted values, one line
  python3 -c 'import json,sys
d=json.loads(sys.argv[1]); h=[h for h in d["hits"] if h["title"]==sys.argv[2]][0]
print(" ".join(sorted(h[sys.argv[3]])))' "$json" "$1" "$2"
}
expect "Xin Liu venues" test "$(facet 'Xin Liu' venues)" = "EuroSys MLSys NSDI OSDI SOSP"
expect "Xin Liu years" test "$(facet 'Xin Liu' years)" = "2024 2025 2026"
for p in "Qiying Yu" "Zezhou Wang" "Yanghua Peng" "Wencong Xiao" "Xin Liu"; do
  expect "ByteDance Seed person $p" grep -qw "$p" <<<"$(python3 -c 'import json,sys
d=json.loads(sys.argv[1]); print("\n".join([h for h in d["hits"] if h["title"]=="ByteDance Seed"][0]["persons"]))' "$json")"
done
for o in "ByteDance" "Tsinghua University" "Shanghai Jiao Tong University"; do
  expect "ByteDance Seed org $o" grep -qx "$o" <<<"$(python3 -c 'import json,sys
d=json.loads(sys.argv[1]); print("\n".join([h for h in d["hits"] if h["title"]=="ByteDance Seed"][0]["orgs"]))' "$json")"
done

# Hand counts, by the rule of vault-format.md: a source page has its own venue
# (from its file name); any other page has the venues of the sources it cites.
# Counted with grep and find over the vault files, they equal the facet counts.
for venue_raw in MLSys2026 OSDI SOSP NSDI EuroSys; do
  venue=${venue_raw%2026}
  hand=$( (grep -rlE "\[\[@[0-9]{4}__${venue_raw}__" "$VAULT" --include='*.md' | grep -v '/@[^/]*$';
           find "$VAULT" -name "@*__${venue_raw}__*.md") | sort -u | grep -c .)
  got=$(S --json --limit 0 "venue:$venue" | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
  facet_count=$(S --json --limit 0 "kind:source kind:person kind:organization kind:product kind:concept kind:other" |
    python3 -c 'import json,sys
d=json.load(sys.stdin); print(sum(v["count"] for v in d["facets"]["venue"] if v["value"]==sys.argv[1]))' "$venue")
  expect "venue:$venue total equals hand count $hand (got $got)" test "$got" = "$hand"
  expect "venue facet $venue over all notes equals hand count $hand (got $facet_count)" test "$facet_count" = "$hand"
done

# A closed pipe (| head) is not an error, for either command.
S SDC | head -1 >/dev/null
expect "searcher | head exits 0" test "${PIPESTATUS[0]}" = 0
expect "searcher into a closed pipe exits 0" test "$(closed_pipe_status "$SEARCHER" --index "$idx" SDC)" = 0
expect "indexer --dry-run into a closed pipe exits 0" \
  test "$(closed_pipe_status "$INDEXER" --vault "$VAULT" --index "$WORK/dry-idx" --dry-run --quiet)" = 0
"$INDEXER" --vault "$VAULT" --index "$WORK/dry-idx" --dry-run --quiet | head -1 >/dev/null
expect "indexer --dry-run | head -1 exits 0" test "${PIPESTATUS[0]}" = 0
expect "a dry run of a new index makes no index folder" test ! -e "$WORK/dry-idx"
finish
