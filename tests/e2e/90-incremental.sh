#!/usr/bin/env bash
# Incremental equals rebuild: after every step of a seeded random sequence of
# edits, renames, moves to another folder, deletions, additions, touches and entity changes, the
# incrementally updated index holds exactly what a full rebuild holds
# (documents, terms, positions, values, synonyms, metadata: the glossary, the
# test dictionary's pairs and the sound table included).
. "$(dirname "$0")/lib.sh"
export SAGASU_EDICT="$SAGASU_SRC/tests/e2e/fixtures/dictionary"
DUMP="$SAGASU_BIN/tests/sagasu-dump"
v="$WORK/vault"
cp -r "$VAULT" "$v"
inc="$WORK/incremental"
"$INDEXER" --vault "$v" --index "$inc" --quiet -j 2

mutate() {  # one step of seeded random changes to the vault
  python3 - "$v" "$1" <<'PY'
import os, random, sys
root, step = sys.argv[1], int(sys.argv[2])
rng = random.Random(int(os.environ.get("SAGASU_SEED", "1000")) + step)
notes = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) if "/." not in d for f in fs if f.endswith(".md"))
for _ in range(rng.randint(1, 3)):
    op = rng.choice(["edit", "rename", "delete", "add", "touch", "alias", "kind", "link", "gloss",
                     "name", "list", "unlink", "type", "unalias", "relink", "page", "delete2", "override",
                     "move"])
    p = rng.choice(notes)
    if not os.path.exists(p):
        continue
    if op == "edit":
        open(p, "a").write(f"\n追記 {step}: ストラグラーと本番クラスタの観察。\n")
    elif op == "override":  # the override file rewritten: a page's or a linked name's kind, or none
        import re
        os.makedirs(os.path.join(root, ".sagasu"), exist_ok=True)
        names = sorted({os.path.basename(o)[:-3] for o in notes if os.path.exists(o)} |
                       {m for o in notes if os.path.exists(o) for m in re.findall(r"\[\[([^\]|#^/]+)\]\]", open(o).read())})
        lines = [f"{rng.choice(names)}\t{rng.choice(['person', 'organization', 'product', 'concept'])}"
                 for _ in range(rng.randint(0, 3))]
        open(os.path.join(root, ".sagasu", "entities.tsv"), "w").write("".join(line + "\n" for line in lines))
    elif op == "delete2":  # a page deleted with one of the notes linking it
        name = os.path.basename(p)[:-3]
        linking = [o for o in notes if o != p and os.path.exists(o) and f"[[{name}]]" in open(o).read()]
        if linking:
            os.remove(rng.choice(linking))
        os.remove(p)
    elif op == "unalias":  # a page gives up its aliases
        lines = open(p).read().split("\n")
        open(p, "w").write("\n".join(line for line in lines if not line.startswith("aliases:")))
    elif op == "relink":  # a page renamed with every link to it rewritten, as Obsidian renames
        old_name = os.path.basename(p)[:-3]
        q = os.path.join(os.path.dirname(p), f"{old_name} {step}.md")
        os.rename(p, q); notes.append(q)
        for o in notes:
            if os.path.exists(o):
                text = open(o).read()
                if f"[[{old_name}]]" in text: open(o, "w").write(text.replace(f"[[{old_name}]]", f"[[{old_name} {step}]]"))
    elif op == "page":  # a page for a name notes link that has none
        import re
        linked = sorted({m for o in notes if os.path.exists(o) for m in re.findall(r"\[\[([^\]|#^/@]+)\]\]", open(o).read())})
        titles = {os.path.basename(o)[:-3] for o in notes if os.path.exists(o)}
        free = [n for n in linked if n not in titles and not n.endswith((".pdf", ".png"))]
        if free:
            name = rng.choice(free)
            q = os.path.join(root, "wiki", f"{name}.md")
            head = rng.choice(["", "---\ntype: concept\n---\n", "---\nentity_type: person\n---\n"])
            open(q, "w").write(f"{head}# {name}\n\n{name} のページ {step}。\n"); notes.append(q)
    elif op == "move":  # a note moved to another folder, its file name kept
        d = os.path.join(root, rng.choice(["00", "archive", "wiki/zz"]))
        q = os.path.join(d, os.path.basename(p))
        if not os.path.exists(q):
            os.makedirs(d, exist_ok=True); os.rename(p, q); notes.append(q)
    elif op == "rename":
        q = os.path.join(os.path.dirname(p), f"renamed-{step}-" + os.path.basename(p))
        os.rename(p, q); notes.append(q)
    elif op == "delete":
        os.remove(p)
    elif op == "add":
        q = os.path.join(root, "wiki", f"new-{step}.md")
        open(q, "w").write(f"# new-{step}\n新しいノート {step}。[[{os.path.basename(p)[:-3]}]] と [[New Lab {step}]]。\n"
                           f"## 関連\n- 協力機関: [[New Lab {step}]]\n"); notes.append(q)
    elif op == "touch":
        os.utime(p)
    elif op == "alias":  # a page gains an alias that other notes already use as a link
        text = open(p).read()
        alias = rng.choice(["Facebook", "バイトダンス", "Kyoto University", "PFN", f"Alias {step}"])
        if text.startswith("---\n"):
            open(p, "w").write(text.replace("---\n", f"---\naliases: [\"{alias}\"]\n", 1) if "aliases:" not in text else text)
        else:
            open(p, "w").write(f"---\naliases: [\"{alias}\"]\n---\n" + text)
    elif op == "kind":  # a page's declared kind changes: every note linking to it changes facets
        text = open(p).read()
        kind = rng.choice(["person", "organization", "product"])
        open(p, "w").write(f"---\nentity_type: {kind}\n---\n" + (text.split("---\n", 2)[2] if text.startswith("---\n") else text))
    elif op == "gloss":  # a gloss, words the dictionary pairs, a loanword and its English
        open(p, "a").write(rng.choice([f"\n強化学習 (Reinforcement Learning, RL) の話 {step}。\n",
                                       f"\n勾配 を gradient と呼ぶ {step}。プリフィル。\n",
                                       f"\nprefill と inference {step}。\n"]))
    elif op == "link":
        target = os.path.basename(rng.choice(notes))[:-3]
        open(p, "a").write(f"\n関連: [[{target}]]\n")
    elif op in ("name", "list"):  # names no page has, new or known, under a label or listed together
        names = [os.path.basename(rng.choice(notes))[:-3], "テンソル並列", "Juan Tao", f"新しい人 {step}",
                 f"New Lab {step}", "Acme University"]
        if op == "name":
            label = rng.choice(["関連研究者", "協力機関", "関連プロダクト"])
            open(p, "a").write(f"\n- {label}: [[{rng.choice(names)}]]\n")
        else:
            open(p, "a").write(f"\n\n別の話で [[{rng.choice(names)}]]・[[{rng.choice(names)}]]（訳）。\n")
    elif op == "unlink":  # a line with a link taken away (maybe a name's last mention)
        lines = open(p).read().split("\n")
        linked = [i for i, line in enumerate(lines) if "[[" in line]
        if linked:
            del lines[rng.choice(linked)]
            open(p, "w").write("\n".join(lines))
    elif op == "type":  # a page's own type or a work's year: the notes linking it follow
        text = open(p).read()
        head = rng.choice(["type: concept", "type: product", "type: paper\nyear: 2025\nvenue: OSDI",
                           "type: paper\nyear: 2024\nvenue: OSDI"])
        open(p, "w").write(f"---\n{head}\n---\n" + (text.split("---\n", 2)[2] if text.startswith("---\n") else text))
