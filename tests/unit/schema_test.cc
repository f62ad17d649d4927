#include "sagasu/schema.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>

using namespace sagasu::schema;

TEST_CASE("Schema, no two fields share a prefix or a name", "[schema]") {
  std::set<std::string_view> prefixes, names;
  for (const auto& f : FIELDS) {
    CHECK(prefixes.insert(f.prefix).second);
    CHECK(names.insert(f.name).second);
  }
  // No prefix is the start of another custom prefix: XV must not swallow XVx.
  for (const auto& a : FIELDS)
    for (const auto& b : FIELDS)
      if (a.prefix != b.prefix && a.prefix.size() > 1) CHECK(b.prefix.substr(0, a.prefix.size()) != a.prefix);
}

TEST_CASE("Schema, every prefix is a capital and so no word term", "[schema]") {
  for (const auto& f : FIELDS) {
    CHECK_FALSE(is_word_term(std::string(f.prefix) + "x"));
    CHECK(std::string(f.prefix) < std::string(WORD_TERMS_AFTER_PREFIXES));
  }
  CHECK(is_word_term("straggler"));
  CHECK(is_word_term("2026"));
  CHECK(is_word_term("ストラグラー"));
  CHECK_FALSE(is_word_term(""));
}

TEST_CASE("Schema, no two uses share a value slot", "[schema]") {
  std::set<unsigned> slots;
  std::set<std::string_view> names;
  for (const auto& s : SLOTS) {
    CHECK(slots.insert(s.slot).second);
    CHECK(names.insert(s.name).second);
  }
  std::set<int> facet_slots;
  for (const auto& f : FIELDS) {
    if (!f.is_facet()) continue;
    CHECK(slots.count(static_cast<unsigned>(f.facet_slot)) == 1);
    CHECK(facet_slots.insert(f.facet_slot).second);
  }
}

TEST_CASE("Schema, a note's shard number reads back, and nothing else reads as one", "[schema]") {
  for (std::size_t k : {0, 1, 7, 1023}) CHECK(shard_number(shard_value(k)) == k);
  CHECK_FALSE(shard_number(""));
  CHECK_FALSE(shard_number("1x"));
  CHECK_FALSE(shard_number("-1"));
  CHECK_FALSE(shard_number("notes/a.md"));  // a path, as STATE holds
}

TEST_CASE("Schema, the named fields are rows of the table", "[schema]") {
  CHECK(&FIELDS[index_of(VENUE)] == &VENUE);
  CHECK(VENUE.name == "venue");
  CHECK(find_field("links") == &LINK);
  CHECK(find_facet("venue") == &VENUE);
  CHECK(find_facet("tag") == nullptr);  // a field, not a facet
  CHECK(find_field("nope") == nullptr);
  CHECK(field_names(true) == "venue, year, person, org, kind");
  CHECK(field_names(true, " or ") == "venue, year, person, org or kind");
  CHECK(field_names(false) == "venue, year, person, org, kind, tag, path, links, cites");
}

TEST_CASE("Schema, packed values round-trip sorted and unique", "[schema]") {
  const auto packed = pack_values({"OSDI", "NSDI", "OSDI", "", "MLSys"});
  CHECK(unpack_values(packed) == std::vector<std::string>{"MLSys", "NSDI", "OSDI"});
  CHECK(unpack_values("").empty());
}

TEST_CASE("Schema, filter terms fold case, width and spaces", "[schema]") {
  CHECK(filter_term(PERSON, "Xin  Liu") == "XPxin liu");
  CHECK(filter_term(VENUE, "ＯＳＤＩ") == "XVosdi");
  CHECK(filter_term(ORG, " ByteDance ") == "XObytedance");
}

TEST_CASE("Schema, names fold '_' as entity resolution does; keys keep it", "[schema]") {
  // [[Xin_Liu]] resolves to the page "Xin Liu": person:Xin_Liu must find it.
  CHECK(filter_term(PERSON, "Xin_Liu") == filter_term(PERSON, "Xin Liu"));
  CHECK(filter_term(LINK, "Xin_Liu") == "XLxin liu");
  CHECK(filter_term(CITE, "2026__OSDI__SDC") == "XC2026__osdi__sdc");
  CHECK(filter_term(PATH, "wiki/my_notes/") == "XDwiki/my_notes");
}

TEST_CASE("Schema, values are normalized the same at index and query time", "[schema]") {
  CHECK(filter_term(VENUE, "MLSys2026") == "XVmlsys");
  CHECK(filter_term(VENUE, "NSDI'24") == "XVnsdi");
  CHECK(filter_term(KIND, "Book") == "XKbook");  // kinds are the vault's words: the searcher maps synonyms
  CHECK(filter_term(CITE, "@2025__arXiv__DAPO") == "XC2025__arxiv__dapo");
}

TEST_CASE("Schema, unique ids fit in a Xapian term", "[schema]") {
  CHECK(unique_id_term("a/b.md") == "Qa/b.md");
  const std::string long_path(400, 'x');
  const auto id = unique_id_term(long_path);
  CHECK(id.size() <= MAX_TERM_BYTES);
  CHECK(id != unique_id_term(long_path + "y"));
}
