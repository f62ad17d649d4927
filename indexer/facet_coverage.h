// After a run: how much of the index each facet covers and from which
// sources, the kinds, and the property keys no facet reads. It tells a user at
// once why a facet is empty and what to put in the config.
//
// Counted once per shard from the documents' COVERAGE and KIND values (value
// streams: no document is fetched) when a generation is built, then kept in
// that shard's metadata with each of its commits (META_COVERAGE) and brought
// up to date by what a run changes there: the documents an update replaces or
// deletes are taken out, the new ones put in. A shard's tally commits with its
// documents, so a run that fails between two shards' commits leaves each
// tally true to its shard.
// So a run's cost follows the change, not the vault, and no value stream is
// opened over a transaction's pending changes (Xapian aborts when such a
// flush meets a full disk).
#pragma once

#include <xapian.h>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "sagasu/indexer.h"

namespace sagasu {

class CoverageTally {
 public:
  /// Every document of a shard (a fresh generation, or a shard that stored no
  /// tally yet or a wrong one: before anything is written to it).
  static CoverageTally read(const Xapian::Database& db);
  /// The tally a shard's last commit stored when it was stored by the commit
  /// that made the shard's revision (a later commit by an older Sagasu, which
  /// keeps no tally, makes it stale) and counts its documents; otherwise read(db).
  static CoverageTally of(const Xapian::Database& db, bool& stored);
  /// The tally the last commit stored; nullopt when there is none (an index of an older Sagasu).
  static std::optional<CoverageTally> decode(const std::string& stored);
  /// Only what is counted (a count that fell to zero is gone, as a recount has it).
  std::string encode() const;
  /// Adds another shard's tally.
  void add(const CoverageTally& other);
  /// Stores the tally in db's metadata, with the revision its commit will make
  /// (META_COVERAGE_REVISION: the next commit must be the one that stores it).
  void store(Xapian::WritableDatabase& db) const;

  /// A document put into the index (+1) or taken out (-1).
  void count(const Xapian::Document& doc, int sign);
  /// Fills report.indexed, coverage, kinds and unmapped_keys.
  void fill(IndexReport& report) const;

 private:
  long long m_indexed = 0;
  std::map<std::string, long long> m_notes;                           ///< facet → notes with a value
  std::map<std::string, std::map<std::string, long long>> m_sources;  ///< facet → source → notes
  std::map<std::string, long long> m_kinds, m_unmapped;

  void count(std::string_view coverage, std::string_view kind, int sign);
};

}  // namespace sagasu
