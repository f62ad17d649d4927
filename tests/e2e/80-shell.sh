#!/usr/bin/env bash
# The searcher as a shell tool: every query operator, every output mode,
# every query error with its column, exit codes, pipes and defaults.
. "$(dirname "$0")/lib.sh"
idx="$WORK/idx"
"$INDEXER" --vault "$VAULT" --index "$idx" --quiet
S() { "$SEARCHER" --index "$idx" "$@"; }
B() { S --snippets 0 --facets none "$@"; }
F() { S --snippets 0 "$@"; }  # with facets chosen by the caller

# Operators.
check op-and B --limit 3 'SDC AND 検知'
check op-implicit-and B --limit 3 'SDC 検知'
check op-or F --limit 0 --facets kind 'AEGIS OR SDCHunter'
check op-not F --limit 0 --facets kind 'GPU NOT SDC'
check op-dash F --limit 0 --facets kind 'GPU -SDC'
check op-parens B --limit 5 '(ストラグラー OR checkpoint) venue:OSDI'
check op-field-or F --limit 0 --facets venue '(venue:NSDI OR venue:EuroSys) GPU'
check op-phrase B --limit 3 '"what-if analysis"'
check op-title B 'title:MegaScale'
check op-path B 'path:questions'
check op-tag B --limit 3 'tag:sdc'
check op-year-open-start F --limit 0 --facets year 'FSDP year:..2023'
check op-year-open-end F --limit 0 --facets year 'FSDP year:2025..'
check op-quoted-value F --limit 0 --facets person 'person:"Xin Liu"'
check op-not-only F --limit 0 --facets kind 'NOT GPU'

# Errors: one line naming the problem and its column, exit 2.
check err-quote B 'GPU "本番 クラスタ'
check err-open-paren B '(GPU OR SDC'
check err-close-paren B 'GPU SDC)'
check err-dangling-or B 'GPU OR'
check err-dangling-not B 'GPU NOT'
check err-empty-parens B '() GPU'
check err-field-value B 'venue: GPU'
check err-year B 'year:2024..20x6'
check err-year-range B 'year:2026..2024'
check err-sort S --sort size GPU
check err-modes S --json --paths GPU
check err-filter-option S --filter 'GPU OR SDC' GPU
check err-deep-nesting B "$(printf '(%.0s' $(seq 300))GPU$(printf ')%.0s' $(seq 300))"
check err-invalid-utf8 B "$(printf 'GPU \xe3\x83')"
check filter-negated F --limit 0 --facets venue --filter 'NOT venue:OSDI' SDC
check err-no-query S
check err-unknown-option S --frobnicate GPU

# Output modes.
check out-paths S --paths 'kind:person'
check out-paths-null sh -c "'$SEARCHER' --index '$idx' --paths --null 'kind:person' | tr '\\0' '|'"
check out-jsonl S --jsonl --limit 2 --snippets 1 --facets venue 'title:MegaScale'
check out-vimgrep sh -c "cd '$VAULT' && '$SEARCHER' --index '$idx' --vimgrep 'title:AEGIS'"
check out-sort-year B --limit 5 --sort year GPU
check out-sort-title B --limit 5 --sort title 'kind:person'
check out-limit-offset B --limit 2 --offset 3 GPU
check out-snippets-3 S --snippets 3 --facets none --limit 1 SDC
check out-color-always S --color=always --limit 1 --facets none ストラグラー
check out-no-color-env env NO_COLOR=1 "$SEARCHER" --index "$idx" --color=auto --limit 1 --facets none ストラグラー

# Exit codes and pipes.
S --paths SDC | head -1 >/dev/null
expect "--paths | head exits 0" test "${PIPESTATUS[0]}" = 0
S --vimgrep SDC | head -1 >/dev/null
expect "--vimgrep | head exits 0" test "${PIPESTATUS[0]}" = 0
B 存在しない語彙zzqx >/dev/null 2>&1
expect "no hits exits 1" test $? = 1
B 'GPU OR' >/dev/null 2>&1
expect "malformed query exits 2" test $? = 2
n=$(cd "$SAGASU_SRC/data" && "$SEARCHER" --index "$idx" --paths 'org:ByteDance' | xargs wc -l | grep -c ' vault/')
expect "--paths | xargs wc -l reads every hit ($n)" test "$n" -ge 20

# --open: the Nth hit in $VISUAL or $EDITOR at its first matching line. A
# fake editor records the arguments it was given, one per line.
editor="$WORK/fake-editor"
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s"\n' "$WORK/editor.args" >"$editor"
chmod +x "$editor"
second=$(S --paths --limit 2 ストラグラー | sed -n 2p)
first_line=$(S --vimgrep ストラグラー | grep -F "$(printf '%s' "$second" | sed 's/\\//g'):" | head -1 | cut -d: -f2)
env -u VISUAL EDITOR="$editor" "$SEARCHER" --index "$idx" --open 2 ストラグラー
expect "--open 2 runs \$EDITOR (exit $?)" test -f "$WORK/editor.args"
expect "--open 2: +LINE then the second hit's file, at its first matching line ($first_line)" \
  test "$(cat "$WORK/editor.args")" = "+$first_line
