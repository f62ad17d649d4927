#!/usr/bin/env bash
# A second indexer run brings the index up to date: changed notes rewritten,
# deleted ones removed, new ones added, the rest untouched; a page whose kind
# changes updates the facets of the notes that link to it.
. "$(dirname "$0")/lib.sh"
v="$WORK/vault"
cp -r "$VAULT" "$v"
idx="$WORK/idx"
"$INDEXER" --vault "$v" --index "$idx" --quiet

printf '\n追記: ストラグラー対策の新しい観察。\n' >>"$v/wiki/concepts/FSDP.md"
rm "$v/wiki/entities/NVIDIA.md"
printf -- '---\ntype: concept\n---\n# 新しいノート\n本番クラスタの監視について。\n' >"$v/wiki/concepts/新しいノート.md"
check reindex-changes "$INDEXER" --vault "$v" --index "$idx"
check reindex-deleted-gone "$SEARCHER" --index "$idx" --snippets 0 --limit 0 'title:NVIDIA'
check reindex-new-found "$SEARCHER" --index "$idx" --snippets 0 '監視 title:新しいノート'

# テンソル並列 has no page: its linkers have no facet for it. Give it a page
# that says it is an organization, and the notes linking to it are updated.
printf -- '---\ntype: entity\nentity_type: organization\n---\n# テンソル並列\n仮のページ。\n' >"$v/wiki/entities/テンソル並列.md"
check reindex-kind-change "$INDEXER" --vault "$v" --index "$idx"
check reindex-kind-facet "$SEARCHER" --index "$idx" --snippets 0 --limit 0 'org:テンソル並列'

# The unresolved count is news only when it changed (above: "0 (was 1)");
# a run that changes nothing does not repeat it, --verbose always shows it.
expect "unchanged run: no unresolved count" \
  bash -c '! "$1" --vault "$2" --index "$3" 2>&1 | grep -q "unresolved entities"' _ "$INDEXER" "$v" "$idx"
expect "--verbose: the unresolved count" \
  bash -c '"$1" --vault "$2" --index "$3" --verbose 2>&1 | grep -q "unresolved entities 0"' _ "$INDEXER" "$v" "$idx"
# Started through the dynamic loader (as wrappers and bundles start programs),
# an update runs as any other (a review's counterexample: the indexer started
# again the loader, which took --vault for its own option).
loader=$(readelf -l "$INDEXER" 2>/dev/null | sed -n 's/.*program interpreter: \(.*\)]$/\1/p')
if [ -n "$loader" ] && [ -x "$loader" ]; then
  echo '追記: ローダー経由。' >>"$v/wiki/concepts/FSDP.md"
  expect "started by the dynamic loader, an update indexes the edit" "$loader" "$INDEXER" --vault "$v" --index "$idx" --quiet
  expect "... and the searcher finds it" \
    bash -c 'cd "$3" && [ "$("$1" --index "$2" --paths ローダー経由)" = wiki/concepts/FSDP.md ]' _ "$SEARCHER" "$idx" "$v"
else
  echo "     | skipped: no dynamic loader named by $INDEXER"
fi
finish
