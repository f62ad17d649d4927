#!/usr/bin/env bash
# indexer --watch: a vault that stays searchable while it is written. The
# watcher runs on a copy of the sample vault; every kind of change (an edit, a
# rename, an editor's save by rename with and without a backup file, a
# deletion, a new note, a new folder with notes, a folder renamed and removed,
# the override file) must be found by the searcher within 2 s. Swap files and
# hidden folders cause no batch; a second indexer is refused with the watcher
# named; waiting costs no CPU; SIGTERM and SIGINT end it cleanly (exit 0, lock
# released); and the index it kept equals a full rebuild of the vault.
. "$(dirname "$0")/lib.sh"
DUMP="$SAGASU_BIN/tests/sagasu-dump"
v="$WORK/vault" idx="$WORK/idx" log="$WORK/watch.log"
cp -r "$VAULT" "$v"

watcher=''
start_watch() {
  "$INDEXER" --vault "$v" --index "$idx" --watch --verbose -j 2 >"$log" 2>&1 &
  watcher=$!
  for _ in $(seq 100); do grep -q '^indexer: watching ' "$log" && return 0; sleep 0.1; done
  echo "     | watcher did not start:"; sed 's/^/     | /' "$log"
  return 1
}
stop_watch() {  # stop_watch SIGNAL: sends it, waits; the watcher's exit status in $rc
  kill "-$1" "$watcher"
  wait "$watcher"
  rc=$?
}
trap 'kill "$watcher" 2>/dev/null; chmod -R u+rwx "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT

# seen WHAT CMD...: CMD (a searcher check) holds within 2 s of the change.
seen() {
  local what=$1 t0 i
  shift
  t0=$(date +%s%N)
  for i in $(seq 40); do
    if "$@" >/dev/null 2>&1; then
      expect "$what: seen in $((($(date +%s%N) - t0) / 1000000)) ms" true
      return
    fi
    sleep 0.05
  done
  expect "$what: seen within 2 s" false
  sed 's/^/     | /' "$log" | tail -5
}
finds() { [ "$(cd "$v" && "$SEARCHER" --index "$idx" --paths "$1" 2>/dev/null)" = "$2" ]; }
finds_none() { ! "$SEARCHER" --index "$idx" --paths "$1" >/dev/null 2>&1; }
batches() { grep -cE '^indexer: .* in [0-9]+ ms$' "$log"; }

expect "the watcher starts after an up-to-date run" start_watch
expect "the first run's summary comes first" grep -q '^indexer: [0-9]* notes in ' "$log"

# A second writer is refused, and told who holds the lock.
"$INDEXER" --vault "$v" --index "$idx" >"$WORK/second.out" 2>&1
rc=$?
expect "a second indexer is refused (exit $rc)" test "$rc" = 2
expect "the refusal names the watcher" grep -q "locked by another indexer (pid $watcher on .*, watching $v)" "$WORK/second.out"

# Edits, new notes, renames, deletions.
echo '観測語ぴよぴよ を追記した。' >>"$v/wiki/concepts/FSDP.md"
seen "an edit" finds 観測語ぴよぴよ wiki/concepts/FSDP.md
printf '# 新規\n\n新規語ほげほげ のメモ。\n' >"$v/新規ノート.md"
seen "a new note" finds 新規語ほげほげ 新規ノート.md
mv "$v/新規ノート.md" "$v/wiki/改名ノート.md"
seen "a rename" finds 新規語ほげほげ wiki/改名ノート.md
expect "the rename is logged as one" grep -q '^  renamed 新規ノート.md -> wiki/改名ノート.md$' "$log"
rm "$v/wiki/改名ノート.md"
seen "a deletion" finds_none 新規語ほげほげ

# Editors that save by rename: a temporary file renamed over the note (VS
# Code, Obsidian's sync, many editors); Vim's way, the note renamed to a
# backup, written anew and the backup removed; swap files meanwhile.
note="$v/wiki/concepts/障害検知.md"
n=$(batches)
printf 'swap' >"$v/wiki/concepts/.障害検知.md.swp"
printf 'x' >"$v/wiki/concepts/4913" && rm "$v/wiki/concepts/4913"
mkdir -p "$v/.obsidian/plugins" && echo '{}' >"$v/.obsidian/workspace.json"
sleep 0.6
expect "swap files and hidden folders make no batch" test "$(batches)" = "$n"
{ cat "$note"; echo '保存語もふもふ'; } >"$v/wiki/concepts/.障害検知.md.tmp"
mv "$v/wiki/concepts/.障害検知.md.tmp" "$note"
seen "a save by rename (temporary file renamed over the note)" finds 保存語もふもふ wiki/concepts/障害検知.md
mv "$note" "$note~"
{ cat "$note~"; echo '保存語ぽんぽん'; } >"$note"
rm "$note~" "$v/wiki/concepts/.障害検知.md.swp"
seen "a Vim-style save (backup, new file)" finds 保存語ぽんぽん wiki/concepts/障害検知.md
expect "the Vim-style save is an update, never a deletion" \
  test "$(grep -c '^  deleted wiki/concepts/障害検知.md$' "$log")" = 0