PY
}

for step in $(seq 1 30); do
  mutate "$step"
  "$INDEXER" --vault "$v" --index "$inc" --quiet -j $((step % 3 + 1))
  rc=$?
  rm -rf "$WORK/full"
  "$INDEXER" --vault "$v" --index "$WORK/full" --quiet -j 1
  "$DUMP" "$inc" >"$WORK/inc.dump"
  "$DUMP" "$WORK/full" >"$WORK/full.dump"
  if ! diff -q "$WORK/inc.dump" "$WORK/full.dump" >/dev/null; then
    diff "$WORK/full.dump" "$WORK/inc.dump" | head -20
  fi
  expect "step $step: incremental index = full rebuild (indexer exit $rc)" cmp -s "$WORK/inc.dump" "$WORK/full.dump"
  # The files beside the generation, brought up to date by the update, are
  # those written whole: the word list a rebuild's (but for the revision in
  # its header), the facet columns (by docid) those of the same database.
  expect "step $step: the word list = the rebuild's" \
    cmp -s <(tail -c +17 "$inc"/gen-*/sagasu-words) <(tail -c +17 "$WORK"/full/gen-*/sagasu-words)
  rm -rf "$WORK/whole" && cp -r "$inc" "$WORK/whole" && rm "$WORK"/whole/gen-*/sagasu-facets
  "$INDEXER" --vault "$v" --index "$WORK/whole" --quiet  # (changes nothing: writes the missing file)
  expect "step $step: the facet columns = those written whole" \
    cmp -s "$inc"/gen-*/sagasu-facets "$WORK"/whole/gen-*/sagasu-facets
