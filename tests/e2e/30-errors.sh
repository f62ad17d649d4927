#!/usr/bin/env bash
# Bad input: every error names the file or the query and the problem, the
# batch goes on, and the index stays consistent and openable.
. "$(dirname "$0")/lib.sh"

v="$WORK/vault"
mkdir -p "$v/notes" "$v/.obsidian" "$v/attachments"
printf '# Good\n良いノート。本番クラスタの話。\n' >"$v/notes/good.md"
printf 'ok \xff\xfe broken\n' >"$v/notes/invalid-utf8.md"
printf 'PK\x03\x04\x00\x00binary' >"$v/notes/binary.md"
printf -- '---\ntype: [unclosed\n---\n壊れた front matter でも本文は索引される。\n' >"$v/notes/broken-yaml.md"
: >"$v/notes/empty.md"
printf '秘密のメモ。\n' >"$v/notes/unreadable.md"
chmod 000 "$v/notes/unreadable.md"
printf '{}' >"$v/.obsidian/app.json"
printf '\x89PNG' >"$v/attachments/figure.png"
ln -s .. "$v/notes/loop"
head -c 2000 /dev/zero | tr '\0' 'a' >"$v/notes/huge.md"

printf '引用符のノート。\n' >"$v/notes/say \"hi\"?.md"
printf '制御文字のノート。\n' >"$v/notes/ctl$(printf '\001')name.md"
printf '名前が壊れたノート。\n' >"$v/notes/bad-$(printf '\377')name.md"
check index-bad-input as_user "$INDEXER" --vault "$v" --index "$WORK/idx" --max-file-size 1000
check odd-names-searchable sh -c "cd '$WORK' && '$SEARCHER' --index '$WORK/idx' --paths 引用符 OR 制御文字 | od -c | head -3"
check strict-refuses as_user "$INDEXER" --vault "$v" --index "$WORK/strict" --max-file-size 1000 --strict
check strict-wrote-nothing "$SEARCHER" --index "$WORK/strict" 本文
check search-after-bad-input "$SEARCHER" --index "$WORK/idx" --snippets 0 本文
check search-good-note "$SEARCHER" --index "$WORK/idx" 本番クラスタ
check clean-vault-exit-0 "$INDEXER" --vault "$SAGASU_SRC/tests/e2e/fixtures/tiny" --index "$WORK/tiny" --quiet

check missing-index "$SEARCHER" --index "$WORK/nowhere" SDC
mkdir -p "$WORK/not-an-index"
check not-an-index "$SEARCHER" --index "$WORK/not-an-index" SDC
# An index list that would double every hit, or loop: one error naming it (issue 44).
ln -s "$WORK/idx" "$WORK/idx-link"
check index-twice "$SEARCHER" --index "$WORK/idx" --index "$WORK/idx-link" 本文
printf 'auto loop-b.stub\n' >"$WORK/loop-a.stub"
printf 'auto loop-a.stub\n' >"$WORK/loop-b.stub"
check stub-loop "$SEARCHER" --index "$WORK/loop-a.stub" 本文
check no-vault "$INDEXER" --vault "$WORK/no-such-vault" --index "$WORK/idx2"
check no-vault-option "$INDEXER" --index "$WORK/idx2"
check unbalanced-quote "$SEARCHER" --index "$WORK/idx" '"本番 クラスタ'
check bad-year "$SEARCHER" --index "$WORK/idx" 'GPU year:20x5'
# A vault folder whose name is not UTF-8: its notes are indexed (their paths in the vault are UTF-8)
# and JSON output replaces the bad byte of the absolute path with U+FFFD instead of failing.
odd="$WORK/vault-$(printf '\377')"
mkdir -p "$odd" && printf '# Odd\nA note in an oddly named folder.\n' >"$odd/odd.md"
"$INDEXER" --vault "$odd" --index "$WORK/odd-idx" --quiet
"$SEARCHER" --index "$WORK/odd-idx" --json oddly >"$WORK/odd.json"
expect "--json with a non-UTF-8 vault folder: exit 0 (got $?)" test $? = 0
expect "--json with a non-UTF-8 vault folder: valid JSON, the hit there" \
  python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); assert j["hits"][0]["path"] == "odd.md"' "$WORK/odd.json"
