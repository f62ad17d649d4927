#!/usr/bin/env bash
# A vault, a dictionary or a cache from a stranger: a symbolic link to a file
# outside the vault is not followed; a FIFO or a device where a file is
# expected (a note, the config file, the dictionary, its cache) is refused at
# once, never a read that hangs. Every command runs under a timeout: a hang
# fails the check instead of the suite.
. "$(dirname "$0")/lib.sh"
T() { timeout 60 "$@"; }

v="$WORK/vault"
mkdir -p "$v/notes" "$WORK/outside"
printf '# 本文\n\nzqinside の話。\n' >"$v/notes/note.md"
printf '# 秘密\n\nzqsecret outside the vault.\n' >"$WORK/outside/secret.md"
ln -s "$WORK/outside/secret.md" "$v/notes/secret.md"
ln -s /etc/hostname "$v/notes/hostname.md"
ln -s notes/note.md "$v/inside-link.md"
mkfifo "$v/notes/fifo.md"
check hostile-files-index T "$INDEXER" --vault "$v" --index "$WORK/idx"
check hostile-files-outside-not-searchable T "$SEARCHER" --index "$WORK/idx" --paths zqsecret
expect "a link to a note inside the vault is followed" \
  test "$(cd "$v" && T "$SEARCHER" --index "$WORK/idx" --paths zqinside | sort | tr '\n' ' ')" = "inside-link.md notes/note.md "

# The vault's config file: a FIFO, or a link to a file outside the vault.
mkdir -p "$v/.sagasu"
mkfifo "$v/.sagasu/config.yaml"
check hostile-config-fifo T "$INDEXER" --vault "$v" --index "$WORK/idx"
rm "$v/.sagasu/config.yaml"
ln -s "$WORK/outside/config.yaml" "$v/.sagasu/config.yaml"
printf 'kinds: {}\n' >"$WORK/outside/config.yaml"
check hostile-config-outside T "$INDEXER" --vault "$v" --index "$WORK/idx"
rm -r "$v/.sagasu"

# The dictionary: a FIFO as $SAGASU_EDICT/edict, then as the cache of a good one.
mkdir -p "$WORK/dict-fifo"
mkfifo "$WORK/dict-fifo/edict"
check hostile-edict-fifo env SAGASU_EDICT="$WORK/dict-fifo" timeout 60 "$INDEXER" --vault "$v" --index "$WORK/idx2"
# A FIFO as IPAdic's CSV file: one warning naming the folder, no hang.
mkdir -p "$WORK/ipadic-fifo"
mkfifo "$WORK/ipadic-fifo/Noun.csv"
check hostile-ipadic-fifo env SAGASU_IPADIC="$WORK/ipadic-fifo" timeout 60 "$INDEXER" --vault "$v" --index "$WORK/idx4"
dict="$SAGASU_SRC/tests/e2e/fixtures/dictionary"
SAGASU_EDICT="$dict" T "$INDEXER" --vault "$v" --index "$WORK/idx3" --quiet
cache=$(find "$WORK/cache" -type f | head -1)
expect "the dictionary's cache was written ($cache)" test -n "$cache"
rm -f "$cache" && mkfifo "$cache"
check hostile-cache-fifo-search sh -c "cd '$v' && SAGASU_EDICT='$dict' timeout 60 '$SEARCHER' --index '$WORK/idx3' --paths zqinside"
check hostile-cache-fifo-index env SAGASU_EDICT="$dict" timeout 60 "$INDEXER" --vault "$v" --index "$WORK/idx3" --rebuild

# A note replaced after indexing by a link out of the vault, or by a FIFO:
# what reads notes' files for the searcher (--vimgrep, --backlinks, --open,
# the MCP server) reads neither (the check is on the opened file).
w="$WORK/swap"
mkdir -p "$w/vault"
printf '# A\n\nzqswap のページ。\n' >"$w/vault/A.md"
printf '# B\n\nzqswap: [[A]] へのリンク。\n' >"$w/vault/B.md"
printf 'zqswap SECRET-LINE [[A]]\n' >"$WORK/outside/secret-b.md"
T "$INDEXER" --vault "$w/vault" --index "$w/idx" --quiet
rm "$w/vault/B.md" && ln -s "$WORK/outside/secret-b.md" "$w/vault/B.md"
expect "--vimgrep does not read a note swapped for a link out of the vault" \
  sh -c "cd '$w/vault' && ! timeout 60 '$SEARCHER' --index '$w/idx' --vimgrep zqswap | grep -q SECRET"
expect "--backlinks does not read it either" \
  sh -c "cd '$w/vault' && ! timeout 60 '$SEARCHER' --index '$w/idx' --backlinks A.md | grep -q SECRET"
expect "nor the MCP server's backlinks" sh -c "! printf '%s\n' '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"backlinks\",\"arguments\":{\"path\":\"A.md\"}}}' |
  timeout 60 '$SEARCHER' --index '$w/idx' --mcp | grep -q SECRET"
rm "$w/vault/B.md" && mkfifo "$w/vault/B.md"
timeout 60 "$SEARCHER" --index "$w/idx" --vimgrep zqswap >/dev/null
expect "--vimgrep does not wait on a note swapped for a FIFO (exit $?)" test $? -le 1
finish
