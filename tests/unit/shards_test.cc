// --index values → the shards to open: folders, sharded folders, stub files, tcp://.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "index_set.h"
#include "sagasu/error.h"
#include "test_index.h"

namespace fs = std::filesystem;
using sagasu::expand_locations;

using sagasu::test::TempDir;
using sagasu::test::write_file;

TEST_CASE("tcp://HOST:PORT is a remote shard; a bad address names itself", "[shards]") {
  const auto s = expand_locations({"tcp://127.0.0.1:7000"});
  REQUIRE(s.size() == 1);
  CHECK(s[0].remote());
  CHECK(s[0].host == "127.0.0.1");
  CHECK(s[0].port == 7000);
  CHECK(s[0].name == "tcp://127.0.0.1:7000");
  CHECK_THROWS_WITH(expand_locations({"tcp://127.0.0.1"}), Catch::Contains("tcp://127.0.0.1: expected"));
  CHECK_THROWS_WITH(expand_locations({"tcp://h:70000"}), Catch::Contains("port 1-65535"));
  CHECK_THROWS_WITH(expand_locations({"tcp://:80"}), Catch::Contains("HOST:PORT"));
}

TEST_CASE("a sharded index folder expands to its shards, in shard order", "[shards]") {
  TempDir t;
  write_file(t.path / "XAPIANDB", "auto shard-0/gen-000002\nauto shard-1/gen-000001\n");
  const auto s = expand_locations({t.path.string()});
  REQUIRE(s.size() == 2);
  CHECK(s[0].name == (t.path / "shard-0").string());
  CHECK(s[0].path == (t.path / "shard-0/gen-000002").string());
  CHECK(s[1].path == (t.path / "shard-1/gen-000001").string());
  CHECK_FALSE(s[1].remote());
  // One index: the folder itself.
  write_file(t.path / "one" / "XAPIANDB", "auto gen-000001\n");
  const auto one = expand_locations({(t.path / "one").string()});
  REQUIRE(one.size() == 1);
  CHECK(one[0].path == (t.path / "one").string());
}

TEST_CASE("a stub file lists local and remote shards; a bad line names file and line", "[shards]") {
  TempDir t;
  write_file(t.path / "all.stub", "# comment\n\nauto a\nremote :db1.example:4000\n");
  const auto s = expand_locations({(t.path / "all.stub").string()});
  REQUIRE(s.size() == 2);
  CHECK(s[0].path == (t.path / "a").string());  // relative to the stub's folder
  CHECK(s[1].host == "db1.example");
  CHECK(s[1].port == 4000);
  write_file(t.path / "bad.stub", "auto a\ntcp db1 4000\n");
  CHECK_THROWS_WITH(expand_locations({(t.path / "bad.stub").string()}),
                    Catch::Contains("bad.stub:2: expected 'auto PATH' or 'remote :HOST:PORT'"));
  write_file(t.path / "empty.stub", "# nothing\n");
  CHECK_THROWS_WITH(expand_locations({(t.path / "empty.stub").string()}), Catch::Contains("lists no shard"));
}
