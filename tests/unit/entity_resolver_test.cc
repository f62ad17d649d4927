#include "entity_resolver.h"

#include <catch2/catch.hpp>
#include <functional>
#include <random>

#include "field_values.h"
#include "note_fixture.h"
#include "sagasu/unicode.h"

using namespace sagasu;

TEST_CASE("EntityResolver, kinds in order of trust", "[entities]") {
  NoteParser p;
  const Note seed =
      p.parse("ByteDance Seed.md",
              "# ByteDance Seed 研究組織。 ## 関連 - 親組織: [[ByteDance]] - 関連研究者: [[Xin Liu]] / "
              "[[Meta]] - 協力機関: [[Tsinghua University]] / [[Facebook]]");
  const Note meta = p.parse("Meta.md", "---\nentity_type: organization\naliases: [Facebook]\n---\n本文");
  const Note x = p.parse(
      "Xin Liu.md", "[[ByteDance Seed]] の研究者。[[Kyoto Lab Inc.]] の話。[[Nobody]] も。[[facebook]] も。");
  EntityResolver r;
  r.add(test::digest(seed));
  r.add(test::digest(meta));
  r.add(test::digest(x));
  REQUIRE(r.load_overrides("# comment\nTsinghua University\tother\nbroken line\n").size() == 1);
  r.finish();
  CHECK(r.kind("Xin Liu") == "person");  // list label
  CHECK(r.evidence("Xin Liu") == KindEvidence::ListLabel);
  CHECK(r.kind("Meta") == "organization");            // own page beats the 関連研究者 label
  CHECK(r.canonical("facebook") == "Meta");           // alias, case folded
  CHECK(r.kind("ByteDance Seed") == "organization");  // has a 親組織: page structure
  CHECK(r.kind("Tsinghua University") == "other");    // the override file wins
  CHECK(r.kind("Kyoto Lab Inc.") == "organization");  // heuristic
  CHECK_FALSE(r.kind("Nobody"));

  const FieldValues f = test::values_of(seed, r);
  CHECK(f.kind() == "organization");
  CHECK(f.of(schema::ORG) == std::vector<std::string>{"ByteDance", "ByteDance Seed", "Meta"});
  CHECK(f.of(schema::PERSON) == std::vector<std::string>{"Xin Liu"});
}

TEST_CASE("EntityResolver, digests round-trip and changed names are found", "[entities]") {
  NoteParser p;
  const Note a = p.parse("A.md",
                         "---\naliases: [Alpha, アルファ]\nentity_type: organization\n---\n"
                         "## 関連\n- 関連研究者: [[Bob]] / Carol\n- 親組織: [[Big Corp]]\n");
  const NoteDigest d = test::digest(a);
  const auto back = NoteDigest::decode(d.encode());
  REQUIRE(back);
  CHECK(*back == d);
  CHECK_FALSE(NoteDigest::decode("garbage"));
  // The page's fields alone, and the glosses alone, read without the rest.
  const NoteDigest g = test::digest(p.parse(
      "B.md",
      "---\naliases: [Beta]\ntype: paper\nvenue: OSDI\nyear: 2024\n---\n強化学習 (Reinforcement Learning) "
      "と [[Xin Liu|劉鑫]]、[[Bob]]による開発。[[Alpha]]・[[Carol]]（訳）。\n## 関連\n- 関連研究者: "
      "[[Bob]]\n"));
  REQUIRE(g.glosses.size() >= 2);
  REQUIRE_FALSE(g.hints.empty());
  REQUIRE_FALSE(g.lists.empty());
  REQUIRE_FALSE(g.labelled.empty());
  for (const NoteDigest* x : {&d, &g}) {
    const auto page = NoteDigest::decode_page(x->encode());
    REQUIRE(page);
    CHECK((page->title == x->title && page->display_title == x->display_title && page->source == x->source &&
           page->kind_words == x->kind_words && page->structure == x->structure &&
           page->aliases == x->aliases));
    CHECK(page->names.empty());
    CHECK(NoteDigest::decode_glosses(x->encode()) == x->glosses);
  }
  CHECK_FALSE(NoteDigest::decode_glosses(g.encode() + "x"));

  EntityResolver before, after;
  before.add(d);
  before.finish();
  // Bob gains a page that says he is an organization: Bob changes, Carol does not.
  const Note bob = p.parse("Bob.md", "---\nentity_type: organization\n---\n本文");
  after.add(d);
  after.add(test::digest(bob));
  after.finish();
  const auto changed = after.changed_names(before);
  CHECK(changed.count("Bob") == 1);
  CHECK(changed.count("Carol") == 0);
}

