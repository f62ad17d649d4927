#!/usr/bin/env bash
# Shards: `indexer --shards N` splits the vault by path hash into N indexes,
# and the searcher gives the same JSON (hits, order, scores, snippets, exact
# facet counts) for the shards — local folders, xapian-tcpsrv servers on
# 127.0.0.1, or a stub file listing them — as for one index of the same notes.
# A shard that is down is an error naming it, or with --allow-partial a
# warning and a result marked partial.
. "$(dirname "$0")/lib.sh"
command -v xapian-tcpsrv >/dev/null || { echo "FAIL xapian-tcpsrv not installed (Debian xapian-tools)"; exit 1; }
export SAGASU_EDICT="$SAGASU_SRC/tests/e2e/fixtures/dictionary"  # the dictionaries' bridges too
v="$WORK/vault"
cp -r "$VAULT" "$v"
one="$WORK/one"
sharded="$WORK/sharded"
"$INDEXER" --vault "$v" --index "$one" --quiet
check shards-build "$INDEXER" --vault "$v" --index "$sharded" --shards 3

# Layout: one stub naming a generation of every shard; each note in one shard.
docs() { xapian-delve "$1" | sed -n 's/^number of documents = //p'; }
expect "the top stub names the three shards" \
  grep -qx 'auto shard-0/gen-000001' "$sharded/XAPIANDB"
total=$(( $(docs "$sharded/shard-0") + $(docs "$sharded/shard-1") + $(docs "$sharded/shard-2") ))
expect "each note is in exactly one shard ($total = $(docs "$one"))" [ "$total" = "$(docs "$one")" ]
expect "no shard is empty" [ "$(docs "$sharded/shard-0")" -gt 0 -a "$(docs "$sharded/shard-1")" -gt 0 -a "$(docs "$sharded/shard-2")" -gt 0 ]
# Each note keeps its shard's number (the matcher names a note by its number
# in its shard only; the facet counts and the verifier place it by this value).
for k in 0 1 2; do
  expect "every note of shard $k says it is of shard $k" [ "$("$SAGASU_BIN/tests/sagasu-dump" "$sharded/shard-$k" |
    grep -c "^  value 13 shard $k\$")" = "$(docs "$sharded/shard-$k")" ]
done
expect "one index keeps no shard number" [ "$("$SAGASU_BIN/tests/sagasu-dump" "$one" | grep -c "value 13 shard")" = 0 ]

# Servers: one xapian-tcpsrv per shard on a free port, stopped by PID at the end.
pids=()
ports=()
stop_servers() { [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; pids=(); }
trap 'stop_servers; chmod -R u+rwx "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
serve() {  # serve DIR: starts a server on a free port; appends to pids and ports
  local port pid tries
  for tries in $(seq 1 50); do
    port=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
    listening "$port" && continue  # taken
    # A process group of its own: xapian-tcpsrv signals its whole group when it stops.
    setsid xapian-tcpsrv --quiet --interface 127.0.0.1 --port "$port" "$1" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 1 50); do
      listening "$port" && { pids+=("$pid"); ports+=("$port"); return 0; }
      kill -0 "$pid" 2>/dev/null || break  # could not bind: another port
      sleep 0.1
    done
    kill "$pid" 2>/dev/null
  done
  echo "FAIL cannot start xapian-tcpsrv for $1"
  exit 1
}
for k in 0 1 2; do serve "$sharded/shard-$k"; done
remote=()
for p in "${ports[@]}"; do remote+=(--index "tcp://127.0.0.1:$p"); done
stub="$WORK/shards.stub"
{
  echo "# the shards of the sample vault"
  for p in "${ports[@]}"; do echo "remote :127.0.0.1:$p"; done
} >"$stub"

