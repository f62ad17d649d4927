// --index values → the shards to open: folders, sharded folders, stub files, tcp://.
#include <fmt/format.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "index_set.h"
#include "sagasu/error.h"
#include "sagasu/schema.h"
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
  CHECK_THROWS_WITH(expand_locations({"tcp://[::1]:7001"}), Catch::Contains("tcp://[::1]:7001: an IPv6 address"));
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

TEST_CASE("stub files that name each other, or nest too deep, are errors naming the loop", "[shards]") {
  TempDir t;
  write_file(t.path / "self.stub", "auto self.stub\n");
  CHECK_THROWS_WITH(
      expand_locations({(t.path / "self.stub").string()}),
      Catch::Contains("self.stub: stub files name each other in a loop") && Catch::Contains("self.stub → "));
  write_file(t.path / "a.stub", "auto b.stub\n");
  write_file(t.path / "b.stub", "auto a.stub\n");
  CHECK_THROWS_WITH(expand_locations({(t.path / "a.stub").string()}),
                    Catch::Contains("a.stub → ") && Catch::Contains("b.stub → "));
  for (int i = 0; i < 10; ++i)
    write_file(t.path / fmt::format("d{}.stub", i), fmt::format("auto d{}.stub\n", i + 1));
  write_file(t.path / "d10.stub", "remote :127.0.0.1:7000\n");
  CHECK_THROWS_WITH(expand_locations({(t.path / "d0.stub").string()}),
                    Catch::Contains("nested more than 8 deep"));
  // The same stub twice side by side is no loop (it is caught as the same index when opened).
  write_file(t.path / "twice.stub", "auto d10.stub\nauto d10.stub\n");
  CHECK(expand_locations({(t.path / "twice.stub").string()}).size() == 2);
}

TEST_CASE("the same index given twice, however reached, is an error, not doubled hits", "[shards]") {
  sagasu::test::TestIndex ti({{"a.md", "# A\n本文。\n"}, {"b.md", "# B\n本文。\n"}});
  CHECK(sagasu::open_index({ti.index}, false).all.get_doccount() == 2);
  CHECK_THROWS_WITH(sagasu::open_index({ti.index, ti.index}, false), Catch::Contains("given twice"));
  fs::create_symlink(ti.index, ti.dir.path / "link");
  CHECK_THROWS_WITH(sagasu::open_index({ti.index, (ti.dir.path / "link").string()}, false),
                    Catch::Contains("link: the same index as"));
  write_file(ti.dir.path / "two.stub", "auto index\nauto link\n");
  CHECK_THROWS_WITH(sagasu::open_index({(ti.dir.path / "two.stub").string()}, false),
                    Catch::Contains("given twice"));
  // A copy of the folder is the same database (its UUID), and another build of the vault is a second whole
  // index.
  fs::copy(ti.index, ti.dir.path / "copy", fs::copy_options::recursive);
  CHECK_THROWS_WITH(sagasu::open_index({ti.index, (ti.dir.path / "copy").string()}, false),
                    Catch::Contains("given twice"));
  sagasu::IndexOptions o = ti.options();
  o.index = (ti.dir.path / "other").string();
  sagasu::run_index(o);
  CHECK_THROWS_WITH(sagasu::open_index({ti.index, o.index}, true), Catch::Contains("a whole index of vault"));
}

TEST_CASE("shards written by different indexer runs are an error, unless one sharded folder's", "[shards]") {
  sagasu::test::TestIndex ti(
      {{"a.md", "# A\n本文。\n"}, {"b.md", "# B\n本文。\n"}, {"c.md", "# C\n本文。\n"}});
  sagasu::IndexOptions o = ti.options();
  o.shards = 2;
  sagasu::run_index(o);
  o.shards = 0;
  const auto shard = [&](std::size_t k) {
    return (fs::path(ti.index) / sagasu::layout::read_stub(ti.index).at(k)).string();
  };
  // A replica of shard 1 taken now, then the vault changes and the index is updated.
  fs::copy(shard(1), ti.dir.path / "replica-1", fs::copy_options::recursive);
  for (const char* n : {"a.md", "b.md", "c.md"})
    write_file(fs::path(ti.vault) / n, "# X\n本文が変わった。\n");
  sagasu::run_index(o);
  CHECK(sagasu::open_index({shard(0), shard(1)}, false).all.get_doccount() == 3);
  const std::string replica = (ti.dir.path / "replica-1").string();
  CHECK_THROWS_WITH(sagasu::open_index({shard(0), replica}, false),
                    Catch::Contains("replica-1: written by another indexer run than"));
  CHECK_THROWS_WITH(sagasu::open_index({shard(0), replica}, true), Catch::Contains("another indexer run"));
  // The sharded folder an update cut short between its shards' commits still answers (the next run rebuilds
  // it).
  {
    Xapian::WritableDatabase w(shard(1), Xapian::DB_OPEN);
    w.set_metadata(std::string(sagasu::schema::META_RUN), "an earlier run");
    w.commit();
  }
  CHECK(sagasu::open_index({ti.index}, false).all.get_doccount() == 3);
}
