#!/usr/bin/env python3
"""Bridge pairs: sample the ones the searcher trusts, or score judged ones.

bridge_pairs.py sample SEARCHER INDEX VAULT N [SEED [JUDGED.tsv ...]] > pairs.tsv
    words of the vault's notes (katakana runs, 2-4 kanji, English words, each in
    two places or more), in a seeded random order; each one's bridges that are
    not loose (--explain) and not in the judged files, at most two per word, N
    in all: word, equivalent, how.
bridge_pairs.py score SEARCHER INDEX VAULT JUDGED.tsv
    of the judged pairs (word, equivalent, how, verdict RIGHT/WRONG, reason), those
    the searcher still trusts and whose equivalent some note holds: how many are right.
"""
import collections, os, random, re, subprocess, sys


def bridges(searcher, index, word):
    """The word's bridges: equivalent -> (how, trusted)."""
    out = subprocess.run([searcher, '--index', index, '--explain', '-n', '0', '--', word],
                         capture_output=True, text=True).stdout
    found = {}
    m = re.search(r'bridge tier:\s+(.*)', out)
    for item in (m.group(1).split(' / ') if m else []):
        mm = re.match(r'(.*) \(([^)]*)\)$', item.strip())
        if mm:
            how = re.split(r'[,:]', mm.group(2))[0]
            found[mm.group(1)] = (how, re.match(r'[^:]*, loose', mm.group(2)) is None)
    return found


def sample(searcher, index, vault, n, seed=20261203, judged_files=()):
    judged = set()
    for path in judged_files:
        for line in open(path, encoding='utf-8').read().split('\n')[1:]:
            judged.add(tuple(line.split('\t')[:2]))
    random.seed(seed)
    count = collections.Counter()
    for root, _, files in os.walk(vault):
        for f in files:
            text = open(os.path.join(root, f), encoding='utf-8', errors='ignore').read()
            count.update(re.findall(r'[ァ-ヺー]{3,10}|[一-龥]{2,4}|\b[A-Za-z][a-z]{3,14}\b', text))
    words = sorted(w for w, c in count.items() if c >= 2)
    random.shuffle(words)
    pairs = []
    for w in words:
        if len(pairs) >= 3 * n:
            break
        pairs += [(w, e, how) for e, (how, trusted) in bridges(searcher, index, w).items()
                  if trusted and (w, e) not in judged]
    random.shuffle(pairs)
    per_word, picked = collections.Counter(), []
    for p in pairs:
        if per_word[p[0]] < 2 and len(picked) < n:
            per_word[p[0]] += 1
            picked.append(p)
    print('word\tequivalent\thow')
    for p in picked:
        print('\t'.join(p))


def score(searcher, index, vault, judged):
    trusted, right = collections.Counter(), collections.Counter()
    for line in open(judged, encoding='utf-8').read().split('\n')[1:]:
        row = line.split('\t')
        if len(row) < 4:
            continue
        word, equivalent, how, verdict = row[:4]
        if subprocess.run(['grep', '-rliFq', '--', equivalent, vault]).returncode != 0:
            continue  # it matches no note
        if bridges(searcher, index, word).get(equivalent, ('', False))[1]:
            trusted[how] += 1
            right[how] += verdict == 'RIGHT'
    t, r = sum(trusted.values()), sum(right.values())
    print(f'trusted and matching a note: {t}, right {r} ({r / max(1, t):.2f}); by how: '
          + ', '.join(f'{h} {right[h]}/{trusted[h]}' for h in sorted(trusted)))


if __name__ == '__main__':
    mode, searcher, index, vault, arg = sys.argv[1:6]
    if mode == 'sample':
        sample(searcher, index, vault, int(arg), *([int(sys.argv[6]), sys.argv[7:]] if len(sys.argv) > 6 else []))
    else:
        score(searcher, index, vault, arg)
