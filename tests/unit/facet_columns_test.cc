// Facet columns: the ordinals of every document's facet values, used only for
// the database revision they describe.
#include "sagasu/facet_columns.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "sagasu/generation_file.h"
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

TEST_CASE("generation_file::Writer, a file written in pieces replaces the old one whole, or not at all",
          "[columns]") {
  const fs::path dir = fs::temp_directory_path() / ("sagasu-writer-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string file = (dir / "columns").string();
  auto read = [&] {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  generation_file::replace(file, "old");
  // Pieces smaller and larger than the writer's buffer (a megabyte), and u32s little-endian.
  const std::string big(3u << 20, 'x');
  std::vector<std::uint32_t> numbers(300000);
  for (std::size_t i = 0; i < numbers.size(); ++i) numbers[i] = static_cast<std::uint32_t>(i * 2654435761u);
  std::string expected = "head";
  for (auto n : numbers) generation_file::put32(expected, n);
  expected += big;
  generation_file::put32(expected, 0x01020304);
  {
    generation_file::Writer w(file);
    w.append("head");
    w.append32(numbers.data(), numbers.size());
    w.append(big);
    w.append32(0x01020304);
    CHECK(read() == "old");  // (nothing in place before the commit)
    w.commit();
  }
  CHECK(read() == expected);
  CHECK(expected.substr(expected.size() - 4) == std::string("\x04\x03\x02\x01"));
  // A writer let go without a commit (a failure while writing): the old file stays, no temporary is left.
  {
    generation_file::Writer w(file);
    w.append("half");
  }
  CHECK(read() == expected);
  CHECK_FALSE(fs::exists(file + ".tmp"));
  // A folder that is not there: an error naming the file.
  CHECK_THROWS_WITH(generation_file::Writer((dir / "none" / "columns").string()),
                    Catch::Contains("none/columns.tmp: cannot write"));
  fs::remove_all(dir);
}
