#!/usr/bin/env bash
# The bridge tier (issue 17): a word also finds the notes that say it in the
# other language — through what the vault's notes state (glosses,
# abbreviations, link texts), a dictionary's pairs (the test dictionary in
# fixtures/dictionary, in JMdict/EDICT's format) and katakana loanwords that
# sound like English words of the vault — ranked below the notes that say it,
# named in text, JSON and --explain; --no-bridge and --exact turn it off.
. "$(dirname "$0")/lib.sh"
export SAGASU_EDICT="$SAGASU_SRC/tests/e2e/fixtures/dictionary"
idx="$WORK/idx"
check bridge-glossary-report "$INDEXER" --vault "$VAULT" --index "$idx" --report glossary
J() { hits "$SEARCHER" --index "$idx" --json --snippets 0 "$@"; }
S() { "$SEARCHER" --index "$idx" --snippets 1 --facets none "$@"; }

# Which bridge matched which note, and the query's bridges, for people and for programs.
check bridge-explain "$SEARCHER" --index "$idx" --explain --snippets 0 --facets none 強化学習
check bridge-text S observability
check bridge-json "$SEARCHER" --index "$idx" --json --snippets 0 --facets none observability
# A gloss both ways; a loanword by its sound (NVIDIA is written only in Latin
# letters); a compound word by word, which one note alone says and none
# beside the compound: a weaker equivalent (--loose); a name in the other script.
check bridge-gloss-ja J 可観測性
check bridge-sound J エヌビディア
check bridge-compound J 継続的バッチング
check bridge-compound-loose J --loose 継続的バッチング
check bridge-name J Kurohashi
# The notes that say the word rank above those that only say its equivalent.
first_tier=$(J 決定論的リプレイ | head -1 | cut -d' ' -f2)
expect "a note that says the word ranks above a bridged one" test "$first_tier" = word
# A loanword and its source are one word in two scripts, weighed as another
# spelling: a short note saying キャリブレーション three times ranks above a
# long one saying calibration once; the word typed still first, other things equal.
lw="$WORK/loanword"
mkdir -p "$lw"
{
  printf '# Camera notes\n\n'
  for i in $(seq 40); do printf 'The camera rig needs care when mounted on the robot arm, line %d.\n' "$i"; done
  printf 'We did a calibration once.\n'
} >"$lw/long-en.md"
printf '# 手順\n\nカメラのキャリブレーション。キャリブレーションの手順。キャリブレーションを行う。\n' >"$lw/short-ja.md"
printf '# A\n\nCamera calibration.\n' >"$lw/same-en.md"
printf '# B\n\nカメラのキャリブレーション。\n' >"$lw/same-ja.md"
for i in 1 2 3 4 5 6 7 8; do printf '# F%d\n\nPlanning and control.\n' "$i" >"$lw/f$i.md"; done
"$INDEXER" --vault "$lw" --index "$WORK/loanword-idx" --quiet
expect "a loanword weighs as another spelling of its source" \
  test "$("$SEARCHER" --index "$WORK/loanword-idx" --paths calibration | xargs -n1 basename | tr '\n' ' ')" = \
  "same-en.md short-ja.md same-ja.md long-en.md "
# Off: --no-bridge, --exact.
expect "--no-bridge: only the words typed" test "$(J --no-bridge observability | tail -1)" = "total 1"
expect "--exact: no bridges" test "$(J --exact observability | tail -1)" = "total 1"
# Without a dictionary (the searcher looks words up in it) the vault's own glossary still bridges.
N() { hits env SAGASU_EDICT= "$SEARCHER" --index "$idx" --json --snippets 0 "$@"; }
expect "no dictionary: the vault's glossary still bridges" test "$(N observability | tail -1)" = "total 2"
expect "no dictionary: no dictionary bridge" test "$(N 強化学習 | tail -1)" = "$(N --no-bridge 強化学習 | tail -1)"
expect "with the dictionary: a dictionary bridge" test "$(J 強化学習 | tail -1)" != "$(N 強化学習 | tail -1)"
# A run that changes no note still makes the dictionaries' cache when it is
# gone (the dictionaries updated, another Sagasu's cache): searches keep them.
rm -rf "$WORK/cache"
"$INDEXER" --vault "$VAULT" --index "$idx" >/dev/null 2>&1
expect "a run that changes nothing makes the dictionaries' cache again" \
  test "$(J 強化学習 | tail -1)" != "$(N 強化学習 | tail -1)"
# A dictionary that is there but cannot be used says so, naming the file;
# the run indexes everything and the vault's glossary still bridges.
bad="$WORK/bad-dict"
mkdir -p "$bad"
printf '\377\376 not a dictionary\n' >"$bad/edict"
SAGASU_EDICT="$bad" "$INDEXER" --vault "$VAULT" --index "$WORK/bad-idx" 2>"$WORK/bad.err"
rc=$?
expect "a dictionary not in EDICT's format: exit 0 and a warning naming it" \
  grep -q "warning: $bad/edict: no entry in EDICT's format" "$WORK/bad.err"
expect "... every note indexed, and the vault's glossary bridges" test "$rc" = 0 -a \
  "$(hits env SAGASU_EDICT="$bad" "$SEARCHER" --index "$WORK/bad-idx" --json --snippets 0 observability | tail -1)" = "total 2"
printf 'x\n' >"$bad/edict"
chmod 000 "$bad/edict"
rm -rf "$WORK/cache"
SAGASU_EDICT="$bad" as_user "$INDEXER" --vault "$VAULT" --index "$WORK/bad-idx" --rebuild 2>"$WORK/bad2.err"
rc=$?
chmod 644 "$bad/edict"
expect "an unreadable dictionary: exit 0 and a warning naming it and why" \
  test "$rc" = 0 -a -n "$(grep "warning: $bad/edict: cannot be read: Permission denied" "$WORK/bad2.err")"
finish
