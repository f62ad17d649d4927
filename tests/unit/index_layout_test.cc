// The index folder's names and stub files, shared by the indexer (writes
// them) and the searcher (reads them).
#include "sagasu/index_layout.h"

#include <catch2/catch.hpp>

#include "index_writer.h"
#include "test_index.h"

using namespace sagasu;

TEST_CASE("Layout, generation, part and shard names round-trip", "[layout]") {
  CHECK(layout::generation_name(7) == "gen-000007");
  CHECK(layout::generation_number("gen-000007") == 7ul);
  CHECK(layout::generation_number("gen-000007.part1") == 7ul);  // a part belongs to its generation
  CHECK(layout::generation_number(layout::generation_name(1234567)) == 1234567ul);
  CHECK_FALSE(layout::generation_number("shard-1"));
  CHECK_FALSE(layout::generation_number("gen-"));
  CHECK(layout::part_name("gen-000002", 3) == "gen-000002.part3");
  CHECK(layout::shard_folder(3) == "shard-3");
  CHECK(layout::owned_folder("gen-000001"));
  CHECK(layout::owned_folder("shard-0"));
  CHECK_FALSE(layout::owned_folder("lock"));
  CHECK_FALSE(layout::owned_folder("notes"));
}

TEST_CASE("Layout, stub files in Xapian's format", "[layout]") {
  const std::vector<std::string> entries{"shard-0/gen-000002", "shard-1/gen-000001"};
  CHECK(layout::stub_text(entries) == "auto shard-0/gen-000002\nauto shard-1/gen-000001\n");
  CHECK(layout::stub_entries(layout::stub_text(entries)) == entries);
  // Written by hand or on another system: blank lines, CRLF, other stub lines.
  CHECK(layout::stub_entries("auto gen-000003\r\n\n# a comment\nremote :h:1\n") ==
        std::vector<std::string>{"gen-000003"});
  const auto shard = layout::shard_entry("shard-1/gen-000004");
  REQUIRE(shard);
  CHECK(shard->folder == "shard-1");
  CHECK(shard->generation == "gen-000004");
  CHECK_FALSE(layout::shard_entry("gen-000004"));
  CHECK_FALSE(layout::shard_entry("other/gen-000004"));
}

TEST_CASE("Layout, the stub of an index folder, or none", "[layout]") {
  test::TempDir t;
  CHECK(layout::read_stub(t.path.string()).empty());  // no index yet
  test::write_file(t.path / "XAPIANDB", layout::stub_text({"gen-000009"}));
  CHECK(layout::read_stub(t.path.string()) == std::vector<std::string>{"gen-000009"});
}

TEST_CASE("A fresh build's parts: at most 2,000 notes each, shared evenly by the cores", "[layout]") {
  using sagasu::fresh_build_parts;
  CHECK(fresh_build_parts(0, 2) == 1u);
  CHECK(fresh_build_parts(50, 4) == 1u);   // too few notes for a part per core
  CHECK(fresh_build_parts(200, 4) == 4u);  // one per core
  CHECK(fresh_build_parts(4000, 2) == 2u);
  CHECK(fresh_build_parts(10000, 1) == 5u);
  CHECK(fresh_build_parts(10000, 2) == 6u);   // 5 parts would leave a core idle through the last round
  CHECK(fresh_build_parts(20000, 8) == 16u);  // 10 would run a second round on two of the eight
  CHECK(fresh_build_parts(100000, 2) == 50u);
  for (unsigned jobs : {1u, 2u, 3u, 8u})
    for (std::size_t notes : {1u, 63u, 64u, 1999u, 2000u, 2001u, 9999u, 30001u, 123457u}) {
      const std::size_t parts = fresh_build_parts(notes, jobs);
      INFO(notes << " notes, " << jobs << " jobs: " << parts << " parts");
      CHECK((notes + parts - 1) / parts <= 2000);
      CHECK((parts <= jobs || parts % jobs == 0));
    }
}
