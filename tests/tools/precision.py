#!/usr/bin/env python3
"""Precision and recall of the searcher's hit sets against judged regular expressions.

precision.py SEARCHER INDEX VAULT TSV [--min-precision P] [--min-recall R] [--min-each Q]

TSV (data/labels/precision/): query, regex, kind, note. A hit is right when the
regex (grep -P, case-insensitive) matches its text or its file name, or its text
holds the query as typed (grep -iF; a word of letters and digits between other
characters, a katakana word between other than katakana); recall is of grep
-rliP over VAULT. Prints one line per query and the totals; exits 1 when the
micro precision, micro recall or any query's precision is below its bound.
"""
import argparse, os, re, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument('searcher'), ap.add_argument('index'), ap.add_argument('vault'), ap.add_argument('tsv')
ap.add_argument('--min-precision', type=float, default=0.0)
ap.add_argument('--min-recall', type=float, default=0.0)
ap.add_argument('--min-each', type=float, default=0.0)
a = ap.parse_args()
UTF8 = dict(os.environ, LC_ALL='C.UTF-8')  # grep -P reads the text as UTF-8
KATAKANA = 'ァ-ヺー'
index, vault, searcher = os.path.realpath(a.index), os.path.realpath(a.vault), os.path.realpath(a.searcher)
hits_n = right_n = grep_n = found_n = typed_n = typed_found_n = 0
low = []
for line in open(a.tsv, encoding='utf-8').read().splitlines()[1:]:
    row = line.split('\t')
    if len(row) < 2 or not row[0]:
        continue
    query, regex = row[0], row[1]
    out = subprocess.run([searcher, '--index', index, '--paths', '--', *query.split()],
                         capture_output=True, text=True, cwd=vault).stdout
    hits = {os.path.realpath(os.path.join(vault, re.sub(r'\\(.)', r'\1', p))) for p in out.split('\n') if p}
    grep = subprocess.run(['grep', '-rliP', '--', regex, vault], capture_output=True, text=True, env=UTF8).stdout
    grepped = {os.path.realpath(p) for p in grep.split('\n') if p}
    # (The query as typed counts too: grep -F of it anywhere in the text; a
    # word of letters and digits that the vault has as a word, between other
    # characters: art is not in start, mutex is in pthread_mutex_lock; a
    # katakana word so between other than katakana: ロック is not in ブロック.)
    literal = ''
    if re.fullmatch(r'[A-Za-z0-9]+', query):
        literal = subprocess.run(['grep', '-rliP', '--', f'(^|[^A-Za-z0-9]){query}([^A-Za-z0-9]|$)', vault],
                                 capture_output=True, text=True, env=UTF8).stdout
    elif re.fullmatch(f'[{KATAKANA}]+', query):
        literal = subprocess.run(['grep', '-rliP', '--', f'(^|[^{KATAKANA}]){query}ー*([^{KATAKANA}]|$)', vault],
                                 capture_output=True, text=True, env=UTF8).stdout
    if not literal:
        literal = subprocess.run(['grep', '-rliF', '--', query, vault], capture_output=True, text=True).stdout
    typed = {os.path.realpath(p) for p in literal.split('\n') if p}
    pattern = re.compile(regex, re.I)
    right = {h for h in hits
             if h in grepped or h in typed or pattern.search(os.path.splitext(os.path.basename(h))[0])}
    precision = len(right) / len(hits) if hits else 1.0
    recall = len(grepped & hits) / len(grepped) if grepped else 1.0
    hits_n, right_n, grep_n, found_n = hits_n + len(hits), right_n + len(right), grep_n + len(grepped), \
        found_n + len(grepped & hits)
    typed_n, typed_found_n = typed_n + len(typed), typed_found_n + len(typed & hits)
    if precision < a.min_each:
        low.append(query)
    print(f'{query}: {len(hits)} hits, {len(right)} right, grep {len(grepped)}: '
          f'precision {precision:.2f}, recall {recall:.2f}, of the query as typed {len(typed & hits)}/{len(typed)}')
precision, recall = right_n / max(1, hits_n), found_n / max(1, grep_n)
print(f'total: precision {precision:.3f} (min {a.min_precision}), recall {recall:.3f} (min {a.min_recall}), '
      f'of the query as typed {typed_found_n / max(1, typed_n):.3f}'
      + (f'; below {a.min_each}: {", ".join(low)}' if low else ''))
sys.exit(1 if precision < a.min_precision or recall < a.min_recall or low else 0)
