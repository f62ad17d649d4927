#!/usr/bin/env python3
"""Generates a large Obsidian vault in the format of shared/docs/vault-format.md.

Why generated: no public vault in the seeds' style (`@YYYY__VENUE__Title` source
pages, entity pages citing them with `(Source: [[@…]])`) exists, and the
benchmark needs 100k notes of it. The prose is real: sentences drawn from the
shared corpora (Aozora Bunko prose, Japanese technical docs, a real research
vault), so the analyzer sees real Japanese, not lorem ipsum.

Deterministic: corpus files are read in sorted order, every choice comes from
one random.Random(seed), and nothing iterates over a set or a hash-ordered
structure. The same --notes and --seed give byte-identical vaults.

Layout:
  wiki/sources/@YYYY__VENUE__Title.md   ~50 %  (type: source, authors, 主張/メモ/関連)
  wiki/entities/NAME.md                 ~38 %  (person / organization / product)
  wiki/concepts/NAME.md                 ~12 %  (定義 / 未解決の問い / 未編纂の観察)
Every page has YAML front matter, [[wikilinks]] with a skewed popularity (so
facets have heavy and light values), `(Source: [[@…]])` citations (some to
sources that have no page, as in real vaults) and a closing `## 関連` section
of labelled lists. The prose part of each page is 1–3 KB.
"""
import argparse
import os
import random
import re
import sys
from pathlib import Path

VENUES = ["OSDI", "NSDI", "SOSP", "EuroSys", "MLSys2026", "MLSys2025", "SC21", "SC23", "arXiv",
          "ATC", "VLDB", "ASPLOS", "ICRA", "IROS", "NeurIPS", "ICML", "PhD", "MSc"]
# arXiv and the systems conferences dominate real vaults; keep the skew.
VENUE_WEIGHTS = [8, 6, 6, 4, 2, 2, 2, 2, 14, 3, 3, 3, 4, 3, 6, 5, 1, 1]
YEARS = list(range(2012, 2027))
YEAR_WEIGHTS = [1, 1, 1, 2, 2, 3, 3, 4, 5, 6, 8, 10, 12, 14, 10]

ORG_STEMS = ["Kyoto", "Tokyo", "Osaka", "Tohoku", "Nagoya", "Kyushu", "Hokkaido", "Tsukuba", "Keio",
             "Waseda", "Tsinghua", "Peking", "Zhejiang", "Fudan", "Stanford", "Berkeley", "Carnegie",
             "Princeton", "Cornell", "Washington", "Toronto", "Oxford", "Cambridge", "Munich", "Zurich",
             "Lausanne", "Seoul", "Singapore", "Sydney", "Melbourne", "Austin", "Michigan", "Illinois"]
ORG_JA = ["京都", "東京", "大阪", "東北", "名古屋", "九州", "北海道", "筑波", "慶應義塾", "早稲田",
          "神戸", "広島", "千葉", "横浜", "静岡", "岡山", "金沢", "熊本", "新潟", "信州"]
ORG_FORMS_EN = ["{} University", "University of {}", "{} Institute of Technology", "{} Research Lab",
                "{} Systems Inc.", "{} AI Lab", "{} Computing Center"]
ORG_FORMS_JA = ["{}大学", "{}工業大学", "{}研究所", "{}情報研究センター", "{}電機"]
TOPICS = ["ストラグラー", "チェックポイント", "集団通信", "障害検知", "パイプライン並列", "形態素解析",
          "サーバー", "本番クラスタ", "訓練基盤", "分散学習", "推論サービング", "メモリ管理",
          "GPU", "LLM", "SDC", "FSDP", "RDMA", "NCCL", "Kubernetes", "Transformer"]
LABELS_ORG = ["親組織", "協力機関", "所属"]


