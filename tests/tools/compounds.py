#!/usr/bin/env python3
"""Katakana compounds: precision and recall of a katakana word's hit set.

compounds.py SEARCHER INDEX VAULT [TSV]

TSV (data/labels/compounds/ja-techdocs.tsv by default): query, word, holds (y/n),
set. A note is right for a query when it has the query between other than
katakana (a long vowel mark after it or not) or a longer word judged to hold
it. The hit sets are the searcher's `--paths --no-bridge` (the bridge tier's
English words are another matter), without a dictionary, and with `--loose`
beside them (every note holding the letters). Prints one line per query and
the totals per set.
"""
import collections, os, re, subprocess, sys

KATAKANA = 'ァ-ヺー'
ENV = dict(os.environ, LC_ALL='C.UTF-8', SAGASU_EDICT='', SAGASU_IPADIC='')


def notes_matching(regex, vault):
    out = subprocess.run(['grep', '-rlP', '--', regex, vault], capture_output=True, text=True, env=ENV).stdout
    return {os.path.realpath(p) for p in out.split('\n') if p}


def hits(searcher, index, vault, query, loose):
    out = subprocess.run([searcher, '--index', index, '--paths', '--no-bridge'] + (['--loose'] if loose else [])
                         + ['--', query], capture_output=True, text=True, cwd=vault, env=ENV).stdout
    return {os.path.realpath(os.path.join(vault, re.sub(r'\\(.)', r'\1', p))) for p in out.split('\n') if p}


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    searcher, index, vault = (os.path.realpath(a) for a in sys.argv[1:4])
    tsv = sys.argv[4] if len(sys.argv) > 4 else os.path.join(
        os.path.dirname(__file__), '..', '..', 'data', 'labels', 'compounds', 'ja-techdocs.tsv')
    judged = collections.defaultdict(lambda: collections.defaultdict(list))  # set -> query -> words held
    for line in open(tsv, encoding='utf-8').read().splitlines()[1:]:
        query, word, holds, part = line.split('\t')
        judged[part][query].extend([word] if holds == 'y' else [])
    for part, queries in judged.items():
        totals = collections.Counter()
        for query, held in queries.items():
            right = notes_matching(f'(^|[^{KATAKANA}]){query}ー*([^{KATAKANA}]|$)' + ''.join('|' + w for w in held),
                                   vault)
            line = [query]
            for mode in ('default', 'loose'):
                got = hits(searcher, index, vault, query, mode == 'loose')
                ok = len(got & right)
                totals[mode, 'hits'] += len(got)
                totals[mode, 'right'] += ok
                line.append(f'{mode} {len(got)} hits, precision {ok / max(1, len(got)):.2f}, '
                            f'recall {ok / max(1, len(right)):.2f}')
            totals['judged'] += len(right)
            print(f'{part}: ' + '; '.join(line))
        print(f'{part} total: ' + '; '.join(
            f"{mode} precision {totals[mode, 'right'] / max(1, totals[mode, 'hits']):.3f}, "
            f"recall {totals[mode, 'right'] / max(1, totals['judged']):.3f}" for mode in ('default', 'loose')))


if __name__ == '__main__':
    main()
