#!/usr/bin/env bash
# Crash safety: SIGKILL the indexer at 50 random moments, during a full
# rebuild and during a large incremental update. Each time, the index must
# still open and answer, and the next run must bring it to exactly the state
# of a clean build. Also: a second indexer is refused with the holder named.
. "$(dirname "$0")/lib.sh"
DUMP="$SAGASU_BIN/tests/sagasu-dump"
v="$WORK/vault"
mkdir -p "$v"
for i in $(seq 1 6); do mkdir -p "$v/copy$i" && cp -r "$VAULT/." "$v/copy$i/"; rm -rf "$v/copy$i/.obsidian" "$v/copy$i/.sagasu"; done
base="$WORK/base"
"$INDEXER" --vault "$v" --index "$base" --quiet -j 2
# The change the incremental runs apply: every note edited.
find "$v" -name '*.md' -print0 | while IFS= read -r -d '' f; do printf '\n追記: 障害検知の新しい観察。\n' >>"$f"; done
ref="$WORK/ref"
start=$(date +%s%N)
"$INDEXER" --vault "$v" --index "$ref" --quiet -j 2
took_ms=$(( ($(date +%s%N) - start) / 1000000 ))
"$DUMP" "$ref" >"$WORK/ref.dump"
echo "a clean build of $(find "$v" -name '*.md' | wc -l) notes takes $took_ms ms"

kill_at() {  # kill_at MS ARGS...: run the indexer, SIGKILL it after MS milliseconds
  local ms=$1
  shift
  "$INDEXER" "$@" --quiet -j 2 &
  local pid=$!
  sleep "$(awk -v m="$ms" 'BEGIN { printf "%.3f", m / 1000 }')"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
}

RANDOM=20261130
for round in $(seq 1 50); do
  rm -rf "$WORK/idx" && cp -r "$base" "$WORK/idx"
  ms=$((RANDOM % (took_ms + 50)))
  if [ $((round % 2)) = 0 ]; then what="rebuild"; kill_at "$ms" --vault "$v" --index "$WORK/idx" --rebuild
  else what="update"; kill_at "$ms" --vault "$v" --index "$WORK/idx"; fi
  "$SEARCHER" --index "$WORK/idx" --limit 1 --snippets 0 --facets none GPU >/dev/null 2>"$WORK/err"
  rc=$?
  ok=1
  [ $rc -le 1 ] || { ok=0; echo "round $round ($what, killed at ${ms} ms): searcher exit $rc: $(cat "$WORK/err")"; }
  "$INDEXER" --vault "$v" --index "$WORK/idx" --quiet -j 2
  "$DUMP" "$WORK/idx" >"$WORK/idx.dump"
  cmp -s "$WORK/idx.dump" "$WORK/ref.dump" || { ok=0; echo "round $round ($what, killed at ${ms} ms): differs from a clean build"; diff "$WORK/ref.dump" "$WORK/idx.dump" | head -5; }
  expect "kill $round ($what at ${ms} ms): index answers, next run = clean build" test $ok = 1
done

# A rebuild in progress is invisible: a searcher running meanwhile keeps
# answering from the old generation, then from the new one, never from half.
rm -rf "$WORK/idx" && cp -r "$base" "$WORK/idx"
old_total=$("$SEARCHER" --index "$WORK/idx" --json --limit 0 --facets none 障害検知 | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
"$INDEXER" --vault "$v" --index "$WORK/idx" --rebuild --quiet -j 1 &  # one thread: a longer window
pid=$!
answers=0 bad=0
while kill -0 "$pid" 2>/dev/null; do
  t=$("$SEARCHER" --index "$WORK/idx" --json --limit 0 --facets none 障害検知 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])' 2>/dev/null)
  answers=$((answers + 1))
  [ "$t" = "$old_total" ] || [ "$t" = "$(grep -c . <<<"$(find "$v" -name '*.md')")" ] || { bad=$((bad + 1)); echo "during the rebuild a search answered '$t'"; }
done
wait "$pid"
expect "$answers searches during a rebuild all answered from a whole index" test "$bad" = 0 -a "$answers" -gt 0

# Two indexers at once: the second is refused and told who holds the lock.
exec 9>"$WORK/idx/lock"
flock -n 9
echo "pid 4242 on testhost, since 2026-11-30 00:00:00" >&9
check second-indexer-refused "$INDEXER" --vault "$v" --index "$WORK/idx"
( sleep 1; flock -u 9 ) &
"$INDEXER" --vault "$v" --index "$WORK/idx" --quiet --wait
expect "--wait waits for the lock and then runs" test $? = 0
finish
