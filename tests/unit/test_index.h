// Unit-test fixtures: a temporary folder, and a vault written into it and
// indexed by the real indexer, for tests of the parts that read an index.
#pragma once

#include <unistd.h>
#include <xapian.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "sagasu/index_layout.h"
#include "sagasu/indexer.h"

namespace sagasu::test {

/// A temporary folder, removed with everything in it.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    char tmpl[] = "/tmp/sagasu-unit-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

/// Writes a file, creating its folders.
inline void write_file(const std::filesystem::path& p, const std::string& text) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

/// The folder of an index's current generation (one shard).
inline std::string current_generation(const std::string& index) {
  return (std::filesystem::path(index) / layout::read_stub(index).front()).string();
}

/// A commit to an index by another writer that writes none of the files a
/// generation keeps beside its database (a run killed before writing them,
/// an older Sagasu): what those files describe is no longer the revision.
inline void commit_elsewhere(const std::string& index) {
  Xapian::WritableDatabase w(index, Xapian::DB_OPEN);
  w.set_metadata("test", "x");
  w.commit();
}

/// A vault of notes (vault-relative path → content) and its index.
struct TestIndex {
  TempDir dir;
  std::string vault, index;
  explicit TestIndex(const std::map<std::string, std::string>& notes) {
    vault = (dir.path / "vault").string();
    index = (dir.path / "index").string();
    std::filesystem::create_directories(vault);
    for (const auto& [path, text] : notes) write_file(std::filesystem::path(vault) / path, text);
    run_index(options());
  }
  Xapian::Database db() const { return Xapian::Database(index); }
  /// Options for indexing this vault into this index again, on one thread.
  IndexOptions options() const {
    IndexOptions o;
    o.vault = vault;
    o.index = index;
    o.jobs = 1;
    return o;
  }
};

}  // namespace sagasu::test
