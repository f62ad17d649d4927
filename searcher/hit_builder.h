// A stored note → a hit: what it shows (title, path, facet values), how it
// matched (its tier: the weakest any query piece needed), the score parts
// --explain prints, and its snippets.
#pragma once

#include <xapian.h>

#include <string>

#include "index_set.h"
#include "query_builder.h"
#include "sagasu/analyzer.h"
#include "sagasu/searcher.h"
#include "sagasu/stored_note.h"

namespace sagasu {

/// A note as a hit before any query: path, title, kind, file (vault + "/" +
/// path, when the vault is known) and each facet's values.
Hit note_hit(const NoteMeta& meta, const Xapian::Document& doc, const std::string& vault);

class HitBuilder {
 public:
  HitBuilder(const OpenIndex& index, Analyzer& analyzer, const CompiledQuery& query,
             const SearchRequest& req);
  /// The hit of a matching note, ranked rank (1-based) with this weight.
  Hit build(const Xapian::Document& doc, double weight, std::size_t rank) const;

 private:
  /// Does q match this note in db, the shard holding it or every shard?
  /// (Its unique-id term filters the match to it.)
  static bool matches(const Xapian::Database& db, const Xapian::Query& q, const Xapian::Query& only);
  /// The tier the note needed, and the substrings to highlight that it does not hold as words.
  void set_tier(const Xapian::Document& doc, const Xapian::Query& only, Hit& hit) const;
  /// Each tier's BM25 weight for this note alone.
  void add_score_parts(const Xapian::Query& only, Hit& hit) const;

  const OpenIndex& m_index;
  Analyzer& m_analyzer;
  const CompiledQuery& m_query;
  const SearchRequest& m_req;
  std::string m_vault;
};

}  // namespace sagasu
