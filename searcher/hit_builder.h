// A stored note → a hit: what it shows (title, path, facet values), how it
// matched (its tier: the weakest any query piece needed), the score parts
// --explain prints, and its snippets.
#pragma once

#include <xapian.h>

#include <string>
#include <utility>
#include <vector>

#include "collector.h"
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
  /// The hits of a page of matching notes, ranked from rank + 1.
  std::vector<Hit> build(const std::vector<PageNote>& page, std::size_t rank) const;

 private:
  /// Which notes of the page a query matches: one match per query asked, not one per note.
  class PageMatches;
  /// The tier the note needed, and the substrings to highlight that it does not hold as words.
  void set_tier(const Xapian::Document& doc, Xapian::docid did, PageMatches& matches, Hit& hit) const;
  /// Each tier's BM25 weight for this note alone.
  void add_score_parts(const Xapian::Query& only, Hit& hit) const;

  const OpenIndex& m_index;
  Analyzer& m_analyzer;
  const CompiledQuery& m_query;
  const SearchRequest& m_req;
  std::string m_vault;
};

}  // namespace sagasu
