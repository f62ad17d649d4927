#!/usr/bin/env python3
"""Helpers of scripts/bench: the parts that are easier in Python than in bash.

  files    VAULT EXT            count, bytes and first path of the files the indexer takes
  groonga  ...                  Groonga load+index and in-process query latency
  oneshot  -- CMD...            median wall time of a whole process
  rank     ...                  Sagasu's ranking of the judged queries (data/labels/ranking)
  report   ...                  the Markdown tables from the per-vault results

Every result is written as JSON or TSV under the work folder, so the report
can be rebuilt without measuring again.
"""
import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

MAX_FILE_BYTES = 8388608  # the indexer's default --max-file-size
# MeCab refuses a "sentence" longer than its buffer (a 2 MB manual with no
# 。 fails with "too long sentence"); chunked_tokenize splits long text first.
TOKENIZER_SPEC = {"TokenBigram": "TokenBigram", "TokenMecab": "'TokenMecab(\"chunked_tokenize\", true)'"}


# --- the vault as the indexer sees it ------------------------------------------
def wanted(name, exts):
    return any(e == "*" or (name.endswith("." + e) and len(name) > len(e) + 1) for e in exts)


def vault_files(vault, ext):
    """(relative path, absolute path) of every file the indexer would index, sorted.

    The same rules as the indexer's walk (vault_walk.cc): hidden names skipped,
    symbolic links to folders not followed (links to files only to a file inside
    the vault), only the wanted endings,
    nothing over the size limit, nothing that is not UTF-8. Groonga gets exactly
    these files, so both engines index the same text.
    """
    exts = ext.split(",")
    root = Path(vault).resolve()
    out = []
    stack = [root]
    while stack:
        d = stack.pop()
        for entry in os.scandir(d):
            if entry.name.startswith("."):
                continue
            if entry.is_dir(follow_symlinks=True):
                if not entry.is_symlink():
                    stack.append(Path(entry.path))
                continue
            if not wanted(entry.name, exts) or not entry.is_file(follow_symlinks=True):
                continue
            if entry.is_symlink() and not Path(entry.path).resolve().is_relative_to(root):
                continue
            if os.stat(entry.path).st_size > MAX_FILE_BYTES:
                continue
            out.append((os.path.relpath(entry.path, root), entry.path))
    out.sort(key=lambda x: x[1].encode("utf-8", "surrogateescape"))
    return out


