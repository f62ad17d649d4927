// Phase 2 of an index run: what the index holds for each path (read with
// value streams), and every file of the vault classified against it:
// unchanged, touched (same content, new mtime), changed (parsed here, on
// several threads) or failed.
#pragma once

#include <xapian.h>

#include <cstddef>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "sagasu/indexer.h"
#include "sagasu/note.h"
#include "sagasu/stored_note.h"
#include "shard_set.h"
#include "vault_config.h"
#include "vault_walk.h"

namespace sagasu {

/// What the index held for a path before this run. The digest and the
/// signature are read when a phase needs them (IndexState::load_digests, load_values).
struct IndexedNote {
  std::uint32_t shard = 0;
  Xapian::docid docid = 0;
  /// Its file as the STATE value says it was indexed (its path is the key of IndexState::indexed()).
  struct File {
    std::uint64_t size = 0;
    std::int64_t mtime_ns = 0;
    std::string hash;
  } state;
  // (Held by pointer: a large vault's 100,000 notes are small while few are read.)
  mutable std::unique_ptr<std::string> digest;     ///< encoded NoteDigest, once read
  mutable std::unique_ptr<std::string> signature;  ///< DocumentBuilder::signature, once read
};

/// One note of this run: a file of the vault.
struct RunNote {
  enum class Status { Unchanged, Touched, Changed, Failed };

  const VaultFile* file = nullptr;
  const IndexedNote* old = nullptr;  ///< what the index held for this path, if anything
  Status status = Status::Unchanged;
  std::string hash;  ///< content hash, when the file was read this run (else file_hash() is the index's)
  std::unique_ptr<Note> note;  ///< parsed when it has to be (re)built (an update keeps it for the writer)
  std::vector<std::string> warnings;  ///< the parser's, when read
  std::string error;                  ///< why it failed

  /// The file's content hash: read this run, or the indexed state's (unchanged: not read).
  const std::string& file_hash() const { return hash.empty() && old ? old->state.hash : hash; }
  /// The note's digest: read now, or the indexed version's, decoded when first
  /// asked for (a run that changes nothing decodes none of the vault's
  /// digests; an indexed one that does not decode is empty).
  const NoteDigest& digest() const;
  void set_digest(NoteDigest d) {
    m_digest = std::make_unique<NoteDigest>(std::move(d));
    m_read_now = true;
  }
  /// Was the note read this run (its digest is new, not the index's)?
  bool read_now() const { return m_read_now; }
  /// The digest as stored: the indexed value itself when it was never decoded.
  std::string encoded_digest() const;
  /// The digest's page fields (NoteDigest::decode_page: titles, kind words,
  /// structure, aliases), the rest empty: a digest not decoded is not decoded whole.
  NoteDigest page() const;
  /// The digest's glosses (NoteDigest::decode_glosses), likewise.
  std::vector<Gloss> glosses() const;
  /// Does digest stand for the note: read now, or kept from the index (a
  /// failed file keeps its indexed version)?
  bool has_digest() const { return status != Status::Failed || old; }
  /// Lets go of the decoded digest (a large vault's hold much memory): one
  /// read now is kept encoded, an indexed one is the index's; digest() decodes it again if asked.
  void release_digest();

 private:
  // Held apart, so that a vault's notes are small to walk while few are decoded.
  mutable std::unique_ptr<NoteDigest> m_digest;  // one thread reads a note at a time
  std::unique_ptr<std::string> m_encoded;        // a digest read now, released
  bool m_read_now = false;
};

/// What the index holds, and what this run does with each file of the vault.
class IndexState {
 public:
  /// Reads what the shards hold (nothing for a fresh build; throws Error for an
  /// index of another vault), then classifies every file of the scan: size and
  /// mtime first, then the content hash, so a `touch` costs a read but no
  /// reindex. Changed files are parsed on `jobs` threads. Failed files and the
  /// notes' warnings go to the report; with opts.strict a skipped file throws
  /// Error, before anything is written.
  IndexState(const VaultScan& scan, ShardSet& shards, const IndexOptions& opts, const VaultConfig& config,
             unsigned jobs, IndexReport& report);
  IndexState(const IndexState&) = delete;
  IndexState& operator=(const IndexState&) = delete;

  /// Path → what the index held (nothing for a fresh build).
  const std::map<std::string, IndexedNote>& indexed() const { return m_indexed; }
  /// The notes of this run, one per file of the vault, in path order.
  const std::vector<RunNote>& notes() const { return m_notes; }
  /// The walk this run's notes come from.
  const VaultScan& scan() const { return m_scan; }
  std::vector<RunNote>& notes() { return m_notes; }
  /// Indexed paths that no file of the vault has (deleted, renamed away, or
  /// below a folder that could not be read), in path order.
  const std::vector<std::string>& vanished() const { return m_vanished; }
  /// Did a file change, or vanish?
  bool vault_changed() const;
  /// Reads the indexed digest of every note (one value stream per shard),
  /// unless read already: before a phase that looks at every note's digest.
  void load_digests() const;
  /// Lets go of every note's decoded digest (RunNote::release_digest), on `jobs` threads.
  void release_digests(unsigned jobs);
  /// Reads the indexed digest and signature of these notes (indexes into
  /// notes()) that have none read yet, a document each: before they are rebuilt.
  void load_values(const std::vector<std::size_t>& which) const;
  /// Is this note's digest the one the index holds for its path (a note read
  /// this run whose change resolution does not see, or one not read at all)?
  bool digest_unchanged(const RunNote& n) const;
  /// The indexed digest of an indexed path (a key of indexed()), read from its document unless read already.
  const std::string& indexed_digest(const std::string& path) const;
  /// The digest version every document of the index has after this run
  /// commits (schema.h: META_DIGESTS), or "" when a document it keeps may have another.
  std::string digests_version() const;
  /// Indexed paths whose documents stay as they are, counted as unchanged:
  /// failed files (so far) that had one, and notes below folders that could not be read.
  std::set<std::string> kept() const;

 private:
  const VaultScan& m_scan;
  ShardSet& m_shards;
  std::map<std::string, IndexedNote> m_indexed;
  // Each shard's indexed notes in docid order, as value streams run.
  std::vector<std::vector<std::pair<Xapian::docid, IndexedNote*>>> m_by_docid;
  bool m_digests_current = false;  // META_DIGESTS says every indexed digest is current
  mutable bool m_digests_loaded = false;
  std::vector<RunNote> m_notes;
  std::vector<std::string> m_vanished;

  void load(const IndexOptions& opts);
  bool digest_current(const IndexedNote& ix) const;
  void classify(const IndexOptions& opts, const VaultConfig& config, unsigned jobs);
  void report_problems(const IndexOptions& opts, IndexReport& report);
};

}  // namespace sagasu