TEST_CASE("EntityResolver, a kind the vault declares is a kind of its own; tags only when they are kinds",
          "[entities]") {
  NoteParser p;
  EntityResolver r;
  r.add(test::digest(p.parse("Card.md", "---\ntype: dataset-card\n---\n本文")));
  r.add(test::digest(p.parse("Paper.md", "---\ntype: journalArticle\n---\n本文")));
  r.add(test::digest(p.parse("Memo.md", "---\ntags: [ideas, book]\n---\n本文")));
  r.add(test::digest(p.parse("Survey.md", "---\ntags: [survey]\n---\n本文")));
  r.finish();
  CHECK(r.kind("Card") == "dataset-card");
  CHECK(r.vocabulary().is_kind("dataset-card"));
  CHECK(r.kind("Paper") == "source");                 // a synonym of the defaults
  CHECK(r.kind("Memo") == "book");                    // the first tag that is a kind
  CHECK_FALSE(r.vocabulary().canonical("ideas"));     // a tag is no kind of its own
  CHECK(r.evidence("Survey") == KindEvidence::Page);  // a tag meaning "other" says nothing: a page
}

TEST_CASE("EntityResolver, kinds from a page's text and from the words around links to it", "[entities]") {
  NoteParser p;
  EntityResolver r;
  // First sentences define pages; a page nothing tells about is "other", not unresolved.
  r.add(test::digest(p.parse(
      "ADX.md", "#audiomiddleware #sound\n\n日本の会社CRIWAREが作ってる老舗オーディオミドルウェア\n")));
  r.add(
      test::digest(p.parse("NVIDIA.md", "# NVIDIA\n米国の半導体企業で、データセンター向け GPU の最大手。")));
  r.add(test::digest(p.parse("多段階計算.md", "メタプログラミングの技法の一種。[[MetaOCaml]]などが有名")));
  r.add(test::digest(p.parse("Arduino.md", "#tools #hardware\n")));
  r.add(test::digest(p.parse("Untitled.md", "")));
  // A paper note: its own authors and venue.
  r.add(test::digest(p.parse("2025-icra-x.md",
                             "| Item | Value |\n|---|---|\n| Authors | Shin, Suyeon |\n"
                             "| Source | ICRA 2025 / arXiv |\n")));
  // Names without a page: the words around them, in every note, and the lists they stand in.
  r.add(test::digest(
      p.parse("book.md",
              "[[エリザベス・ブレイク]]（著）／[[久保田裕之]]（監訳）／[[羽生有希]]・[[藤間公太]]（訳）\n"
              "一般社団法人 [[公共とデザイン]] 著\n[[Eli Brandt]]による[[Chronic]]。"
              "[[多段階計算]]による型安全なマクロ。\n[[Wencong Xiao]] 所属の研究者と[[X Lab]] の二人。"
              "[[Kyoto Robotics]] との共同研究。")));
  r.add(test::digest(p.parse("エリザベス・ブレイク.md", "#person\n")));
  r.add(test::digest(p.parse("index.md", "### タグ一覧\n- #person\n")));  // a tag index says nothing
  r.finish();
  CHECK(r.kind("ADX") == "product");
  CHECK(r.evidence("ADX") == KindEvidence::FirstSentence);
  CHECK(r.evidence_detail("ADX") == "ミドルウェア");
  CHECK(r.kind("NVIDIA") == "organization");
  CHECK(r.kind("多段階計算") == "concept");  // its own first sentence beats 「による」 elsewhere
  CHECK(r.kind("Arduino") == "product");     // #tools
  CHECK(r.kind("Untitled") == "other");
  CHECK(r.evidence("Untitled") == KindEvidence::Page);
  CHECK(r.kind("2025-icra-x") == "source");
  CHECK(r.evidence("2025-icra-x") == KindEvidence::Bibliographic);
  CHECK(r.kind("久保田裕之") == "person");
  CHECK(r.evidence_detail("久保田裕之") == "（監訳） in 1 note(s)");
  CHECK(r.kind("藤間公太") == "person");
  CHECK(r.kind("公共とデザイン") == "organization");  // the legal form before it beats 著 after it
  CHECK(r.kind("Eli Brandt") == "person");
  CHECK(r.kind("Wencong Xiao") == "organization");    // 「X 所属の研究者」: X is where one works
  CHECK(r.kind("X Lab") == "organization");           // the name says so
  CHECK(r.kind("Kyoto Robotics") == "organization");  // 「…との共同研究」
  CHECK(r.kind("index") == "other");
  CHECK_FALSE(r.kind("Chronic"));
}

