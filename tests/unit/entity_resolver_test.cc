#include <catch2/catch.hpp>

#include "sagasu/document_builder.h"
#include "sagasu/entity_resolver.h"

using namespace sagasu;

TEST_CASE("EntityResolver, kinds in order of trust", "[entities]") {
  NoteParser p;
  const Note seed = p.parse("ByteDance Seed.md",
                            "# ByteDance Seed 研究組織。 ## 関連 - 親組織: [[ByteDance]] - 関連研究者: [[Xin Liu]] / "
                            "[[Meta]] - 協力機関: [[Tsinghua University]] / [[Facebook]]");
  const Note meta = p.parse("Meta.md", "---\nentity_type: organization\naliases: [Facebook]\n---\n本文");
  const Note x = p.parse("Xin Liu.md", "[[ByteDance Seed]] の研究者。[[Kyoto Lab Inc.]] [[Nobody]]");
  EntityResolver r;
  r.add_note(seed);
  r.add_note(meta);
  r.add_note(x);
  REQUIRE(r.load_overrides("# comment\nTsinghua University\tother\nbroken line\n").size() == 1);
  r.finish();
  CHECK(r.kind("Xin Liu") == NoteKind::Person);  // list label
  CHECK(r.evidence("Xin Liu") == KindEvidence::ListLabel);
  CHECK(r.kind("Meta") == NoteKind::Organization);  // own page beats the 関連研究者 label
  CHECK(r.canonical("facebook") == "Meta");         // alias, case folded
  CHECK(r.kind("ByteDance Seed") == NoteKind::Organization);  // has a 親組織: page structure
  CHECK(r.kind("Tsinghua University") == NoteKind::Other);     // the override file wins
  CHECK(r.kind("Kyoto Lab Inc.") == NoteKind::Organization);   // heuristic
  CHECK_FALSE(r.kind("Nobody"));

  const NoteFacets f = resolve_facets(seed, r);
  CHECK(f.kind == NoteKind::Organization);
  CHECK(f.orgs == std::vector<std::string>{"ByteDance", "ByteDance Seed", "Meta"});
  CHECK(f.persons == std::vector<std::string>{"Xin Liu"});
}
