// The watch decides when to run the indexer: after a change to a note, a
// folder or the vault's settings has settled, never for swap files or
// hidden folders, and not at all once stopped.
#include <catch2/catch.hpp>
#include <chrono>
#include <future>
#include <thread>

#include "sagasu/indexer.h"
#include "test_index.h"

using sagasu::test::TempDir;
using sagasu::test::write_file;
using namespace std::chrono_literals;

namespace {

struct Watched {
  TempDir dir;
  sagasu::IndexOptions opts;
  std::unique_ptr<sagasu::VaultWatch> watch;
  Watched() {
    opts.vault = (dir.path / "vault").string();
    opts.index = (dir.path / "index").string();
    opts.jobs = 1;
    write_file(dir.path / "vault" / "a.md", "# A\n");
    watch = std::make_unique<sagasu::VaultWatch>(opts, sagasu::WatchSettings{50ms, 500ms});
    watch->index();
  }
  // Does wait() return true (a batch is due) within a second of change()?
  template <class F>
  bool wakes_for(F change) {
    auto woke = std::async(std::launch::async, [&] { return watch->wait(); });
    std::this_thread::sleep_for(20ms);
    change();
    const bool in_time = woke.wait_for(1s) == std::future_status::ready;
    if (!in_time) watch->stop();
    return woke.get() && in_time;
  }
};

}  // namespace

TEST_CASE("VaultWatch, a batch is due for notes, folders and settings; not for swap files", "[watch]") {
  Watched w;
  const auto vault = w.dir.path / "vault";
  CHECK(w.watch->folders() == 1);
  CHECK(w.wakes_for([&] { write_file(vault / "b.md", "# B\n"); }));
  CHECK(w.wakes_for([&] { std::filesystem::create_directories(vault / "new" / "deeper"); }));
  CHECK(w.watch->folders() == 3);  // new folders are watched as they appear
  CHECK(w.wakes_for([&] { write_file(vault / "new" / "deeper" / "c.md", "# C\n"); }));
  CHECK(w.wakes_for([&] { write_file(vault / ".sagasu" / "entities.tsv", "B\tperson\n"); }));
  CHECK(w.wakes_for([&] { std::filesystem::remove(vault / "a.md"); }));
  CHECK_FALSE(w.wakes_for([&] {
    write_file(vault / ".b.md.swp", "swap");
    write_file(vault / "b.md~", "backup");
    write_file(vault / ".obsidian" / "workspace.json", "{}");
    write_file(vault / "figure.png", "png");
  }));
}

TEST_CASE("VaultWatch, the index folder inside the vault is not watched", "[watch]") {
  TempDir dir;
  sagasu::IndexOptions opts;
  opts.vault = (dir.path / "vault").string();
  opts.index = (dir.path / "vault" / "index").string();
  write_file(dir.path / "vault" / "a.md", "# A\n");
  sagasu::VaultWatch watch(opts, sagasu::WatchSettings{50ms, 500ms});
  CHECK(watch.folders() == 1);  // the vault, not its index folder
}

TEST_CASE("VaultWatch, stop() ends a wait, and every later one", "[watch]") {
  Watched w;
  auto waiting = std::async(std::launch::async, [&] { return w.watch->wait(); });
  std::this_thread::sleep_for(20ms);
  w.watch->stop();
  REQUIRE(waiting.wait_for(1s) == std::future_status::ready);
  CHECK_FALSE(waiting.get());
  write_file(w.dir.path / "vault" / "b.md", "# B\n");
  CHECK_FALSE(w.watch->wait());
}