TEST_CASE("EntityResolver, a vault's own kind for papers is still a work", "[entities]") {
  CHECK(is_work("source"));
  CHECK(is_work("book"));
  CHECK(is_work("paper"));  // `kinds: paper: []` in a config splits papers from sources
  CHECK(is_work("journalArticle"));
  CHECK_FALSE(is_work("person"));
  CHECK_FALSE(is_work("dataset-card"));
}

TEST_CASE("EntityResolver, a page that exists is never unresolved, whatever form the link takes",
          "[entities]") {
  NoteParser p;
  const Note beta = p.parse("sub/Beta.md", "# Beta\n");
  const Note gamma = p.parse("Gamma.md", "# Gamma\n");
  const Note alpha = p.parse(
      "Alpha.md",
      "[[sub/Beta]] [[Gamma#Intro]] [[Gamma.md]] [[./Gamma]] [[Gamma^abc123]] [[sub/Beta|shown]] [[gamma]] "
      "[[Eta.pdf]] [[attachments/fig.png]] [[Missing Person]]");
  EntityResolver r;
  for (const Note* n : {&alpha, &beta, &gamma}) r.add(test::digest(*n));
  r.finish();
  for (const char* target : {"sub/Beta", "Gamma", "Gamma.md", "./Gamma", "Gamma^abc123", "gamma"}) {
    INFO(target);
    const std::string canon = r.canonical(target);
    CHECK((canon == "Beta" || canon == "Gamma"));
    CHECK(r.kind(canon) == "other");  // a page nothing tells about
  }
  CHECK_FALSE(r.kind(r.canonical("Missing Person")));  // no page: unresolved
  const auto names = test::digest(alpha).names;        // attachments are files, not entities
  CHECK(std::find(names.begin(), names.end(), "Eta.pdf") == names.end());
  CHECK(std::find(names.begin(), names.end(), "attachments/fig.png") == names.end());
  CHECK(link_page_name("sub/deeper/Eps") == "Eps");
  CHECK(link_page_name("Delta.MD") == "Delta");
  CHECK(link_page_name("/Zeta^x") == "Zeta");
}

TEST_CASE("EntityResolver, the evidence of a kind from link words is a word of that kind", "[entities]") {
  // The marker shown was the last kind's in map order, not the chosen kind's.
  NoteParser p;
  EntityResolver r;
  r.add(test::digest(p.parse("a.md", "[[Zeta Group]] との共同研究。\n")));
  r.add(test::digest(p.parse("b.md", "[[Zeta Group]] との共同研究を始めた。\n")));
  r.add(test::digest(p.parse("c.md", "[[Zeta Group]]（訳）\n")));
  r.finish();
  REQUIRE(r.kind("Zeta Group") == "organization");
  CHECK(r.evidence("Zeta Group") == KindEvidence::LinkContext);
  CHECK(r.evidence_detail("Zeta Group").find("in 2 note(s)") != std::string::npos);
  CHECK(r.evidence_detail("Zeta Group").find("訳") == std::string::npos);
}

