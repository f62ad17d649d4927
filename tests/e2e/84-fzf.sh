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

# The list: sagasu-search --vimgrep with the matched words highlighted.
"$FZF" --reload ストラグラー >"$WORK/list"
expect "--reload QUERY is the highlighted vimgrep list" \
  cmp -s "$WORK/list" <("$SEARCHER" --index "$idx" --vimgrep --color=always ストラグラー)
expect "--reload: $(wc -l <"$WORK/list") lines, highlights in them" grep -q $'\e\\[1;31m' "$WORK/list"
expect "--reload '' lists nothing" test -z "$("$FZF" --reload '  ')"
check fzf-reload-malformed "$FZF" --reload 'GPU "本番'

# The preview: the note's matched lines, each once, the selected one marked.
first=$(head -1 "$WORK/list")
file=${first%%:*} rest=${first#*:} line=${rest%%:*}
"$FZF" --preview "$file" "$line" ストラグラー >"$WORK/preview"
sed 's/\x1b\[[0-9;]*m//g' "$WORK/preview" >"$WORK/preview.plain"
expect "--preview starts with the note's path" test "$(head -1 "$WORK/preview.plain")" = "$file"
expect "--preview marks the selected line $line" grep -q "^▶ *$line  " "$WORK/preview.plain"
n_lines=$(grep "^$file:" "$WORK/list" | cut -d: -f2 | sort -u | wc -l)
expect "--preview lists each of the note's $n_lines matched lines once" \
  test "$(grep -c '^[ ▶] *[0-9]' "$WORK/preview.plain")" = "$n_lines"
expect "--preview keeps the highlights" grep -q $'\e\\[1;31m' "$WORK/preview"

# Enter: the editor at that line.
"$FZF" --open "$file" "$line"
expect "--open FILE LINE: the editor gets +LINE FILE" test "$(cat "$WORK/editor.args")" = "+$line
$file"

# Without fzf: a clear message, exit 2.
mkdir -p "$WORK/nofzf"
for t in bash sh env dirname basename readlink mktemp; do ln -sf "$(command -v "$t")" "$WORK/nofzf/$t"; done
check fzf-missing env PATH="$WORK/nofzf" "$FZF" GPU

# A stand-in fzf: runs the start:reload command with the query, then the
# preview and the enter:execute command on the first line, with {q}, {1}
# and {2} replaced as fzf does (single-quoted).
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
sub() { local c=$1; c=${c//\{q\}/$(quote "$q")}; c=${c//\{1\}/$(quote "$f1")}; c=${c//\{2\}/$(quote "$f2")}; printf '%s' "$c"; }
f1='' f2=''
sh -c "$(sub "$start")" >"$FZF_LOG.list"
item=$(head -1 "$FZF_LOG.list" | sed 's/\x1b\[[0-9;]*m//g')
f1=${item%%:*} rest=${item#*:} f2=${rest%%:*}
sh -c "$(sub "$preview")" >"$FZF_LOG.preview"
sh -c "$(sub "$enter")"
FAKE
chmod +x "$WORK/fakebin/fzf"
(cd "$SAGASU_SRC/data" && FZF_LOG="$WORK/fzf" PATH="$WORK/fakebin:$PATH" "$FZF" --index "$idx" 'title:AEGIS')
expect "with fzf: the list of the query" grep -q '^vault/wiki/entities/AEGIS.md:' "$WORK/fzf.list"
expect "with fzf: the preview of the first line's note" grep -q 'vault/wiki/entities/AEGIS.md' "$WORK/fzf.preview"
aegis_line=$(head -1 "$WORK/fzf.list" | cut -d: -f2)
expect "with fzf: Enter opens the note at the line ($aegis_line)" \
  test "$(cat "$WORK/editor.args")" = "+$aegis_line
vault/wiki/entities/AEGIS.md"
finish
