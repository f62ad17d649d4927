#!/usr/bin/env bash
# searcher --mcp: the Model Context Protocol on standard input and output.
# Raw JSON-RPC lines in, lines out (goldens); the search tool's result equals
# `searcher --json` for the same request; read_note reads only notes the index
# holds, inside the vault; a new generation is picked up between calls.
. "$(dirname "$0")/lib.sh"
idx="$WORK/idx"
"$INDEXER" --vault "$VAULT" --index "$idx" --quiet
M() { "$SEARCHER" --index "$idx" --mcp; }

init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}'
initialized='{"jsonrpc":"2.0","method":"notifications/initialized"}'
check mcp-handshake M <<<"$init
$initialized
{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}
{\"jsonrpc\":\"2.0\",\"id\":\"three\",\"method\":\"tools/list\"}"
# The stateless revision: server/discover, then calls with the revision in _meta, no handshake.
check mcp-stateless M <<<'{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"facet_values","arguments":{"facet":"venue","limit":2},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}
{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2026-07-28","capabilities":{}}}'
check mcp-older-revision M <<<'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{}}}
{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{}}}'
check mcp-errors M <<<'not json
1e999999
{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"search","arguments":{"query":"GPU","limit":1e999}}}
[1,2]
{"jsonrpc":"2.0","id":1,"method":"nope"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nope","arguments":{}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search","arguments":{}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search","arguments":{"query":"GPU","limit":"ten"}}}
{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search","arguments":{"query":"GPU OR"}}}
{"jsonrpc":"2.0","id":{"bad":1},"method":"ping"}
{"jsonrpc":"2.0","id":null,"method":"ping"}
[{"jsonrpc":"2.0","id":6,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":7,"method":"ping"}]'
# Nesting 100,000 deep (200 KB) and a NUL byte: one error each, and the server goes on.
python3 -c 'print("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"a\":" + "[" * 100000 + "]" * 100000 + "}}")' >"$WORK/deep.jsonl"
printf '{"jsonrpc":"2.0","id":2,"method":"ping"}\0{"x":1}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n' >>"$WORK/deep.jsonl"
check mcp-deep-and-nul M <"$WORK/deep.jsonl"
check mcp-read-note M <<<'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_note","arguments":{"path":"Xin Liu.md","from_line":1,"to_line":3}}}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_note","arguments":{"path":"../README.md"}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_note","arguments":{"path":"/etc/passwd"}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read_note","arguments":{"path":"wiki/../../README.md"}}}
{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"read_note","arguments":{"path":"no such note.md"}}}'
check mcp-facets M <<<'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"facet_values","arguments":{"facet":"venue","limit":5}}}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"facet_values","arguments":{"facet":"year","query":"FSDP"}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"facet_values","arguments":{"facet":"person","prefix":"Xin"}}}'
M <<<'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"index_status","arguments":{}}}' >"$WORK/status.json"
expect "index_status: notes, each facet's coverage (= --list's notes), the last commit's time" python3 - "$WORK/status.json" <<'PY'
import json, re, sys
s = json.load(open(sys.argv[1]))["result"]["structuredContent"]
assert s["notes"] == 50 and s["unreadable_folders"] == [] and s["missing_shards"] == []
assert s["facet_coverage"] == {"venue": 46, "year": 46, "person": 26, "org": 46, "kind": 50}, s["facet_coverage"]
assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", s["last_commit"]), s["last_commit"]
PY

# What links here: the backlinks tool (with the lines that link) and
# searcher --backlinks list the notes grep finds linking the page or citing
# the source, and no other (the index's links: also holds a system's paper
# and list mates: ByteDance Seed links AEGIS's paper, not AEGIS).
check mcp-backlinks M <<<'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"backlinks","arguments":{"path":"Xin Liu.md","limit":2}}}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"backlinks","arguments":{"path":"nowhere.md"}}}'
links_to() {  # NOTE PATTERN: --backlinks' paths = grep's files linking by PATTERN
  expect "--backlinks '$1' = the notes grep finds linking it" test \
    "$(cd "$VAULT" && "$SEARCHER" --index "$idx" --backlinks "$1" --paths --null --limit 1000 | tr '\0' '\n' | sort)" = \
    "$(cd "$VAULT" && grep -rlE "$2" --include='*.md' . | sed 's|^\./||' | grep -vxF "$1" | sort)"
}
links_to 'Xin Liu.md' '\[\[Xin Liu(\]|\||#)'
links_to 'wiki/sources/@2024__NSDI__MegaScale - Scaling Large Language Model Training to More Than 10,000 GPUs.md' \
  '\[\[@2024__NSDI__MegaScale - Scaling Large Language Model Training to More Than 10,000 GPUs(\]|\||#)'
links_to 'wiki/entities/AEGIS.md' '\[\[AEGIS(\]|\||#)'
# Links by path and by file name; a note whose name starts with the page's
# is not the page.
lv="$WORK/linkforms"
mkdir -p "$lv/sub"
printf '# Deep\n\nzqdeep\n' >"$lv/sub/Deep.md"
printf '# H\n\n[[sub/Deep]] and [[Deep.md]]\n' >"$lv/H.md"
printf '# N\n\nzqn\n' >"$lv/N.md"
printf '# N bak\n\n[[N]]\n' >"$lv/N.md.bak.md"
"$INDEXER" --vault "$lv" --index "$WORK/lidx" --quiet
expect "--backlinks: [[sub/Deep]] and [[Deep.md]]" \
  test "$(cd "$lv" && "$SEARCHER" --index "$WORK/lidx" --backlinks sub/Deep.md)" = "H.md:3:[[sub/Deep]] and [[Deep.md]]"
expect "--backlinks: N.md.bak.md links N.md" \
  test "$(cd "$lv" && "$SEARCHER" --index "$WORK/lidx" --backlinks N.md --paths)" = "N.md.bak.md"
check backlinks-cli-path sh -c "cd '$SAGASU_SRC/data' && '$SEARCHER' --index '$idx' --backlinks 'vault/wiki/entities/AEGIS.md' --paths"

# Related notes: a person's page lists their papers, teams and co-authors
# first, each with why; the tool and --related agree.
check related-person sh -c "cd '$SAGASU_SRC/data' && '$SEARCHER' --index '$idx' --related 'vault/Xin Liu.md' --limit 5"
check mcp-related M <<<'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"related_notes","arguments":{"path":"wiki/entities/AEGIS.md","limit":3}}}'
expect "--related: a person's top 5 hold a paper and a team or co-author" sh -c "cd '$SAGASU_SRC/data' &&
  '$SEARCHER' --index '$idx' --related 'vault/Xin Liu.md' --limit 5 --json |
  python3 -c 'import json,sys; r=json.load(sys.stdin)[\"related\"]; k=[n[\"kind\"] for n in r]; sys.exit(not (\"source\" in k and (\"person\" in k or \"organization\" in k)))'"

# Judged by reading (data/labels/related): precision@5 of 10 pages.
python3 "$SAGASU_SRC/tests/tools/related_p5.py" "$SEARCHER" "$idx" "$VAULT" "$SAGASU_SRC/data/labels/related/vault.tsv" \
  --min 0.9 >"$WORK/related.out" 2>&1
expect "--related, judged: $(tail -1 "$WORK/related.out")" test $? = 0

# The search tool answers as searcher --json does, for the same requests.
same() {  # QUERY FILTERS LIMIT: compares structuredContent with --json
  local args
  args=$(python3 -c 'import json,sys; a={"query":sys.argv[1],"limit":int(sys.argv[3])}; a.update({"filters":sys.argv[2]} if sys.argv[2] else {}); print(json.dumps({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":a}}))' "$1" "$2" "$3")
  M <<<"$args" | python3 -c 'import json,sys; print(json.dumps(json.loads(sys.stdin.readline())["result"]["structuredContent"], sort_keys=True))' >"$WORK/mcp.json"
  local f=()
  for x in $2; do f+=(--filter "$x"); done
  "$SEARCHER" --index "$idx" --json --limit "$3" "${f[@]}" "$1" | python3 -c 'import json,sys; j=json.load(sys.stdin); j.pop("beyond", None); print(json.dumps(j, sort_keys=True))' >"$WORK/cli.json"
  expect "search tool = searcher --json: '$1' ${2:+($2)}" cmp -s "$WORK/mcp.json" "$WORK/cli.json"
}
same ストラグラー "" 10
same 'SDC 検知' "venue:OSDI" 5
same 'person:"Xin Liu"' "year:2024.." 20
same 強化学習 "" 3

# The official MCP TypeScript SDK's client (./scripts/setup-deps installs it
# with npm where it can): it negotiates, lists the tools, calls each, and
# checks every structured result against the tool's outputSchema.
client="$SAGASU_SRC/tests/e2e/mcp-client"
if command -v node >/dev/null && [ -d "$client/node_modules/@modelcontextprotocol/sdk" ]; then
  calls='[{"name":"search","arguments":{"query":"ストラグラー","limit":5}},
          {"name":"search","arguments":{"query":"SDC 検知","filters":"venue:OSDI"}},
          {"name":"search","arguments":{"query":"GPU OR"}},
          {"name":"read_note","arguments":{"path":"Xin Liu.md"}},
          {"name":"read_note","arguments":{"path":"../README.md"}},
          {"name":"read_note","arguments":{"path":"/etc/passwd"}},
          {"name":"facet_values","arguments":{"facet":"venue"}},
          {"name":"index_status","arguments":{}},
          {"name":"backlinks","arguments":{"path":"Xin Liu.md"}},
          {"name":"related_notes","arguments":{"path":"Xin Liu.md","limit":5}}]'
  node "$client/client.mjs" "$SEARCHER" "$idx" "$calls" >"$WORK/sdk.out" 2>"$WORK/sdk.err"
  expect "the SDK client runs every call (exit $?)" test "$(wc -l <"$WORK/sdk.out")" = 11
  "$SEARCHER" --index "$idx" --related 'Xin Liu.md' --limit 5 --json >"$WORK/sdk-related.json"
  "$SEARCHER" --index "$idx" --json --limit 5 ストラグラー >"$WORK/sdk-a.json"
  "$SEARCHER" --index "$idx" --json --filter venue:OSDI 'SDC 検知' >"$WORK/sdk-b.json"
  "$SEARCHER" --index "$idx" --list venue >"$WORK/sdk-venues.txt"
  python3 - "$WORK" "$VAULT" <<'PY' >"$WORK/sdk.check"
import json, sys
work, vault = sys.argv[1], sys.argv[2]
lines = [json.loads(l) for l in open(f"{work}/sdk.out")]
def cli(name):
    j = json.load(open(f"{work}/{name}")); j.pop("beyond", None); return j
ok = lambda what, cond: print(("ok   " if cond else "FAIL ") + what)
ok("SDK: the six tools listed", lines[0] == {"server": "sagasu", "tools": ["backlinks", "facet_values", "index_status", "read_note", "related_notes", "search"]})
ok("SDK: search = searcher --json (ストラグラー)", lines[1]["structuredContent"] == cli("sdk-a.json"))
ok("SDK: search with filters = searcher --json --filter", lines[2]["structuredContent"] == cli("sdk-b.json"))
ok("SDK: a malformed query is a tool error with the parser's column", lines[3]["isError"] and "column" in lines[3]["text"])
ok("SDK: read_note gives the note's text", lines[4]["structuredContent"]["text"] == open(f"{vault}/Xin Liu.md").read())
ok("SDK: read_note refuses ../ and absolute paths", lines[5]["isError"] and lines[6]["isError"])
venues = [l.split("\t") for l in open(f"{work}/sdk-venues.txt").read().splitlines()]
ok("SDK: facet_values = searcher --list", [[v["value"], str(v["count"])] for v in lines[7]["structuredContent"]["values"]] == venues)
ok("SDK: index_status counts the notes", lines[8]["structuredContent"]["notes"] == 50)
links = lines[9]["structuredContent"]
ok("SDK: backlinks of Xin Liu, each with the line that links", links["total"] == 18 and all(
    any("[[Xin Liu" in l["text"] for l in b["lines"]) for b in links["backlinks"]))
ok("SDK: related_notes = searcher --related --json", lines[10]["structuredContent"] == json.load(open(f"{work}/sdk-related.json")))
PY
  while IFS= read -r line; do
    case $line in ok*) expect "${line#ok   }" true ;; *) expect "${line#FAIL }" false ;; esac
  done <"$WORK/sdk.check"
