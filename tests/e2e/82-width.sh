#!/usr/bin/env bash
# Text output that fits the terminal: at 80 columns (--width 80, or a
# terminal's width) no line of any search over the sample vault is wider than
# 80 display columns, East Asian wide characters counting two (Python's
# unicodedata, not the searcher's own ICU measure); titles, paths and
# snippets are cut at a character boundary with …, a snippet's sources are
# venue and year, the year facet is a histogram. In a pipe without --width,
# nothing changes (the other suites' golden files are piped).
. "$(dirname "$0")/lib.sh"
idx="$WORK/idx"
"$INDEXER" --vault "$VAULT" --index "$idx" --quiet
S() { "$SEARCHER" --index "$idx" "$@"; }

# widest FILE: the widest line's display columns (ANSI colour codes take none).
widest() {
  python3 -c 'import re, sys, unicodedata
def cols(line):
    line = re.sub(r"\x1b\[[0-9;]*m", "", line)
    n = 0
    for ch in line:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf", "Cc"):
            continue
        n += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return n
print(max((cols(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")), default=0))' "$1"
}

queries=(SDC GPU ストラグラー 'kind:person' 'venue:OSDI year:2024..2026' '"本番クラスタ"' 'person:"Xin Liu"' checkpoint
  ｻｰﾊﾞｰ 'MegaScale OR veScale' stragler 文字列型 'path:wiki/sources' 'cites:2026__OSDI__*')
for width in 80 60 40; do
  for q in "${queries[@]}"; do
    for extra in "" "--snippets 3 --facet-limit 0" "--color=always --explain" "--color=always --sort year --limit 20"; do
      # shellcheck disable=SC2086  # the extra options are words
      S --width "$width" $extra "$q" >"$WORK/out" 2>/dev/null
      w=$(widest "$WORK/out")
      checks=$((checks + 1))
      if [ "$w" -gt "$width" ]; then
        echo "FAIL --width $width $extra '$q': a line of $w columns"
        awk -v w="$width" 'length($0) > w / 2' "$WORK/out" | head -3 | sed 's/^/     | /'
        failures=$((failures + 1))
      fi
    done
  done
done
echo "ok   every line of ${#queries[@]} queries × 4 option sets fits 80, 60 and 40 columns"

# What is cut, and how (venue and year for sources, the year histogram).
check width-80-sdc S --width 80 SDC
check width-80-gpu S --width 80 --limit 3 --snippets 2 GPU
check width-40-facets S --width 40 --limit 1 --snippets 0 GPU
expect "the year facet is one histogram line" grep -qx 'year:   2019 ▂▂▂▁▁▆▅█ 2026' "$GOLDEN/width-80-gpu.out"
expect "a snippet's sources are venue and year" grep -q '← OSDI 2026$' "$GOLDEN/width-80-sdc.out"

# In a pipe without --width, lines are as they are: long ones stay long.
S SDC >"$WORK/piped"
expect "piped output is not cut ($(widest "$WORK/piped") columns)" test "$(widest "$WORK/piped")" -gt 120
S --width 0 SDC >"$WORK/width0"
expect "--width 0 is the piped output" cmp -s "$WORK/piped" "$WORK/width0"

# On a terminal, the terminal's width (COLUMNS when set): script(1) gives it a TTY.
if command -v script >/dev/null; then
  COLUMNS=72 script -qec "'$SEARCHER' --index '$idx' --color=never GPU" /dev/null | tr -d '\r' >"$WORK/tty"
  expect "on a terminal of 72 columns (COLUMNS), no line is wider ($(widest "$WORK/tty"))" \
    test "$(widest "$WORK/tty")" -le 72
  expect "on a terminal, the years are a histogram" grep -q '^year:   2019 ' "$WORK/tty"
else
  echo "skip the terminal check: script(1) is not installed"
fi
finish
