// Unit-test fixtures: a temporary folder, and a vault written into it and
// indexed by the real indexer, for tests of the parts that read an index.
#pragma once

#include <unistd.h>
#include <xapian.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

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

/// A vault of notes (vault-relative path → content) and its index.
struct TestIndex {
  TempDir dir;
  std::string vault, index;
  explicit TestIndex(const std::map<std::string, std::string>& notes) {
    vault = (dir.path / "vault").string();
    index = (dir.path / "index").string();
    std::filesystem::create_directories(vault);
    for (const auto& [path, text] : notes) write_file(std::filesystem::path(vault) / path, text);
    IndexOptions o;
    o.vault = vault;
    o.index = index;
    o.jobs = 1;
    run_index(o);
  }
  Xapian::Database db() const { return Xapian::Database(index); }
};

}  // namespace sagasu::test
