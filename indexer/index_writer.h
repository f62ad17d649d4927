// Phase 4 of an index run: the one writer. A fresh build writes, shard by
// shard, one sub-index per thread and merges them by compaction into the new
// generation; an update is one transaction per shard that replaces, renames
// and deletes documents and updates the state of touched files. Both take
// each note through the same document path.
#pragma once

#include <xapian.h>

#include <atomic>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "document_builder.h"
#include "entity_resolver.h"
#include "facet_coverage.h"
#include "index_state.h"
#include "sagasu/indexer.h"
#include "sagasu/note.h"
#include "shard_set.h"
#include "vault_config.h"

namespace sagasu {

/// How many parts a fresh build writes a shard of `notes` notes in on `jobs`
/// cores: parts of at most 2,000 notes, at least one per core (of 64 notes or
/// more), and a multiple of the cores when there are more parts than cores.
std::size_t fresh_build_parts(std::size_t notes, unsigned jobs);

/// Writes the notes of a run into the index's shards.
class IndexWriter {
 public:
  /// Writes into shards, reading the notes' metadata as config says and
  /// resolving their entities with resolver; documents are built on `jobs` threads.
  IndexWriter(ShardSet& shards, const EntityResolver& resolver, const IndexOptions& opts,
              const VaultConfig& config, unsigned jobs);

  /// Builds every note for a fresh build; for an update, the changed and new
  /// notes and those in refresh (paths), and writes what differs from
  /// the index. Counts what was added, updated, renamed, deleted and left
  /// unchanged, and reports the notes that failed to build. With
  /// opts.dry_run, the documents are built (a note may fail) but nothing is written.
  /// An update counts the documents it takes out of shard k out of tallies[k]
  /// and those it puts in into it (a fresh generation is counted whole afterwards).
  void write(IndexState& state, const std::set<std::string>& refresh, IndexReport& report,
             std::vector<CoverageTally>& tallies);
  /// Did write() change any document (an update that changes nothing needs no commit)?
  bool wrote() const { return m_wrote; }
  /// What an update changed: the documents it put in, replaced or took out,
  /// and their word terms (the words whose presence may have changed);
  /// nothing for a fresh build.
  const ShardChanges& changes() const { return m_changes; }

 private:
  ShardSet& m_shards;
  const EntityResolver& m_resolver;
  const IndexOptions& m_opts;
  const VaultConfig& m_config;
  unsigned m_jobs;
  NoteParser m_parser;
  std::atomic<std::size_t> m_done{0};
  bool m_wrote = false;
  ShardChanges m_changes;
  std::vector<CoverageTally>* m_tallies = nullptr;
  const VaultScan* m_scan = nullptr;  // (the notes' files, write())

  std::optional<Xapian::Document> document(RunNote& note, DocumentBuilder& builder);
  void build_fresh(IndexState& state, const std::vector<std::size_t>& to_build, IndexReport& report);
  void build_shard(std::size_t shard, const std::vector<RunNote*>& notes, std::size_t total);
  void update(IndexState& state, const std::vector<std::size_t>& to_build, IndexReport& report);
  /// Vanished paths by content hash (a new path with one's content is its
  /// rename), and the paths found renamed so far.
  struct Renames {
    explicit Renames(const IndexState& state);
    std::map<std::string, std::string> vanished_by_hash;  ///< hash → old path
    std::set<std::string> renamed;
  };
  /// Writes notes [from, to) (in path order): built ones replace their
  /// documents (each let go once written), the others are kept.
  void apply(IndexState& state, std::vector<std::optional<Xapian::Document>>& built, std::size_t from,
             std::size_t to, Renames& renames, IndexReport& report);
  void keep(const RunNote& note, IndexReport& report);
  void delete_vanished(const IndexState& state, const std::set<std::string>& renamed, IndexReport& report);
  void progress(std::size_t total);
  /// Takes document docid of shard k out of the tally, into the changes
  /// (before it is replaced or deleted).
  void count_out(std::size_t k, Xapian::docid docid);
  /// Counts document docid of shard k into (sign 1: put in) or out of (-1)
  /// the tally, and into the changes.
  void count(std::size_t k, Xapian::docid docid, const Xapian::Document& doc, int sign);
};

}  // namespace sagasu
