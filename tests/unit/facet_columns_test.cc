// Facet columns: the ordinals of every document's facet values, used only for
// the database revision they describe.
#include "sagasu/facet_columns.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "sagasu/schema.h"
#include "searcher_fixture.h"

using namespace sagasu;
namespace fs = std::filesystem;

namespace {

// The values of a document in a column.
std::vector<std::string> values(const FacetColumn& c, Xapian::docid did) {
  std::vector<std::uint32_t> counts(c.values.size(), 0);
  c.count(did, counts);
  std::vector<std::string> out;
  for (std::size_t o = 0; o < counts.size(); ++o)
    if (counts[o]) out.emplace_back(c.values[o]);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE_METHOD(test::SearcherFixture, "FacetColumns, the indexer writes the values of every facet",
                 "[columns]") {
  const auto columns = FacetColumns::open(test::current_generation(index.index), db);
  REQUIRE(columns);
  const FacetColumn* venue = columns->column(schema::SLOT_VENUES);
  const FacetColumn* kind = columns->column(schema::SLOT_KIND);
  REQUIRE(venue);
  REQUIRE(kind);
  const Xapian::Document paper = test::doc_of(db, "wiki/sources/@2025__MLSys2025__Other Paper.md");
  CHECK(values(*venue, paper.get_docid()) ==
        std::vector<std::string>{"MLSys"});  // its own, not what it cites
  CHECK(values(*kind, paper.get_docid()) == std::vector<std::string>{"source"});
  // Every document's column values are its packed slot values.
  for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it)
    CHECK(values(*venue, *it) == schema::unpack_values(db.get_document(*it).get_value(schema::SLOT_VENUES)));
}

TEST_CASE_METHOD(test::SearcherFixture, "FacetColumns, another revision or a damaged file is not used",
                 "[columns]") {
  const std::string folder = test::current_generation(index.index);
  test::commit_elsewhere(index.index);  // a revision the columns do not describe
  const Xapian::Database now(index.index);
  CHECK_FALSE(FacetColumns::open(folder, now));
  FacetColumns::write(now, folder);  // written again for this revision
  CHECK(FacetColumns::open(folder, now));
  // Truncated: refused, not misread.
  const fs::path file = fs::path(folder) / FACET_COLUMNS_FILE;
  fs::resize_file(file, fs::file_size(file) - 7);
  CHECK_FALSE(FacetColumns::open(folder, now));
  fs::remove(file);
  CHECK_FALSE(FacetColumns::open(folder, now));
}
