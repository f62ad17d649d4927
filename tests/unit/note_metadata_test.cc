// A note's own metadata from every place it is kept, with the default config.
#include "note_metadata.h"

#include <catch2/catch.hpp>

#include "note_fixture.h"
#include "test_index.h"

using namespace sagasu;
using V = std::vector<std::string>;

namespace {

V values(const std::vector<Found>& found) {
  V out;
  for (const auto& f : found) out.push_back(f.value);
  return out;
}
V origins(const std::vector<Found>& found) {
  V out;
  for (const auto& f : found) out.emplace_back(to_string(f.origin));
  return out;
}

}  // namespace

TEST_CASE("Metadata, a robotics paper note: table, folder and file name", "[metadata]") {
  const Note n = NoteParser().parse(
      "papers/icra2025-arxiv/2025-icra-socratic-planner-e9f1e55e.md",
      "# Socratic Planner\n\n| Item | Value |\n| --- | --- |\n| Session | Planning 1 |\n"
      "| Authors | Shin, Suyeon;Jeon, Sujin |\n| Source | ICRA 2025 / arXiv |\n\n## TL;DR\n");
  const NoteMetadata m = test::metadata(n);
  CHECK(values(m.venues) == V{"ICRA", "ICRA", "ICRA"});  // table, folder, file name; arXiv is the copy
  CHECK(origins(m.venues) == V{"table", "path", "path"});
  CHECK(values(m.years) == V{"2025", "2025", "2025"});
  CHECK(values(m.persons) == V{"Suyeon Shin", "Sujin Jeon"});
  CHECK(m.unmapped == V{"table: Session"});
  CHECK(m.bibliographic());
}

TEST_CASE("Metadata, a Zotero note: date, publication and the inline fields of its template", "[metadata]") {
  const Note n = NoteParser().parse(
      "電話の考古学.md",
      "---\ntype: \"journalArticle\"\nauthor: \"秋吉, 康晴\"\npublication: \"人文学部研究論集\"\ndate: "
      "2016-01-01\n"
      "citekey: Akiyoshi2016\ntags:\n- research\n---\n> **Journal**:: *人文学部研究論集*\n");
  const NoteMetadata m = test::metadata(n);
  CHECK(values(m.venues) == V{"人文学部研究論集", "人文学部研究論集"});
  CHECK(values(m.years) == V{"2016"});
  CHECK(values(m.persons) == V{"秋吉康晴"});
  CHECK(m.kind_words == std::vector<KindWord>{{"journalArticle", true}, {"research", false}});
  CHECK(m.unmapped == V{"front matter: citekey"});
}

TEST_CASE("Metadata, kinds: entity_type before type, nested #type/ tags, a source file name", "[metadata]") {
  const Note a =
      NoteParser().parse("x.md", "---\ntype: entity\nentity_type: person\n---\n#type/paper #idea\n");
  CHECK(test::metadata(a).kind_words ==
        std::vector<KindWord>{{"person", true}, {"paper", true}, {"idea", false}});
  const Note s =
      NoteParser().parse("wiki/sources/@2024__NSDI__MegaScale.md", "---\ndate_published: 2024\n---\n");
  const NoteMetadata m = test::metadata(s);
  CHECK(values(m.venues) == V{"NSDI"});
  CHECK(origins(m.years) == V{"file name", "front matter"});
  CHECK(m.kind_words.front() == KindWord{"source", true});
}

TEST_CASE("Metadata, paths: a folder that is no known venue gives nothing", "[metadata]") {
  const Note n = NoteParser().parse("notes2024/2024-memo-x.md", "本文");
  const NoteMetadata m = test::metadata(n);
  CHECK(m.venues.empty());
  CHECK(m.years.empty());
}