# Folders: a new one with notes at once (before its watch exists), a note in
# it later, the folder renamed, then removed.
mkdir -p "$v/projects/2026/deep" && echo '深層語ふわふわ' >"$v/projects/2026/deep/a.md"
seen "a new folder's note" finds 深層語ふわふわ projects/2026/deep/a.md
echo '後から語きらきら' >"$v/projects/2026/deep/b.md"
seen "a later note in the new folder" finds 後から語きらきら projects/2026/deep/b.md
mv "$v/projects" "$v/archive"
seen "a renamed folder" finds 深層語ふわふわ archive/2026/deep/a.md
echo '改名後語ざわざわ' >"$v/archive/2026/deep/c.md"
seen "a note in the renamed folder" finds 改名後語ざわざわ archive/2026/deep/c.md
rm -r "$v/archive"
seen "a removed folder" finds_none 深層語ふわふわ

# The override file is read again: ByteRobust becomes an organization.
mkdir -p "$v/.sagasu" && printf 'ByteRobust\torganization\n' >>"$v/.sagasu/entities.tsv"
seen "the override file" finds 'kind:organization title:ByteRobust' wiki/entities/ByteRobust.md

# Waiting costs no CPU: the watcher's CPU time over 2 idle seconds.
sleep 0.5
ticks() { awk '{ print $14 + $15 }' "/proc/$watcher/stat"; }
t0=$(ticks)
sleep 2
t1=$(ticks)
expect "idle: $((t1 - t0)) CPU ticks in 2 s" test $((t1 - t0)) -le 1

# SIGTERM ends it cleanly; the lock is released; the index equals a rebuild.
stop_watch TERM
expect "SIGTERM ends the watch with exit 0 (got $rc)" test "$rc" = 0
expect "it says it stopped" grep -q "^indexer: stopped watching " "$log"
expect "the lock is released: no holder named" test ! -s "$idx/lock"
"$INDEXER" --vault "$v" --index "$WORK/full" --quiet -j 2
"$DUMP" "$idx" >"$WORK/watch.dump"
"$DUMP" "$WORK/full" >"$WORK/full.dump"
expect "the watched index = a full rebuild" cmp -s "$WORK/watch.dump" "$WORK/full.dump"
diff "$WORK/full.dump" "$WORK/watch.dump" | head -10

# SIGINT too; changes made while no watcher ran are found by its first run.
echo '不在中語ごろごろ' >>"$v/wiki/concepts/FSDP.md"
expect "the watcher starts again" start_watch
seen "a change made while nobody watched" finds 不在中語ごろごろ wiki/concepts/FSDP.md
stop_watch INT
expect "SIGINT ends the watch with exit 0 (got $rc)" test "$rc" = 0
"$INDEXER" --vault "$v" --index "$idx" >"$WORK/after.out" 2>&1
expect "an indexer runs after the watch (exit $?)" grep -q 'added 0, updated 0, deleted 0' "$WORK/after.out"
check watch-usage "$INDEXER" --vault "$v" --index "$idx" --watch --dry-run

# On a terminal the watch's first run shows its progress (the bar was attached
# after the watch had copied the options), and a change after it, with no bar
# left, is indexed as a batch.
python3 - "$INDEXER" "$VAULT" "$WORK/tty-vault" "$WORK/tty-idx" >"$WORK/tty.out" 2>&1 <<'PY'
import os, pty, shutil, signal, subprocess, sys, time
indexer, vault, copy, index = sys.argv[1:]
shutil.copytree(vault, copy)
master, slave = pty.openpty()
p = subprocess.Popen([indexer, "--vault", copy, "--index", index, "--watch"], stdin=slave, stdout=slave, stderr=slave)
os.close(slave)
out = b""
def read_for(seconds):
    global out
    end = time.time() + seconds
    while time.time() < end:
        try:
            out += os.read(master, 65536)
        except BlockingIOError:
            time.sleep(0.05)
        except OSError:
            break
os.set_blocking(master, False)
read_for(3)
with open(os.path.join(copy, "tty-note.md"), "w") as f:
    f.write("# TTY\nA note written while watched on a terminal.\n")
read_for(3)
p.send_signal(signal.SIGTERM)
p.wait(timeout=10)
read_for(0.2)
sys.stdout.write(out.decode("utf-8", "replace"))
print("\nexit", p.returncode)
PY
expect "on a terminal: the first run's progress bar" grep -q 'index    \[' "$WORK/tty.out"
expect "on a terminal: the batch after it" grep -q 'added 1 in' "$WORK/tty.out"
expect "on a terminal: SIGTERM exit 0" grep -q '^exit 0' "$WORK/tty.out"
finish