def read_text(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", errors="replace")


def is_japanese(ch):
    o = ord(ch)
    return 0x3040 <= o <= 0x30FF or 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF


AOZORA_MARKUP = re.compile(r"《[^》]*》|［＃[^］]*］|｜|〔|〕")
SENTENCE = re.compile(r"[^。！？\n]*[。！？]")
BAD_CHARS = re.compile(r"[\\`<>{}\[\]|*#_=$^~@]|https?:|\.\.|::")


def sentences_of(text):
    """Clean Japanese sentences of 15–160 characters, at least half Japanese."""
    out = []
    for m in SENTENCE.finditer(text):
        s = m.group(0).strip(" \t\u3000「」『』（）()・-–—:：")
        if not 15 <= len(s) <= 160 or BAD_CHARS.search(s):
            continue
        letters = [c for c in s if not c.isspace()]
        if sum(1 for c in letters if is_japanese(c)) * 2 < len(letters):
            continue
        out.append(s if s.endswith(("。", "！", "？")) else s + "。")
    return out


def aozora_body(text):
    """The work itself: after the notation block, before the colophon."""
    parts = re.split(r"\n-{20,}\n", text)
    body = parts[2] if len(parts) >= 3 else text
    for end in ("［＃本文終わり］", "\n底本：", "\n翻訳の底本："):
        i = body.find(end)
        if i >= 0:
            body = body[:i]
    return AOZORA_MARKUP.sub("", body)


def md_prose(text):
    """Markdown without front matter, code fences and HTML-ish lines."""
    text = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S)
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    return "\n".join(l for l in text.splitlines() if not l.lstrip().startswith(("<", "|", "#", "    ")))


def po_prose(text):
    return "\n".join(m.group(1) for m in re.finditer(r'^(?:msgstr )?"(.*)"$', text, flags=re.M)
                     if any(is_japanese(c) for c in m.group(1)))


def files_under(root, suffixes):
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(suffixes):
                out.append(os.path.join(dirpath, name))
    return sorted(out)


def load_pools(corpus):
    """Sentence pools per register, plus names and title words, from the corpora."""
    corpus = Path(corpus)
    prose, tech, notes = [], [], []
    for f in files_under(corpus / "aozora-subset", (".txt",)):
        prose += sentences_of(aozora_body(read_text(f)))
    td = corpus / "ja-techdocs"
    for sub in ("vue-ja", "react-ja", "rust-book-ja", "rurema"):
        for f in files_under(td / sub, (".md",)):
            tech += sentences_of(md_prose(read_text(f)))
    for f in files_under(td / "python-docs-ja", (".po",)):
        tech += sentences_of(po_prose(read_text(f)))
    for f in files_under(td / "debian", (".txt",)):
        tech += sentences_of(read_text(f))
    for f in files_under(corpus / "matsuura-research-note", (".md",)):
        notes += sentences_of(md_prose(read_text(f)))

    # People: surnames and given names from the ICRA author lists, recombined
    # so that 100k notes get as many distinct people as they need.
    surnames, given, title_words = [], [], []
    seen_s, seen_g, seen_w = {}, {}, {}
    for f in files_under(corpus / "robotics-paper-notes", (".md",)):
        text = read_text(f)
        m = re.search(r"^\| Authors \| (.*) \|$", text, flags=re.M)
        if m:
            for person in m.group(1).split(";"):
                bits = [b.strip() for b in person.split(",")]
                if len(bits) == 2 and bits[0].isalpha() and bits[1].replace(" ", "").replace("-", "").isalpha():
                    if bits[0] not in seen_s:
                        seen_s[bits[0]] = 1
                        surnames.append(bits[0])
                    if bits[1] not in seen_g:
                        seen_g[bits[1]] = 1
                        given.append(bits[1])
        t = re.search(r"^# (.+)$", text, flags=re.M)
        if t:
            for w in re.findall(r"[A-Za-z][A-Za-z0-9-]{2,}", t.group(1)):
                if w.lower() not in ("for", "and", "the", "with", "from", "via", "using") and w not in seen_w:
                    seen_w[w] = 1
                    title_words.append(w)
    # Concept names: katakana and kanji words that occur in the prose itself.
    # Whole runs only (a kanji run of 2–4, a katakana run of 4–10), technical
    # text first, so the names look like the terms notes are written about.
    words, seen_k, n_tech_words = [], {}, 0
    for i, s in enumerate(notes + tech + prose):
        if i == len(notes) + len(tech):
            n_tech_words = len(words)
        for w in re.findall(r"(?<![ァ-ヺー])[ァ-ヺ][ァ-ヺー]{3,9}(?![ァ-ヺー])|(?<![一-龥])[一-龥]{2,4}(?![一-龥])", s):
            if w not in seen_k:
                seen_k[w] = 1
                words.append(w)
    return {"prose": prose, "tech": tech, "notes": notes, "surnames": surnames, "given": given,
            "title_words": title_words, "concept_words": words, "n_tech_words": n_tech_words}


