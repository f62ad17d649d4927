#!/usr/bin/env bash
# scripts/sagasu-fzf without fzf: the commands fzf runs (the list, the
# preview, opening a line) run standalone; without fzf the script says so;
# with a stand-in fzf that does what fzf does with the script's bindings
# (the start reload with the query, the preview and Enter on the first line),
# the editor opens the first match at its line.
. "$(dirname "$0")/lib.sh"
FZF="$SAGASU_SRC/scripts/sagasu-fzf"
idx="$WORK/idx"
"$INDEXER" --vault "$VAULT" --index "$idx" --quiet
export SAGASU_SEARCH="$SEARCHER" SAGASU_FZF_OPTS="--index $idx"
unset SAGASU_FZF_CACHE VISUAL
editor="$WORK/fake-editor"
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s"\n' "$WORK/editor.args" >"$editor"
chmod +x "$editor"
export EDITOR="$editor"

# The list: sagasu-search --vimgrep with the matched words highlighted, each line numbered.
"$FZF" --reload ストラグラー >"$WORK/list"
expect "--reload QUERY is the highlighted vimgrep list, numbered" \
  cmp -s "$WORK/list" <("$SEARCHER" --index "$idx" --vimgrep --color=always ストラグラー | awk '{ print NR ":" $0 }')
expect "--reload: $(wc -l <"$WORK/list") lines, highlights in them" grep -q $'\e\\[1;31m' "$WORK/list"
expect "--reload '' lists nothing" test -z "$("$FZF" --reload '  ')"
check fzf-reload-malformed "$FZF" --reload 'GPU "本番'