TEST_CASE("Metadata, a work's year from its opening lines, not from links or date stamps", "[metadata]") {
  const Note book = NoteParser().parse(
      "Diminished Faculties - Jonathan Sterne.md",
      "#book\n\n\n[[Jonathan Sterne]], 2021, Duke University Press\n\nhttps://example.org/2023/02/06/x\n");
  CHECK(test::metadata(book).text_year == std::optional<std::string>("2021"));
  const Note stamp = NoteParser().parse("エトセトラ.md",
                                        "#book\nhttps://etcbooks.co.jp/\nISBN:978-4-909910-20-2\n"
                                        "[[周司あきら]] 特集編集\n2024/01/17\n");
  CHECK_FALSE(test::metadata(stamp).text_year);
  CHECK(years_in("2013-01-01") == V{"2013"});
  CHECK(years_in("ICRA 2025 / arXiv 12025") == V{"2025"});
}

TEST_CASE("Metadata, a config adds keys, path patterns and venue spellings", "[metadata]") {
  test::TempDir dir;
  const auto file = dir.path / "config.yaml";
  test::write_file(file,
                   "keys:\n  venue: [Session]\npaths:\n  - 'by-person/(?<person>[^/]+)/'\n"
                   "venues:\n  NeurIPS: [NIPS]\n");
  const VaultConfig config = VaultConfig::load(file, "config.yaml");
  const Note n =
      NoteParser().parse("by-person/Yann LeCun/x.md", "| K | V |\n|---|---|\n| Session | NIPS 2017 |\n");
  const NoteMetadata m = read_metadata(n, config);
  CHECK(values(m.venues) == V{"NeurIPS"});
  CHECK(values(m.years) == V{"2017"});
  CHECK(values(m.persons) == V{"Yann LeCun"});
}

TEST_CASE("Metadata, a source: names a venue only when it reads as one; a file is no venue", "[metadata]") {
  // A sync plugin writes source: LINE; Zotero links the PDF; a Web Clipper note credits its site.
  auto venues = [](const std::string& front) {
    return values(test::metadata(NoteParser().parse("n.md", "---\n" + front + "---\nx\n")).venues);
  };
  CHECK(venues("source: LINE\n").empty());
  CHECK(venues("source: \"[[Vaswani2017.pdf]]\"\n").empty());
  CHECK(venues("venue: \"[[Vaswani2017.pdf]]\"\n").empty());
  CHECK(venues("source: ICRA 2025 / arXiv\n") == V{"ICRA"});
  CHECK(venues("source: NeurIPS\n") == V{"NeurIPS"});                      // a venue the config knows
  CHECK(venues("source: Proceedings of the VLDB Endowment\n") == V{"Proceedings of the VLDB Endowment"});
  CHECK(venues("source: CoRL'23\n") == V{"CoRL"});
  CHECK(venues("source: ABCD 2024\n") == V{"ABCD"});                        // capitals with a year
  CHECK(venues("journal: 人文学部研究論集\n") == V{"人文学部研究論集"});  // a venue key says so
  const NoteMetadata m = test::metadata(NoteParser().parse("n.md", "---\nsource: 日記 2024\n---\nx\n"));
  CHECK(m.years.empty());  // no venue, so no year from it
}

TEST_CASE("Metadata, an author credited alone must read as a person; an author list is people", "[metadata]") {
  auto shaped = [](const std::string& front) {
    V out;
    for (const Found& f : test::metadata(NoteParser().parse("n.md", "---\n" + front + "---\nx\n")).persons)
      out.push_back(f.value + (f.person_shaped ? "" : " (no person)"));
    return out;
  };
  CHECK(shaped("author:\n  - \"[[Zenn]]\"\n") == V{"Zenn (no person)"});
  CHECK(shaped("author: note\n") == V{"note (no person)"});
  CHECK(shaped("author:\n  - \"[[Andrej Karpathy]]\"\n") == V{"Andrej Karpathy"});
  CHECK(shaped("authors: Vaswani; Shazeer\n") == V{"Vaswani", "Shazeer"});  // a paper's author list
}