def safe_file_name(s):
    """What a file name cannot hold is replaced, as Obsidian users do (`A: B` → `A - B`)."""
    s = s.replace(": ", " - ").replace(":", "-").replace("/", "-")
    return re.sub(r'[\\?*<>|"#^\[\]]', "", s).strip()


class VaultGenerator:
    def __init__(self, pools, n, seed):
        self.p = pools
        self.n = n
        self.rng = random.Random(seed)
        r = self.rng
        self.n_src = max(1, n * 50 // 100)
        self.n_person = max(1, n * 22 // 100)
        self.n_org = max(1, n * 8 // 100)
        self.n_product = max(1, n * 8 // 100)
        self.n_concept = max(1, n - self.n_src - self.n_person - self.n_org - self.n_product)
        self.persons = self.unique_names(self.n_person, self.person_name)
        self.orgs = self.unique_names(self.n_org, self.org_name)
        self.products = self.unique_names(self.n_product, self.product_name)
        self.concepts = self.unique_names(self.n_concept, self.concept_name, seed_names=TOPICS)
        self.sources = []  # (key, year, venue, title)
        titles = self.unique_names(self.n_src + self.n_src // 10, self.source_title)
        for t in titles:
            year = r.choices(YEARS, YEAR_WEIGHTS)[0]
            venue = r.choices(VENUES, VENUE_WEIGHTS)[0]
            self.sources.append((f"@{year}__{venue}__{safe_file_name(t)}", year, venue, t))
        # The first n_src sources have pages; the rest are only ever cited.
        r.shuffle(self.sources)

    # --- names -------------------------------------------------------------
    def unique_names(self, count, make, seed_names=()):
        out, seen = [], {}
        for s in seed_names:
            if len(out) < count and s not in seen:
                seen[s] = 1
                out.append(s)
        tries = 0
        while len(out) < count:
            name = make()
            tries += 1
            if tries > count * 20:  # the vocabulary ran out: number the rest
                name = f"{name} {len(out)}"
            if name and name not in seen:
                seen[name] = 1
                out.append(name)
        return out

    def person_name(self):
        r = self.rng
        return f"{r.choice(self.p['given'])} {r.choice(self.p['surnames'])}"

    def org_name(self):
        r = self.rng
        if r.random() < 0.35:
            return r.choice(ORG_FORMS_JA).format(r.choice(ORG_JA + self.p["concept_words"][:300]))
        return r.choice(ORG_FORMS_EN).format(r.choice(ORG_STEMS + self.p["title_words"][:400]))

    def product_name(self):
        r = self.rng
        w = self.p["title_words"]
        name = r.choice(w).capitalize() + r.choice(w).capitalize()
        return name if r.random() < 0.7 else f"{name}-{r.choice(['FSDP', 'RL', 'DB', 'Serve', 'Net', 'Lite'])}"

    def concept_name(self):
        # Words of the technical text first; literary words only when a big
        # vault needs more concept names than the technical text has.
        words = self.p["concept_words"]
        return self.rng.choice(words[:max(self.p["n_tech_words"], 2 * self.n_concept)])

    def source_title(self):
        r = self.rng
        w = self.p["title_words"]
        k = r.randint(3, 7)
        head = " ".join(r.choice(w) for _ in range(k))
        form = r.random()
        if form < 0.3:
            return f"{r.choice(w)}: {head}"
        if form < 0.5:
            return f"{head} for {r.choice(w)} {r.choice(w)}"
        return head

    # --- picks with skewed popularity ---------------------------------------
    def pick(self, items, skew=2.2):
        """A few items are linked from many pages, most from few (like real vaults)."""
        return items[int(len(items) * (self.rng.random() ** skew))]

    def picks(self, items, lo, hi, skew=2.2):
        out = []
        for _ in range(self.rng.randint(lo, hi)):
            x = self.pick(items, skew)
            if x not in out:
                out.append(x)
        return out

    def cite(self):
        return self.pick(self.sources, 1.6)[0]

    # --- prose ----------------------------------------------------------------
    def sentence(self):
        r = self.rng
        x = r.random()
        pool = self.p["tech"] if x < 0.45 else self.p["prose"] if x < 0.85 or not self.p["notes"] else self.p["notes"]
        return r.choice(pool)

    def paragraph_text(self, target_bytes, links, self_key=None):
        """Sentences until target_bytes, with links inserted and citations after some."""
        r = self.rng
        parts, size = [], 0
        while size < target_bytes:
            s = self.sentence()
            if links and r.random() < 0.3:
                # After a comma, or in front: never inside a word.
                i = s.find("、")
                link = f"[[{r.choice(links)}]]"
                s = f"{s[:i + 1]} {link} {s[i + 1:]}" if i >= 0 else f"{link} では、{s}"
            if r.random() < 0.15:
                s = f"{r.choice(TOPICS)}について、{s}"
            if r.random() < 0.2:
                keys = [self_key] if self_key and r.random() < 0.5 else []
                keys += [self.cite() for _ in range(r.choice([1, 1, 1, 2, 3]))]
                sep = r.choice([" / ", ", "])
                s += "(Source: " + sep.join(f"[[{k}]]" for k in dict.fromkeys(keys)) + ")"
            parts.append(s)
            size += len(s.encode("utf-8"))
        return parts

    def prose_sections(self, headings, links, self_key=None):
        """1–3 KB of prose, split over the given headings (bullets under 主張)."""
        total = self.rng.randint(1000, 3000)
        out = []
        share = total // len(headings)
        for h in headings:
            out.append(f"\n## {h}\n" if h else "")
            sents = self.paragraph_text(share, links, self_key)
            if h in ("主張", "未解決の問い"):
                out.append("\n".join(f"- {s}" for s in sents))
            else:
                out.append("".join(sents))
        return "\n".join(out)

    def related(self, rows):
        lines = ["", "## 関連"]
        for label, targets in rows:
            if targets:
                lines.append(f"- {label}: " + " / ".join(f"[[{t}]]" for t in targets))
        return "\n".join(lines) + "\n"

    def created(self, year=None):
        r = self.rng
        y = year if year else r.choice([2024, 2025, 2026])
        y = max(y, 2023)
        return f"{y}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"

    @staticmethod
    def yaml_list(name, items):
        if not items:
            return ""
        return f"{name}:\n" + "".join(f"  - {i}\n" for i in items)

    @staticmethod
    def yaml_str(s):
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'

    # --- pages ------------------------------------------------------------------
    def source_page(self, key, year, venue, title):
        r = self.rng
        authors = self.picks(self.persons, 2, 6, 1.8)
        orgs = self.picks(self.orgs, 1, 3)
        products = self.picks(self.products, 0, 2)
        concepts = self.picks(self.concepts, 1, 3)
        created = self.created()
        fm = ("---\ntype: source\nsource_type: paper\n"
              f"title: {self.yaml_str(title)}\ndate_published: {year}\ncreated: {created}\n"
              + self.yaml_list("tags", [created.replace('-', '/'), "paper", r.choice(TOPICS).lower()])
              + self.yaml_list("author", authors)
              + f"url: https://arxiv.org/abs/{year % 100:02d}{r.randint(1, 12):02d}.{r.randint(1, 99999):05d}\n---\n")
        body = f"\n# {title}\n\n{venue} {year} の論文。" + self.prose_sections(
            ["", "主張", "メモ"], authors + orgs + products + concepts, key)
        rel = self.related([("エンティティ", orgs + products), ("関連研究者", authors[:4]),
                            ("協力機関", orgs[1:]), ("ソース", [self.cite() for _ in range(r.randint(0, 2))])])
        return fm + body + "\n" + rel

    def entity_page(self, name, kind):
        r = self.rng
        cites = list(dict.fromkeys(self.cite() for _ in range(r.randint(1, 5))))
        orgs = self.picks(self.orgs, 1, 2)
        people = self.picks(self.persons, 0, 4)
        products = self.picks(self.products, 0, 3)
        concepts = self.picks(self.concepts, 0, 3)
        created = self.created()
        aliases = []
        if kind == "organization" and r.random() < 0.3:
            aliases = ["".join(w[0] for w in name.split() if w[:1].isupper())] if " " in name else [name + "（略称）"]
            aliases = [a for a in aliases if len(a) >= 2]
        fm = (f"---\ntype: entity\nentity_type: {kind}\ntitle: {self.yaml_str(name)}\ncreated: {created}\n"
              + self.yaml_list("aliases", aliases)
              + self.yaml_list("tags", [created.replace('-', '/'), kind]) + "---\n")
        body = f"\n# {name}\n\n" + self.prose_sections(["", "メモ"], orgs + people + products + concepts)
        rows = [("ソース", cites)]
        if kind == "person":
            rows += [("所属", orgs), ("関連プロダクト", products)]
        elif kind == "organization":
            rows += [("親組織", [o for o in orgs if o != name][:1]), ("関連研究者", people),
                     ("関連プロダクト", products)]
        else:
            rows += [("エンティティ", [o for o in orgs]), ("関連研究者", people)]
        return fm + body + "\n" + self.related(rows) + "\n## 出典\n- 上記ソースによる。\n"

    def concept_page(self, name):
        r = self.rng
        cites = list(dict.fromkeys(self.cite() for _ in range(r.randint(1, 4))))
        links = self.picks(self.concepts, 1, 4) + self.picks(self.products, 0, 2) + self.picks(self.orgs, 0, 1)
        created = self.created()
        fm = (f"---\ntype: concept\ntitle: {self.yaml_str(name)}\ncreated: {created}\n"
              + self.yaml_list("tags", [created.replace('-', '/'), "concept"]) + "---\n")
        body = f"\n# {name}\n" + self.prose_sections(["定義", "未解決の問い", "未編纂の観察"], links)
        return fm + body + "\n" + self.related([("ソース", cites), ("エンティティ", links)])

    def pages(self):
        """(relative path, text) of every page, in a fixed order."""
        for key, year, venue, title in self.sources[:self.n_src]:
            yield f"wiki/sources/{key}.md", self.source_page(key, year, venue, title)
        for names, kind in ((self.persons, "person"), (self.orgs, "organization"), (self.products, "product")):
            for name in names:
                yield f"wiki/entities/{safe_file_name(name)}.md", self.entity_page(name, kind)
        for name in self.concepts:
            yield f"wiki/concepts/{safe_file_name(name)}.md", self.concept_page(name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", required=True, help="shared/corpus folder")
    ap.add_argument("--out", required=True, help="vault folder to create (must not exist)")
    ap.add_argument("--notes", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=20260601)
    a = ap.parse_args()
    out = Path(a.out)
    if out.exists():
        sys.exit(f"gen_vault: {out} exists")
    pools = load_pools(a.corpus)
    for k in ("prose", "tech", "surnames", "given", "title_words", "concept_words"):
        if not pools[k]:
            sys.exit(f"gen_vault: no {k} found under {a.corpus}")
    gen = VaultGenerator(pools, a.notes, a.seed)
    count = size = 0
    written = {}
    for rel, text in gen.pages():
        if rel in written:  # two names that differ only in characters a file name drops
            continue
        written[rel] = 1
        p = out / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        p.write_bytes(data)
        count += 1
        size += len(data)
    print(f"gen_vault: {count} notes, {size} bytes in {out} "
          f"(pools: {len(pools['prose'])} prose, {len(pools['tech'])} tech, {len(pools['notes'])} note sentences)")


if __name__ == "__main__":
    main()