done

same_as_rebuild() {  # same_as_rebuild VAULT INDEX WHAT: index incrementally, rebuild, compare
  "$INDEXER" --vault "$1" --index "$2" --quiet
  rm -rf "$WORK/full" && "$INDEXER" --vault "$1" --index "$WORK/full" --quiet
  "$DUMP" "$2" >"$WORK/inc.dump"
  "$DUMP" "$WORK/full" >"$WORK/full.dump"
  expect "$3: incremental = rebuild" cmp -s "$WORK/inc.dump" "$WORK/full.dump"
}

# Links and list labels added for pages that say what they are; names no
# note had (one of no kind: unresolved, one a list label makes a person), a
# name of no page that other notes name (unresolved in one note more), and
# such names given up again (one gone with its last note, one other notes
# keep); a label for a page whose kind lists decide, with a name no page has
# (the name becomes a person: the notes linking it change). Each time the
# update is what a rebuild makes, the stored resolution and findings included.
k="$WORK/kept" && kinc="$WORK/kept-inc"
cp -r "$SAGASU_SRC/data/vault" "$k"
"$INDEXER" --vault "$k" --index "$kinc" --quiet
q="$k/questions/SDC の検知と診断はどう分担されるか.md"
for edit in 'add \n[[Qiying Yu]] と [[Yanghua Peng]] の話。\n## 関連\n- 関連研究者: [[Qiying Yu]] / [[Yanghua Peng]]\n' \
            'add \n\n[[まったく新しい名前]] の話。\n' \
            'add \n- 関連研究者: [[新しい研究者Z]] / [[Xin Liu]]\n' \
            'add \n\n別の話で [[テンソル並列]] もまた。\n' \
            'del まったく新しい名前' \
            'del テンソル並列' \
            'add \n- 関連研究者: [[ByteDance Seed]] / [[テンソル並列]]\n'; do
  case "$edit" in
    add*) printf "${edit#add }" >>"$q" ;;
    del*) sed -i "/${edit#del }/d" "$q" ;;
  esac
  same_as_rebuild "$k" "$kinc" "names added and given up, labels that move a name ($edit)"
done

# A new note that no note names, citing pages and naming a new person,
# extends the resolution as well (a work: its venue and year are stored).
cat >"$k/wiki/sources/@2026__OSDI__A Brand New Paper.md" <<'NOTE'
---
type: paper
venue: OSDI
year: 2026
---
# A Brand New Paper

[[Xin Liu]] と [[ByteDance Seed]] の論文。

## 関連
- 関連研究者: [[新しい共著者]]
NOTE
same_as_rebuild "$k" "$kinc" "a new paper that no note names"

# A page's own type changes (a concept becomes a product, a person an
# organization): the notes linking it are refreshed.
for change in 's/^type: concept$/type: product/|wiki/concepts/パイプライン並列.md' \
              's/^entity_type: person$/entity_type: organization/|wiki/entities/Qiying Yu.md'; do
  page="$k/${change#*|}"
  cp "$page" "$WORK/page.before"
  sed -i "${change%%|*}" "$page"
  expect "the page's type is edited (${change#*|})" test "$(cat "$page")" != "$(cat "$WORK/page.before")"
  same_as_rebuild "$k" "$kinc" "a page's own type changes (${change#*|})"
done

# Pages given more aliases (one had some, one none): the resolution knows the
# new keys, the synonym table grows by the pages' entries.
sed -i 's/^  - pipeline parallelism$/  - pipeline parallelism\n  - PP法/' "$k/wiki/concepts/パイプライン並列.md"
sed -i 's/^entity_type: organization$/entity_type: organization\naliases: [Yu Qiying]/' "$k/wiki/entities/Qiying Yu.md"
expect "the aliases are written" grep -q "PP法" "$k/wiki/concepts/パイプライン並列.md"
same_as_rebuild "$k" "$kinc" "pages given more aliases"