# The same JSON from one index, the local shards, the remote shards and the
# stub file, for queries that use every part of the searcher: words,
# compounds, substrings (confirmed on the text), variants, aliases, filters,
# drill-sideways counts, exclusions, --exact, sorting, paging, rescue and
# did-you-mean.
queries=(
  "SDC" "ストラグラ" "京都" "サーバー" "ｻｰﾊﾞ" "本番クラスタ" "データ破損" "チェックポイント 障害"
  "Llama 3 中断" "silent data corruption" "venue:MLSys" "venue:OSDI year:2024..2026"
  'person:"Xin Liu"' "org:バイトダンス" "kind:person OR kind:organization" "障害 -SDC" "stragler"
  "GPU venue:OSDI" "title:FSDP" '"学習 ジョブ"' "訓練 OR 推論" "エラー"
  "x venue:OSDI" "l venue:SC"  # one-character prefixes under a filter (a Xapian crash with OP_MAX)
  "observability" "エヌビディア" "強化学習" "Kurohashi"  # bridges: the glossary, a sound, the dictionaries
  "toleran"  # letters inside a tag's word only (fault-tolerance): proven by the same word list everywhere
)
n=0
same=0
for q in "${queries[@]}"; do
  for extra in "" "--exact" "--sort year" "--sort title" "--offset 3 --limit 4" "--explain"; do
    # shellcheck disable=SC2086  # extra holds options
    "$SEARCHER" --index "$one" --json $extra -- $q >"$WORK/a.json" 2>"$WORK/a.err"
    "$SEARCHER" --index "$sharded" --json $extra -- $q >"$WORK/b.json" 2>"$WORK/b.err"
    "$SEARCHER" "${remote[@]}" --json $extra -- $q >"$WORK/c.json" 2>"$WORK/c.err"
    "$SEARCHER" --index "$stub" --json $extra -- $q >"$WORK/d.json" 2>"$WORK/d.err"
    n=$((n + 1))
    if cmp -s "$WORK/a.json" "$WORK/b.json" && cmp -s "$WORK/a.json" "$WORK/c.json" &&
       cmp -s "$WORK/a.json" "$WORK/d.json" && cmp -s "$WORK/a.err" "$WORK/c.err"; then
      same=$((same + 1))
    else
      echo "differs: $extra $q"
      diff <(tr ',' '\n' <"$WORK/a.json") <(tr ',' '\n' <"$WORK/c.json") | head -8
    fi
  done
done
expect "one index = local shards = tcp shards = stub file: $same of $n searches identical" [ "$same" = "$n" ]
expect "the comparison is not vacuous: SDC has hits and counts" grep -q '"total":1[0-9]' <(
  "$SEARCHER" "${remote[@]}" --json SDC)
for f in venue person org; do
  "$SEARCHER" --index "$one" --list "$f" >"$WORK/a.list"
  "$SEARCHER" "${remote[@]}" --list "$f" >"$WORK/c.list"
  expect "--list $f over tcp shards = one index" cmp -s "$WORK/a.list" "$WORK/c.list"
done

# Mistakes in the set of shards are errors that name the shard.
check shards-missing "$SEARCHER" --index "tcp://127.0.0.1:${ports[0]}" --index "tcp://127.0.0.1:${ports[1]}" SDC
check shards-twice "$SEARCHER" "${remote[@]}" --index "$sharded/shard-0" SDC
check shards-mixed "$SEARCHER" --index "$one" --index "$sharded/shard-1" SDC
printf 'auto %s\nremote 127.0.0.1 9\n' "$one" >"$WORK/bad.stub"
check shards-bad-stub "$SEARCHER" --index "$WORK/bad.stub" SDC
check shards-bad-address "$SEARCHER" --index tcp://127.0.0.1:notaport SDC

# A shard goes down: an error naming it, or a partial result with --allow-partial.
kill "${pids[2]}"
wait "${pids[2]}" 2>/dev/null
unset 'pids[2]'
down="tcp://127.0.0.1:${ports[2]}"
"$SEARCHER" "${remote[@]}" --json SDC >"$WORK/down.json" 2>"$WORK/down.err"
rc=$?
expect "a down shard is an error (exit $rc)" [ "$rc" = 2 ]
expect "the error names the down shard" grep -q "$down: cannot reach the shard" "$WORK/down.err"
"$SEARCHER" "${remote[@]}" --allow-partial --json SDC >"$WORK/partial.json" 2>"$WORK/partial.err"
rc=$?
expect "--allow-partial searches the others (exit $rc)" [ "$rc" = 0 ]
expect "--allow-partial warns, naming the shard" grep -q "warning: $down not searched" "$WORK/partial.err"
expect "the JSON says partial and names the shard" grep -q "\"missing_shards\":\\[\"$down\"\\],.*\"partial\":true" \
  "$WORK/partial.json"