TEST_CASE("EntityResolver, a name without a page is spelled as first seen, however often it repeats",
          "[entities]") {
  NoteParser p;
  const Note a = p.parse("a.md", "[[kyoto lab]] と [[xin liu]] の話。");
  const Note b = p.parse("b.md", "[[Kyoto Lab]] と [[kyoto lab]]、[[Xin Liu]]。");
  const Note c = p.parse("c.md", "[[KYOTO LAB]] と [[Kyoto Lab]]、[[ＫＹＯＴＯ ＬＡＢ]]。");
  const Note x = p.parse("Xin Liu.md", "本文");
  EntityResolver r;
  for (const Note* n : {&a, &b, &c, &x}) r.add(test::digest(*n));
  r.finish();
  for (const char* spelling : {"kyoto lab", "Kyoto Lab", "KYOTO LAB", "ＫＹＯＴＯ ＬＡＢ"})
    CHECK(r.canonical(spelling) == "kyoto lab");
  CHECK(r.kind("kyoto lab") == "organization");  // the name's own word: lab
  CHECK(r.evidence_detail("kyoto lab") == "lab");
  CHECK(r.canonical("xin liu") == "Xin Liu");  // a page's title beats any spelling
  CHECK(r.kind("Xin Liu") == "other");
  CHECK(r.canonical("Kyoto  Lab") ==
        "Kyoto  Lab");  // a spelling no note uses is its own, as in a stored resolution
}

TEST_CASE("WorkTable, works read from an encoding, in title order", "[entities]") {
  const WorkFacts osdi{{"OSDI"}, {"2024"}}, sosp{{"SOSP", "EuroSys"}, {"2025"}}, none{{}, {"2023"}};
  std::string bytes;
  for (const auto& [title, facts] : std::vector<std::pair<std::string, WorkFacts>>{
           {"A Paper", osdi}, {"B Paper", sosp}, {"C Paper", none}}) {
    put_field(bytes, title);
    bytes += WorkTable::encode(facts);
  }
  bytes += "rest";
  std::string_view in = bytes;
  WorkTable works;
  REQUIRE(works.read(in, 3));
  CHECK(in == "rest");  // (read up to its works' end)
  CHECK(works.find("B Paper") == sosp);
  CHECK(works.find("C Paper") == none);
  CHECK_FALSE(works.find("B"));
  CHECK_FALSE(works.find("D Paper"));
  std::vector<std::string> titles;
  for (const auto& [title, facts] : works.entries()) {
    titles.emplace_back(title);
    CHECK(facts == WorkTable::encode(*works.find(title)));
  }
  CHECK(titles == std::vector<std::string>{"A Paper", "B Paper", "C Paper"});
  // Malformed or out of order: refused.
  std::string_view cut = std::string_view(bytes).substr(0, bytes.size() - 7);
  CHECK_FALSE(WorkTable().read(cut, 3));
  std::string swapped;
  put_field(swapped, "B");
  swapped += WorkTable::encode(osdi);
  put_field(swapped, "A");
  swapped += WorkTable::encode(osdi);
  std::string_view unordered = swapped;
  CHECK_FALSE(WorkTable().read(unordered, 2));
}

TEST_CASE("EntityResolver, changed names: another page, another kind, a work's other year; nothing else",
          "[entities]") {
  NoteParser p;
  const Note a = p.parse("a.md", "## 関連\n- 関連研究者: [[Foo]] / [[Carol]]\n- 出典: [[Paper X]]\n");
  const auto paper = [&](const char* year) {
    return p.parse("Paper X.md",
                   std::string("---\ntype: source\nyear: ") + year + "\nvenue: OSDI\n---\n本文");
  };
  const Note quiet = p.parse("Quiet.md", "---\nentity_type: organization\n---\n本文");
  EntityResolver before;
  for (const Note* n : {&a, &quiet}) before.add(test::digest(*n));
  before.add(test::digest(paper("2024")));
  before.finish();
  // Foo becomes an alias of a new page; the paper's year changes; Carol and Quiet stay as they were.
  const Note bar = p.parse("Bar.md", "---\naliases: [Foo]\nentity_type: organization\n---\n本文");
  EntityResolver after;
  for (const Note* n : {&a, &bar, &quiet}) after.add(test::digest(*n));
  after.add(test::digest(paper("2025")));
  after.finish();
  REQUIRE(after.work("Paper X"));
  CHECK(after.work("Paper X")->years == std::vector<std::string>{"2025"});
  const auto stored = EntityResolver::deserialize(before.serialize());
  REQUIRE(stored);
  for (const EntityResolver* b : std::vector<const EntityResolver*>{&before, &*stored}) {
    const auto changed = after.changed_names(*b);
    CHECK(changed == std::set<std::string>{"Bar", "Foo", "Paper X"});
    CHECK(b->changed_names(after) == changed);  // either way round
  }
  CHECK(after.changed_names(after).empty());
}

