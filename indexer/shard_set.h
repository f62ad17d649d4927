// The index an indexer run writes, as a set of shards (one when the index is
// not sharded): their stores, opened under the index's writer lock; whether
// the run builds them fresh or updates them; their databases; and the commit
// that makes the run visible to readers all at once.
#pragma once

#include <xapian.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "index_store.h"
#include "sagasu/indexer.h"

namespace sagasu {

/// What an update changed, so commit() brings the files beside each
/// generation up to date from those of the revision the run began with
/// (the facet columns, the word list) instead of writing them whole.
struct ShardChanges {
  std::vector<std::set<Xapian::docid>> docids;  ///< per shard: documents replaced, added or deleted
  std::set<std::string> words;                  ///< the word terms of those documents, before and after
};

/// The shards an index run writes, from opening to commit.
class ShardSet {
 public:
  /// Takes the writer lock of opts.index (nothing is read from the index that
  /// another writer could change) and opens opts.shards shards (0: as many as
  /// the index has, 1 for a new index). Unless opts.dry_run, generations the
  /// stub does not name are removed and each shard's own stub is brought in
  /// line with the top stub. An update opens the current generations; a fresh
  /// build names the new ones.
  /// config is the vault config's text: an index built with another is built fresh.
  ShardSet(const IndexOptions& opts, const std::string& config);
  /// A fresh build that never reached commit() (an error, a full disk)
  /// removes the generations and parts it wrote: the space is free again at once.
  ~ShardSet();
  ShardSet(const ShardSet&) = delete;
  ShardSet& operator=(const ShardSet&) = delete;

  /// The number of shards.
  std::size_t size() const { return m_shards.size(); }
  /// Does the run build every shard anew (asked for; no index yet; another
  /// shard count; another schema version or vault config; a shard without a generation)
  /// rather than update the current generations?
  bool fresh() const { return m_fresh; }
  /// The holder a lock left behind named (IndexStore::lock_taken_over), "" if none.
  const std::string& lock_taken_over() const { return m_store.lock_taken_over(); }
  /// The shard of a vault-relative path (schema::shard_of).
  std::size_t shard_of(std::string_view path) const;
  /// Shard k's database: for an update, its current generation; for a fresh
  /// build, the new generation once open_new(k) was called.
  Xapian::WritableDatabase& db(std::size_t k) { return m_shards[k].db; }
  /// Every shard's database, as read (pending changes included).
  std::vector<Xapian::Database> databases() const {
    std::vector<Xapian::Database> out;
    for (const auto& sh : m_shards) out.push_back(sh.db);
    return out;
  }
  /// A metadata value of the index as it was (empty for a fresh build): every
  /// shard holds the index's metadata, the first one is read.
  std::string metadata(std::string_view key) const;

  /// A large value the index holds only the content_hash of, kept in a file
  /// beside the first shard's generation (the entity resolution: 20 MB at
  /// 100k notes, which Xapian 1.4 reads at about 120 MB/s and a mapped file
  /// gives in milliseconds): its bytes, mapped, when they hash to `hash`;
  /// nullptr if there is none, or a stale or torn one. (The pointer keeps the mapping.)
  std::shared_ptr<const std::string_view> cached(std::string_view file, std::string_view hash) const;
  /// Keeps such a value beside the first shard's generation (the current one,
  /// or the new one of a fresh build), not durably: a file a crash tears does
  /// not hash to its value. Nothing on a dry run or when it cannot be written:
  /// false then.
  bool cache(std::string_view file, std::string_view bytes) const;
  /// The same for a value given in pieces: write(out) calls out with each in
  /// turn (the value is never held whole). Its content_hash, "" when nothing was kept.
  std::string cache(std::string_view file,
                    const std::function<void(const std::function<void(std::string_view)>& out)>& write) const;
  /// The folder of part p of shard k's new generation (a fresh build).
  std::string part_path(std::size_t k, std::size_t p) const;
  /// The folder of shard k's new generation (a fresh build).
  std::string new_path(std::size_t k) const;
  /// Opens shard k's new generation, written into new_path(k) by a fresh build.
  void open_new(std::size_t k);

  /// An update from here on is one transaction per shard: readers see all of
  /// this run or none of it (commit() ends them).
  void begin_transaction();
  /// Makes the run visible: an update commits each shard's transaction (and
  /// brings the files beside its generation up to date with `changes`); a
  /// fresh build commits the new generations and switches every shard to them
  /// with one atomic rename of the stub. After an update's commit, the files
  /// beside a generation that cannot be written (a full disk) are warnings,
  /// returned, as the run is committed.
  std::vector<Skipped> commit(const ShardChanges& changes = {});
  /// Ends an update that changed nothing without a commit; brings the
  /// generation files up to date if a run died before writing them (warnings
  /// for those that cannot be written).
  std::vector<Skipped> keep_as_is();

 private:
  struct Shard {
    IndexStore* store = nullptr;
    std::unique_ptr<IndexStore> own;  // a sharded index: the shard's own folder
    Xapian::WritableDatabase db;
    Xapian::rev opened = 0;      // an update: the revision it began with
    std::string new_generation;  // a fresh build writes this generation
  };
  IndexStore m_store;  // the index folder, its lock and top stub
  std::vector<Shard> m_shards;
  bool m_fresh = false;
  bool m_dry_run = false;
  bool m_committed = false;

  void open_stores(std::size_t count, bool wait);
  void reconcile(const std::vector<std::string>& stub_shards);
  /// Do the shards hold different runs (META_RUN): one killed between their commits?
  bool interrupted() const;
  /// Is the index's generation of another schema or config (or unreadable)?
  /// Throws Error for one of a newer Sagasu or Xapian format.
  bool stale_schema(const std::string& generation, const std::string& config) const;
};

}  // namespace sagasu
