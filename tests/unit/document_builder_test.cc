#include "document_builder.h"

#include <xapian.h>

#include <catch2/catch.hpp>

#include "entity_resolver.h"
#include "field_values.h"
#include "note_fixture.h"
#include "sagasu/schema.h"

using namespace sagasu;

namespace {

bool has_term(const Xapian::Document& doc, const std::string& term) {
  auto t = doc.termlist_begin();
  t.skip_to(term);
  return t != doc.termlist_end() && *t == term;
}

// A note's values as field_values() would find them, one or more for every filter and facet field.
FieldValues sample_values() {
  FieldValues v;
  v.add(schema::PATH, "wiki/a.md");
  v.add(schema::PATH, "wiki");
  v.add(schema::VENUE, "OSDI");
  v.add(schema::YEAR, "2026");
  v.add(schema::YEAR, "2024");
  v.add(schema::PERSON, "Xin Liu");
  v.add(schema::ORG, "Meta");
  v.set_kind("person");
  v.add(schema::TAG, "sdc");
  v.add(schema::LINK, "Meta");
  v.add(schema::CITE, "2026__OSDI__X");
  return v;
}

}  // namespace

TEST_CASE("FieldValues, a note's values: path and folders, tags, citations, links, kind", "[document]") {
  NoteParser p;
  const Note note =
      p.parse("wiki/notes/a.md", "[[@2026__OSDI2026__Fast Checkpoints]] と [[Meta]] の話。 #sdc #sdc");
  const Note meta = p.parse("Meta.md", "---\nentity_type: organization\n---\n本文");
  EntityResolver r;
  r.add(test::digest(note));
  r.add(test::digest(meta));
  r.finish();
  const FieldValues v = test::values_of(note, r);
  CHECK(v.of(schema::PATH) == std::vector<std::string>{"wiki", "wiki/notes", "wiki/notes/a.md"});
  CHECK(v.of(schema::TAG) == std::vector<std::string>{"sdc"});  // once
  CHECK(v.of(schema::CITE) == std::vector<std::string>{"2026__OSDI2026__Fast Checkpoints"});
  CHECK(v.of(schema::VENUE) == std::vector<std::string>{"OSDI"});
  CHECK(v.of(schema::YEAR) == std::vector<std::string>{"2026"});
  CHECK(v.of(schema::LINK) == std::vector<std::string>{"Meta"});
  CHECK(v.of(schema::ORG) == std::vector<std::string>{"Meta"});
  CHECK(v.kind() == "other");
  CHECK(v.of(schema::KIND) == std::vector<std::string>{"other"});

  const Note source = p.parse("@2025__NSDI'25__Paper.md", "[[@2026__OSDI2026__Fast Checkpoints]]");
  const FieldValues s = test::values_of(source, r);
  CHECK(s.kind() == "source");
  CHECK(s.of(schema::VENUE) == std::vector<std::string>{"NSDI"});  // its own, not what it cites
  CHECK(s.of(schema::CITE) ==
        std::vector<std::string>{"2025__NSDI'25__Paper", "2026__OSDI2026__Fast Checkpoints"});
}

TEST_CASE("DocumentBuilder, every field of the table: filter terms and facet slots", "[document]") {
  const Note note = NoteParser().parse("wiki/a.md", "本文です。");
  const FieldValues values = sample_values();
  Analyzer analyzer;
  DocumentBuilder builder(analyzer);
  const Xapian::Document doc = builder.build(note, values);
  for (const schema::Field& field : schema::FIELDS) {
    if (field.is_filter())
      for (const auto& value : values.of(field)) CHECK(has_term(doc, schema::filter_term(field, value)));
    if (field.is_facet())
      CHECK(doc.get_value(static_cast<Xapian::valueno>(field.facet_slot)) ==
            schema::pack_values(values.of(field)));
  }
  CHECK(has_term(doc, "XKperson"));
  CHECK(doc.get_value(schema::SLOT_YEAR_SORT) == Xapian::sortable_serialise(2026));  // the newest year
  CHECK(doc.get_value(schema::SLOT_SIGNATURE) == builder.signature(note, values));
}

TEST_CASE("DocumentBuilder, the signature changes with any field's values", "[document]") {
  const Note note = NoteParser().parse("wiki/a.md", "本文です。");
  Analyzer analyzer;
  const DocumentBuilder builder(analyzer);
  const std::string before = builder.signature(note, sample_values());
  for (const schema::Field& field : schema::FIELDS) {
    FieldValues more = sample_values();
    more.add(field, "another value");
    INFO(field.name);
    CHECK(builder.signature(note, more) != before);
  }
  FieldValues other_kind = sample_values();
  other_kind.set_kind("organization");
  CHECK(builder.signature(note, other_kind) != before);
}

TEST_CASE("FieldValues, where each facet's values came from, kept in the document's COVERAGE", "[document]") {
  NoteParser p;
  const Note paper =
      p.parse("papers/icra2025-arxiv/2025-icra-x-1234.md",
              "# X\n| Item | Value |\n|---|---|\n| Authors | Shin, Suyeon |\n| Source | ICRA 2025 |\n"
              "| Session | Planning |\n");
  EntityResolver r;
  r.add(test::digest(paper));
  r.finish();
  const FieldValues v = test::values_of(paper, r);
  using S = std::set<std::string>;
  CHECK(v.coverage().sources.at("venue") == S{"path", "table"});
  CHECK(v.coverage().sources.at("person") == S{"table"});
  CHECK(v.coverage().sources.count("org") == 0);
  CHECK(v.coverage().unmapped == std::vector<std::string>{"table: Session"});
  Analyzer analyzer;
  const Xapian::Document doc = DocumentBuilder(analyzer).build(paper, v);
  const auto stored = NoteCoverage::decode(doc.get_value(schema::SLOT_COVERAGE));
  REQUIRE(stored);
  CHECK(*stored == v.coverage());
  CHECK_FALSE(NoteCoverage::decode("c1garbage"));
}

// Found by fuzzing (tests/fuzz/corpus/stored_value/float-offset): a META value
// whose citation offset is a float (1e55) converted to size_t with undefined
// behaviour; a damaged value is refused in part, never misread.
TEST_CASE("Stored META, citation offsets must be the unsigned integers encode writes", "[document]") {
  const auto m = NoteMeta::decode(
      R"({"path":"a.md","citations":[[1.3e55,2,"k"],[-1,2,"k"],[1,2,3],[3,9,"2025__SOSP__X"]]})");
  REQUIRE(m);
  CHECK(m->path == "a.md");
  REQUIRE(m->citations.size() == 1);
  CHECK(m->citations[0].begin == 3);
  CHECK(m->citations[0].end == 9);
  CHECK(m->citations[0].key == "2025__SOSP__X");
}
