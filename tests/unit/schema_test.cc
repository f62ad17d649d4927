#include <catch2/catch.hpp>

#include <set>

#include "sagasu/schema.h"

using namespace sagasu::schema;

TEST_CASE("Schema, no two fields share a prefix", "[schema]") {
  std::set<std::string_view> prefixes, names;
  for (const auto& p : ALL_PREFIXES) {
    CHECK(prefixes.insert(p.prefix).second);
    CHECK(names.insert(p.name).second);
  }
  // No prefix is the start of another custom prefix: XV must not swallow XVx.
  for (const auto& a : ALL_PREFIXES)
    for (const auto& b : ALL_PREFIXES)
      if (a.prefix != b.prefix && a.prefix.size() > 1) CHECK(b.prefix.substr(0, a.prefix.size()) != a.prefix);
}

TEST_CASE("Schema, no two uses share a value slot", "[schema]") {
  std::set<unsigned> slots(ALL_SLOTS.begin(), ALL_SLOTS.end());
  CHECK(slots.size() == ALL_SLOTS.size());
  for (const auto& f : FACETS) CHECK(slots.count(f.slot) == 1);
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

TEST_CASE("Schema, unique ids fit in a Xapian term", "[schema]") {
  CHECK(unique_id_term("a/b.md") == "Qa/b.md");
  const std::string long_path(400, 'x');
  const auto id = unique_id_term(long_path);
  CHECK(id.size() <= MAX_TERM_BYTES);
  CHECK(id != unique_id_term(long_path + "y"));
}