# The preview: the note's matched lines, each once, the selected one marked.
first=$(head -1 "$WORK/list")
rest=${first#*:} file=${rest%%:*} rest=${rest#*:} line=${rest%%:*}
"$FZF" --preview 1 ストラグラー >"$WORK/preview"
sed 's/\x1b\[[0-9;]*m//g' "$WORK/preview" >"$WORK/preview.plain"
expect "--preview starts with the note's path" test "$(head -1 "$WORK/preview.plain")" = "$file"
expect "--preview marks the selected line $line" grep -q "^▶ *$line  " "$WORK/preview.plain"
n_lines=$(cut -d: -f2- "$WORK/list" | grep "^$file:" | cut -d: -f2 | sort -u | wc -l)
expect "--preview lists each of the note's $n_lines matched lines once" \
  test "$(grep -c '^[ ▶] *[0-9]' "$WORK/preview.plain")" = "$n_lines"
expect "--preview keeps the highlights" grep -q $'\e\\[1;31m' "$WORK/preview"

# Enter: the editor at that line.
"$FZF" --open 1 ストラグラー
expect "--open N QUERY: the editor gets +LINE ./FILE" test "$(cat "$WORK/editor.args")" = "+$line
./$file"

# Without fzf: a clear message, exit 2.
mkdir -p "$WORK/nofzf"
for t in bash sh env dirname basename readlink mktemp; do ln -sf "$(command -v "$t")" "$WORK/nofzf/$t"; done
check fzf-missing env PATH="$WORK/nofzf" "$FZF" GPU

# A stand-in fzf: runs the start:reload command with the query, then the
# preview and the enter:execute command on the first line, with {q} and {1}
# replaced as fzf does (single-quoted).
mkdir -p "$WORK/fakebin"
cat >"$WORK/fakebin/fzf" <<'FAKE'
#!/usr/bin/env bash
q='' preview='' start='' enter=''
while [ $# -gt 0 ]; do
  case $1 in
    --query) q=$2; shift ;;
    --preview) preview=$2; shift ;;
    --bind) case $2 in start:reload:*) start=${2#start:reload:} ;; enter:execute\(*) enter=${2#enter:execute(}; enter=${enter%)} ;; esac; shift ;;
  esac
  shift
done
quote() { printf "'%s'" "${1//\'/\'\\\'\'}"; }
sub() { local c=$1; c=${c//\{q\}/$(quote "$q")}; c=${c//\{1\}/$(quote "$f1")}; printf '%s' "$c"; }
f1=''
sh -c "$(sub "$start")" >"$FZF_LOG.list"
item=$(head -1 "$FZF_LOG.list" | sed 's/\x1b\[[0-9;]*m//g')
f1=${item%%:*}
sh -c "$(sub "$preview")" >"$FZF_LOG.preview"
sh -c "$(sub "$enter")"
FAKE
chmod +x "$WORK/fakebin/fzf"
(cd "$SAGASU_SRC/data" && FZF_LOG="$WORK/fzf" PATH="$WORK/fakebin:$PATH" "$FZF" --index "$idx" 'title:AEGIS')
expect "with fzf: the list of the query" grep -q '^1:vault/wiki/entities/AEGIS.md:' "$WORK/fzf.list"
expect "with fzf: the preview of the first line's note" grep -q 'vault/wiki/entities/AEGIS.md' "$WORK/fzf.preview"
aegis_line=$(head -1 "$WORK/fzf.list" | cut -d: -f3)
expect "with fzf: Enter opens the note at the line ($aegis_line)" \
  test "$(cat "$WORK/editor.args")" = "+$aegis_line
./vault/wiki/entities/AEGIS.md"

# Hostile file names: a vault from a stranger may name a note as an editor's
# option (vim runs "-c!cmd" and "+!cmd"), hold ':' or a newline. Through
# searcher --open and sagasu-fzf, every editor gets each as a file, never an
# option: fake editors record their arguments NUL-separated.
hostile="$WORK/hostile"
mkdir -p "$hostile/vault"
names=('-c!touch PWNED.md' '+!touch PWNED.md' '--cmd=touch PWNED.md' 'a:b:7.md' $'new\nline.md' '-.md')
for n in "${names[@]}"; do printf '# 悪意のある名前\n\n本文に zqhostile を書く。\n' >"$hostile/vault/$n"; done
"$INDEXER" --vault "$hostile/vault" --index "$hostile/idx" --quiet
printf '#!/bin/sh\nprintf "%%s\\0" "$@" >"%s"\n' "$hostile/args" >"$hostile/vi"
chmod +x "$hostile/vi"
mkdir -p "$hostile/bin" && cp "$hostile/vi" "$hostile/bin/code" && cp "$hostile/vi" "$hostile/bin/hx"
n_lines=$(cd "$hostile" && "$SEARCHER" --index "$hostile/idx" --vimgrep --null zqhostile | tr -cd '\0' | wc -c)
expect "hostile names: every note is listed ($n_lines)" test "$n_lines" = "${#names[@]}"
for editor in "$hostile/vi" "$hostile/bin/code --wait" "$hostile/bin/hx"; do
  for ((i = 1; i <= ${#names[@]}; i++)); do
    rm -f "$hostile/args"
    (cd "$hostile" && unset SAGASU_FZF_CACHE && SAGASU_FZF_OPTS="--index $hostile/idx" EDITOR="$editor" "$FZF" --open "$i" zqhostile)
    # The file is the last argument (FILE:LINE:COL for code and hx), ./-prefixed;
    # the others are only the editor's own: --wait, --goto, +LINE.
    ok=$(cd "$hostile" && python3 - "$hostile/args" <<'PY'
import os, sys
args = open(sys.argv[1], "rb").read().split(b"\0")[:-1]
f = args[-1]
if b"--goto" in args or len(args) == 1: f = f.rsplit(b":", 2)[0]
other = [a for a in args[:-1] if a not in (b"--wait", b"--goto") and not (a[:1] == b"+" and a[1:].isdigit())]
print("yes" if os.path.isfile(f) and f.startswith(b"./vault/") and not other else "no %r" % args)
PY
)
    expect "hostile names, ${editor##*/}, line $i of the list: opened as a file ($ok)" test "$ok" = yes
  done
done
expect "hostile names: no command ran" test ! -e "$hostile/PWNED" -a ! -e "$hostile/vault/PWNED"
for n in '-c!touch PWNED.md' '+!touch PWNED.md'; do
  rm -f "$hostile/args"
  (cd "$hostile/vault" && EDITOR="$hostile/vi" "$SEARCHER" --open="$n:3")
  expect "searcher --open='$n:3' gives the editor ./$n" test "$(tr '\0' '|' <"$hostile/args")" = "+3|./$n|"
done
finish