# An emoji is searched for as the character it is (it once was "nothing to search for", or dropped).
emo="$WORK/emoji"
mkdir -p "$emo" && printf '# E\nA note with \360\237\230\200 inside.\n' >"$emo/e.md" && printf '# F\nFSDP only.\n' >"$emo/f.md"
"$INDEXER" --vault "$emo" --index "$WORK/emoji-idx" --quiet
check emoji-alone sh -c "cd '$emo' && '$SEARCHER' --index '$WORK/emoji-idx' --paths '😀'"
check emoji-with-word sh -c "cd '$emo' && '$SEARCHER' --index '$WORK/emoji-idx' --paths 'FSDP 😀'"
# Bounded queries: too many bytes or too many pieces is an error saying the bound (exit 2), not minutes of work.
check query-too-long "$SEARCHER" --index "$WORK/idx" "$(python3 -c 'print("GPU " * 1100)')"
check query-too-many-pieces "$SEARCHER" --index "$WORK/idx" "$(python3 -c 'print(" OR ".join("w%d" % i for i in range(300)))')"
check bad-kind "$SEARCHER" --index "$WORK/idx" 'kind:planet'
check empty-field "$SEARCHER" --index "$WORK/idx" 'venue: OSDI'
check no-hits "$SEARCHER" --index "$WORK/idx" 存在しない語
check other-vault "$INDEXER" --vault "$SAGASU_SRC/tests/e2e/fixtures/tiny" --index "$WORK/idx"


# The index keeps its settings: a plain run (no --vault, no --ext) indexes what the last run did; an
# --ext that would leave notes out that are still in the vault stops the run (exit 2, nothing written)
# unless --rebuild; words that are no option's value are an error, not a silent run.
kept="$WORK/kept" && mkdir -p "$kept" && printf '# A\nalpha note\n' >"$kept/a.md" && printf 'beta text\n' >"$kept/b.txt"
"$INDEXER" --vault "$kept" --index "$WORK/kept-idx" --ext md,txt --quiet
check settings-kept "$INDEXER" --index "$WORK/kept-idx"
check settings-left-out "$INDEXER" --vault "$kept" --index "$WORK/kept-idx" --ext md
check settings-left-out-kept sh -c "cd '$WORK' && '$SEARCHER' --index kept-idx --paths beta"
check settings-rebuild-drops "$INDEXER" --vault "$kept" --index "$WORK/kept-idx" --ext md --rebuild
check settings-size-said "$INDEXER" --index "$WORK/kept-idx" --max-file-size 100000
check stray-argument "$INDEXER" --vault "$kept" --index "$WORK/kept-idx" --ext a.md b.md
check negative-limit "$SEARCHER" --index "$WORK/kept-idx" --limit -3 alpha
check limit-not-a-number "$SEARCHER" --index "$WORK/kept-idx" --limit 5x alpha
check unknown-field "$SEARCHER" --index "$WORK/kept-idx" 'alpha foo:bar'
check unknown-field-quoted sh -c "cd '$WORK' && '$SEARCHER' --index kept-idx --paths '\"alpha:note\"'"
# A folder that cannot be read: its notes keep their indexed versions.
mkdir -p "$v/locked" && printf '鍵のかかったフォルダのノート。\n' >"$v/locked/inside.md"
"$INDEXER" --vault "$v" --index "$WORK/idx" --max-file-size 1000 --quiet
chmod 000 "$v/locked"
check unreadable-folder-kept as_user "$INDEXER" --vault "$v" --index "$WORK/idx" --max-file-size 1000
check unreadable-folder-searchable sh -c "cd '$WORK' && '$SEARCHER' --index '$WORK/idx' --paths 鍵のかかった"
chmod 755 "$v/locked"

# A folder that could not be read and then can again: what the run without it
# derived from the whole vault (here: NVIDIA's kind, from its page there) is
# derived again, as a rebuild does (it kept the label's person before).
u="$WORK/unreadable-then-not"
mkdir -p "$u/notes" "$u/locked"
printf '# A\n本文。\n\n## 関連\n- 関連研究者: [[NVIDIA]]\n' >"$u/notes/a.md"
printf '# B\n[[NVIDIA]] の GPU。\n' >"$u/notes/b.md"
printf -- '---\ntype: organization\n---\n# NVIDIA\n米国の半導体企業。\n' >"$u/locked/NVIDIA.md"
"$INDEXER" --vault "$u" --index "$WORK/u-idx" --quiet
chmod 000 "$u/locked"
as_user "$INDEXER" --vault "$u" --index "$WORK/u-idx" --quiet 2>/dev/null
chmod 755 "$u/locked"
"$INDEXER" --vault "$u" --index "$WORK/u-idx" --quiet
"$INDEXER" --vault "$u" --index "$WORK/u-full" --quiet
expect "a folder readable again: the index equals a rebuild" \
  cmp -s <("$SAGASU_BIN/tests/sagasu-dump" "$WORK/u-idx") <("$SAGASU_BIN/tests/sagasu-dump" "$WORK/u-full")

# A locked index: a second writer is refused with a message naming the holder.
exec 9>"$WORK/idx/lock"
flock -n 9
printf 'pid 4242 on testhost, since 2026-11-30 00:00:00' >&9
check locked-index "$INDEXER" --vault "$v" --index "$WORK/idx"
exec 9>&-
finish