$SAGASU_SRC/$(printf '%s' "$second" | sed 's/\\//g')"
rm -f "$WORK/editor.args"
VISUAL="$editor" EDITOR=false "$SEARCHER" --index "$idx" --open 1 'title:AEGIS'
expect "\$VISUAL comes before \$EDITOR" test "$(sed -n 2p "$WORK/editor.args")" = "$VAULT/wiki/entities/AEGIS.md"
mkdir -p "$WORK/bin" && cp "$editor" "$WORK/bin/code"
env -u VISUAL EDITOR="$WORK/bin/code --wait" "$SEARCHER" --index "$idx" --open 1 'title:AEGIS'
expect "VS Code gets --goto FILE:LINE:COL after its own options" \
  grep -qx -- "--goto" "$WORK/editor.args"
expect "VS Code: the file with line and column" grep -q "^$VAULT/wiki/entities/AEGIS.md:[0-9]*:[0-9]*\$" "$WORK/editor.args"
(cd "$SAGASU_SRC/data" && env -u VISUAL EDITOR="$editor" "$SEARCHER" --open 'vault/Xin Liu.md:7')
expect "--open FILE:LINE opens that file (as ./FILE) at that line, no index needed" \
  test "$(cat "$WORK/editor.args")" = "+7
./vault/Xin Liu.md"
check open-no-editor env -u VISUAL -u EDITOR "$SEARCHER" --index "$idx" --open 1 GPU
check open-past-the-hits env -u VISUAL EDITOR="$editor" "$SEARCHER" --index "$idx" --open 99 'title:AEGIS'
check open-no-hits env -u VISUAL EDITOR="$editor" "$SEARCHER" --index "$idx" --open 1 存在しない語彙zzqx
check open-with-json env -u VISUAL EDITOR="$editor" "$SEARCHER" --index "$idx" --json --open 1 GPU
check open-bad-arg "$SEARCHER" --index "$idx" --open 'x.md' GPU
check open-editor-fails env -u VISUAL EDITOR=false "$SEARCHER" --index "$idx" --open 1 GPU

# --vimgrep with colour (sagasu-fzf's list and preview): the matched words highlighted, the path plain.
expect "--vimgrep --color=always highlights the matched words" \
  test "$(S --vimgrep --color=always 'title:AEGIS' | head -1 | cut -d: -f1 | od -c | grep -c 033)" = 0 -a \
  "$(S --vimgrep --color=always 'title:AEGIS' | grep -c $'\e\\[1;31mAEGIS\e\\[0m')" -gt 0

# Defaults: SAGASU_INDEX, then the XDG data folder; no index says how to make one.
SAGASU_INDEX="$idx" "$SEARCHER" --limit 0 --facets none GPU >/dev/null
expect "SAGASU_INDEX is the default index" test $? = 0
mkdir -p "$WORK/xdg/sagasu" && cp -r "$idx" "$WORK/xdg/sagasu/index"
env -u SAGASU_INDEX XDG_DATA_HOME="$WORK/xdg" "$SEARCHER" --limit 0 --facets none GPU >/dev/null
expect "XDG_DATA_HOME/sagasu/index is the next default" test $? = 0
check no-index env -u SAGASU_INDEX XDG_DATA_HOME="$WORK/empty" "$SEARCHER" GPU

# An option value that starts with a dash is the value typed (it once kept the mark
# that tells "-word" exclusions from options: "--filter \x01-kind:person: expected field:value").
check filter-dash-value "$SEARCHER" --index "$idx" --limit 0 --facets kind -f -kind:person GPU

# --vimgrep on a long one-line note: each match with the text around it (a
# 1 MB line with 11,522 matches once needed gigabytes: the line per match).
long="$WORK/long"
mkdir -p "$long"
python3 -c 'print("# Long\n" + "".join("filler text %05d needle here. " % i for i in range(3000)))' >"$long/long.md"
"$INDEXER" --vault "$long" --index "$WORK/long-idx" --quiet
"$SEARCHER" --index "$WORK/long-idx" --vimgrep needle >"$WORK/long.out"
expect "--vimgrep: a line per match on a long line ($(wc -l <"$WORK/long.out"))" test "$(wc -l <"$WORK/long.out")" = 3000
expect "--vimgrep: each at most about 400 bytes of the line" \
  test "$(awk '{ if (length($0) > n) n = length($0) } END { print n }' "$WORK/long.out")" -lt 700
expect "--vimgrep: the column is the match's in the file" \
  bash -c 'line=$(sed -n 2p "$1"); col=$(sed -n 3000p "$2" | cut -d: -f3); test "${line:$((col - 1)):6}" = needle' _ "$long/long.md" "$WORK/long.out"

# A word a filled line wraps (text copied from a PDF, a man page) is the word:
# found, its sentence the snippet, unwrapped, and a --vimgrep line where it starts.
wrap="$WORK/wrap"
mkdir -p "$wrap"
printf '# 読み込み\n\nこのコマンドは指定したディレクトリにある設定ファ\nイルを読む。\n' >"$wrap/wrapped.md"
"$INDEXER" --vault "$wrap" --index "$WORK/wrap-idx" --quiet
expect "a wrapped word is found" test "$(cd "$wrap" && "$SEARCHER" --index "$WORK/wrap-idx" --paths ファイル)" = wrapped.md
expect "a wrapped word's snippet is its sentence, unwrapped" \
  test "$("$SEARCHER" --index "$WORK/wrap-idx" --color=never ファイル | grep -c '設定\*\*ファイル\*\*を読む。')" = 1
expect "--vimgrep: a wrapped word on the line it starts on" \
  test "$("$SEARCHER" --index "$WORK/wrap-idx" --vimgrep ファイル | cut -d: -f2,3)" = 3:67
finish