# ... and giving them up again (no note names a page by them): the keys go,
# the synonym table is built again.
sed -i '/^  - PP法$/d' "$k/wiki/concepts/パイプライン並列.md"
sed -i '/^aliases: \[Yu Qiying\]$/d' "$k/wiki/entities/Qiying Yu.md"
expect "the aliases are taken away" test -z "$(grep -l "PP法\|Yu Qiying" "$k/wiki/concepts/パイプライン並列.md" "$k/wiki/entities/Qiying Yu.md")"
same_as_rebuild "$k" "$kinc" "pages giving up aliases"
# An alias two pages share (ambiguous in the findings), then three: each
# taken away in turn, the findings follow.
shared=("wiki/concepts/FSDP.md" "wiki/concepts/チェックポイント.md" "wiki/concepts/障害検知.md")
for page in "${shared[@]}"; do
  sed -i '0,/^type: /s/^\(type: .*\)$/\1\naliases: [Shared Alias]/' "$k/$page"
  expect "the alias is written ($page)" grep -q "^aliases: \[Shared Alias\]$" "$k/$page"
done
same_as_rebuild "$k" "$kinc" "three pages given one alias"
expect "the alias is ambiguous" grep -qi "shared alias" <("$INDEXER" --vault "$k" --index "$kinc" --report entities 2>/dev/null)
for page in "${shared[1]}" "${shared[0]}" "${shared[2]}"; do
  sed -i '/^aliases: \[Shared Alias\]$/d' "$k/$page"
  same_as_rebuild "$k" "$kinc" "a page giving up an alias others share ($page)"
done
# A note stating a gloss, then not: the glossary is built again, the resolution kept.
g="$k/wiki/concepts/パイプライン並列.md"
cp "$g" "$WORK/glossed.before"
printf '\n強化学習 (Reinforcement Learning) の話。\n' >>"$g"
same_as_rebuild "$k" "$kinc" "a note states a gloss"
expect "the glossary has it" grep -q "^metadata sagasu.gloss:.*Reinforcement Learning" "$WORK/inc.dump"
cp "$WORK/glossed.before" "$g"
same_as_rebuild "$k" "$kinc" "a note's gloss taken away"
# Pages other notes name deleted (a person, a concept, a system): each name
# becomes one of its own, of the kind the naming notes give it, or none; the
# notes naming it follow.
for page in "wiki/entities/Yanghua Peng.md" "wiki/concepts/チェックポイント.md" "wiki/entities/Mycroft.md"; do
  cp "$k/$page" "$WORK/$(basename "$page")"
  rm "$k/$page"
  same_as_rebuild "$k" "$kinc" "a page others name deleted ($page)"
done
# ... and written again (a page for a name notes use): the page takes the name.
for page in "wiki/concepts/チェックポイント.md" "wiki/entities/Mycroft.md" "wiki/entities/Yanghua Peng.md"; do
  cp "$WORK/$(basename "$page")" "$k/$page"
  same_as_rebuild "$k" "$kinc" "a page for a name notes use ($page)"
