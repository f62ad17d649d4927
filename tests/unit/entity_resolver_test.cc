#include "entity_resolver.h"

#include <catch2/catch.hpp>

#include "field_values.h"
#include "note_fixture.h"

using namespace sagasu;

TEST_CASE("EntityResolver, kinds in order of trust", "[entities]") {
  NoteParser p;
  const Note seed = p.parse("ByteDance Seed.md",
                            "# ByteDance Seed 研究組織。 ## 関連 - 親組織: [[ByteDance]] - 関連研究者: [[Xin Liu]] / "
                            "[[Meta]] - 協力機関: [[Tsinghua University]] / [[Facebook]]");
  const Note meta = p.parse("Meta.md", "---\nentity_type: organization\naliases: [Facebook]\n---\n本文");
  const Note x = p.parse("Xin Liu.md", "[[ByteDance Seed]] の研究者。[[Kyoto Lab Inc.]] [[Nobody]]");
  EntityResolver r;
  r.add(test::digest(seed));
  r.add(test::digest(meta));
  r.add(test::digest(x));
  REQUIRE(r.load_overrides("# comment\nTsinghua University\tother\nbroken line\n").size() == 1);
  r.finish();
  CHECK(r.kind("Xin Liu") == "person");  // list label
  CHECK(r.evidence("Xin Liu") == KindEvidence::ListLabel);
  CHECK(r.kind("Meta") == "organization");  // own page beats the 関連研究者 label
  CHECK(r.canonical("facebook") == "Meta");         // alias, case folded
  CHECK(r.kind("ByteDance Seed") == "organization");  // has a 親組織: page structure
  CHECK(r.kind("Tsinghua University") == "other");     // the override file wins
  CHECK(r.kind("Kyoto Lab Inc.") == "organization");   // heuristic
  CHECK_FALSE(r.kind("Nobody"));

  const FieldValues f = test::values_of(seed, r);
  CHECK(f.kind() == "organization");
  CHECK(f.of(schema::ORG) == std::vector<std::string>{"ByteDance", "ByteDance Seed", "Meta"});
  CHECK(f.of(schema::PERSON) == std::vector<std::string>{"Xin Liu"});
}

TEST_CASE("EntityResolver, digests round-trip and changed names are found", "[entities]") {
  NoteParser p;
  const Note a = p.parse("A.md", "---\naliases: [Alpha, アルファ]\nentity_type: organization\n---\n"
                                 "## 関連\n- 関連研究者: [[Bob]] / Carol\n- 親組織: [[Big Corp]]\n");
  const NoteDigest d = test::digest(a);
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
  CHECK(r.kind("Paper") == "source");  // a synonym of the defaults
  CHECK(r.kind("Memo") == "book");     // the first tag that is a kind
  CHECK_FALSE(r.vocabulary().canonical("ideas"));  // a tag is no kind of its own
  CHECK_FALSE(r.kind("Survey"));  // a tag meaning "other" says nothing
}