// The rows a run stores stand for the notes' digests: a later run that takes
// the notes that did not change from them (and the others from their digests)
// resolves the vault as one reading every digest; rows that do not read are refused.
namespace {

// The rows as one string, from the pieces rows() gives.
std::string rows_of(const EntityResolver& r, const std::vector<std::string_view>& paths) {
  std::string out;
  r.rows(paths, [&](std::string_view piece) { out += piece; });
  return out;
}

}  // namespace

TEST_CASE("EntityResolver, rows stored by one run resolve as the digests they came from", "[entities]") {
  NoteParser p;
  std::vector<NoteDigest> digests;
  for (const auto& [path, text] : std::vector<std::pair<std::string, std::string>>{
           {"ByteDance Seed.md",
            "# ByteDance Seed 研究組織。 ## 関連 - 親組織: [[ByteDance]] - 関連研究者: [[Xin Liu]]"},
           {"Meta.md", "---\nentity_type: organization\naliases: [Facebook]\n---\n本文"},
           {"a.md", "[[facebook]] と [[kyoto lab]]、[[羽生有希]]・[[Xin Liu]]（訳）。"},
           {"b.md", "---\ntype: source\nyear: 2024\nvenue: OSDI\n---\n[[folder/Meta.md]] の論文。"}})
    digests.push_back(test::digest(p.parse(path, text)));
  const std::vector<std::string_view> paths{"ByteDance Seed.md", "Meta.md", "a.md", "b.md"};
  EntityResolver first;
  for (const NoteDigest& d : digests) first.add(d);
  first.finish();
  const std::string rows = rows_of(first, paths);
  first.release_rows();
  // b.md rewritten: the others from the rows, b.md from its new digest.
  const NoteDigest b =
      test::digest(p.parse("b.md", "---\ntype: source\nyear: 2025\n---\n[[Kyoto Lab]] の論文。"));
  EntityResolver from_rows;
  REQUIRE(from_rows.read_rows(std::make_shared<const std::string_view>(rows)));
  REQUIRE(from_rows.stored_notes() == 4);
  CHECK(from_rows.stored_path(2) == "a.md");
  for (std::size_t i = 0; i < 3; ++i) from_rows.add_stored(i);
  from_rows.add(b);
  from_rows.finish();
  EntityResolver from_digests;
  std::vector<std::string> encoded;  // (read in place: kept until finish())
  for (std::size_t i = 0; i < 3; ++i) encoded.push_back(digests[i].encode());
  for (const std::string& e : encoded) from_digests.add_encoded(e);
  from_digests.add(b);
  from_digests.finish();
  CHECK(from_rows.serialize() == from_digests.serialize());
  CHECK(rows_of(from_rows, paths) == rows_of(from_digests, paths));  // (the same notes, the same bytes)
  CHECK(from_rows.kind("Xin Liu") == "person");
  CHECK(from_rows.work("b")->years == std::vector<std::string>{"2025"});
  // Cut short, or another format: refused (the run then reads every digest).
  for (const std::string& bad : {rows.substr(0, rows.size() - 3), "x" + rows.substr(1), std::string()})
    CHECK_FALSE(EntityResolver().read_rows(std::make_shared<const std::string_view>(bad)));
}

TEST_CASE("EntityResolver, the organization suffix is read in names, not chapter titles", "[entities]") {
  NoteParser p;
  const Note book = p.parse("細胞生物学ノート.md",
                            "- [[第3章 タンパク質輸送の機構]]\n- [[膜輸送の分子機構]]\n"
                            "共同研究先: [[情報・システム研究機構]]、[[ものつくり大学]]、[[はこだて未来大学]]\n");
  EntityResolver r;
  r.add(test::digest(book));
  r.finish();
  CHECK_FALSE(r.kind("第3章 タンパク質輸送の機構"));
  CHECK_FALSE(r.kind("膜輸送の分子機構"));
  CHECK(r.kind("情報・システム研究機構") == "organization");
  CHECK(r.kind("ものつくり大学") == "organization");  // の inside a word of kana
  CHECK(r.kind("はこだて未来大学") == "organization");
}
