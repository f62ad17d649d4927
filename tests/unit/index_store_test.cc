// The index folder on disk: the writer lock that names its holder,
// generations switched by one rename of the stub, stale folders removed.
#include "index_store.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>

#include "sagasu/error.h"
#include "sagasu/schema.h"
#include "sagasu/stored_note.h"
#include "test_index.h"
#include "vault_walk.h"

namespace fs = std::filesystem;
using sagasu::IndexStore;
using sagasu::test::TempDir;

namespace {

// The entity resolution a run stored, in its file beside a generation ("" when none).
std::string resolution_file(const std::string& generation) {
  std::ifstream in(fs::path(generation) / sagasu::schema::RESOLUTION_FILE, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

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
TEST_CASE("run_index, a run that changes nothing commits nothing and reports the stored coverage",
          "[index_store]") {
  sagasu::test::TestIndex ti(
      {{"a.md", "---\nvenue: OSDI\nyear: 2024\nstatus: read\n---\n# A\n[[Xin Liu]] の論文。\n"},
       {"b.md", "# B\n本文。\n"}});
  sagasu::IndexOptions o = ti.options();
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
  sagasu::test::write_file(fs::path(ti.vault) / "d/Xin Liu.md",
                           "---\ntype: person\n---\n# Xin Liu\n研究者。\n");
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
  sagasu::IndexOptions o = ti.options();
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
  sagasu::test::TestIndex ti(
      {{"a.md", "---\ntype: person\n---\n# A\n研究者。\n"}, {"b.md", "# B\n本文。\n"}});
  sagasu::IndexOptions o = ti.options();
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
  sagasu::IndexOptions o = ti.options();
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

// A run that changes no note keeps the resolution without reading it, when
// every shard holds the same one (issue 15: their hashes are compared, not the
// 20 MB resolutions of a 100k vault). A run killed between two shards'
// commits leaves them unequal: the next run, though no note changed, resolves
// the vault again and stores one resolution everywhere.
TEST_CASE(
    "run_index, shards left holding unequal resolutions are resolved again by a run that changes nothing",
    "[index_store]") {
  sagasu::test::TestIndex ti(
      {{"a.md", "# A\n[[Xin Liu]] の論文。\n"}, {"b.md", "# B\n[[Wei Chen]] の論文。\n"}});
  sagasu::IndexOptions o = ti.options();
  o.shards = 2;
  o.rebuild = true;
  sagasu::run_index(o);
  o.rebuild = false;
  o.shards = 0;
  const auto shard = [&](std::size_t k) {
    return (fs::path(ti.index) / sagasu::layout::read_stub(ti.index).at(k)).string();
  };
  const auto stored = [&](std::size_t k, std::string_view key) {
    return Xapian::Database(shard(k)).get_metadata(std::string(key));
  };
  using sagasu::schema::META_RESOLUTION;
  using sagasu::schema::META_RESOLUTION_HASH;
  // (Each shard holds the hash of the resolution, in its file beside the first shard.)
  const auto file_vouched = [&] {
    const std::string file = resolution_file(shard(0));
    return !file.empty() && sagasu::content_hash(file) == stored(0, META_RESOLUTION_HASH) &&
           stored(1, META_RESOLUTION_HASH) == stored(0, META_RESOLUTION_HASH) &&
           stored(0, META_RESOLUTION).empty() && stored(1, META_RESOLUTION).empty();
  };
  const std::string before = resolution_file(shard(0)), before_hash = stored(1, META_RESOLUTION_HASH);
  CHECK(before_hash.size() == 16);
  CHECK(file_vouched());
  // A page for Xin Liu: the resolution changes on both shards.
  sagasu::test::write_file(fs::path(ti.vault) / "Xin Liu.md",
                           "---\ntype: person\n---\n# Xin Liu\n研究者。\n");
  sagasu::run_index(o);
  const std::string after = resolution_file(shard(0));
  REQUIRE(after != before);
  CHECK(file_vouched());
  // Shard 1 as a run killed before its commit left it.
  {
    Xapian::WritableDatabase w(shard(1), Xapian::DB_OPEN);
    w.set_metadata(std::string(META_RESOLUTION_HASH), before_hash);
    w.commit();
  }
  const sagasu::IndexReport noop = sagasu::run_index(o);
  CHECK(noop.updated == 0);
  CHECK(resolution_file(shard(0)) == after);
  CHECK(file_vouched());
  // An index whose runs kept no hash (an older Sagasu's, which kept the
  // resolution in the index): the resolutions themselves are compared.
  for (std::size_t k = 0; k < 2; ++k) {
    Xapian::WritableDatabase w(shard(k), Xapian::DB_OPEN);
    w.set_metadata(std::string(META_RESOLUTION_HASH), "");
    w.set_metadata(std::string(META_RESOLUTION), k == 1 ? before : after);
    w.commit();
  }
  sagasu::run_index(o);
  CHECK(resolution_file(shard(0)) == after);
  CHECK(file_vouched());  // (and the older resolutions are gone from the index)
  CHECK(stored(0, META_RESOLUTION_HASH).size() == 16);
}

// Every run reads every note's stored state (path, size, mtime, hash): it
// round-trips, and a value of another shape is no state at all.
TEST_CASE("FileState, encoded and decoded back; a value of another shape is none", "[index_store]") {
  const sagasu::FileState s{"論文/@2024__NSDI__MegaScale - x.md", 123456789012ULL, -1700000000123456789LL,
                            "0123456789abcdef"};
  const auto back = sagasu::FileState::decode(s.encode());
  REQUIRE(back);
  CHECK(back->path == s.path);
  CHECK(back->size == s.size);
  CHECK(back->mtime_ns == s.mtime_ns);
  CHECK(back->hash == s.hash);
  CHECK(sagasu::FileState::path_of(s.encode()) == s.path);
  CHECK_FALSE(
      sagasu::FileState::decode(std::string("a.md\0"
                                            "1\0"
                                            "2",
                                            8)));
  CHECK_FALSE(
      sagasu::FileState::decode(std::string("a.md\0"
                                            "1\0"
                                            "2\0"
                                            "h\0"
                                            "x",
                                            12)));
  CHECK_FALSE(sagasu::FileState::decode(""));
}

// The entity resolution is kept in a file beside the generation (issue 15:
// Xapian reads the 20 MB resolution of a 100k vault at about 120 MB/s, a file
// ten times faster; writing it into the index too cost a run that adds a name
// 0.2 s), used only while it hashes to what the index holds: a torn, stale or
// garbled file is ignored, the vault resolved again and the file written again.
TEST_CASE("run_index, the resolution's file beside the index is used only when it has the index's hash",
          "[index_store]") {
  sagasu::test::TestIndex ti(
      {{"a.md", "# A\n[[Xin Liu]] の論文。\n"}, {"b.md", "# B\n[[Wei Chen]] と [[A]]。\n"}});
  sagasu::IndexOptions o = ti.options();
  const std::string generation = sagasu::test::current_generation(ti.index);
  const fs::path copy = fs::path(generation) / sagasu::schema::RESOLUTION_FILE;
  const auto meta = [&](std::string_view key) { return ti.db().get_metadata(std::string(key)); };
  const auto vouched = [&] {
    const std::string file = resolution_file(generation);
    return !file.empty() && sagasu::content_hash(file) == meta(sagasu::schema::META_RESOLUTION_HASH);
  };
  const auto facets = [&](const std::string& path) {  // (its people and organizations)
    const Xapian::Database db = ti.db();
    const Xapian::Document doc = db.get_document(*db.postlist_begin(sagasu::schema::unique_id_term(path)));
    return doc.get_value(sagasu::schema::SLOT_PERSONS) + "|" + doc.get_value(sagasu::schema::SLOT_ORGS);
  };
  REQUIRE(fs::exists(copy));
  CHECK(vouched());
  CHECK(meta(sagasu::schema::META_RESOLUTION).empty());  // (not in the index as well)
  // An entity change stores a new resolution: Xin Liu is an organization now.
  const std::string stale = resolution_file(generation), stale_facets = facets("a.md");
  sagasu::test::write_file(fs::path(ti.vault) / "Xin Liu.md",
                           "---\ntype: organization\n---\n# Xin Liu\n組織。\n");
  sagasu::run_index(o);
  const std::string resolution = resolution_file(generation);
  REQUIRE(resolution != stale);
  CHECK(vouched());
  const std::string a_facets = facets("a.md");
  REQUIRE(a_facets != stale_facets);
  // A file that is not the index's: the last one (a run that died before its
  // commit, a restored backup), half of it, garbage, nothing.
  int edit = 0;
  for (const std::string& wrong :
       {stale, resolution.substr(0, resolution.size() / 2), std::string("r7 garbage"), std::string()}) {
    { std::ofstream(copy, std::ios::binary | std::ios::trunc) << wrong; }
    // A text edit of a.md resolves its links again, with the vault resolved again.
    sagasu::test::write_file(fs::path(ti.vault) / "a.md",
                             "# A\n[[Xin Liu]] の論文。" + std::to_string(++edit) + "\n");
    CHECK(sagasu::run_index(o).updated == 1);
    CHECK(facets("a.md") == a_facets);
    CHECK(resolution_file(generation) == resolution);  // written again
    CHECK(vouched());
  }
  // A dry run writes no file.
  fs::remove(copy);
  sagasu::test::write_file(fs::path(ti.vault) / "a.md", "# A\n[[Xin Liu]] の論文。dry\n");
  o.dry_run = true;
  sagasu::run_index(o);
  CHECK_FALSE(fs::exists(copy));
}

// A resolution whose file cannot be written (a full disk; here a folder in
// its place) is stored in the index, as an older Sagasu stored it, and read
// from there by the next run: it is never lost with the file.
TEST_CASE("run_index, a resolution whose file cannot be written is kept in the index", "[index_store]") {
  sagasu::test::TestIndex ti({{"a.md", "# A\n[[Xin Liu]] の論文。\n"}, {"b.md", "# B\n本文。\n"}});
  sagasu::IndexOptions o = ti.options();
  const std::string generation = sagasu::test::current_generation(ti.index);
  const fs::path copy = fs::path(generation) / sagasu::schema::RESOLUTION_FILE;
  const auto meta = [&](std::string_view key) { return ti.db().get_metadata(std::string(key)); };
  const auto orgs = [&](const std::string& path) {
    const Xapian::Database db = ti.db();
    return db.get_document(*db.postlist_begin(sagasu::schema::unique_id_term(path)))
        .get_value(sagasu::schema::SLOT_ORGS);
  };
  const std::string stale = resolution_file(generation);  // (Xin Liu of no kind)
  REQUIRE_FALSE(stale.empty());
  fs::remove(copy);
  fs::create_directories(copy / "in the way");
  sagasu::test::write_file(fs::path(ti.vault) / "Xin Liu.md",
                           "---\ntype: organization\n---\n# Xin Liu\n組織。\n");
  const sagasu::IndexReport added = sagasu::run_index(o);
  CHECK(added.skipped.empty());
  const std::string in_index = meta(sagasu::schema::META_RESOLUTION);
  REQUIRE_FALSE(in_index.empty());
  CHECK(sagasu::content_hash(in_index) == meta(sagasu::schema::META_RESOLUTION_HASH));
  const std::string a_orgs = orgs("a.md");
  REQUIRE_FALSE(a_orgs.empty());
  // A run that keeps it (a text edit) keeps it there.
  sagasu::test::write_file(fs::path(ti.vault) / "b.md", "# B\n本文。追記。\n");
  CHECK(sagasu::run_index(o).updated == 1);
  CHECK(meta(sagasu::schema::META_RESOLUTION) == in_index);
  // Once the file can be written again, the next run that stores a resolution
  // (here extended by a new name, from the one in the index) puts it back in
  // its file and takes it out of the index.
  fs::remove_all(copy);
  sagasu::test::write_file(fs::path(ti.vault) / "b.md", "# B\n[[Li Na]] の本文。\n");
  CHECK(sagasu::run_index(o).updated == 1);
  CHECK(meta(sagasu::schema::META_RESOLUTION).empty());
  CHECK(sagasu::content_hash(resolution_file(generation)) == meta(sagasu::schema::META_RESOLUTION_HASH));
  CHECK(resolution_file(generation).find("Li Na") != std::string::npos);
  CHECK(orgs("a.md") == a_orgs);
  // A run reads the resolution from the index when it is there: shown with
  // another one there that the index vouches for (the stale one), whose kinds
  // an edited note then gets.
  fs::remove(copy);
  {
    Xapian::WritableDatabase w(generation, Xapian::DB_OPEN);
    w.set_metadata(std::string(sagasu::schema::META_RESOLUTION), stale);
    w.set_metadata(std::string(sagasu::schema::META_RESOLUTION_HASH), sagasu::content_hash(stale));
    w.set_metadata(std::string(sagasu::schema::META_RESOLUTION_REVISION),
                   std::to_string(w.get_revision() + 1));
    w.commit();
  }
  sagasu::test::write_file(fs::path(ti.vault) / "a.md", "# A\n[[Xin Liu]] の論文。一行。\n");
  CHECK(sagasu::run_index(o).updated == 1);
  CHECK(orgs("a.md").empty());
}

// The resolution's hash vouches for the resolution (and so for its file)
// only while no other writer committed since the run that stored it: an
// older Sagasu stores a resolution in the index but neither hash nor file (a
// review's counterexample: its edit was lost, the stale file used).
TEST_CASE("run_index, a hash another writer's commit left behind does not vouch for the resolution",
          "[index_store]") {
  sagasu::test::TestIndex ti({{"a.md", "# A\n[[Xin Liu]] の論文。\n"}, {"b.md", "# B\n本文。\n"}});
  sagasu::IndexOptions o = ti.options();
  using sagasu::schema::META_RESOLUTION;
  using sagasu::schema::META_RESOLUTION_HASH;
  const fs::path copy =
      fs::path(sagasu::test::current_generation(ti.index)) / sagasu::schema::RESOLUTION_FILE;
  const auto meta = [&](std::string_view key) { return ti.db().get_metadata(std::string(key)); };
  const auto orgs = [&](const std::string& path) {
    const Xapian::Database db = ti.db();
    return db.get_document(*db.postlist_begin(sagasu::schema::unique_id_term(path)))
        .get_value(sagasu::schema::SLOT_ORGS);
  };
  const std::string generation = sagasu::test::current_generation(ti.index);
  const std::string old_hash = meta(META_RESOLUTION_HASH), old_copy = resolution_file(generation);
  REQUIRE(old_hash.size() == 16);
  CHECK(orgs("a.md").empty());
  // Xin Liu gets a page, as an older Sagasu would index it: the resolution is
  // stored in the index, the hash and the file beside the index stay the last run's.
  sagasu::test::write_file(fs::path(ti.vault) / "Xin Liu.md",
                           "---\ntype: organization\n---\n# Xin Liu\n組織。\n");
  sagasu::run_index(o);
  const std::string now = resolution_file(generation);
  REQUIRE(now != old_copy);
  REQUIRE_FALSE(orgs("a.md").empty());
  const std::string a_orgs = orgs("a.md");
  {
    Xapian::WritableDatabase w(generation, Xapian::DB_OPEN);
    w.set_metadata(std::string(META_RESOLUTION), now);
    w.set_metadata(std::string(META_RESOLUTION_HASH), old_hash);
    w.commit();
  }
  { std::ofstream(copy, std::ios::binary | std::ios::trunc) << old_copy; }
  // A text edit of a.md resolves its links with the resolution the index holds.
  sagasu::test::write_file(fs::path(ti.vault) / "a.md", "# A\n[[Xin Liu]] の論文。一行。\n");
  CHECK(sagasu::run_index(o).updated == 1);
  CHECK(orgs("a.md") == a_orgs);
  CHECK(meta(META_RESOLUTION_HASH) ==
        sagasu::content_hash(now));  // the kept resolution's own, vouched for again
  CHECK(resolution_file(generation) == now);
}

// A run killed between two shards' commits leaves shards that hold different
// runs: what it derived from the whole vault (the notes a page's new kind
// refreshes, the sound table, the glossary) reached only some of them, and no
// later run could tell (a review's counterexample: three shards, a page's
// kind changed, the notes linking it on two shards kept the old facets).
// Each commit names its run in every shard; shards naming different runs are built fresh.
TEST_CASE("run_index, shards a run left holding different runs are built fresh", "[index_store]") {
  sagasu::test::TestIndex ti({{"a.md", "# A\n[[Xin Liu]] の論文。\n"},
                              {"b.md", "# B\n[[Xin Liu]] と本文。\n"},
                              {"c.md", "# C\n本文。\n"}});
  sagasu::IndexOptions o = ti.options();
  o.shards = 2;
  CHECK(sagasu::run_index(o).rebuilt);
  o.shards = 0;
  const auto shard = [&](std::size_t k) {
    return (fs::path(ti.index) / sagasu::layout::read_stub(ti.index).at(k)).string();
  };
  const auto run = [&](std::size_t k) {
    return Xapian::Database(shard(k)).get_metadata(std::string(sagasu::schema::META_RUN));
  };
  sagasu::test::write_file(fs::path(ti.vault) / "c.md", "# C\n本文。一行。\n");
  const sagasu::IndexReport edit = sagasu::run_index(o);
  CHECK_FALSE(edit.rebuilt);
  CHECK(edit.updated == 1);
  CHECK_FALSE(run(0).empty());
  CHECK(run(0) == run(1));
  // Shard 1 as a run killed after shard 0's commit left it: the last run's.
  const std::string last = run(1);
  sagasu::test::write_file(fs::path(ti.vault) / "c.md", "# C\n本文。二行。\n");
  sagasu::run_index(o);
  REQUIRE(run(1) != last);
  {
    Xapian::WritableDatabase w(shard(1), Xapian::DB_OPEN);
    w.set_metadata(std::string(sagasu::schema::META_RUN), last);
    w.commit();
  }
  const sagasu::IndexReport repaired = sagasu::run_index(o);
  CHECK(repaired.rebuilt);
  CHECK(repaired.shards == 2);
  CHECK(run(0) == run(1));
  CHECK_FALSE(sagasu::run_index(o).rebuilt);  // and then updates again
}

namespace {
// The run's findings and counts, as a rebuild of the same vault finds them.
void same_as_rebuild(const sagasu::test::TestIndex& ti, const sagasu::IndexReport& run) {
  sagasu::IndexOptions o = ti.options();
  o.index = (ti.dir.path / "rebuilt").string();
  fs::remove_all(o.index);
  const sagasu::IndexReport full = sagasu::run_index(o);
  CHECK(full.entities_by == "resolved");
  REQUIRE(run.unresolved.size() == full.unresolved.size());
  for (std::size_t i = 0; i < run.unresolved.size(); ++i) {
    CHECK(run.unresolved[i].name == full.unresolved[i].name);
    CHECK(run.unresolved[i].notes == full.unresolved[i].notes);
  }
  CHECK(run.kinds == full.kinds);
  // The synonym table (a renamed page without aliases has none: a fuzzer's counterexample gave it some).
  const auto synonyms = [](const std::string& index) {
    std::map<std::string, std::string> table;
    const Xapian::Database db(index);
    const std::string px(sagasu::schema::META_SYNONYM);
    for (auto k = db.metadata_keys_begin(px); k != db.metadata_keys_end(px); ++k)
      table[*k] = db.get_metadata(*k);
    return table;
  };
  CHECK(synonyms(ti.index) == synonyms(o.index));
}
}  // namespace

// A note moved to another folder and a page renamed with every link to it
// rewritten (as Obsidian renames a note): an update finds what a rebuild finds.
TEST_CASE("run_index, moves and Obsidian's renames: an update equals a rebuild", "[index_store]") {
  sagasu::test::TestIndex ti(
      {{"notes/Xin Liu.md", "---\nentity_type: person\n---\n# Xin Liu\n研究者。[[Xin Liu]] 自身。\n"},
       {"papers/a.md", "# A\n[[Xin Liu]] の論文。\n\n## 関連\n- 関連研究者: [[Xin Liu]]\n"},
       {"papers/b.md", "# B\n[[Xin Liu|劉鑫]] の話。\n\n[[謎の概念]] も。\n"},
       {"papers/c.md", "# C\n本文。\n"}});
  const sagasu::IndexOptions o = ti.options();
  const fs::path v(ti.vault);
  // An update, equal to a rebuild; `by`: how it must have known the entities ("": any way).
  const auto update = [&](const std::string& by = "") {
    const sagasu::IndexReport run = sagasu::run_index(o);
    if (!by.empty()) CHECK(run.entities_by == by);
    same_as_rebuild(ti, run);
    return run;
  };
  // Moved: the page, and a note naming a name no page has (the findings name it by its new path).
  fs::create_directories(v / "people");
  fs::rename(v / "notes/Xin Liu.md", v / "people/Xin Liu.md");
  fs::rename(v / "papers/b.md", v / "b.md");
  const sagasu::IndexReport moved = update("resolved");
  REQUIRE(moved.unresolved.size() == 1);
  CHECK(moved.unresolved[0].notes == std::set<std::string>{"b.md"});
  // Renamed, every link rewritten (a link with display text too, and its own link to itself).
  fs::rename(v / "people/Xin Liu.md", v / "people/劉鑫.md");
  sagasu::test::write_file(v / "people/劉鑫.md",
                           "---\nentity_type: person\n---\n# Xin Liu\n研究者。[[劉鑫]] 自身。\n");
  sagasu::test::write_file(v / "papers/a.md", "# A\n[[劉鑫]] の論文。\n\n## 関連\n- 関連研究者: [[劉鑫]]\n");
  sagasu::test::write_file(v / "b.md", "# B\n[[劉鑫|劉鑫]] の話。\n\n[[謎の概念]] も。\n");
  update("resolved");
  // Renamed back, one link left as it was: then the old name is a name of its own, resolved anew.
  fs::rename(v / "people/劉鑫.md", v / "people/Xin Liu.md");
  sagasu::test::write_file(v / "people/Xin Liu.md",
                           "---\nentity_type: person\n---\n# Xin Liu\n研究者。[[Xin Liu]] 自身。\n");
  sagasu::test::write_file(v / "papers/a.md",
                           "# A\n[[Xin Liu]] の論文。\n\n## 関連\n- 関連研究者: [[Xin Liu]]\n");
  const sagasu::IndexReport partly = update();
  CHECK(std::any_of(partly.unresolved.begin(), partly.unresolved.end(),
                    [](const sagasu::Unresolved& u) { return u.name == "劉鑫"; }));
  // Renamed, no link rewritten: a deletion and a new note (the old name is then a name of its own).
  fs::rename(v / "papers/c.md", v / "papers/c renamed.md");
  sagasu::test::write_file(v / "papers/a.md",
                           "# A\n[[Xin Liu]] の論文。[[c]] も。\n\n## 関連\n- 関連研究者: [[Xin Liu]]\n");
  update();
  fs::rename(v / "papers/c renamed.md", v / "papers/c again.md");
  update("resolved");
  // A page renamed, the notes naming it left as they were: weighed as a deletion and a new note.
  sagasu::test::write_file(v / "people/Ono.md", "---\nentity_type: person\n---\n# Ono\n研究者。\n");
  sagasu::test::write_file(v / "papers/d.md", "# D\n[[Ono]] の論文。\n");
  update();
  fs::rename(v / "people/Ono.md", v / "people/Ono 2.md");
  update("resolved");
  // A page the override file types, renamed with its link rewritten: the override keeps the old name
  // (a review's counterexample: the renamed page kept the override's kind).
  sagasu::test::write_file(v / ".sagasu/entities.tsv", "Ono 2\tperson\n");
  sagasu::test::write_file(v / "people/Ono 2.md", "研究メモ。\n");
  update();
  fs::rename(v / "people/Ono 2.md", v / "people/Ono 3.md");
  sagasu::test::write_file(v / "papers/d.md", "# D\n[[Ono 3]] の論文。\n");
  update();
  // A new page for a name notes spell otherwise (a review's counterexample, older than moves: the
  // name stayed among the unresolved findings).
  sagasu::test::write_file(v / "papers/e.md", "# E\n[[nemo]] の話。\n");
  const sagasu::IndexReport named = update();
  CHECK(std::any_of(named.unresolved.begin(), named.unresolved.end(),
                    [](const sagasu::Unresolved& u) { return u.name == "nemo"; }));
  sagasu::test::write_file(v / "orgs/Nemo.md", "本。\n");
  update("resolved");
  // Nothing changed: kept.
  CHECK(sagasu::run_index(o).entities_by == "kept");
  // A second note of a page's title, renamed: the page stays (a fuzzer's counterexample, once renamed away).
  sagasu::test::write_file(v / "x/Solo.md", "---\ntype: concept\n---\n# Solo\n考え方。\n");
  sagasu::test::write_file(v / "dup/Solo.md", "---\nentity_type: organization\n---\n# Solo\n別のページ。\n");
  update();
  fs::rename(v / "dup/Solo.md", v / "dup/Solo 2.md");
  update();
}

// A page given an alias by which notes already name a name no page has (as a
// user names a page by what notes write: `aliases: [劉鑫]`): the page takes
// the name, the notes naming it link the page, as a rebuild finds; the alias
// given up, the name is its own again.
TEST_CASE("run_index, an alias notes already use: the page takes the name, as a rebuild finds",
          "[index_store]") {
  sagasu::test::TestIndex ti({{"people/Xin Liu.md", "# Xin Liu\n研究メモ。\n"},
                              {"papers/a.md", "# A\n[[劉鑫]] の論文。\n\n## 関連\n- 関連研究者: [[劉鑫]]\n"},
                              {"papers/b.md", "# B\n[[劉鑫]] の話。[[Xin Liu]] も。\n"},
                              {"papers/c.md", "# C\n[[ナゾ]] の話。\n"},
                              {"orgs/Nazo.md", "---\naliases: [NZ]\n---\n# Nazo\n会社。\n"}});
  const sagasu::IndexOptions o = ti.options();
  const fs::path v(ti.vault);
  const auto linking = [](const std::string& index, const std::string& name) {
    const Xapian::Database db(index);
    const std::string term = sagasu::schema::filter_term(sagasu::schema::LINK, name);
    return db.get_termfreq(term);
  };
  const auto update = [&](const std::string& by) {
    const sagasu::IndexReport run = sagasu::run_index(o);
    CHECK(run.entities_by == by);
    same_as_rebuild(ti, run);
    return run;
  };
  // The page of no kind takes the name's (a list label's) and its notes.
  CHECK(linking(ti.index, "Xin Liu") == 1);
  sagasu::test::write_file(v / "people/Xin Liu.md", "---\naliases: [劉鑫]\n---\n# Xin Liu\n研究メモ。\n");
  update("resolved");
  CHECK(linking(ti.index, "Xin Liu") == 2);
  CHECK(linking(ti.index, "劉鑫") == 0);
  CHECK(linking((ti.dir.path / "rebuilt").string(), "Xin Liu") == 2);
  // A name of no kind, taken by a page with aliases already: no longer unresolved.
  const sagasu::IndexReport before = sagasu::run_index(o);
  CHECK(std::any_of(before.unresolved.begin(), before.unresolved.end(),
                    [](const sagasu::Unresolved& u) { return u.name == "ナゾ"; }));
  sagasu::test::write_file(v / "orgs/Nazo.md", "---\naliases: [NZ, ナゾ]\n---\n# Nazo\n会社。\n");
  const sagasu::IndexReport taken = update("resolved");
  CHECK(std::none_of(taken.unresolved.begin(), taken.unresolved.end(),
                     [](const sagasu::Unresolved& u) { return u.name == "ナゾ"; }));
  CHECK(linking(ti.index, "Nazo") == 1);
  // The alias given up again: the name is one of its own, unresolved again.
  sagasu::test::write_file(v / "orgs/Nazo.md", "---\naliases: [NZ]\n---\n# Nazo\n会社。\n");
  const sagasu::IndexReport given_up = update("resolved");
  const auto nazo = std::find_if(given_up.unresolved.begin(), given_up.unresolved.end(),
                                 [](const sagasu::Unresolved& u) { return u.name == "ナゾ"; });
  REQUIRE(nazo != given_up.unresolved.end());
  CHECK(nazo->notes == std::set<std::string>{"papers/c.md"});
  CHECK(linking(ti.index, "Nazo") == 0);
  sagasu::test::write_file(v / "orgs/Nazo.md", "---\naliases: [NZ, ナゾ]\n---\n# Nazo\n会社。\n");
  update("resolved");
  // An alias that is another page's title: the title wins, nothing moves (the synonyms grow).
  sagasu::test::write_file(v / "orgs/Nazo.md", "---\naliases: [NZ, ナゾ, Xin Liu]\n---\n# Nazo\n会社。\n");
  CHECK(update("resolved").ambiguous.empty());
  CHECK(linking(ti.index, "Xin Liu") == 2);
  // An alias that is the title of a page deleted in the same run: the alias names the page then
  // (a review's counterexample: it stayed a name of its own).
  sagasu::test::write_file(v / "orgs/Alpha Lab.md", "# Alpha Lab\n");
  sagasu::test::write_file(v / "papers/f.md", "# F\n[[Alpha Lab]]が設立した。\n");
  update("resolved");
  sagasu::test::write_file(v / "people/Xin Liu.md",
                           "---\naliases: [劉鑫, Alpha Lab]\n---\n# Xin Liu\n研究メモ。\n");
  fs::remove(v / "orgs/Alpha Lab.md");
  update("resolved");
  CHECK(linking(ti.index, "Xin Liu") == 3);
  // An alias another page gives: ambiguous, resolved again.
  sagasu::test::write_file(v / "orgs/Nazo.md",
                           "---\naliases: [NZ, ナゾ, Xin Liu, 劉鑫]\n---\n# Nazo\n会社。\n");
  CHECK(update("resolved").ambiguous.count("劉鑫") == 1);
}

// A second note of a page's title that says nothing of the page (an index.md,
// a README.md in another folder), new or deleted: an update finds what a rebuild finds.
TEST_CASE("run_index, a second note of a title that says nothing of its page: an update equals a rebuild",
          "[index_store]") {
  sagasu::test::TestIndex ti({{"people/Xin Liu.md", "---\nentity_type: person\n---\n# Xin Liu\n研究者。\n"},
                              {"a/index.md", "# index\n[[Xin Liu]] の一覧。\n"},
                              {"papers/b.md", "# B\n[[Xin Liu]] の話。\n"}});
  const sagasu::IndexOptions o = ti.options();
  const fs::path v(ti.vault);
  const auto update = [&](const std::string& by) {
    const sagasu::IndexReport run = sagasu::run_index(o);
    CHECK(run.entities_by == by);
    same_as_rebuild(ti, run);
    return run;
  };
  // New, first in path order, naming a page and a name no page has.
  sagasu::test::write_file(v / "0/index.md", "# index\n[[Xin Liu]] の一覧。[[ナゾ]] も。\n");
  const sagasu::IndexReport added = update("resolved");
  CHECK(std::any_of(added.unresolved.begin(), added.unresolved.end(),
                    [](const sagasu::Unresolved& u) { return u.name == "ナゾ"; }));
  // Deleted again: the name it alone used goes.
  fs::remove(v / "0/index.md");
  const sagasu::IndexReport gone = update("resolved");
  CHECK(std::none_of(gone.unresolved.begin(), gone.unresolved.end(),
                     [](const sagasu::Unresolved& u) { return u.name == "ナゾ"; }));
  // One that says what the page is.
  sagasu::test::write_file(v / "z/index.md", "---\nentity_type: organization\n---\n# index\n本文。\n");
  update("resolved");
}

// The entity rows beside the index stand for the notes only while their hash
// vouches for them: rows damaged on disk are not read (every digest is, and the
// run writes good rows again), and a run with good rows reads only the notes
// that changed; either way the index is what a rebuild makes.
TEST_CASE("run_index, damaged entity rows are not read; the update equals a rebuild", "[index_store]") {
  sagasu::test::TestIndex ti(
      {{"people/Xin Liu.md", "---\nentity_type: person\n---\n# Xin Liu\n研究者。\n"},
       {"a.md", "# A\n[[Xin Liu]] と [[ナゾ]] の論文。\n\n## 関連\n- 関連研究者: [[Ono]]\n"},
       {"b.md", "# B\n[[Xin Liu]]・[[Ono]]（訳）。\n"}});
  const sagasu::IndexOptions o = ti.options();
  const fs::path rows =
      fs::path(sagasu::test::current_generation(ti.index)) / sagasu::schema::ENTITY_ROWS_FILE;
  const auto meta = [&](std::string_view key) { return ti.db().get_metadata(std::string(key)); };
  const auto bytes = [&] {
    std::ifstream in(rows, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  REQUIRE(fs::exists(rows));
  REQUIRE(meta(sagasu::schema::META_ENTITY_ROWS_HASH).size() == 16);
  const std::string good = bytes();
  // Damaged (the same size, other bytes): not read; the run writes them again.
  std::string bad = good;
  for (std::size_t i = 2; i < bad.size(); i += 7) bad[i] = static_cast<char>(bad[i] ^ 0x5A);
  { std::ofstream(rows, std::ios::binary | std::ios::trunc) << bad; }
  sagasu::test::write_file(fs::path(ti.vault) / "b.md", "# B\n[[Xin Liu]]・[[Ono]]（訳）。[[Nemo]] も。\n");
  const sagasu::IndexReport damaged = sagasu::run_index(o);
  CHECK(damaged.entities_by == "resolved");
  same_as_rebuild(ti, damaged);
  CHECK(bytes() != bad);
  CHECK(sagasu::content_hash(bytes()) == meta(sagasu::schema::META_ENTITY_ROWS_HASH));
  // Good rows: read for a.md and Xin Liu.md; b.md from its new digest.
  sagasu::test::write_file(fs::path(ti.vault) / "b.md", "# B\n[[Xin Liu]]・[[Ono]]（訳）。\n");
  const sagasu::IndexReport update = sagasu::run_index(o);
  same_as_rebuild(ti, update);
  CHECK(bytes() == good);  // (the vault as it was first: the same bytes)
}

// Issue 44: a --rebuild while the vault folder was moved away switched to a
// generation holding 752 of 3,000 notes. The run now checks, before its
// commit, that the vault it walked is still in place.
TEST_CASE("run_index, a run whose vault moves away or empties mid-run keeps the index as it was",
          "[index_store]") {
  std::map<std::string, std::string> notes;
  for (int i = 0; i < 20; ++i) notes[fmt::format("n{:02}.md", i)] = fmt::format("# N{}\n本文 {}。\n", i, i);
  sagasu::test::TestIndex ti(notes);
  const auto generation = sagasu::layout::read_stub(ti.index);
  const fs::path moved = ti.dir.path / "moved";
  sagasu::IndexOptions o = ti.options();
  o.rebuild = true;
  o.phase = [&](std::string_view phase) {
    if (phase == "index") fs::rename(ti.vault, moved);
  };
  CHECK_THROWS_WITH(sagasu::run_index(o),
                    Catch::Contains("the vault folder moved or vanished during the run"));
  CHECK(sagasu::layout::read_stub(ti.index) == generation);
  CHECK(ti.db().get_doccount() == 20);
  fs::rename(moved, ti.vault);
  // Another folder at the vault's path is not the vault walked either.
  o.phase = [&](std::string_view phase) {
    if (phase == "index") {
      fs::rename(ti.vault, moved);
      fs::create_directories(ti.vault);
    }
  };
  CHECK_THROWS_WITH(sagasu::run_index(o), Catch::Contains("moved or vanished"));
  CHECK(ti.db().get_doccount() == 20);
  fs::remove(ti.vault);
  fs::rename(moved, ti.vault);
  // Most files gone since the walk: the same.
  o.phase = [&](std::string_view phase) {
    if (phase == "index")
      for (int i = 0; i < 15; ++i) fs::remove(fs::path(ti.vault) / fmt::format("n{:02}.md", i));
  };
  CHECK_THROWS_WITH(sagasu::run_index(o), Catch::Contains("15 of its 20 files vanished during the run"));
  CHECK(sagasu::layout::read_stub(ti.index) == generation);
  CHECK(ti.db().get_doccount() == 20);
  // And with the vault in place, the next run completes (the 5 notes left).
  o.phase = nullptr;
  CHECK(sagasu::run_index(o).rebuilt);
  CHECK(ti.db().get_doccount() == 5);
}