done
# A page for a name only one note links, with nothing else said of it.
printf '# 新しい手法Q\n\n本文。\n' >"$k/wiki/concepts/新しい手法Q.md"
printf '\n[[新しい手法Q]] を試す。\n' >>"$k/wiki/concepts/FSDP.md"
same_as_rebuild "$k" "$kinc" "a note links a name no page has"
rm "$k/wiki/concepts/新しい手法Q.md"
"$INDEXER" --vault "$k" --index "$kinc" --quiet
printf -- '---\ntype: concept\n---\n# 新しい手法Q\n\n本文。\n' >"$k/wiki/concepts/新しい手法Q.md"
same_as_rebuild "$k" "$kinc" "a page for the name it links"
# A page renamed, its links left as they were; then renamed again with every
# link to it rewritten (as Obsidian renames): the old name is one of its own
# for as long as notes use it, the new page takes the new one.
mv "$k/wiki/entities/Mycroft.md" "$k/wiki/entities/Mycroft System.md"
same_as_rebuild "$k" "$kinc" "a page renamed, its links as they were"
mv "$k/wiki/entities/Mycroft System.md" "$k/wiki/entities/Mycroft Tracer.md"
grep -rlF '[[Mycroft]]' "$k" | while read -r f; do sed -i 's/\[\[Mycroft\]\]/[[Mycroft Tracer]]/g' "$f"; done
expect "the links are rewritten" test -z "$(grep -rlF '[[Mycroft]]' "$k")"
same_as_rebuild "$k" "$kinc" "a page renamed with its links"
mv "$k/wiki/concepts/新しい手法Q.md" "$k/wiki/concepts/新しい手法R.md"
same_as_rebuild "$k" "$kinc" "a page one note links renamed"
mv "$k/wiki/concepts/新しい手法R.md" "$k/wiki/concepts/新しい手法S.md"
sed -i 's/\[\[新しい手法Q\]\]/[[新しい手法S]]/' "$k/wiki/concepts/FSDP.md"
same_as_rebuild "$k" "$kinc" "a page one note links renamed with its link"
# A page with aliases no note names deleted: its keys and synonyms go with it.
printf -- '---\ntype: concept\naliases: [Concept Y, 概念Y, Shared Alias]\n---\n# 新しい概念Y\n\n本文。\n' \
  >"$k/wiki/concepts/新しい概念Y.md"
"$INDEXER" --vault "$k" --index "$kinc" --quiet
rm "$k/wiki/concepts/新しい概念Y.md"
same_as_rebuild "$k" "$kinc" "a page with aliases no note names deleted"

# The new paper deleted again: no note names it, so its page goes from the
# resolution with the name only it used (新しい共著者).
rm "$k/wiki/sources/@2026__OSDI__A Brand New Paper.md"
same_as_rebuild "$k" "$kinc" "a note no note names deleted"

# Two pages of one name in two folders: a change to how others list that
# name updates both (regression: only one was refreshed).
mkdir -p "$v/a" "$v/b"
printf '# X\nページ a。\n' >"$v/a/X.md"
printf '# X\nページ b。\n' >"$v/b/X.md"
"$INDEXER" --vault "$v" --index "$inc" --quiet
printf '\n## 関連\n- 関連研究者: [[X]]\n' >>"$v/Xin Liu.md"
same_as_rebuild "$v" "$inc" "pages sharing a name are both refreshed"
# ... and whose kinds and facts both give: one of them changed is weighed
# with the other (regression: the change alone was stored).
printf -- '---\ntype: paper\nyear: 2020\n---\n# X\nページ b。\n' >"$v/b/X.md"
same_as_rebuild "$v" "$inc" "pages sharing a name: one becomes a work"
printf -- '---\ntype: paper\nyear: 2024\n---\n# X\nページ a。\n' >"$v/a/X.md"
same_as_rebuild "$v" "$inc" "pages sharing a name: the first becomes a work too"
sed -i 's/^year: 2024$/year: 2025/' "$v/a/X.md"
same_as_rebuild "$v" "$inc" "pages sharing a name: the first one's year changes"
sed -i 's/^type: paper$/type: product/' "$v/b/X.md"
same_as_rebuild "$v" "$inc" "pages sharing a name: the later one's kind changes"

# Facets that depend on other notes' metadata: a work's year changes, a memo
# becomes a book, an author row is rewritten; the notes linking to them follow.
m="$WORK/metadata"
cp -r "$SAGASU_SRC/tests/e2e/fixtures/metadata" "$m"
minc="$WORK/metadata-inc"
"$INDEXER" --vault "$m" --index "$minc" --quiet
sed -i 's/^date: 2012-01-01$/date: 2011-06-01/' "$m/zotero/MP3 - the meaning of a format.md"
same_as_rebuild "$m" "$minc" "a linked book's year changes"
printf '#book\n\n2020年 の本。\n' >"$m/Sterne reading notes.md"
printf '[[Sterne reading notes]] を参照。\n' >"$m/later.md"
same_as_rebuild "$m" "$minc" "a memo becomes a book that another note links"
sed -i 's/| Authors | Shin, Suyeon;Jeon, Sujin;Kim, Junghyun |/| Authors | Shin, Suyeon |/' \
  "$m/papers/icra2025-arxiv/2025-icra-socratic-planner-self-qa-e9f1e55e.md"
