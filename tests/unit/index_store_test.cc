// The index folder on disk: the writer lock that names its holder,
// generations switched by one rename of the stub, stale folders removed.
#include "index_store.h"

#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>

#include "sagasu/error.h"
#include "sagasu/schema.h"
#include "sagasu/stored_note.h"
#include "test_index.h"

namespace fs = std::filesystem;
using sagasu::IndexStore;
using sagasu::test::TempDir;

TEST_CASE("IndexStore, one writer: a second one is refused with the holder's name", "[index_store]") {
  TempDir t;
  IndexStore first(t.path.string(), false);
  // Another process: 3 when refused with the holder named, 4 when refused otherwise, 0 when let in.
  const pid_t child = ::fork();
  if (child == 0) {
    try {
      IndexStore second(t.path.string(), false);
      ::_exit(0);
    } catch (const sagasu::Error& e) {
      const std::string why = e.what();
      ::_exit(why.find("index is locked by another indexer (pid " + std::to_string(::getppid())) !=
                          std::string::npos &&
                      why.find("use --wait to wait for it") != std::string::npos
                  ? 3
                  : 4);
    }
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(WEXITSTATUS(status) == 3);
  CHECK(fs::exists(t.path / "lock"));
}

TEST_CASE("IndexStore, generations: the first, the next, an atomic switch", "[index_store]") {
  TempDir t;
  IndexStore store(t.path.string(), false);
  CHECK(store.current().empty());
  store.open_current().commit();  // creates the first generation
  CHECK(store.current() == "gen-000001");
  CHECK(store.next_name() == "gen-000002");
  std::string next;
  store.create_next(next).commit();
  CHECK(next == "gen-000002");
  CHECK(store.current() == "gen-000001");               // not live until switched
  fs::create_directories(t.path / "gen-000007.part0");  // left by a killed rebuild
  CHECK(store.next_name() == "gen-000008");             // never reuses a name
  store.switch_to(next);
  CHECK(store.current() == "gen-000002");
  CHECK_FALSE(fs::exists(t.path / "gen-000001"));
  CHECK_FALSE(fs::exists(t.path / "gen-000007.part0"));
  CHECK(fs::exists(t.path / "lock"));  // not a folder the index owns: kept
}

TEST_CASE("IndexStore, reads and switches a sharded stub", "[index_store]") {
  TempDir t;
  IndexStore store(t.path.string(), false);
  CHECK(store.shards().empty());
  fs::create_directories(t.path / "shard-0" / "gen-000001");
  fs::create_directories(t.path / "shard-1" / "gen-000001");
  fs::create_directories(t.path / "shard-2");     // of an older layout
  fs::create_directories(t.path / "gen-000004");  // of an unsharded layout
  store.switch_to_shards({"shard-0/gen-000001", "shard-1/gen-000001"});
  CHECK(store.shards() == std::vector<std::string>{"shard-0/gen-000001", "shard-1/gen-000001"});
  CHECK(store.current().empty());
  CHECK(fs::exists(t.path / "shard-1"));
  CHECK_FALSE(fs::exists(t.path / "shard-2"));
  CHECK_FALSE(fs::exists(t.path / "gen-000004"));
}

TEST_CASE("IndexStore, a folder that is an index of an older layout is refused", "[index_store]") {
  TempDir t;
  sagasu::test::write_file(t.path / "iamglass", "");
  CHECK_THROWS_WITH(IndexStore(t.path.string(), false),
                    Catch::Contains("an index of an older Sagasu layout"));
}

TEST_CASE("WriterLock, the holder may take its lock again; the last release frees it", "[index_store]") {
  TempDir t;
  auto read_lock = [&] {
    std::ifstream in(t.path / "lock");
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  {
    sagasu::WriterLock session(t.path.string(), false, "watching /v");
    CHECK_THAT(read_lock(), Catch::EndsWith(", watching /v"));
    {
      IndexStore run(t.path.string(), false);  // a watch's run: the same process, the same lock
      CHECK_THAT(read_lock(), Catch::EndsWith(", watching /v"));
    }
    CHECK_THAT(read_lock(), Catch::EndsWith(", watching /v"));  // still held after the run
  }
  CHECK(read_lock().empty());
  IndexStore after(t.path.string(), false);  // free again
}

namespace {
void same_summary(const sagasu::IndexReport& a, const sagasu::IndexReport& b) {
  CHECK(a.indexed == b.indexed);
  REQUIRE(a.coverage.size() == b.coverage.size());
  for (std::size_t i = 0; i < a.coverage.size(); ++i) {
    CHECK(a.coverage[i].facet == b.coverage[i].facet);
    CHECK(a.coverage[i].notes == b.coverage[i].notes);
    CHECK(a.coverage[i].sources == b.coverage[i].sources);
  }
  CHECK(a.kinds == b.kinds);
  CHECK(a.unmapped_keys == b.unmapped_keys);
}
}  // namespace

// A run that changes nothing (issue 15: a no-op reads no value of every
// document and writes nothing): no new revision, and the summary is the one
// the last commit stored. An update's summary is the stored one with what it
// took out and put in: equal to what a rebuild counts from every document.
TEST_CASE("run_index, a run that changes nothing commits nothing and reports the stored coverage", "[index_store]") {
  sagasu::test::TestIndex ti({{"a.md", "---\nvenue: OSDI\nyear: 2024\nstatus: read\n---\n# A\n[[Xin Liu]] の論文。\n"},
                              {"b.md", "# B\n本文。\n"}});
  sagasu::IndexOptions o;
  o.vault = ti.vault;
  o.index = ti.index;
  o.jobs = 1;
  const Xapian::rev before = ti.db().get_revision();
  const sagasu::IndexReport noop = sagasu::run_index(o);
  CHECK(ti.db().get_revision() == before);
  CHECK(noop.indexed == 2);
  // The same summary as a run that reads every document (a touched file is written again).
  sagasu::test::write_file(fs::path(ti.vault) / "c.md", "# C\n別の本文。\n");
  const sagasu::IndexReport read = sagasu::run_index(o);
  CHECK(ti.db().get_revision() > before);
  fs::remove(fs::path(ti.vault) / "c.md");
  const sagasu::IndexReport back = sagasu::run_index(o);
  const sagasu::IndexReport again = sagasu::run_index(o);
  CHECK(read.indexed == 3);
  same_summary(again, noop);
  same_summary(back, noop);
  CHECK_FALSE(noop.unmapped_keys.empty());  // "front matter: status"
  // Edits that move facets, kinds and keys: the kept tally equals a rebuild's count.
  sagasu::test::write_file(fs::path(ti.vault) / "a.md", "---\nvenue: SOSP\ntopic: x\n---\n# A\n本文。\n");
  sagasu::test::write_file(fs::path(ti.vault) / "d/Xin Liu.md", "---\ntype: person\n---\n# Xin Liu\n研究者。\n");
  fs::rename(fs::path(ti.vault) / "b.md", fs::path(ti.vault) / "e.md");
  const sagasu::IndexReport edited = sagasu::run_index(o);
  CHECK(edited.renamed == 1);
  o.rebuild = true;
  same_summary(edited, sagasu::run_index(o));
}

// Each shard keeps its own tally, committed with its documents; their sum after
// updates equals what a rebuild counts.
TEST_CASE("run_index, a sharded index's kept tallies add up to a rebuild's count", "[index_store]") {
  sagasu::test::TestIndex ti({{"a.md", "---\nvenue: OSDI\nstatus: read\n---\n# A\n本文。\n"},
                              {"b.md", "---\nyear: 2024\n---\n# B\n本文。\n"},
                              {"c.md", "---\ntype: person\n---\n# C\n研究者。\n"}});
  sagasu::IndexOptions o;
  o.vault = ti.vault;
  o.index = ti.index;
  o.jobs = 1;
  o.shards = 2;
  CHECK(sagasu::run_index(o).shards == 2);
  o.shards = 0;
  sagasu::test::write_file(fs::path(ti.vault) / "a.md", "---\nvenue: SOSP\n---\n# A\n本文。\n");
  sagasu::test::write_file(fs::path(ti.vault) / "d.md", "---\nstatus: todo\n---\n# D\n本文。\n");
  fs::remove(fs::path(ti.vault) / "c.md");
  fs::rename(fs::path(ti.vault) / "b.md", fs::path(ti.vault) / "e.md");
  const sagasu::IndexReport updated = sagasu::run_index(o);
  const sagasu::IndexReport noop = sagasu::run_index(o);
  o.rebuild = true;
  const sagasu::IndexReport rebuilt = sagasu::run_index(o);
  CHECK(rebuilt.shards == 2);
  same_summary(updated, rebuilt);
  same_summary(noop, rebuilt);
}

// A commit that did not store a tally (an older Sagasu writing the same index)
// makes the stored one stale: the next run counts the documents again.
TEST_CASE("run_index, a tally stored before another writer's commit is recounted", "[index_store]") {
  sagasu::test::TestIndex ti({{"a.md", "---\ntype: person\n---\n# A\n研究者。\n"}, {"b.md", "# B\n本文。\n"}});
  sagasu::IndexOptions o;
  o.vault = ti.vault;
  o.index = ti.index;
  o.jobs = 1;
  const sagasu::IndexReport before = sagasu::run_index(o);
  {
    Xapian::WritableDatabase db(sagasu::test::current_generation(ti.index), Xapian::DB_OPEN);
    for (auto p = db.postlist_begin(""); p != db.postlist_end(""); ++p) {
      Xapian::Document doc = db.get_document(*p);
      doc.add_value(sagasu::schema::SLOT_KIND, "organization");  // the other writer's kind
      db.replace_document(*p, doc);
    }
    db.commit();
  }
  const sagasu::IndexReport after = sagasu::run_index(o);
  REQUIRE(after.kinds.size() == 1);
  CHECK(after.kinds[0] == std::pair<std::string, std::size_t>("organization", 2));
  CHECK(before.kinds != after.kinds);
}

// A run reads no note's digest unless a phase needs it: the index says which
// digest version all its documents have (META_DIGESTS). An index whose
// documents may have older digests (an older Sagasu wrote them) has each
// one checked, and a note with an older digest is read again (issue 15).
TEST_CASE("run_index, a note whose digest is of another version is read again", "[index_store]") {
  sagasu::test::TestIndex ti({{"a.md", "# A\n[[Xin Liu]] の論文。\n"}, {"b.md", "# B\n本文。\n"}});
  const std::string version(sagasu::NoteDigest::version());
  CHECK(ti.db().get_metadata(std::string(sagasu::schema::META_DIGESTS)) == version);
  {
    Xapian::WritableDatabase w(ti.index, Xapian::DB_OPEN);
    const std::string id = sagasu::schema::unique_id_term("a.md");
    const Xapian::docid a = *w.postlist_begin(id);
    Xapian::Document doc = w.get_document(a);
    doc.add_value(sagasu::schema::SLOT_DIGEST, "d0 an older digest");
    w.replace_document(a, doc);
    w.set_metadata(std::string(sagasu::schema::META_DIGESTS), "");
    w.commit();
  }
  sagasu::IndexOptions o;
  o.vault = ti.vault;
  o.index = ti.index;
  o.jobs = 1;
  const sagasu::IndexReport r = sagasu::run_index(o);
  CHECK(r.updated == 0);  // the same text: the document stays, with this version's digest
  const Xapian::Database db = ti.db();
  CHECK(db.get_metadata(std::string(sagasu::schema::META_DIGESTS)) == version);
  const Xapian::docid a = *db.postlist_begin(sagasu::schema::unique_id_term("a.md"));
  CHECK(sagasu::NoteDigest::current(db.get_document(a).get_value(sagasu::schema::SLOT_DIGEST)));
  // Once all are current again, a run that changes nothing reads none and writes nothing.
  const Xapian::rev before = db.get_revision();
  CHECK(sagasu::run_index(o).updated == 0);
  CHECK(ti.db().get_revision() == before);
}