full=$("$SEARCHER" --index "$one" --json SDC | grep -o '"total":[0-9]*')
part=$(grep -o '"total":[0-9]*' "$WORK/partial.json")
expect "partial total ($part) is below the full one ($full)" [ "${part#*:}" -lt "${full#*:}" ]
stop_servers

# Incremental updates work per shard: edits, additions, deletions and a
# rename that moves a note to another shard give what one index gives.
printf '\n追記: シャード越しの更新。\n' >>"$v/wiki/concepts/障害検知.md"
printf '# シャード\nシャードに分けた索引のノート。[[ByteDance]]\n' >"$v/wiki/シャード.md"
rm "$v/wiki/entities/NVIDIA.md"
mv "$v/wiki/concepts/FSDP.md" "$v/wiki/concepts/FSDP (old).md"  # its path hashes to another shard
shard_has() { "$SEARCHER" --index "$sharded/shard-$1" --allow-partial --paths FSDP 2>/dev/null | grep -qF "$2"; }
expect "before: FSDP.md is in shard-2" shard_has 2 'concepts/FSDP.md'
check shards-incremental "$INDEXER" --vault "$v" --index "$sharded"
expect "the rename moved it to shard-1 ..." shard_has 1 'concepts/FSDP\ (old).md'
expect "... and out of shard-2" eval '! shard_has 2 concepts/FSDP'
"$INDEXER" --vault "$v" --index "$one" --quiet
n=0
same=0
for q in "${queries[@]}" "シャード" "FSDP" "NVIDIA"; do
  "$SEARCHER" --index "$one" --json -- $q >"$WORK/a.json" 2>&1
  "$SEARCHER" --index "$sharded" --json -- $q >"$WORK/b.json" 2>&1
  n=$((n + 1))
  cmp -s "$WORK/a.json" "$WORK/b.json" && same=$((same + 1))
done
expect "after an incremental update: shards = one index ($same of $n)" [ "$same" = "$n" ]
# Related notes in the same order: equal weights (a shared link each) tie on any shards.
"$SEARCHER" --index "$one" --related wiki/シャード.md --json >"$WORK/a.json" 2>&1
"$SEARCHER" --index "$sharded" --related wiki/シャード.md --json >"$WORK/b.json" 2>&1
expect "after an incremental update: related notes on shards = one index" cmp -s "$WORK/a.json" "$WORK/b.json"

# Another shard count rebuilds into the new layout; the old shard folder goes.
check shards-reshard "$INDEXER" --vault "$v" --index "$sharded" --shards 2
expect "the third shard folder is removed" [ ! -e "$sharded/shard-2" ]
"$SEARCHER" --index "$one" --json 訓練 >"$WORK/a.json"
"$SEARCHER" --index "$sharded" --json 訓練 >"$WORK/b.json"
expect "two shards = one index" cmp -s "$WORK/a.json" "$WORK/b.json"
check shards-unshard "$INDEXER" --vault "$v" --index "$sharded" --shards 1
expect "back to one index: no shard folders" [ ! -e "$sharded/shard-0" ]
# A dry run of another shard count writes nothing: no shard folder, no lock in one.
find "$sharded" | sort >"$WORK/before.txt"
"$INDEXER" --vault "$v" --index "$sharded" --shards 3 --dry-run --quiet >/dev/null
find "$sharded" | sort >"$WORK/after.txt"
expect "a dry run of three shards makes no shard folder" cmp -s "$WORK/before.txt" "$WORK/after.txt"
finish
