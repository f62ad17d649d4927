#include "shard_set.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "sagasu/error.h"
#include "sagasu/facet_columns.h"
#include "sagasu/generation_file.h"
#include "sagasu/index_error.h"
#include "sagasu/index_layout.h"
#include "sagasu/schema.h"
#include "sagasu/word_list.h"
#include "terminate_watch.h"
#include "vault_walk.h"

namespace sagasu {
namespace {

// What the searcher reads beside a generation's database (each file names the revision it describes).
void write_generation_files(const Xapian::Database& db, const std::string& folder) {
  FacetColumns::write(db, folder);
  WordList::write(db, folder);
}

// The same files brought up to date from those of revision `before`, where
// only the documents `docids` (and their words) changed.
void update_generation_files(const Xapian::Database& db, const std::string& folder, Xapian::rev before,
                             const std::set<Xapian::docid>& docids, const std::set<std::string>& words) {
  FacetColumns::update(db, folder, before, docids);
  WordList::update(db, folder, before, words);
}

// Writes what the searcher reads beside a committed generation. The commit
// stands without them (readers ignore files of another revision and count
// from the index), so failing to write them (a full disk) is a warning.
template <class Write>
void write_beside(std::vector<Skipped>& warnings, const std::string& folder, Write write) {
  const auto warn = [&](std::string_view what) {
    warnings.push_back(
        {folder, fmt::format("{}: the run is committed; facets and substrings are counted from "
                             "the index until a run writes the files beside it",
                             what)});
  };
  try {
    write();
  } catch (const Error& e) {
    warn(e.what());
  } catch (const Xapian::Error& e) {
    warn(e.get_description());
  }
}

// Drops what a database holds uncommitted: its transaction, or the changes a
// failed commit_transaction() left pending outside one.
void discard_pending(Xapian::WritableDatabase& db) {
  try {
    db.cancel_transaction();
  } catch (const Xapian::Error&) {
    try {
      db.begin_transaction(false);  // (unflushed: commits nothing first)
      db.cancel_transaction();
    } catch (const Xapian::Error&) {
    }
  }
}

}  // namespace

ShardSet::ShardSet(const IndexOptions& opts, const std::string& config)
    : m_store(opts.index, opts.wait, !opts.dry_run), m_dry_run(opts.dry_run) {
  const std::vector<std::string> old_shards = m_store.shards();
  const bool exists = !m_store.current().empty() || !old_shards.empty();
  const std::size_t old_count = old_shards.empty() ? 1 : old_shards.size();
  const std::size_t count = opts.shards ? opts.shards : exists ? old_count : 1;
  if (!opts.dry_run) m_store.remove_stale();
  open_stores(count, opts.wait);
  if (count > 1 && old_shards.size() == count && !opts.dry_run) reconcile(old_shards);
  // Another shard count than the index's is a new layout; an index of another
  // schema version or config cannot be trusted to match its documents: all are
  // built fresh. One of a newer Sagasu is refused first, whatever else is asked
  // (only --rebuild replaces it).
  const std::string first = old_shards.empty() ? m_store.current() : old_shards.front();
  const bool stale = exists && !opts.rebuild && stale_schema(m_store.path_of(first), config);
  m_fresh = opts.rebuild || !exists || stale || count != old_count ||
            std::any_of(m_shards.begin(), m_shards.end(),
                        [](const Shard& sh) { return sh.store->current().empty(); }) ||
            interrupted();
  // A fresh build writes sub-indexes and merges them into the new generation
  // at the end; an update writes into the current one.
  for (Shard& sh : m_shards) {
    if (m_fresh)
      sh.new_generation = sh.store->next_name();
    else
      sh.db = sh.store->open_current(), sh.opened = sh.db.get_revision();
  }
}

ShardSet::~ShardSet() {
  if (!m_fresh || m_committed || m_dry_run) return;
  for (Shard& sh : m_shards) {
    try {
      sh.db.close();  // (commits what is pending: on a full disk that fails too)
    } catch (...) {
    }
    try {
      sh.store->remove_stale();
    } catch (...) {
      // The next run removes what is left (remove_stale in the constructor).
    }
  }
  if (m_shards.size() > 1) {  // (one shard's store is the index folder's own)
    try {
      m_store.remove_stale();  // new shard folders of another shard count
    } catch (...) {
    }
  }
}

void ShardSet::open_stores(std::size_t count, bool wait) {
  m_shards.resize(count);
  if (count == 1) {
    m_shards[0].store = &m_store;
    return;
  }
  for (std::size_t k = 0; k < count; ++k) {
    m_shards[k].own =
        std::make_unique<IndexStore>(m_store.path_of(layout::shard_folder(k)), wait, !m_dry_run);
    m_shards[k].store = m_shards[k].own.get();
  }
}

// The top stub is the truth: a shard's own stub (what xapian-tcpsrv opens) is
// brought in line with it, as a killed rebuild may have left it behind.
void ShardSet::reconcile(const std::vector<std::string>& stub_shards) {
  for (std::size_t k = 0; k < m_shards.size(); ++k) {
    const auto named = layout::shard_entry(stub_shards[k]);
    if (named && named->folder == layout::shard_folder(k) &&
        m_shards[k].store->current() != named->generation)
      m_shards[k].store->switch_to(named->generation);
  }
}

bool ShardSet::interrupted() const {
  std::string first;
  for (std::size_t k = 0; k < m_shards.size() && m_shards.size() > 1; ++k) {
    std::string run;
    try {
      run = Xapian::Database(m_shards[k].store->path_of(m_shards[k].store->current()))
                .get_metadata(std::string(schema::META_RUN));
    } catch (const Xapian::Error&) {
      return false;  // (an unreadable shard is reported when it is opened)
    }
    if (k == 0)
      first = std::move(run);
    else if (run != first)
      return true;
  }
  return false;
}

bool ShardSet::stale_schema(const std::string& generation, const std::string& config) const {
  std::string version;
  try {
    Xapian::Database current(generation);
    version = current.get_metadata(std::string(schema::META_SCHEMA_VERSION));
    if (version == schema::SCHEMA_VERSION)
      return current.get_metadata(std::string(schema::META_CONFIG)) != config;
  } catch (const Xapian::DatabaseVersionError& e) {
    throw Error(
        fmt::format("{}: the index is in a database format this Xapian cannot read ({}): index it with "
                    "the Sagasu that wrote it, or replace it with --rebuild",
                    m_store.dir(), e.get_msg()));
  } catch (const Xapian::Error&) {
    return true;  // unreadable: built anew
  }
  if (schema::newer_schema(version))
    throw Error(
        fmt::format("{}: the index was written by a newer Sagasu (schema {}; this one writes {}): "
                    "index it with that version, or replace it with --rebuild",
                    m_store.dir(), version, schema::SCHEMA_VERSION));
  return true;
}

std::size_t ShardSet::shard_of(std::string_view path) const {
  return schema::shard_of(path, m_shards.size());
}

std::string ShardSet::metadata(std::string_view key) const {
  return m_fresh ? std::string() : m_shards[0].db.get_metadata(std::string(key));
}

std::shared_ptr<const std::string_view> ShardSet::cached(std::string_view file, std::string_view hash) const {
  if (m_fresh || hash.empty()) return nullptr;
  const Shard& sh = m_shards[0];
  struct Copy {
    std::unique_ptr<generation_file::Mapped> map;
    std::string_view bytes;
  };
  auto copy = std::make_shared<Copy>();
  copy->map = generation_file::Mapped::open(sh.store->path_of(sh.store->current()) + "/" + std::string(file));
  if (!copy->map) return nullptr;
  copy->bytes = {reinterpret_cast<const char*>(copy->map->data()), copy->map->size()};
  if (content_hash(copy->bytes) != hash) return nullptr;
  return std::shared_ptr<const std::string_view>(copy, &copy->bytes);
}

bool ShardSet::cache(std::string_view file, std::string_view bytes) const {
  return !cache(file, [&](const auto& out) { out(bytes); }).empty();
}

std::string ShardSet::cache(
    std::string_view file,
    const std::function<void(const std::function<void(std::string_view)>&)>& write) const {
  if (m_dry_run) return {};
  const Shard& sh = m_shards[0];
  const std::string folder = m_fresh ? new_path(0) : sh.store->path_of(sh.store->current());
  // (A fresh build's generation may not be written yet: its folder is made
  // now, and the merge of its parts writes into it.)
  std::error_code ec;
  if (m_fresh) std::filesystem::create_directories(folder, ec);
  ContentHash hash;
  try {
    generation_file::Writer out(folder + "/" + std::string(file));
    write([&](std::string_view bytes) {
      hash.add(bytes);
      out.append(bytes);
    });
    out.commit(/*synced=*/false);
  } catch (const Error&) {
    return {};  // (a full disk)
  }
  return hash.hex();
}

std::string ShardSet::part_path(std::size_t k, std::size_t p) const {
  const Shard& sh = m_shards[k];
  return sh.store->path_of(layout::part_name(sh.new_generation, p));
}

std::string ShardSet::new_path(std::size_t k) const {
  return m_shards[k].store->path_of(m_shards[k].new_generation);
}

void ShardSet::open_new(std::size_t k) {
  m_shards[k].db = Xapian::WritableDatabase(new_path(k), Xapian::DB_OPEN);
}

void ShardSet::begin_transaction() {
  for (Shard& sh : m_shards) sh.db.begin_transaction(true);
}

std::vector<Skipped> ShardSet::commit(const ShardChanges& changes) {
  // Each generation's facet columns and word list describe its committed revision; a run
  // killed before they are written leaves a file of another revision, which
  // readers ignore and the next run writes again.
  std::vector<Skipped> warnings;
  std::vector<std::pair<std::string, Xapian::rev>> before;
  if (!m_fresh)
    for (const Shard& sh : m_shards) before.emplace_back(sh.store->path_of(sh.store->current()), sh.opened);
  const TerminateWatch::Committing committing(before);
  if (!m_fresh) {
    try {
      for (std::size_t k = 0; k < m_shards.size(); ++k) m_shards[k].db.commit_transaction();
    } catch (const Xapian::Error& e) {
      // A failed commit leaves its changes pending outside the transaction,
      // and the database's destructor would commit them after all (measured:
      // "nothing of this run was kept", and the run was there). Dropped here.
      for (Shard& sh : m_shards) discard_pending(sh.db);
      // A commit can fail after it wrote the new revision (a full disk met
      // after it): what happened is what the databases say, not the error.
      const std::size_t written = TerminateWatch::committed(before);
      if (written == 0) throw;
      if (written < before.size())
        throw Error(
            fmt::format("{}: the commit failed ({}) after {} of {} shards took this run: the index answers, "
                        "and the next run builds them again",
                        m_store.dir(), e.get_msg(), written, before.size()));
      warnings.push_back({m_store.dir(), fmt::format("the run is committed, though Xapian then said: {}",
                                                     e.get_description())});
    }
    for (std::size_t k = 0; k < m_shards.size(); ++k) {
      Shard& sh = m_shards[k];
      const std::string folder = sh.store->path_of(sh.store->current());
      write_beside(warnings, folder, [&] {
        if (k < changes.docids.size())
          update_generation_files(sh.db, folder, sh.opened, changes.docids[k], changes.words);
        else
          write_generation_files(sh.db, folder);
      });
    }
    return warnings;
  }
  std::vector<std::string> generations;
  for (std::size_t k = 0; k < m_shards.size(); ++k) {
    m_shards[k].db.commit();
    write_generation_files(m_shards[k].db, new_path(k));
    m_shards[k].db.close();
    generations.push_back(layout::shard_folder(k) + "/" + m_shards[k].new_generation);
  }
  // The atomic switch: readers now open the new generation (of every shard).
  // Once the top stub names them, the new generations are the index: nothing
  // may remove them (a shard's own stub left behind is brought in line by the
  // next run, as reconcile does).
  if (m_shards.size() == 1) {
    m_store.switch_to(m_shards[0].new_generation);
    m_committed = true;
  } else {
    m_store.switch_to_shards(generations);
    m_committed = true;
    for (Shard& sh : m_shards) sh.store->switch_to(sh.new_generation);
  }
  return warnings;
}

std::vector<Skipped> ShardSet::keep_as_is() {
  // The generation files of a run that committed and died before writing them.
  std::vector<Skipped> warnings;
  for (Shard& sh : m_shards) {
    const std::string folder = sh.store->path_of(sh.store->current());
    write_beside(warnings, folder, [&] { write_generation_files(sh.db, folder); });
  }
  return warnings;
}

}  // namespace sagasu
