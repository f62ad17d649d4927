# Shared by the end-to-end suites: run the real binaries and compare their
# output with golden files. Source it, then call `check`.
#
#   check NAME CMD [ARGS...]   runs CMD, records stdout, stderr and the exit
#                              status, sanitises volatile fields, and compares
#                              with golden/NAME.out (UPDATE_GOLDEN=1 rewrites it).
set -u
: "${SAGASU_BIN:?SAGASU_BIN must name the build folder}"
: "${SAGASU_SRC:?SAGASU_SRC must name the source folder}"
INDEXER="$SAGASU_BIN/indexer/indexer"
SEARCHER="$SAGASU_BIN/searcher/searcher"
GOLDEN="$SAGASU_SRC/tests/e2e/golden"
VAULT="$SAGASU_SRC/data/vault"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sagasu-e2e.XXXXXX")
trap 'chmod -R u+rwx "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT
export NO_COLOR=1 SAGASU_INDEX="$WORK/default-index" LC_ALL=C.UTF-8
# The same outputs whatever dictionaries the machine has: none, unless a suite
# asks for one (47-bridge.sh); a dictionary's cache stays in the work folder.
export SAGASU_EDICT="" SAGASU_IPADIC="" XDG_CACHE_HOME="$WORK/cache"
failures=0
checks=0
cd "$SAGASU_SRC" || exit 2  # paths printed relative to the current folder are stable

sanitise() {
  sed -e "s|$WORK|<TMP>|g" -e "s|$SAGASU_SRC|<SRC>|g" \
      -e 's/127\.0\.0\.1:[0-9]\+/127.0.0.1:<PORT>/g' -e 's/dictionary-[0-9a-f]\{16\}/dictionary-<HASH>/g' -e 's/[0-9]\+\.[0-9]\+ s$/<T> s/' -e 's/"score":[0-9.e+-]*/"score":<S>/g'
}

check() {
  local name=$1
  shift
  local out="$WORK/$name.actual"
  {
    "$@" >"$WORK/stdout" 2>"$WORK/stderr"
    local rc=$?
    cat "$WORK/stdout"
    echo "--- stderr"
    cat "$WORK/stderr"
    echo "--- exit $rc"
  } | sanitise >"$out"
  checks=$((checks + 1))
  if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
    mkdir -p "$GOLDEN"
    cp "$out" "$GOLDEN/$name.out"
    return 0
  fi
  if [ ! -f "$GOLDEN/$name.out" ]; then
    echo "FAIL $name: no golden file $GOLDEN/$name.out (run scripts/update-golden)"
    failures=$((failures + 1))
  elif ! diff -u "$GOLDEN/$name.out" "$out"; then
    echo "FAIL $name"
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}

# Asserts a condition with a message; for facts golden files cannot show.
expect() {
  local what=$1
  shift
  checks=$((checks + 1))
  if "$@"; then
    echo "ok   $what"
  else
    echo "FAIL $what"
    failures=$((failures + 1))
  fi
}

# Runs a command without the capabilities that let root read any file, so
# permission tests mean the same for root (CI) and for users.
as_user() {
  if [ "$(id -u)" = 0 ]; then
    setpriv --bounding-set=-dac_override,-dac_read_search "$@"
  else
    "$@"
  fi
}

# Runs a command whose standard output is a pipe nobody reads any more (as
# after `| head -1` has exited), and prints its exit status. Deterministic,
# unlike a real `| head`, which may read everything before it goes.
closed_pipe_status() {
  python3 -c 'import os, subprocess, sys
r, w = os.pipe()
os.close(r)
print(subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.DEVNULL).returncode)' "$@"
}

finish() {
  echo "$((checks - failures)) passed, $failures failed"
  [ "$failures" -eq 0 ]
}

# Prints "rank tier path" per hit of a searcher --json run, then the total.
hits() {
  "$@" | python3 -c 'import json,sys
d=json.load(sys.stdin)
for h in d["hits"]: print(h["rank"], h["tier"], h["path"])
print("total", d["total"])'
}
