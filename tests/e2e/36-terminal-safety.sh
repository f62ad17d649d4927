#!/usr/bin/env bash
# A note cannot drive the terminal: escape sequences (colours, the window
# title, OSC 52 clipboard writes, cursor moves), C1 controls, bidi overrides
# and bytes that are not UTF-8 in a note's text, title, front matter or file
# name reach every text output (results, --vimgrep, --paths, --list, the
# indexer's messages and reports) as visible escapes. JSON escapes them as
# JSON does; --paths -0 (for xargs -0, not a terminal) keeps the name as it is.
. "$(dirname "$0")/lib.sh"
v="$WORK/vault"
mkdir -p "$v/notes"
ESC=$'\x1b'
# Title with an OSC 0 (window title), body with OSC 52 (clipboard), a CSI
# that clears the screen, a C1 CSI (U+009B), a right-to-left override, a
# bell; a venue with a colour; a file name with an escape in it.
printf -- '---\ntitle: "Hostile %s]0;owned%s\\\\ title"\nvenue: "OSDI%s[31m"\nyear: 2024\n---\n# Hostile\nThe payload %s]52;c;ZWNobyBvd25lZA==%s\\\\ writes the clipboard; %s[2J clears; \xc2\x9b31m is C1; \xe2\x80\xaeevil\xe2\x80\xac reverses; \x07 rings.\n' \
  "$ESC" "$ESC" "$ESC" "$ESC" "$ESC" "$ESC" >"$v/notes/hostile.md"
printf '# Name\nThe payload is in the file name.\n' >"$v/notes/bad${ESC}[31mname.md"
idx="$WORK/idx"

# raw_controls FILE: the lines holding a control character (but tab and
# newline), a C1 control, a bidi override or isolate, or a byte that is not UTF-8.
raw_controls() {
  python3 -c 'import re, sys
data = open(sys.argv[1], "rb").read()
try:
    text = data.decode("utf-8")
except UnicodeDecodeError as e:
    print("not UTF-8:", e); sys.exit(0)
for line in text.split("\n"):
    if re.search("[\x00-\x08\x0b-\x1f\x7f\x80-\x9f\u202a-\u202e\u2066-\u2069]", line):
        print(repr(line))' "$1"
}
# safe NAME CMD...: CMD's stdout and stderr hold no raw control character.
safe() {
  local name=$1
  shift
  "$@" >"$WORK/$name.out" 2>&1
  local found
  found=$(raw_controls "$WORK/$name.out")
  expect "$name: no raw control character" test -z "$found"
  [ -z "$found" ] || printf '%s\n' "$found" | head -5
}

safe index-messages "$INDEXER" --vault "$v" --index "$idx" --verbose
safe dry-run "$INDEXER" --vault "$v" --index "$idx" --dry-run
safe entity-report "$INDEXER" --vault "$v" --index "$idx" --report entities
safe text "$SEARCHER" --index "$idx" payload
safe text-title "$SEARCHER" --index "$idx" 'title:Hostile'
safe text-width "$SEARCHER" --index "$idx" --width 60 payload
safe vimgrep "$SEARCHER" --index "$idx" --vimgrep payload
safe paths "$SEARCHER" --index "$idx" --paths payload
safe list-venue "$SEARCHER" --index "$idx" --list venue
"$SEARCHER" --index "$idx" --json payload >"$WORK/json.out" 2>&1
# Paths relative to the work folder, the same wherever the checkout is.
in_work() { (cd "$WORK" && "$@"); }
check terminal-text in_work "$SEARCHER" --index "$idx" --snippets 3 payload
check terminal-vimgrep in_work "$SEARCHER" --index "$idx" --vimgrep payload
check terminal-paths in_work "$SEARCHER" --index "$idx" --paths payload

# JSON keeps the text (escaped by JSON) and -0 keeps the file name as it is.
expect "json: the escape as \\u001b" grep -q 'u001b\]52;c;' "$WORK/json.out"
expect "--paths -0: the file name as it is" \
  bash -c '"$1" --index "$2" --paths -0 "file name" | tr "\0" "\n" | grep -q "bad$3\[31mname.md"' _ "$SEARCHER" "$idx" "$ESC"
finish
