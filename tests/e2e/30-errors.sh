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

check index-bad-input as_user "$INDEXER" --vault "$v" --index "$WORK/idx" --max-file-size 1000
check search-after-bad-input "$SEARCHER" --index "$WORK/idx" --snippets 0 本文
check search-good-note "$SEARCHER" --index "$WORK/idx" 本番クラスタ
check clean-vault-exit-0 "$INDEXER" --vault "$SAGASU_SRC/tests/e2e/fixtures/tiny" --index "$WORK/tiny" --quiet

check missing-index "$SEARCHER" --index "$WORK/nowhere" SDC
mkdir -p "$WORK/not-an-index"
check not-an-index "$SEARCHER" --index "$WORK/not-an-index" SDC
check no-vault "$INDEXER" --vault "$WORK/no-such-vault" --index "$WORK/idx2"
check no-vault-option "$INDEXER" --index "$WORK/idx2"
check unbalanced-quote "$SEARCHER" --index "$WORK/idx" '"本番 クラスタ'
check bad-year "$SEARCHER" --index "$WORK/idx" 'GPU year:20x5'
check bad-kind "$SEARCHER" --index "$WORK/idx" 'kind:planet'
check empty-field "$SEARCHER" --index "$WORK/idx" 'venue: OSDI'
check no-hits "$SEARCHER" --index "$WORK/idx" 存在しない語
check other-vault "$INDEXER" --vault "$SAGASU_SRC/tests/e2e/fixtures/tiny" --index "$WORK/idx"

# A locked index: a second writer is refused with a clear message.
python3 - "$WORK/idx" <<'PY' &
import fcntl, sys, time, os
# Xapian's glass backend locks flintlock with fcntl; hold it the same way.
fd = os.open(os.path.join(sys.argv[1], "flintlock"), os.O_RDWR)
fcntl.lockf(fd, fcntl.LOCK_EX)
open(os.path.join(sys.argv[1], ".held"), "w").close()
time.sleep(5)
PY
for _ in $(seq 50); do [ -f "$WORK/idx/.held" ] && break; sleep 0.1; done
check locked-index "$INDEXER" --vault "$v" --index "$WORK/idx"
wait
finish