else
  echo "skip the MCP SDK client checks: no Node.js, or its client not installed (npm could not reach the registry: ./scripts/setup-deps)"
fi

# A request over 1 MB is refused; the server goes on.
python3 -c 'print("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"" + "a" * 1100000 + "\"}}"); print("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}")' |
  M >"$WORK/big.out"
expect "a request over 1 MB is refused, the next answered" \
  test "$(cat "$WORK/big.out")" = '{"error":{"code":-32600,"message":"request over 1048576 bytes"},"id":null,"jsonrpc":"2.0"}
{"id":2,"jsonrpc":"2.0","result":{}}'

# A note replaced by a link out of the vault after indexing is not read.
v="$WORK/vault"
mkdir -p "$v" "$WORK/outside"
printf '# 秘密\n\nzqsecret\n' >"$WORK/outside/secret.md"
printf '# メモ\n\nzqnote\n' >"$v/note.md"
printf '# \xff\xfe not UTF-8\n' >"$v/broken.md"
"$INDEXER" --vault "$v" --index "$WORK/idx2" --quiet 2>/dev/null
"$SEARCHER" --index "$WORK/idx2" --mcp >"$WORK/skipped.json" <<<'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"index_status"}}'
expect "index_status names the file the last run skipped, and why" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["result"]["structuredContent"]["skipped"]
sys.exit(not (len(s) == 1 and s[0]["path"] == "broken.md" and "UTF-8" in s[0]["reason"]))' "$WORK/skipped.json"
rm "$v/note.md" && ln -s "$WORK/outside/secret.md" "$v/note.md"
check mcp-link-out "$SEARCHER" --index "$WORK/idx2" --mcp <<<'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_note","arguments":{"path":"note.md"}}}'

