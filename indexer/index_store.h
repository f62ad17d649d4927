// The index folder on disk: a writer lock that names its holder, a stub file
// (XAPIANDB) naming the current generation, and the generation folders. A
// reader opens the folder and gets whatever generation the stub names; a
// full rebuild writes a new generation beside it and switches the stub with
// one atomic rename, so readers never see a half-built index.
//
// A sharded index (indexer --shards N) is a folder of shard folders
// (shard-0 …), each an index folder of its own (servable alone by
// xapian-tcpsrv); the top stub names one generation of every shard, so a
// rebuild of all shards is switched with one rename too.
#pragma once

#include <xapian.h>

#include <memory>
#include <string>
#include <vector>

namespace sagasu {

struct HeldLock;

/// The writer lock of an index folder (its lock file), taken for as long as
/// the object lives. The lock file names the holder ("pid 4242 on host, since
/// 2026-05-01 10:00:00", and what it does when `purpose` says: "watching
/// /home/me/vault"), so a second writer can say who holds it. A process that
/// holds the lock may take it again (a watch session holds it across its
/// index runs): a second WriterLock of the same folder in one process shares
/// the first, and the lock is released with the last of them.
class WriterLock {
 public:
  /// Takes the lock of folder dir (which must exist). With wait, blocks until
  /// it is free; otherwise throws sagasu::Error naming the holder.
  WriterLock(const std::string& dir, bool wait, const std::string& purpose = "");
  /// The holder the lock file still named when this process took the lock
  /// though no process held it: a writer that ended without releasing it (killed,
  /// its machine gone); "" when the lock was released properly.
  const std::string& taken_over() const;

 private:
  std::shared_ptr<HeldLock> m_held;
};

class IndexStore {
 public:
  /// Creates the folder if needed and takes the writer lock (WriterLock). With
  /// wait, blocks until the lock is free; otherwise throws sagasu::Error naming the holder.
  /// Without `create` (a dry run), a folder that is not there is neither made nor locked:
  /// the store is an empty one.
  IndexStore(const std::string& dir, bool wait, bool create = true);
  ~IndexStore();
  const std::string& dir() const { return m_dir; }
  /// WriterLock::taken_over of the folder's lock ("" when none was taken).
  const std::string& lock_taken_over() const;
  IndexStore(const IndexStore&) = delete;
  IndexStore& operator=(const IndexStore&) = delete;

  /// The current generation for writing; creates the first one if there is none.
  Xapian::WritableDatabase open_current();
  /// A new, empty generation beside the current one; its name goes to switch_to().
  Xapian::WritableDatabase create_next(std::string& name);
  /// The name the next generation will have (no folder is made).
  std::string next_name() const;
  /// The folder of a generation (or of a part of one: "gen-000002.part1").
  std::string path_of(const std::string& name) const;
  /// Makes generation `name` current (atomic rename of the stub), then removes the others.
  void switch_to(const std::string& name);
  /// Removes generation and shard folders the stub does not name (left by a killed
  /// rebuild, or by another shard layout).
  void remove_stale();
  /// The current generation's name, or empty if none (or if the index is sharded).
  std::string current() const;
  /// The shard generations the stub names ("shard-0/gen-000001", …, in shard
  /// order), empty if the index is not sharded.
  std::vector<std::string> shards() const;
  /// Makes the shard generations current ("shard-0/gen-000002", …; atomic), then removes
  /// what the stub no longer names.
  void switch_to_shards(const std::vector<std::string>& generations);

 private:
  std::string m_dir;
  std::unique_ptr<WriterLock> m_lock;
};

}  // namespace sagasu
