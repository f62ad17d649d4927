// Field processors: each kind of field turns a typed value into the index's
// filter terms, the same way the indexer wrote them.
#include "field_query.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "sagasu/error.h"
#include "searcher_fixture.h"

using namespace sagasu;

namespace {

struct Fixture : test::SearcherFixture {
  FieldQuery fields{db, synonyms};

  std::vector<std::string> terms(const std::string& filter) {
    auto t = fields.filter(parse_query(filter).front()).terms;
    std::sort(t.begin(), t.end());
    return t;
  }
  std::string error(const std::string& filter) {
    try {
      fields.filter(parse_query(filter).front());
    } catch (const UsageError& e) {
      return e.what();
    }
    return "no error";
  }
};

using V = std::vector<std::string>;

}  // namespace

TEST_CASE_METHOD(Fixture, "FieldQuery, year: a year or a range of the years the index has", "[field_query]") {
  CHECK(terms("year:2025..2026") == V{"XY2025", "XY2026"});
  CHECK(terms("year:2026..") == V{"XY2026"});
  CHECK(terms("year:..2025") == V{"XY2025"});
  CHECK(terms("year:2030").empty());                                     // matches nothing, and still filters
  CHECK(fields.filter(parse_query("year:2030").front()).query.empty());  // Xapian's MatchNothing
  CHECK(error("year:20x5") ==
        "query: year:20x5: expected a year like 2025 or a range like 2024..2026 at column 1");
  CHECK(error("year:2026..2024") == "query: year:2026..2024: empty range at column 1");
}

TEST_CASE_METHOD(Fixture, "FieldQuery, term fields normalize as the indexer does", "[field_query]") {
  CHECK(terms("venue:MLSys2025") == V{"XVmlsys"});
  CHECK(terms("venue:ｏｓｄｉ") == V{"XVosdi"});
  CHECK(terms("tag:SDC") == V{"XTsdc"});
}

TEST_CASE_METHOD(Fixture, "FieldQuery, kind: a kind of the index's vocabulary, synonyms said",
                 "[field_query]") {
  CHECK(terms("kind:person") == V{"XKperson"});
  CHECK(fields.notices().empty());
  CHECK(terms("kind:paper") == V{"XKsource"});
  CHECK(fields.notices() == V{"kind:paper means kind:source"});
  CHECK(terms("kind:book") == V{"XKbook"});  // a kind of the vocabulary that no note has: no error
  // The vault's own kind (type: dataset-card is no word of the defaults) is a kind of the index.
  CHECK(terms("kind:Dataset-Card") == V{"XKdataset-card"});
  CHECK(
      error("kind:planet") ==
      "query: kind:planet: no such kind at column 1; this index holds: dataset-card, other, person, source");
}

TEST_CASE_METHOD(Fixture, "FieldQuery, entities by name, alias or the name folded as resolution folds it",
                 "[field_query]") {
  CHECK(terms("person:\"Xin Liu\"") == V{"XPxin liu"});
  CHECK(terms("person:Xin_Liu") == V{"XPxin liu"});
  CHECK(terms("person:劉鑫") == V{"XPxin liu", "XP劉鑫"});  // the alias names the page
  CHECK(terms("links:劉鑫") == V{"XLxin liu", "XL劉鑫"});
}

TEST_CASE_METHOD(Fixture, "FieldQuery, path: a folder and everything in it", "[field_query]") {
  const V notes{"XDnotes", "XDnotes/card.md", "XDnotes/decoy.md", "XDnotes/kyoto.md", "XDnotes/tag.md"};
  CHECK(terms("path:notes") == notes);
  CHECK(terms("path:notes/") == notes);
  CHECK(terms("path:notes/*") == notes);
  CHECK(terms("path:nowhere").empty());
}

TEST_CASE_METHOD(Fixture, "FieldQuery, cites: a key, a key prefix or words of the title", "[field_query]") {
  const V sdc{"XC2026__osdi__sdcs in the wild - characterizing"};
  CHECK(terms("cites:2026__OSDI__*") == sdc);
  CHECK(terms("cites:@2026__OSDI__SDCs") == sdc);
  CHECK(terms("cites:\"SDCs in the Wild\"") == sdc);
  CHECK(terms("cites:\"no such paper\"").empty());
}