# A new generation (a rebuild) is searched by the next call of the same server.
rm "$v/note.md" && printf '# メモ\n\nzqnote\n' >"$v/note.md"
"$INDEXER" --vault "$v" --index "$WORK/idx2" --quiet
coproc SERVER { "$SEARCHER" --index "$WORK/idx2" --mcp; }
ask() { printf '%s\n' "$1" >&"${SERVER[1]}"; IFS= read -r reply <&"${SERVER[0]}"; printf '%s' "$reply"; }
q='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"zqlater"}}}'
total() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])["result"]["structuredContent"]["total"])' "$1"; }
expect "before the rebuild: zqlater finds nothing" test "$(total "$(ask "$q")")" = 0
printf '# 後で\n\nzqlater\n' >"$v/later.md"
"$INDEXER" --vault "$v" --index "$WORK/idx2" --rebuild --quiet
expect "after the rebuild, the same server finds it" test "$(total "$(ask "$q")")" = 1
printf '# 更新\n\nzqlater again\n' >"$v/later2.md"
"$INDEXER" --vault "$v" --index "$WORK/idx2" --quiet
expect "after an update too" test "$(total "$(ask "$q")")" = 2
exec {SERVER[1]}>&-
wait "$SERVER_PID"
expect "the server ends with its input (exit $?)" test $? = 0
finish