same_as_rebuild "$m" "$minc" "an author row is rewritten"

# The sound table is updated by the words of the documents an update writes
# or takes out: a loanword and its English come with a note and go with it
# (regression: the table was recomputed from every word of the vault each run).
printf '# ズィグザグ\nズィグザグ な zigzag 経路。\n' >"$m/zigzag.md"
same_as_rebuild "$m" "$minc" "a new loanword and its English"
expect "the sound table holds the new loanword" grep -q "ズィグザグ" "$WORK/inc.dump"
rm "$m/zigzag.md"
same_as_rebuild "$m" "$minc" "the note holding a loanword is deleted"
expect "the sound table no longer holds it" bash -c "! grep -q 'ズィグザグ' '$WORK/inc.dump'"

# A note deleted: a term every note holds is still read right when it only
# selects (regression: Xapian 1.4.22 failed with "Unexpected end of posting
# list" on such a term scaled by 0: a letter in over 100 words, kind:other in an OR).
w="$WORK/every"
mkdir -p "$w"
for i in $(seq 0 149); do printf 'w xw%d\n' "$i" >"$w/n$i.md"; done
"$INDEXER" --vault "$w" --index "$WORK/every-idx" --quiet
rm "$w/n0.md"
"$INDEXER" --vault "$w" --index "$WORK/every-idx" --quiet
expect "a letter in every note, after a deletion: 149 hits" \
  bash -c "[ \"\$('$SEARCHER' --index '$WORK/every-idx' --paths w | wc -l)\" = 149 ]"
expect "kind:other in an OR, after a deletion: 149 hits" \
  bash -c "[ \"\$('$SEARCHER' --index '$WORK/every-idx' --paths 'xw1 OR kind:other' | wc -l)\" = 149 ]"
# ...and when it is a bridge's equivalent: ロボット sounds like robot, which
# every note holds; the bridge tier counts robot's notes unweighted.
for i in $(seq 1 149); do printf 'w xw%d robot\n' "$i" >"$w/n$i.md"; done
printf 'ロボット の話 w robot\n' >"$w/k.md"
"$INDEXER" --vault "$w" --index "$WORK/every-idx" --quiet
rm "$w/n1.md"
"$INDEXER" --vault "$w" --index "$WORK/every-idx" --quiet
expect "a bridge's word in every note, after a deletion: 149 hits" \
  bash -c "[ \"\$('$SEARCHER' --index '$WORK/every-idx' --paths ロボット | wc -l)\" = 149 ]"

# The summary names what happened: a rename is a rename, a touch costs nothing.
rm -rf "$v" && cp -r "$VAULT" "$v"
"$INDEXER" --vault "$v" --index "$inc" --quiet
mv "$v/wiki/concepts/FSDP.md" "$v/wiki/concepts/FSDP (moved).md"
touch "$v/Xin Liu.md"
check incremental-rename-touch "$INDEXER" --vault "$v" --index "$inc"
printf '\n追記。\n' >>"$v/wiki/concepts/障害検知.md"
rm "$v/wiki/entities/NVIDIA.md"
check incremental-dry-run "$INDEXER" --vault "$v" --index "$inc" --dry-run
# Many notes added at once are written a slice of 256 at a time (memory as a
# fresh build's): 700 notes added, one renamed from the first slice's range
# into the last's, one deleted; the update is what a rebuild makes.
big="$WORK/big" && binc="$WORK/big-inc"
mkdir -p "$big"
for i in $(seq -w 1 100); do printf '# 既存 %s\n[[共通]] の本文 %s。\n' "$i" "$i" >"$big/a-$i.md"; done
"$INDEXER" --vault "$big" --index "$binc" --quiet
for i in $(seq -w 1 700); do printf '# 追加 %s\n[[共通]] と [[既存 %s]]。\n' "$i" "$i" >"$big/m-$i.md"; done
mv "$big/a-050.md" "$big/z-renamed.md"
rm "$big/a-099.md"
"$INDEXER" --vault "$big" --index "$binc" >"$WORK/big.out" 2>&1
expect "700 added, one renamed, one deleted: $(grep -m1 added "$WORK/big.out")" \
  grep -q "added 700,.*deleted 1, renamed 1," "$WORK/big.out"
same_as_rebuild "$big" "$binc" "700 notes added, one renamed across slices, one deleted"
finish