def read_utf8(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8")
    except (UnicodeDecodeError, OSError):
        return None


def cmd_files(a):
    files = vault_files(a.vault, a.ext)
    total = sum(os.stat(p).st_size for _, p in files)
    print(f"{len(files)}\t{total}\t{files[0][0] if files else ''}")


# --- percentiles ------------------------------------------------------------------
def percentile(values, p):
    """Nearest rank, as in bench_queries.cc: always a real sample."""
    if not values:
        return math.nan
    v = sorted(values)
    return v[min(len(v), max(1, math.ceil(p / 100 * len(v)))) - 1]


def read_queries(path):
    """The query mix, numbered like bench_queries.cc numbers it."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if line and not line.startswith("#"):
                out.append(line)
    return out


FIELD = re.compile(r'^(-?)([a-z]+):("[^"]*"|\S+)$')
FACETS = ("venue", "year", "person", "org", "kind")  # the facet columns, as the searcher names them
YEAR_RANGE = re.compile(r"^(\d{4})(?:\.\.(\d{4}))?$")


def groonga_query(q):
    """The mix query as Groonga's (query, filter) pair; None where it has no part.

    Words, "phrases" and -exclusions mean the same in both syntaxes; a facet
    filter becomes a script filter on the facet columns (venue @ "OSDI",
    year >= 2020 && year <= 2026). Other fields are dropped.
    """
    tokens = re.findall(r'-?"[^"]*"|\S+', q)
    words, filters = [], []
    for t in tokens:
        m = FIELD.match(t)
        if not m:
            words.append(t)
            continue
        neg, field, value = m.group(1), m.group(2), m.group(3).strip('"')
        if field not in FACETS:
            continue
        y = YEAR_RANGE.match(value) if field == "year" else None
        if field == "year" and not y:
            continue
        cond = (f"(year >= {y.group(1)} && year <= {y.group(2) or y.group(1)})" if y
                else f"{field} @ {json.dumps(value, ensure_ascii=False)}")
        filters.append(("!" if neg else "") + cond)
    return (" ".join(words) or None, " && ".join(filters) or None)


def groonga_runs(q):
    """Can Groonga run the mix query (anything left after translation)?"""
    words, filters = groonga_query(q)
    return words is not None or filters is not None


def read_samples(raw_tsv):
    """query_no → list of ms, from bench_queries --raw."""
    by_q = {}
    with open(raw_tsv, encoding="utf-8") as f:
        next(f)
        for line in f:
            q, _run, ms, _total = line.rstrip("\n").split("\t")
            by_q.setdefault(int(q), []).append(float(ms))
    return by_q


# --- ranking of judged queries ----------------------------------------------------------
def read_judged(path):
    """(id, category, query, {path: grade}) of each judged query (data/labels/ranking: id,
    category, query, filter, "grade:path | …"). Queries with a filter are left out: Groonga's
    table has no kind column."""
    out = []
    with open(path, encoding="utf-8") as f:
        next(f)
        for line in f:
            qid, category, query, filt, relevant = line.rstrip("\n").split("\t")
            if filt:
                continue
            grades = {}
            for entry in relevant.split(" | "):
                g, rel = entry.split(":", 1)
                grades[rel] = int(g)
            out.append((qid, category, query, grades))
    return out


def judged_scores(judged, ranked):
    """Recall@10, nDCG@10 and MRR per category and "overall", as tests/eval/eval.cc scores
    them; ranked: query id → the paths an engine ranked first."""
    per = {}
    for qid, category, _, grades in judged:
        top = ranked.get(qid, [])[:10]
        found = [i for i, p in enumerate(top) if p in grades]
        dcg = sum((2 ** grades[top[i]] - 1) / math.log2(i + 2) for i in found)
        ideal = sorted(grades.values(), reverse=True)[:10]
        idcg = sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
        row = (len(found) / min(10, len(grades)), dcg / idcg if idcg else 1, 1 / (found[0] + 1) if found else 0)
        for key in (category, "overall"):
            per.setdefault(key, []).append(row)
    return {k: {"n": len(v), "recall": statistics.mean(r[0] for r in v), "ndcg": statistics.mean(r[1] for r in v),
                "mrr": statistics.mean(r[2] for r in v)} for k, v in per.items()}


def cmd_rank(a):
    """The searcher's ranked list (hits, then what it lists beyond them) of each judged query."""
    judged = read_judged(a.judged)
    ranked = {}
    for qid, _, query, _ in judged:
        out = subprocess.run([a.searcher, "--index", a.index, "--json", "--limit", "10", "--", query],
                             capture_output=True, text=True)
        d = json.loads(out.stdout) if out.stdout.strip() else {}
        ranked[qid] = [h["path"] for h in d.get("hits", []) + d.get("beyond", [])]
    Path(a.out).write_text(json.dumps(judged_scores(judged, ranked), indent=1), encoding="utf-8")


def groonga_ranking(db, work, tokenizer, judged):
    """Groonga's top 10 of each judged query: every word a quoted phrase, all required (as
    the searcher takes them), ties by path."""
    qfile = work / f"judged-{tokenizer}.grn"
    with open(qfile, "w", encoding="utf-8") as f:
        for _, _, query, _ in judged:
            words = " ".join('"' + w.replace("\\", "\\\\").replace('"', '\\"') + '"' for w in query.split())
            f.write("select Docs --match_columns body --query " + groonga_quote(words) +
                    " --output_columns _key --limit 10 --sort_keys -_score,_key\n")
    qout = work / f"judged-{tokenizer}.out"
    subprocess.run(["groonga", str(db)], stdin=open(qfile, "rb"), stdout=open(qout, "wb"), check=True)
    ranked = {}
    for (qid, _, _, _), r in zip(judged, responses(qout.read_text(encoding="utf-8"))):
        ranked[qid] = [row[0] for row in r[1][0][2:]] if r[0][0] == 0 else []
    return judged_scores(judged, ranked)


# --- Groonga ------------------------------------------------------------------------
def groonga_quote(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


# What each mode adds, as the searcher's three measurements: the ranked top
# 10; plus exact counts of every facet (Groonga: drilldown on the five facet
# columns, top 10 values of each); plus a highlighted snippet per hit.
MODES = ("top10", "facets", "snippets")


def select_command(q, mode):
    words, filters = groonga_query(q)
    cmd = "select Docs"
    if words:
        cmd += " --match_columns body --query " + groonga_quote(words)
    if filters:
        cmd += " --filter " + groonga_quote(filters)
    cmd += " --output_columns " + ("'_key,_score,snippet_html(body)'" if mode == "snippets" else "'_key,_score'")
    cmd += " --limit 10 --sort_keys -_score"
    if mode in ("facets", "snippets"):
        cmd += (" --drilldown " + ",".join(FACETS) + " --drilldown_sort_keys -_nsubrecs --drilldown_limit 10"
                " --drilldown_output_columns _key,_nsubrecs")
    return cmd


def responses(text):
    """Groonga prints one JSON value per command; decode them in order."""
    dec = json.JSONDecoder()
    i, out = 0, []
    while True:
        while i < len(text) and text[i] in " \r\n\t":
            i += 1
        if i >= len(text):
            return out
        value, i = dec.raw_decode(text, i)
        out.append(value)


def timed_run(cmd, stdin_path, stdout_path):
    """Runs cmd under /usr/bin/time; returns (wall s, CPU s, peak RSS KB)."""
    tfile = str(stdout_path) + ".time"
    with open(stdin_path, "rb") as fin, open(stdout_path, "wb") as fout:
        t0 = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", tfile] + cmd, stdin=fin, stdout=fout, check=True)
        wall = time.perf_counter() - t0
    with open(tfile) as f:
        rss, user, system = f.read().splitlines()[-1].split()
    return wall, float(user) + float(system), int(rss)


def du_bytes(path):
    out = subprocess.run(["du", "-s", "--block-size=1", str(path)], capture_output=True, text=True, check=True)
    return int(out.stdout.split()[0])


def read_facets(path):
    """vault path → {facet: [values]}, from sagasu-bench-queries --export-facets."""
    out = {}
    if path:
        with open(path, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                out[row.pop("_key")] = row
    return out


def write_load_file(files, path, facets):
    """One `load` of every file: _key = vault-relative path, body = the raw text,
    and the note's values of each facet (vector columns of one lexicon table each)."""
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        for name in FACETS:
            f.write(f"table_create Facet_{name} TABLE_HASH_KEY ShortText\n")
        f.write("table_create Docs TABLE_HASH_KEY ShortText\n")
        f.write("column_create Docs body COLUMN_SCALAR LongText\n")
        for name in FACETS:
            f.write(f"column_create Docs {name} COLUMN_VECTOR Facet_{name}\n")
        f.write("load --table Docs\n[\n")
        first = True
        for rel, p in files:
            text = read_utf8(p)
            if text is None:
                continue  # the indexer skips it too
            row = {"_key": rel, "body": text}
            row.update({name: facets.get(rel, {}).get(name, []) for name in FACETS})
            f.write(("" if first else ",\n") + json.dumps(row, ensure_ascii=False))
            first = False
            n += 1
        f.write("\n]\n")
    return n


def run_mix(db, work, tokenizer, mix, mode, a):
    """The mix in the order bench_queries runs it, warm-up first, the query
    cache off so every repetition really searches; per-query latency from each
    response header."""
    qfile = work / f"queries-{tokenizer}-{mode}.grn"
    with open(qfile, "w", encoding="utf-8") as f:
        f.write("cache_limit --max 0\n")
        for _ in range(a.warmup + a.runs):
            for _, q in mix:
                f.write(select_command(q, mode) + "\n")
    qout = work / f"queries-{tokenizer}-{mode}.out"
    _, _, rss = timed_run(["groonga", str(db)], qfile, qout)
    res = responses(qout.read_text(encoding="utf-8"))[1:]
    samples, hits, errors = {i: [] for i, _ in mix}, {}, {}
    for k, r in enumerate(res):
        i = mix[k % len(mix)][0]
        if r[0][0] != 0:
            errors[i] = r[0][3] if len(r[0]) > 3 else str(r[0][0])
            hits[i] = "error"
        else:
            hits[i] = r[1][0][0][0]
        if k >= a.warmup * len(mix):
            samples[i].append(r[0][2] * 1000)
    qfile.unlink()
    qout.unlink()
    flat = [ms for v in samples.values() for ms in v]
    return {"queries": {str(i): {"groonga_query": groonga_query(q), "hits": hits.get(i),
                                 "p50_ms": percentile(samples[i], 50), "error": errors.get(i)} for i, q in mix},
            "p50_ms": percentile(flat, 50), "p95_ms": percentile(flat, 95), "p99_ms": percentile(flat, 99),
            "query_rss_kb": rss}


def cmd_groonga(a):
    out_dir = Path(a.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    files = vault_files(a.vault, a.ext)
    facets = read_facets(a.facets)
    result = {"tokenizer": a.tokenizer, "normalizer": "NormalizerNFKC100", "facet_notes": len(facets)}

    # The load file is built once per vault and shared by both tokenizers; its
    # writing is not timed (it stands for the indexer's own file reading).
    load = work / "load.grn"
    stamp = work / "load.stamp"
    key = (f"{len(files)} {sum(os.stat(p).st_size for _, p in files)} {files[0][0] if files else ''} "
           f"{len(facets)} {a.facets and os.stat(a.facets).st_mtime_ns}")
    if not load.exists() or not stamp.exists() or stamp.read_text() != key:
        write_load_file(files, load, facets)
        stamp.write_text(key)
    # Load first, then create the lexicon and the index columns: Groonga then
    # builds the indexes statically from the loaded columns, its fast bulk path.
    build = work / f"build-{a.tokenizer}.grn"
    shutil.copyfile(load, build)
    with open(build, "a", encoding="utf-8") as f:
        f.write(f"table_create Terms TABLE_PAT_KEY ShortText --default_tokenizer {TOKENIZER_SPEC[a.tokenizer]} "
                "--normalizer NormalizerNFKC100\n")
        f.write("column_create Terms body_index COLUMN_INDEX|WITH_POSITION Docs body\n")
        for name in FACETS:  # the facet filters (venue @ "OSDI") look values up here
            f.write(f"column_create Facet_{name} docs COLUMN_INDEX Docs {name}\n")
    db_dir = work / f"db-{a.tokenizer}"
    shutil.rmtree(db_dir, ignore_errors=True)
    db_dir.mkdir()
    db = db_dir / "db"
    subprocess.run(["groonga", "-n", str(db), "status"], stdout=subprocess.DEVNULL, check=True)
    build_out = work / f"build-{a.tokenizer}.out"
    wall, cpu, rss = timed_run(["groonga", str(db)], build, build_out)
    res = responses(build_out.read_text(encoding="utf-8"))
    for r in res:
        if r[0][0] != 0:
            sys.exit(f"bench.py groonga: command failed: {json.dumps(r, ensure_ascii=False)[:500]}")
    at_load = 2 * len(FACETS) + 2  # the tables and columns come first
    result.update(build_s=wall, build_cpu_s=cpu, build_rss_kb=rss, load_s=res[at_load][0][2],
                  index_s=sum(r[0][2] for r in res[at_load + 1:]), loaded=res[at_load][1],
                  db_bytes=du_bytes(db_dir))
    build.unlink()

    queries = read_queries(a.queries)
    mix = [(i, q) for i, q in enumerate(queries) if groonga_runs(q)]
    result["modes"] = {mode: run_mix(db, work, a.tokenizer, mix, mode, a) for mode in MODES}
    if a.judged:
        result["ranking"] = groonga_ranking(db, work, a.tokenizer, read_judged(a.judged))
    # The whole search (top 10, drilldown, snippets) is the row the tables compare.
    full = result["modes"]["snippets"]
    result.update(queries=full["queries"], p50_ms=full["p50_ms"], p95_ms=full["p95_ms"], p99_ms=full["p99_ms"],
                  query_rss_kb=full["query_rss_kb"])

    # One process per query, as a shell user would run it.
    # groonga joins its arguments into one command line and parses that, so
    # the quoting of select_command() carries over.
    oneshot_cmd = ["groonga", str(db), select_command(a.oneshot_query, "snippets")]
    result["oneshot_ms"] = oneshot_median(oneshot_cmd, a.oneshot_runs)
    (out_dir / f"groonga-{a.tokenizer}.json").write_text(json.dumps(result, ensure_ascii=False, indent=1))
    if not a.keep_db:
        shutil.rmtree(db_dir, ignore_errors=True)


# --- one-shot wall time -------------------------------------------------------------
def oneshot_median(cmd, runs, warmup=3):
    """Median wall ms of a whole process (start to exit), output discarded.

    hyperfine when it is installed (it corrects for its own spawn cost), else a
    plain loop: the spawn from Python costs well under a millisecond.
    """
    if shutil.which("hyperfine"):
        import shlex
        out = Path(os.environ.get("TMPDIR", "/tmp")) / f"hyperfine-{os.getpid()}.json"
        subprocess.run(["hyperfine", "-N", "-i", "--style", "none", "--warmup", str(warmup), "--runs", str(runs),
                        "--export-json", str(out), shlex.join(cmd)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        data = json.loads(out.read_text())
        out.unlink()
        return data["results"][0]["median"] * 1000
    times = []
    for k in range(warmup + runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if k >= warmup:
            times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def cmd_oneshot(a):
    print(f"{oneshot_median(a.cmd, a.runs):.3f}")


# --- the report ------------------------------------------------------------------------
def read_metrics(path):
    m = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("\t")
            m[k] = v
    return m


def fnum(x, digits=2):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.{digits}f}"


def ratio(ours, theirs):
    if ours is None or theirs in (None, 0) or (isinstance(theirs, float) and math.isnan(theirs)):
        return ""
    return f" (×{ours / theirs:.2f})"


def overhead(ours, base):
    """' (+X ms, ×R)': what ours adds to base."""
    if ours is None or base in (None, 0) or math.isnan(ours) or math.isnan(base):
        return ""
    d = ours - base
    return f" ({'+' if d >= 0 else '−'}{fnum(abs(d))} ms, ×{ours / base:.2f})"


def read_totals(path):
    """query_no → hits (or "error"), from bench_queries' table."""
    totals = {}
    with open(path, encoding="utf-8") as f:
        next(f)
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if parts[0] != "ALL":
                totals[int(parts[0])] = parts[2]
    return totals


# The runs of scripts/bench's bench_remote: file stem under the vault's results, row label.
REMOTE_RUNS = [("remote-local", "local"), ("remote-sharded", "local shards"), ("remote-tcp", "remote shards (TCP)")]


def cmd_report(a):
    work = Path(a.work)
    queries = read_queries(a.queries)
    common = [i for i, q in enumerate(queries) if groonga_runs(q)]
    env = read_metrics(work / "results" / "env.tsv")
    lines = [f"# Sagasu benchmark ({env.get('date', '')})", "",
             f"Machine: {env.get('cpu', '?')}, {env.get('cores', '?')} cores, {env.get('mem', '?')}. "
             f"Sagasu {env.get('commit', '?')}; {env.get('xapian', '')}; {env.get('groonga', '')}.",
             f"Query mix: {len(queries)} queries (`{a.queries_rel}`) × {env.get('runs', '?')} runs after "
             f"{env.get('warmup', '?')} warm-up rounds, in one process; facets and snippets on, top 10. "
             f"One-shot: `searcher` started from scratch, query `{env.get('oneshot_query', '')}`, "
             f"median of {env.get('oneshot_runs', '?')} runs.", "",
             "## Sagasu", "",
             "| vault | files | MB | build s | MB/s | notes/s | peak RSS MB | index MB | no-op reindex s "
             "| 1-note reindex s | p50 ms | p95 ms | p99 ms | one-shot ms |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    vaults = a.vaults
    per_vault = {}
    for v in vaults:
        d = work / "results" / v
        m = read_metrics(d / "metrics.tsv")
        samples = read_samples(d / "sagasu-raw.tsv")
        flat = [ms for q in samples.values() for ms in q]
        mb = int(m["bytes"]) / 1e6
        build_s = float(m["build_s"])
        s = {"build_s": build_s, "rss_mb": int(m["build_rss_kb"]) / 1024, "size_mb": int(m["index_bytes"]) / 1e6,
             "p50": percentile(flat, 50), "p95": percentile(flat, 95), "p99": percentile(flat, 99),
             "oneshot": float(m["oneshot_ms"])}
        common_flat = [ms for i in common for ms in samples.get(i, [])]
        s["common"] = (percentile(common_flat, 50), percentile(common_flat, 95), percentile(common_flat, 99))
        per_vault[v] = (m, s, samples)
        lines.append(f"| {v} | {int(m['files']):,} | {fnum(mb, 1)} | {fnum(build_s)} | {fnum(mb / build_s)} | "
                     f"{fnum(int(m['notes']) / build_s)} | {fnum(s['rss_mb'])} | {fnum(s['size_mb'])} | "
                     f"{fnum(float(m['noop_s']))} | {fnum(float(m['change_s']))} | {fnum(s['p50'])} | "
                     f"{fnum(s['p95'])} | {fnum(s['p99'])} | {fnum(s['oneshot'])} |")
    busy = [f"{v} {per_vault[v][0].get('busy_before', '?')} % before, {per_vault[v][0].get('busy_after', '?')} % after"
            for v in vaults
            if max(int(per_vault[v][0].get("busy_before", 0)), int(per_vault[v][0].get("busy_after", 0))) > 10]
    if busy:
        lines += ["", "**Warning: other processes were using the CPU** (share of the machine while the benchmark "
                  "slept: " + "; ".join(busy) + "): figures are pessimistic; rerun on an idle machine."]
    lines += ["", "`notes` = notes in the index (the indexer's summary line); MB = 10^6 bytes of the files indexed; "
              "index MB = `du` of the index folder; peak RSS = /usr/bin/time's maximum resident set. No-op reindex: the indexer "
              "again with nothing changed; 1-note: one line appended to one note first.", ""]

    have_groonga = any((work / "results" / v / "groonga-TokenBigram.json").exists() for v in vaults)
    if have_groonga:
        lines += ["## Side by side with Groonga", "",
                  f"Groonga: table `Docs` (`_key` = path, `body` LongText, and the five facet columns venue, year, "
                  f"person, org, kind: vector columns of one `TABLE_HASH_KEY` each, filled with the values the "
                  f"searcher counts, from `sagasu-bench-queries --export-facets`), lexicon `TABLE_PAT_KEY` with "
                  f"NormalizerNFKC100 and TokenBigram or `TokenMecab(\"chunked_tokenize\", true)`, index "
                  f"`COLUMN_INDEX|WITH_POSITION` created after one JSON `load` of the same files. Queries: `select "
                  f"--match_columns body --query Q --filter F --sort_keys -_score --limit 10`, with "
                  f"`--drilldown venue,year,person,org,kind --drilldown_limit 10` (+ facets) and "
                  f"`snippet_html(body)` (+ snippets); the mix's facet filters become script filters on the facet "
                  f"columns (`venue @ \"OSDI\"`, `year >= 2020 && year <= 2026`); query cache off; latency = the "
                  f"`elapsed` of each response header (in-process). Latency columns cover the {len(common)} queries "
                  f"Groonga can run, with facets and snippets (Groonga: drilldown and snippet_html); Sagasu's "
                  f"figures carry (×ratio) to Groonga-bigram's.", "",
                  "| vault | engine | build s | build CPU s | peak RSS MB | index MB | p50 ms | p95 ms | p99 ms "
                  "| one-shot ms |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for v in vaults:
            m, s, _ = per_vault[v]
            d = work / "results" / v
            g = {}
            for tok in ("TokenBigram", "TokenMecab"):
                p = d / f"groonga-{tok}.json"
                if p.exists():
                    g[tok] = json.loads(p.read_text(encoding="utf-8"))
            b = g.get("TokenBigram", {})
            c50, c95, c99 = s["common"]
            cpu = float(m["build_cpu_s"]) if "build_cpu_s" in m else None
            lines.append(
                f"| {v} | **sagasu** | {fnum(s['build_s'])}{ratio(s['build_s'], b.get('build_s'))} | "
                f"{fnum(cpu)}{ratio(cpu, b.get('build_cpu_s'))} | "
                f"{fnum(s['rss_mb'])}{ratio(s['rss_mb'], b.get('build_rss_kb', 0) / 1024 or None)} | "
                f"{fnum(s['size_mb'])}{ratio(s['size_mb'], b.get('db_bytes', 0) / 1e6 or None)} | "
                f"{fnum(c50)}{ratio(c50, b.get('p50_ms'))} | {fnum(c95)}{ratio(c95, b.get('p95_ms'))} | "
                f"{fnum(c99)}{ratio(c99, b.get('p99_ms'))} | {fnum(s['oneshot'])}{ratio(s['oneshot'], b.get('oneshot_ms'))} |")
            for tok, r in g.items():
                lines.append(f"| {v} | groonga {tok[5:].lower()} | {fnum(r['build_s'])} | {fnum(r.get('build_cpu_s'))} | "
                             f"{fnum(r['build_rss_kb'] / 1024)} | {fnum(r['db_bytes'] / 1e6)} | {fnum(r['p50_ms'])} | "
                             f"{fnum(r['p95_ms'])} | {fnum(r['p99_ms'])} | {fnum(r['oneshot_ms'])} |")
        lines += ["", "Groonga build s = the whole `groonga` process: JSON load + static index build "
                  "(load/index split and hit counts per query in the details below). Build CPU s = user + system "
                  "time: the indexer uses every core, Groonga's load one. Hit counts differ where Groonga reads "
                  "the raw file (front matter, link lists) and Sagasu stems English or corrects a word.", ""]
        lines += ["### The three modes", "",
                  "Latency over the same queries (p50 / p95 ms): the ranked top 10 alone; + exact counts of the "
                  "five facets (Groonga: drilldown); + one highlighted snippet per hit (Groonga: snippet_html). "
                  "Sagasu's figures carry (×ratio) to Groonga-bigram's.", "",
                  "| vault | mode | sagasu p50 | sagasu p95 | bigram p50 | bigram p95 | mecab p50 | mecab p95 |",
                  "|---|---|---:|---:|---:|---:|---:|---:|"]
        for v in vaults:
            d = work / "results" / v
            g = {tok: json.loads((d / f"groonga-{tok}.json").read_text(encoding="utf-8"))
                 for tok in ("TokenBigram", "TokenMecab") if (d / f"groonga-{tok}.json").exists()}
            for mode in MODES:
                raw = d / ("sagasu-raw.tsv" if mode == "snippets" else f"sagasu-raw-{mode}.tsv")
                if not raw.exists():
                    continue
                mode_samples = read_samples(raw)
                flat = [ms for i in common for ms in mode_samples.get(i, [])]
                o50, o95 = percentile(flat, 50), percentile(flat, 95)
                b = g.get("TokenBigram", {}).get("modes", {}).get(mode, {})
                m = g.get("TokenMecab", {}).get("modes", {}).get(mode, {})
                lines.append(f"| {v} | {mode} | {fnum(o50)}{ratio(o50, b.get('p50_ms'))} | "
                             f"{fnum(o95)}{ratio(o95, b.get('p95_ms'))} | {fnum(b.get('p50_ms'))} | "
                             f"{fnum(b.get('p95_ms'))} | {fnum(m.get('p50_ms'))} | {fnum(m.get('p95_ms'))} |")
        lines.append("")

    judged = [v for v in vaults if (work / "results" / v / "ranking-sagasu.json").exists()]
    if judged:
        lines += ["## Ranking of the judged queries", "",
                  "nDCG@10 per category of `data/labels/ranking/VAULT.tsv` (queries judged by reading the notes; "
                  "scored as `tests/eval/eval.cc` scores them, the same code for every engine). Sagasu: `searcher "
                  "--json --limit 10`, its hits then what it lists beyond them, with the dictionaries this machine "
                  "has. Groonga: `select --match_columns body --query '\"w1\" \"w2\"' --sort_keys -_score,_key "
                  "--limit 10` on the table above (every word a phrase, all required).", "",
                  "| vault | category | queries | sagasu | groonga bigram | groonga mecab |",
                  "|---|---|---:|---:|---:|---:|"]
        for v in judged:
            d = work / "results" / v
            ours = json.loads((d / "ranking-sagasu.json").read_text(encoding="utf-8"))
            theirs = {tok: json.loads(p.read_text(encoding="utf-8")).get("ranking", {})
                      for tok in ("TokenBigram", "TokenMecab") if (p := d / f"groonga-{tok}.json").exists()}
            for cat in sorted(ours, key=lambda c: (c == "overall", c)):
                cells = [fnum(theirs.get(tok, {}).get(cat, {}).get("ndcg"), 3) for tok in ("TokenBigram", "TokenMecab")]
                label = f"**{cat}**" if cat == "overall" else cat
                lines.append(f"| {v} | {label} | {ours[cat]['n']} | {fnum(ours[cat]['ndcg'], 3)} | {' | '.join(cells)} |")
        lines.append("")

    remote = [v for v in vaults if (work / "results" / v / "remote-tcp-raw.tsv").exists()]
    if remote:
        lines += ["## Remote shards against local", "",
                  f"The vault indexed again with `indexer --shards N`, then the same mix × {env.get('runs', '?')} runs "
                  "back to back in one process on: the one local index above, the N shard folders searched locally "
                  "(`--index DIR`), and N `xapian-tcpsrv` on 127.0.0.1, one per shard (`--index tcp://127.0.0.1:PORT` "
                  "each). Servers and searcher share the machine, so the remote rows are the cost of the protocol and "
                  "of the servers' work, not of a network. Sharded rows carry (+ms, ×ratio) over the local index; "
                  "worst query = the largest p50 overhead.", "",
                  "| vault | shards | search | build s | p50 ms | p95 ms | mean ms | worst query, p50 ms |",
                  "|---|---:|---|---:|---:|---:|---:|---|"]
        mismatches = []
        for v in remote:
            m = per_vault[v][0]
            d = work / "results" / v
            runs = {key: read_samples(d / f"{key}-raw.tsv") for key, _ in REMOTE_RUNS}
            hits = {key: read_totals(d / f"{key}.tsv") for key, _ in REMOTE_RUNS}
            base = runs["remote-local"]
            b_flat = [ms for q in base.values() for ms in q]
            b = (percentile(b_flat, 50), percentile(b_flat, 95), statistics.mean(b_flat))
            for key, label in REMOTE_RUNS:
                r = runs[key]
                flat = [ms for q in r.values() for ms in q]
                p50, p95, mean = percentile(flat, 50), percentile(flat, 95), statistics.mean(flat)
                if key == "remote-local":
                    lines.append(f"| {v} | 1 | {label} | {fnum(float(m['build_s']))} | {fnum(p50)} | {fnum(p95)} | "
                                 f"{fnum(mean)} | – |")
                    continue
                d50 = {i: percentile(r[i], 50) - percentile(base[i], 50) for i in r if i in base}
                w = max(d50, key=d50.get)
                worst = (f"`{queries[w]}` {fnum(percentile(base[w], 50))} → {fnum(percentile(r[w], 50))}"
                         f"{overhead(percentile(r[w], 50), percentile(base[w], 50))}")
                lines.append(f"| {v} | {m['shards']} | {label} | {fnum(float(m['shards_build_s']))} | "
                             f"{fnum(p50)}{overhead(p50, b[0])} | {fnum(p95)}{overhead(p95, b[1])} | "
                             f"{fnum(mean)}{overhead(mean, b[2])} | {worst} |")
                mismatches += [f"{v} {label} `{queries[i]}` {n} (local {hits['remote-local'].get(i, '?')})"
                               for i, n in sorted(hits[key].items()) if n != hits["remote-local"].get(i)]
        if mismatches:
            lines += ["", "**Warning: the sharded searches found other hit counts than the local index:** "
                      + "; ".join(mismatches) + "."]
        lines += ["", "Build s = the indexer on an empty folder (the sharded index: all N shards). "
                  "Mean = arithmetic mean of every sample; per-query p50s in the details below.", ""]

    # Per-query details go to the results file only: the stdout tables stay short.
    details = ["## Per query (hits / p50 ms)", ""]
    for v in vaults:
        m, s, samples = per_vault[v]
        d = work / "results" / v
        g = {tok: json.loads((d / f"groonga-{tok}.json").read_text(encoding="utf-8"))
             for tok in ("TokenBigram", "TokenMecab") if (d / f"groonga-{tok}.json").exists()}
        totals = read_totals(d / "sagasu-queries.tsv")
        head = "| query | sagasu hits | sagasu p50 |" + "".join(f" {t[5:].lower()} hits | {t[5:].lower()} p50 |" for t in g)
        details += [f"### {v}", ""]
        for tok, r in g.items():
            details.append(f"Groonga {tok}: load {fnum(r['load_s'])} s + index {fnum(r['index_s'])} s, "
                           f"{r['loaded']:,} records.")
        details += ["", head, "|---|" + "---:|" * (2 + 2 * len(g))]
        for i, q in enumerate(queries):
            row = f"| `{q}` | {totals.get(i, '?')} | {fnum(percentile(samples.get(i, []), 50))} |"
            for tok, r in g.items():
                qq = r["queries"].get(str(i))
                row += " – | – |" if qq is None else f" {qq['hits']} | {fnum(qq['p50_ms'])} |"
            details.append(row)
        details.append("")
        if v in remote:
            runs = {key: read_samples(d / f"{key}-raw.tsv") for key, _ in REMOTE_RUNS}
            details += [f"Remote shards ({per_vault[v][0]['shards']}), p50 ms:", "",
                        "| query | hits |" + "".join(f" {label} |" for _, label in REMOTE_RUNS) + " remote − local |",
                        "|---|" + "---:|" * (2 + len(REMOTE_RUNS))]
            tcp_hits = read_totals(d / "remote-tcp.tsv")
            for i, q in enumerate(queries):
                p = [percentile(runs[key].get(i, []), 50) for key, _ in REMOTE_RUNS]
                details.append(f"| `{q}` | {tcp_hits.get(i, '?')} |" + "".join(f" {fnum(x)} |" for x in p)
                               + f" {fnum(p[-1] - p[0])} |")
            details.append("")

    table = "\n".join(lines)
    print(table)
    print(f"Per-query details: {a.out}")
    Path(a.out).write_text(table + "\n" + "\n".join(details) + "\n", encoding="utf-8")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="action", required=True)
    p = sub.add_parser("files")
    p.add_argument("vault")
    p.add_argument("ext")
    p.set_defaults(func=cmd_files)
    p = sub.add_parser("groonga")
    p.add_argument("--vault", required=True)
    p.add_argument("--ext", required=True)
    p.add_argument("--work", required=True, help="scratch folder for the load file and the database")
    p.add_argument("--out", required=True, help="results folder of this vault")
    p.add_argument("--tokenizer", default="TokenBigram", choices=sorted(TOKENIZER_SPEC))
    p.add_argument("--queries", required=True)
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--oneshot-query", required=True)
    p.add_argument("--oneshot-runs", type=int, default=20)
    p.add_argument("--keep-db", action="store_true")
    p.add_argument("--facets", help="every note's facet values (sagasu-bench-queries --export-facets)")
    p.add_argument("--judged", help="judged queries of this vault (data/labels/ranking/VAULT.tsv)")
    p.set_defaults(func=cmd_groonga)
    p = sub.add_parser("rank")
    p.add_argument("--searcher", required=True)
    p.add_argument("--index", required=True)
    p.add_argument("--judged", required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_rank)
    p = sub.add_parser("oneshot")
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_oneshot)
    p = sub.add_parser("report")
    p.add_argument("--work", required=True)
    p.add_argument("--queries", required=True)
    p.add_argument("--queries-rel", default="tests/bench/queries.txt")
    p.add_argument("--out", required=True)
    p.add_argument("vaults", nargs="+")
    p.set_defaults(func=cmd_report)
    a = ap.parse_args()
    if a.action == "oneshot" and a.cmd and a.cmd[0] == "--":
        a.cmd = a.cmd[1:]
    a.func(a)


if __name__ == "__main__":
    main()
