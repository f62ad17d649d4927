#!/usr/bin/env bash
# Pathological notes and queries (issue 18): each is answered or refused with
# a clear message, never a crash, and in bounded time. The bounds in `timeout`
# are ten to twenty times what the machine needs (the README states the measured
# figures); they catch work that grows with the square of the input, as
# --vimgrep's once did (260 s for a 50 MB line), not a slow machine.
. "$(dirname "$0")/lib.sh"

v=$WORK/vault
mkdir -p "$v"
python3 - "$v" <<'PY'
import sys
v = sys.argv[1]
sentence = '長い一行のテキストでサーバーを探す。'
# A one-line note just under the default size limit (8 MiB), a match in every
# 15 bytes (530,000 matches), one where the matches run together (one match
# of megabytes), and one note over the limit.
line = '長い一行。' + 'サーバーと' * (8_000_000 // len('サーバーと'.encode()))
open(f'{v}/one-match.md', 'w').write('# 一致の連続\n' + 'サーバー ' * 300_000 + '\n')
open(f'{v}/huge-line.md', 'w').write('# 巨大な一行\n' + line + '\n')
open(f'{v}/too-big.md', 'w').write(sentence * (9_000_000 // len(sentence.encode())))
open(f'{v}/brackets.md', 'w').write('# 括弧\n' + '[[' * 100_000 + '\n括弧の後\n')
open(f'{v}/nested.md', 'w').write('# 入れ子\n' + '- ' * 10_000 + '深い項目\n' +
                                  ''.join(' ' * (i % 200) + '- 段の項目\n' for i in range(10_000)))
# A YAML alias bomb: 9^10 names if the aliases were expanded.
bomb = 'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
for i in range(1, 10):
    name, prev = chr(ord('a') + i), chr(ord('a') + i - 1)
    bomb += f'{name}: &{name} [' + ','.join([f'*{prev}'] * 9) + ']\n'
open(f'{v}/bomb.md', 'w').write('---\n' + bomb + 'aliases: *j\n---\n# 爆弾\n爆弾の本文\n')
open(f'{v}/big-front.md', 'w').write('---\n' + ''.join(f'key{i}: 値{i}\n' for i in range(60_000)) +
                                     'title: 大きな前付け\n---\n前付けの後の本文\n')
open(f'{v}/normal.md', 'w').write('# 普通\nサーバーの話。\n')
PY

check patho-index timeout 120 "$INDEXER" --vault "$v" --index "$WORK/idx"
for q in 括弧の後 深い項目 段の項目 爆弾の本文 前付けの後の本文 普通; do
  check "patho-search-$q" sh -c "cd '$WORK' && timeout 60 '$SEARCHER' --index idx --paths '$q'"
done
# Every match of the 8 MB line, each with the text around it (not the whole line per match).
expected=$(grep -o 'サーバー' "$v/huge-line.md" | wc -l)
got=$(timeout 60 "$SEARCHER" --index "$WORK/idx" --vimgrep サーバー | grep -c '^.*huge-line.md:2:')
expect "vimgrep: all $expected matches of the long line, in bounded time (got $got)" [ "$got" = "$expected" ]
expect "vimgrep: no output line of the long line is longer than 1 KB" \
  bash -o pipefail -c "timeout 60 '$SEARCHER' --index '$WORK/idx' --vimgrep サーバー | awk 'length(\$0) > 1024 { bad = 1 } END { exit bad }'"
check patho-snippet timeout 60 "$SEARCHER" --index "$WORK/idx" --limit 1 '"長い一行"'
# Queries: 100,000 characters (ASCII: Linux passes at most 128 KB in one argument), 10,000 ORs.
long=$(python3 -c "print('a' * 100000)")
check patho-query-long timeout 20 "$SEARCHER" --index "$WORK/idx" "$long"
ors=$(python3 -c "print(' OR '.join(f'w{i}' for i in range(10000)))")
check patho-query-ors timeout 20 "$SEARCHER" --index "$WORK/idx" "$ors"
# An offset or a limit beyond 32 bits means "past the end" and "all", never a wrap to a small number.
check patho-offset-huge sh -c "cd '$WORK' && '$SEARCHER' --index idx --snippets 0 --offset 4294967296 本文"
check patho-limit-huge sh -c "cd '$WORK' && '$SEARCHER' --index idx --paths --limit 4294967297 本文"
finish
