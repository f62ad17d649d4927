#include <catch2/catch.hpp>

#include "entity_resolver.h"
#include "field_values.h"

using namespace sagasu;

TEST_CASE("EntityResolver, kinds in order of trust", "[entities]") {
  NoteParser p;
  const Note seed = p.parse("ByteDance Seed.md",
                            "# ByteDance Seed 研究組織。 ## 関連 - 親組織: [[ByteDance]] - 関連研究者: [[Xin Liu]] / "
                            "[[Meta]] - 協力機関: [[Tsinghua University]] / [[Facebook]]");
  const Note meta = p.parse("Meta.md", "---\nentity_type: organization\naliases: [Facebook]\n---\n本文");
  const Note x = p.parse("Xin Liu.md", "[[ByteDance Seed]] の研究者。[[Kyoto Lab Inc.]] [[Nobody]]");
  EntityResolver r;
  r.add(make_digest(seed));
  r.add(make_digest(meta));
  r.add(make_digest(x));
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

  const FieldValues f = field_values(seed, r);
  CHECK(f.kind() == NoteKind::Organization);
  CHECK(f.of(schema::ORG) == std::vector<std::string>{"ByteDance", "ByteDance Seed", "Meta"});
  CHECK(f.of(schema::PERSON) == std::vector<std::string>{"Xin Liu"});
}

TEST_CASE("EntityResolver, digests round-trip and changed names are found", "[entities]") {
  NoteParser p;
  const Note a = p.parse("A.md", "---\naliases: [Alpha, アルファ]\nentity_type: organization\n---\n"
                                 "## 関連\n- 関連研究者: [[Bob]] / Carol\n- 親組織: [[Big Corp]]\n");
  const NoteDigest d = make_digest(a);
  const auto back = NoteDigest::decode(d.encode());
  REQUIRE(back);
  CHECK(*back == d);
  CHECK_FALSE(NoteDigest::decode("garbage"));

  EntityResolver before, after;
  before.add(d);
  before.finish();
  // Bob gains a page that says he is an organization: Bob changes, Carol does not.
  const Note bob = p.parse("Bob.md", "---\nentity_type: organization\n---\n本文");
  after.add(d);
  after.add(make_digest(bob));
  after.finish();
  const auto changed = after.changed_names(before);
  CHECK(changed.count("Bob") == 1);
  CHECK(changed.count("Carol") == 0);
}
