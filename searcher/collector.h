// Runs a compiled query over every note and collects what the result needs:
// the page of hits in order, the exact total and exact facet counts (Lucene's
// Collector). Two strategies behind one interface: Xapian's match with the
// verifier as its MatchDecider and its match spies counting (local shards),
// and confirmation in this process for remote shards, whose stock server runs
// no MatchDecider.
#pragma once

#include <xapian.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "index_set.h"
#include "sagasu/schema.h"
#include "sagasu/searcher.h"
#include "verifier.h"

namespace sagasu {

/// A note of the page: its document, weight and number in the whole (OpenIndex::all).
struct PageNote {
  Xapian::Document doc;
  double weight = 0;
  Xapian::docid did = 0;
};

/// What one match gives.
struct Collected {
  Xapian::doccount total = 0;  ///< exact number of matching notes
  std::vector<PageNote> page;  ///< the hits asked for, best first
  std::map<const schema::Field*, std::map<std::string, std::size_t>>
      counts;  ///< facet → single value → notes
};

class Collector {
 public:
  Collector(const OpenIndex& index, const Verifier& verifier, SearchRequest::Sort sort)
      : m_index(index), m_verifier(verifier), m_sort(sort) {}
  virtual ~Collector() = default;

  /// The hits [first, first + max) in order, the total, and the counts of
  /// the facets asked for. By relevance, the best RERANK_DEPTH hits that
  /// match boost (empty: none) get its weight too, and are ordered again.
  virtual Collected collect(const Xapian::Query& query, Xapian::doccount first, Xapian::doccount max,
                            const std::vector<const schema::Field*>& facets, const Xapian::Query& boost) = 0;
  /// How many notes match: the total of collect, without ranking them.
  virtual Xapian::doccount count(const Xapian::Query& query) = 0;

 protected:
  /// A hit in order: (year then) score; equal ones by title and path, never by
  /// document number (which differs between one index and shards).
  struct Ranked {
    Xapian::docid did;
    double weight;
    std::string key;  ///< the sort value: the year, else the title and path (SLOT_TITLE)
    std::optional<Xapian::Document> doc;
  };
  bool by_year() const { return m_sort == SearchRequest::Sort::Year; }
  /// An Enquire over every shard, ranked and ordered as the request says.
  Xapian::Enquire enquire(const Xapian::Query& query) const;
  /// Does collect rerank its best hits with boost, for a page of max hits?
  bool reranks(const Xapian::Query& boost, Xapian::doccount max) const {
    return !boost.empty() && max > 0 && m_sort == SearchRequest::Sort::Relevance;
  }
  /// Adds boost's weight to the best RERANK_DEPTH of ranked where they match
  /// it, and orders them again: one match (a round trip per remote shard).
  void rerank(std::vector<Ranked>& ranked, const Xapian::Query& boost) const;
  /// The hits [from, from + max) of ranked, (year) ties ordered by title.
  void take_page(std::vector<Ranked>& ranked, std::size_t from, Xapian::doccount max, Collected& out) const;
  /// Adds a document's facet values to the counts; by -1, takes them away.
  static void count_values(const Xapian::Document& doc, const std::vector<const schema::Field*>& facets,
                           Collected& out, int by = 1);
  /// Counts the facets of the notes the query matches, shard by shard (each
  /// shard alone counts exactly, where Xapian's spies over several remote
  /// ones over-count): one match per shard, one round trip for a remote one.
  void count_per_shard(const Xapian::Query& query, const std::vector<const schema::Field*>& facets,
                       Collected& out) const;

  const OpenIndex& m_index;
  const Verifier& m_verifier;
  SearchRequest::Sort m_sort;

 private:
  void order_ties(std::vector<Ranked>& ranked) const;
};

/// How many of the best hits a boost reorders (Collector::collect).
inline constexpr Xapian::doccount RERANK_DEPTH = 20;

/// The collector for these shards and this verifier.
std::unique_ptr<Collector> make_collector(const OpenIndex& index, const Verifier& verifier,
                                          SearchRequest::Sort sort);

}  // namespace sagasu
