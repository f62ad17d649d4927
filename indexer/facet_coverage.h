// After a run: how much of the index each facet covers and from which
// sources, the kinds, and the property keys no facet reads. It tells a user at
// once why a facet is empty and what to put in the config.
//
// Counted once from the documents' COVERAGE and KIND values (value streams: no
// document is fetched) when a generation is built, then kept with each commit
// (META_COVERAGE) and brought up to date by what a run changes: the
// documents an update replaces or deletes are taken out, the new ones put in.
// So a run's cost follows the change, not the vault, and no value stream is
// opened over a transaction's pending changes (Xapian aborts when such a
// flush meets a full disk).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <xapian.h>

#include "sagasu/indexer.h"
#include "shard_set.h"

namespace sagasu {

class CoverageTally {
 public:
  /// Every document of every shard (a fresh generation, or an index that
  /// stored no tally yet: before anything is written to it).
  static CoverageTally read(ShardSet& shards);
  /// The tally the last commit stored; nullopt when there is none (an index of an older Sagasu).
  static std::optional<CoverageTally> decode(const std::string& stored);
  std::string encode() const;

  /// A document put into the index (+1) or taken out (-1).
  void count(const Xapian::Document& doc, int sign);
  /// Fills report.indexed, coverage, kinds and unmapped_keys.
  void fill(IndexReport& report) const;

 private:
  long long m_indexed = 0;
  std::map<std::string, long long> m_notes;                            ///< facet → notes with a value
  std::map<std::string, std::map<std::string, long long>> m_sources;   ///< facet → source → notes
  std::map<std::string, long long> m_kinds, m_unmapped;

  void count(std::string_view coverage, std::string_view kind, int sign);
};

}  // namespace sagasu
