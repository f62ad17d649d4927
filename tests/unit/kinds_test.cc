#include "sagasu/kinds.h"

#include <catch2/catch.hpp>

using namespace sagasu;

TEST_CASE("KindVocabulary, defaults: built-in kinds and common synonyms, folded", "[kinds]") {
  const KindVocabulary v = KindVocabulary::defaults();
  CHECK(v.canonical("person") == "person");
  CHECK(v.canonical("Paper") == "source");
  CHECK(v.canonical("journalArticle") == "source");  // Zotero's item type
  CHECK(v.canonical("ＢＯＯＫ") == "book");          // width and case folded
  CHECK(v.canonical("publisher") == "organization");
  CHECK(v.canonical("tools") == "product");
  CHECK_FALSE(v.canonical("planet"));
  CHECK(v.is_kind("book"));
  CHECK_FALSE(v.is_kind("paper"));  // a synonym, not a kind
}

TEST_CASE("KindVocabulary, a vault's own kinds and synonyms; encoded for the index", "[kinds]") {
  KindVocabulary v = KindVocabulary::defaults();
  v.add_kind("paper");  // this vault wants papers apart from other sources
  CHECK(v.canonical("paper") == "paper");
  CHECK(v.is_kind("paper"));
  v.add_synonym("monografie", "book");
  v.add_synonym("Zine", "Magazine");  // a synonym of a new kind adds the kind
  CHECK(v.canonical("zine") == "Magazine");
  CHECK(v.is_kind("magazine"));
  const auto back = KindVocabulary::decode(v.encode());
  REQUIRE(back);
  CHECK(*back == v);
  CHECK_FALSE(KindVocabulary::decode("no tab here\n"));
}
