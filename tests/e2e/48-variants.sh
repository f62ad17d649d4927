#!/usr/bin/env bash
# Japanese as people write and type it: another spelling of a word (okurigana
# apart) and a word typed as it is read, in kana or in romaji, with the test
# IPAdic of fixtures/dictionary; then the judged queries of
# data/labels/precision/variants-*.tsv with Debian's IPAdic and EDICT (skipped
# when they, or ../shared/corpus for its vaults, are absent).
. "$(dirname "$0")/lib.sh"
v="$WORK/vault"
mkdir -p "$v"
printf '取扱い の 注意。\n' >"$v/a.md"
printf '取り扱い を 学ぶ。\n' >"$v/b.md"
printf '研究 の 話。\n' >"$v/c.md"
printf '研究室 の 話。\n' >"$v/g.md"
printf '構成 を 変える。\n' >"$v/d.md"
printf '構成 の 図。\n' >"$v/d2.md"
printf '全体 の 構成。\n' >"$v/d3.md"
printf '校正 する。\n' >"$v/e.md"
printf 'オンライン検知 の 話。\n' >"$v/f.md"
printf '検知 の 話。\n' >"$v/h.md"
printf 'インターフェイス の 説明。\n' >"$v/i.md"
printf 'インタフェース を 使う。\n' >"$v/j.md"
export SAGASU_IPADIC="$SAGASU_SRC/tests/e2e/fixtures/dictionary/ipadic"
"$INDEXER" --vault "$v" --index "$WORK/idx" --quiet
paths() { (cd "$v" && "$SEARCHER" --index "$WORK/idx" --paths "$@" 2>/dev/null | sort | tr '\n' ' '); }
expect "取り扱い finds 取扱い: $(paths 取り扱い)" test "$(paths 取り扱い)" = "a.md b.md "
expect "取扱 finds both spellings: $(paths 取扱)" test "$(paths 取扱)" = "a.md b.md "
expect "--exact: the spelling typed: $(paths --exact 取り扱い)" test "$(paths --exact 取り扱い)" = "b.md "
expect "quoted: the text itself: $(paths '"取り扱い"')" test "$(paths '"取り扱い"')" = "b.md "
expect "けんきゅう finds 研究, inside 研究室 too: $(paths けんきゅう)" test "$(paths けんきゅう)" = "c.md g.md "
expect "kenkyuu finds 研究: $(paths kenkyuu)" test "$(paths kenkyuu)" = "c.md g.md "
expect "こうせい finds each word read so: $(paths こうせい)" test "$(paths こうせい)" = "d.md d2.md d3.md e.md "
first=$(cd "$v" && "$SEARCHER" --index "$WORK/idx" --paths --limit 1 こうせい 2>/dev/null)
expect "こうせい ranks the word the vault uses more first (構成, not the rarer 校正): $first" test "$first" != e.md
expect "検知 is no spelling of オンライン検知: $(paths オンライン検知)" test "$(paths オンライン検知)" = "f.md "
how() {
  (cd "$v" && "$SEARCHER" --index "$WORK/idx" --json "$1" 2>/dev/null) |
    python3 -c 'import json,sys; print(sorted({b["how"] for h in json.load(sys.stdin)["hits"] for b in h.get("bridged", [])}))'
}
expect "a loanword's kana spellings are one word: $(paths インターフェース)" test "$(paths インターフェース)" = "i.md j.md "
expect "JSON names how: $(how 取り扱い) $(how けんきゅう) $(how インタフェース)" \
  test "$(how 取り扱い) $(how けんきゅう) $(how インタフェース)" = "['okurigana'] ['reading'] ['kana']"
expect "--analyze shows the reading and the other spellings" \
  sh -c "'$SEARCHER' --analyze 取り扱い | grep -q 'read トリアツカイ  also 取扱い 取扱'"

# The judged queries (okurigana, iteration marks, readings, romaji) with the
# dictionaries Debian installs; bounds as measured when they were written.
IPADIC=/usr/share/mecab/dic/ipadic EDICT=/usr/share/edict CORPUS="$SAGASU_SRC/../shared/corpus"
if [ ! -d "$IPADIC" ] || [ ! -f "$EDICT/edict" ]; then
  echo "skip: the judged variant queries need Debian's mecab-ipadic and edict (./scripts/setup-deps)"
  finish
  exit $?
fi
export SAGASU_IPADIC="$IPADIC" SAGASU_EDICT="$EDICT"
judged() {  # judged INDEX VAULT LABELS: precision >= 0.99, recall >= 0.95
  checks=$((checks + 1))
  if python3 "$SAGASU_SRC/tests/tools/precision.py" "$SEARCHER" "$1" "$2" \
    "$SAGASU_SRC/data/labels/precision/variants-$3.tsv" --min-precision 0.99 --min-recall 0.95 \
    >"$WORK/judged.out" 2>&1; then
    echo "ok   variants $3: $(tail -1 "$WORK/judged.out")"
  else
    echo "FAIL variants $3"
    grep -v 'precision 1.00, recall 1.00' "$WORK/judged.out" | tail -20 | sed 's/^/     | /'
    failures=$((failures + 1))
  fi
}
"$INDEXER" --vault "$SAGASU_SRC/data/vault" --index "$WORK/sample" --quiet
judged "$WORK/sample" "$SAGASU_SRC/data/vault" vault
if [ -d "$CORPUS/matsuura-research-note" ] && [ -d "$CORPUS/ja-techdocs" ]; then
  "$INDEXER" --vault "$CORPUS/matsuura-research-note/notes" --index "$WORK/matsuura" --quiet
  judged "$WORK/matsuura" "$CORPUS/matsuura-research-note/notes" matsuura-research-note
  "$INDEXER" --vault "$CORPUS/ja-techdocs" --index "$WORK/techdocs" --ext '*' --quiet
  judged "$WORK/techdocs" "$CORPUS/ja-techdocs" ja-techdocs
else
  echo "skip: the real vaults are not in ../shared/corpus"
fi
finish
