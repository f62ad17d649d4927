#include "collector.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "unweighted.h"

namespace sagasu {
namespace {

// Counts the facets of every matching document from the facet columns of
// its shard (facet_columns.h): ordinals in, counts per ordinal out, no facet
// value read (over several shards, the path that places the document).
class ColumnSpy : public Xapian::MatchSpy {
 public:
  /// columns[place][i]: facet i's column in the shard at that place.
  ColumnSpy(const OpenIndex& index, std::vector<std::vector<const FacetColumn*>> columns)
      : m_index(index), m_columns(std::move(columns)) {
    for (const auto& shard : m_columns) {
      m_counts.emplace_back();
      for (const auto* c : shard) m_counts.back().emplace_back(c->values.size(), 0);
    }
  }
  void operator()(const Xapian::Document& doc, double) override {
    const std::size_t place = m_columns.size() > 1 ? m_index.place_of(doc) : 0;
    const Xapian::docid did = doc.get_docid();  // (in its own shard, as the columns number it)
    for (std::size_t i = 0; i < m_columns[place].size(); ++i)
      m_columns[place][i]->count(did, m_counts[place][i]);
  }
  /// The counts of facet i (of the columns given), added to out's single values.
  void add_to(std::size_t i, std::map<std::string, std::size_t>& out) const {
    for (std::size_t place = 0; place < m_columns.size(); ++place)
      for (std::size_t o = 0; o < m_counts[place][i].size(); ++o)
        if (m_counts[place][i][o]) out[std::string(m_columns[place][i]->values[o])] += m_counts[place][i][o];
  }

 private:
  const OpenIndex& m_index;
  std::vector<std::vector<const FacetColumn*>> m_columns;
  std::vector<std::vector<std::vector<std::uint32_t>>> m_counts;
};

using Spies = std::vector<std::unique_ptr<Xapian::ValueCountMatchSpy>>;

Spies add_spies(Xapian::Enquire& e, const std::vector<const schema::Field*>& facets) {
  Spies spies;
  for (const auto* f : facets) {
    spies.push_back(
        std::make_unique<Xapian::ValueCountMatchSpy>(static_cast<Xapian::valueno>(f->facet_slot)));
    e.add_matchspy(spies.back().get());
  }
  return spies;
}

// The spies count packed combinations of values: split them into single values.
void add_counts(const Spies& spies, const std::vector<const schema::Field*>& facets, Collected& out) {
  for (std::size_t i = 0; i < facets.size(); ++i)
    for (auto v = spies[i]->values_begin(); v != spies[i]->values_end(); ++v)
      for (const auto& single : schema::unpack_values(*v)) out.counts[facets[i]][single] += v.get_termfreq();
}

// Xapian matches, the verifier decides as its MatchDecider, match spies count.
class SpyCollector : public Collector {
 public:
  using Collector::Collector;

  Xapian::doccount count(const Xapian::Query& query) override {
    Xapian::Enquire e = unweighted_enquire(m_index.all, query);
    return total(e);
  }

  Collected collect(const Xapian::Query& query, Xapian::doccount first, Xapian::doccount max,
                    const std::vector<const schema::Field*>& facets, const Xapian::Query& boost) override {
    Collected out;
    // A boost reorders the best hits: those from the first on.
    const Xapian::doccount all = m_index.all.get_doccount();
    const bool rerank = reranks(boost, max);
    const Xapian::doccount from = rerank ? 0 : first, upto = !rerank ? max
                                                             : max >= all || first >= all - max
                                                                 ? all
                                                                 : std::max(RERANK_DEPTH, first + max);
    // By relevance over local shards, in two passes: every match counted
    // (and its facets) unweighted, then the page ranked, where Xapian skips
    // what cannot reach it. Weighing every match to rank ten costs as much
    // again as finding them. (Over remote shards the spies run remotely in
    // the ranked match; by year, its tie groups need the sort keys.)
    const bool two_pass = m_sort == SearchRequest::Sort::Relevance && !m_index.remote;
    Xapian::Enquire e = two_pass ? unweighted_enquire(m_index.all, query) : enquire(query);
    // Spies over several shards of which some are remote over-count (Xapian
    // 1.4.22, measured: org:ByteDance on 4 tcp shards counted kinds summing to
    // 32 for 27 notes); each shard alone counts exactly, so the shards are
    // counted one by one and summed.
    const bool per_shard = m_index.remote && m_index.shards.size() > 1 && !facets.empty();
    // Local shards with their facet columns: ordinals counted, no facet value read.
    const std::unique_ptr<ColumnSpy> columns = per_shard ? nullptr : column_spy(facets);
    if (columns) e.add_matchspy(columns.get());
    const Spies spies = per_shard || columns ? Spies() : add_spies(e, facets);
    std::vector<Ranked> ranked;
    if (two_pass) {
      out.total = total(e);
      if (out.total > first) ranked = match(enquire(query), from, upto, 0);
    } else {
      ranked = match(e, from, upto, all);
      out.total = m_total;
    }
    if (rerank) this->rerank(ranked, boost);
    take_page(ranked, by_year() || rerank ? first : 0, max, out);
    if (columns)
      for (std::size_t i = 0; i < facets.size(); ++i) columns->add_to(i, out.counts[facets[i]]);
    else if (per_shard)
      count_per_shard(query, facets, out);
    else
      add_counts(spies, facets, out);
    return out;
  }

 private:
  std::unique_ptr<ColumnSpy> column_spy(const std::vector<const schema::Field*>& facets) const {
    if (m_index.columns.empty() || facets.empty()) return nullptr;
    std::vector<std::vector<const FacetColumn*>> columns;
    for (const auto& shard : m_index.columns) {
      columns.emplace_back();
      for (const auto* f : facets) {
        const FacetColumn* c = shard->column(static_cast<Xapian::valueno>(f->facet_slot));
        if (!c) return nullptr;
        columns.back().push_back(c);
      }
    }
    return std::make_unique<ColumnSpy>(m_index, std::move(columns));
  }

  /// Every match of e, confirmed, counted (and spied on).
  Xapian::doccount total(Xapian::Enquire& e) const {
    const Xapian::doccount all = m_index.all.get_doccount();
    return e.get_mset(0, 0, all, nullptr, m_verifier.needed() ? &m_verifier : nullptr)
        .get_matches_estimated();  // exact: check_at_least covers every document
  }

  /// The ranked hits of e from first; check_at_least: the matches to visit
  /// at least (every one: m_total is then the exact total).
  std::vector<Ranked> match(Xapian::Enquire e, Xapian::doccount first, Xapian::doccount max,
                            Xapian::doccount check_at_least) {
    const Xapian::doccount all = m_index.all.get_doccount();
    const Xapian::MatchDecider* decider = m_verifier.needed() ? &m_verifier : nullptr;
    // By year, the hits before the page too: a tie group may begin before it.
    const Xapian::doccount from = by_year() ? 0 : first;
    const Xapian::doccount upto = !by_year() ? max : max >= all || first >= all - max ? all : first + max;
    const Xapian::MSet mset = e.get_mset(from, upto, check_at_least, nullptr, decider);
    m_total = mset.get_matches_estimated();
    std::vector<Ranked> ranked;
    // (A document is fetched when shown, take_page: over TCP a round trip each.)
    for (auto it = mset.begin(); it != mset.end(); ++it)
      ranked.push_back({*it, it.get_weight(), it.get_sort_key(), std::nullopt});
    if (by_year() && !ranked.empty() && ranked.size() < m_total) extend_tie_group(e, decider, ranked);
    return ranked;
  }

  // The last tie group may go on past the page: fetch the rest of it.
  static void extend_tie_group(Xapian::Enquire& e, const Xapian::MatchDecider* decider,
                               std::vector<Ranked>& ranked) {
    e.clear_matchspies();
    const std::string key = ranked.back().key;
    const double weight = ranked.back().weight;
    for (bool more = true; more;) {
      constexpr Xapian::doccount STEP = 64;
      const Xapian::MSet next =
          e.get_mset(static_cast<Xapian::doccount>(ranked.size()), STEP, 0, nullptr, decider);
      more = next.size() == STEP;
      for (auto it = next.begin(); it != next.end(); ++it) {
        if (it.get_sort_key() != key || it.get_weight() != weight) {
          more = false;
          break;
        }
        ranked.push_back({*it, it.get_weight(), key, std::nullopt});
      }
    }
  }

  Xapian::doccount m_total = 0;  ///< the last match's total (exact where it visited every match)
};

// Remote shards with candidates to confirm: the stock server runs no
// MatchDecider, so every candidate comes back and is confirmed here, and the
// total and the facets are counted from the confirmed ones: the same numbers
// as the decider gives locally. A candidate's document is fetched (one round
// trip each) only where its text must be read, or its facet values are
// counted (below), or it is on the page.
class ConfirmingCollector : public Collector {
 public:
  using Collector::Collector;

  Xapian::doccount count(const Xapian::Query& query) override { return collect(query, 0, 0, {}, {}).total; }

  Collected collect(const Xapian::Query& query, Xapian::doccount first, Xapian::doccount max,
                    const std::vector<const schema::Field*>& facets, const Xapian::Query& boost) override {
    Collected out;
    const Xapian::doccount all = m_index.all.get_doccount();
    const Xapian::MSet candidates = enquire(query).get_mset(0, all, all);
    // The verifier reads postings in docid order.
    std::vector<std::pair<Xapian::docid, std::size_t>> by_docid;
    for (auto it = candidates.begin(); it != candidates.end(); ++it)
      by_docid.emplace_back(*it, by_docid.size());
    std::sort(by_docid.begin(), by_docid.end());
    std::vector<bool> confirmed(by_docid.size());
    std::vector<Xapian::docid> refused;
    for (const auto& [did, at] : by_docid)
      if (m_verifier.accept(did))
        confirmed[at] = true;
      else
        refused.push_back(did);
    std::vector<Ranked> ranked;
    auto it = candidates.begin();
    for (std::size_t at = 0; at < confirmed.size(); ++at, ++it)
      if (confirmed[at]) ranked.push_back({*it, it.get_weight(), it.get_sort_key(), std::nullopt});
    // The facets from the fewer documents: every candidate's counted by the
    // shards less the refused ones', or the confirmed ones' alone ("the
    // file" at 16k notes: 536 candidates, none confirmed).
    if (!facets.empty() && refused.size() <= ranked.size()) {
      count_per_shard(query, facets, out);
      for (const Xapian::docid did : refused) count_values(m_index.all.get_document(did), facets, out, -1);
    } else if (!facets.empty()) {
      for (Ranked& r : ranked) {
        if (!r.doc) r.doc = m_index.all.get_document(r.did);
        count_values(*r.doc, facets, out, 1);
      }
    }
    out.total = static_cast<Xapian::doccount>(ranked.size());
    if (reranks(boost, max)) rerank(ranked, boost);
    take_page(ranked, first, max, out);
    return out;
  }
};

}  // namespace

Xapian::Enquire Collector::enquire(const Xapian::Query& query) const {
  Xapian::Enquire e(m_index.all);
  e.set_query(query);
  e.set_weighting_scheme(Xapian::BM25Weight());
  // Equal scores are ordered by title and path, not by document number: the
  // same order on one index and on any number of shards. Sorting by year,
  // Xapian can only break (year, score) ties by document number; they are
  // reordered in take_page.
  switch (m_sort) {
    case SearchRequest::Sort::Relevance:
      e.set_sort_by_relevance_then_value(schema::SLOT_TITLE, false);
      break;
    case SearchRequest::Sort::Year:
      e.set_sort_by_value_then_relevance(schema::SLOT_YEAR_SORT, true);
      break;
    case SearchRequest::Sort::Title:
      e.set_sort_by_value_then_relevance(schema::SLOT_TITLE, false);
      break;
  }
  return e;
}

void Collector::rerank(std::vector<Ranked>& ranked, const Xapian::Query& boost) const {
  const std::size_t depth = std::min<std::size_t>(ranked.size(), RERANK_DEPTH);
  if (depth == 0) return;
  // The best hits by their unique terms (their paths follow the titles in the sort keys).
  std::vector<Xapian::Query> best;
  for (std::size_t i = 0; i < depth; ++i) {
    const std::string& key = ranked[i].key;
    best.emplace_back(schema::unique_id_term(std::string_view(key).substr(key.rfind('\0') + 1)));
  }
  Xapian::Enquire e(m_index.all);
  e.set_query(Xapian::Query(Xapian::Query::OP_FILTER, boost,
                            Xapian::Query(Xapian::Query::OP_OR, best.begin(), best.end())));
  e.set_weighting_scheme(Xapian::BM25Weight());
  std::map<Xapian::docid, double> extra;
  const Xapian::MSet boosted = e.get_mset(0, static_cast<Xapian::doccount>(depth));
  for (auto it = boosted.begin(); it != boosted.end(); ++it) extra[*it] = it.get_weight();
  if (extra.empty()) return;
  for (std::size_t i = 0; i < depth; ++i)
    if (const auto at = extra.find(ranked[i].did); at != extra.end()) ranked[i].weight += at->second;
  // Equal weights by title and path, as Xapian orders them.
  std::stable_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(depth),
                   [](const Ranked& a, const Ranked& b) {
                     return a.weight != b.weight ? a.weight > b.weight : a.key < b.key;
                   });
}

void Collector::take_page(std::vector<Ranked>& ranked, std::size_t from, Xapian::doccount max,
                          Collected& out) const {
  if (by_year()) order_ties(ranked);
  for (std::size_t at = from; at < ranked.size() && at - from < max; ++at) {
    if (!ranked[at].doc) ranked[at].doc = m_index.all.get_document(ranked[at].did);
    out.page.push_back({std::move(*ranked[at].doc), ranked[at].weight, ranked[at].did});
  }
}

void Collector::order_ties(std::vector<Ranked>& ranked) const {
  // Xapian orders equal (year, score) by document number: reorder them by title.
  auto title_of = [&](Ranked& r) {
    if (!r.doc) r.doc = m_index.all.get_document(r.did);
    return r.doc->get_value(schema::SLOT_TITLE);
  };
  for (std::size_t i = 0; i < ranked.size();) {
    std::size_t j = i + 1;
    while (j < ranked.size() && ranked[j].key == ranked[i].key && ranked[j].weight == ranked[i].weight) ++j;
    if (j - i > 1) {
      std::vector<std::pair<std::string, std::size_t>> titles;
      for (std::size_t k = i; k < j; ++k) titles.emplace_back(title_of(ranked[k]), k);
      std::sort(titles.begin(), titles.end());
      std::vector<Ranked> group;
      for (const auto& t : titles) group.push_back(std::move(ranked[t.second]));
      std::move(group.begin(), group.end(), ranked.begin() + static_cast<std::ptrdiff_t>(i));
    }
    i = j;
  }
}

void Collector::count_values(const Xapian::Document& doc, const std::vector<const schema::Field*>& facets,
                             Collected& out, int by) {
  for (const auto* f : facets) {
    auto& counts = out.counts[f];
    for (const auto& single :
         schema::unpack_values(doc.get_value(static_cast<Xapian::valueno>(f->facet_slot)))) {
      std::size_t& n = counts[single];
      // (by -1: a value counted before, by every shard; never below zero)
      if (by < 0 && n == 0)
        throw std::logic_error(fmt::format("facet {}: {} taken away but never counted", f->name, single));
      n += static_cast<std::size_t>(by);
      if (n == 0) counts.erase(single);
    }
  }
}

void Collector::count_per_shard(const Xapian::Query& query, const std::vector<const schema::Field*>& facets,
                                Collected& out) const {
  for (const auto& shard : m_index.shards) {
    Xapian::Enquire e = unweighted_enquire(shard, query);
    const Spies spies = add_spies(e, facets);
    e.get_mset(0, 0, shard.get_doccount());
    add_counts(spies, facets, out);
  }
}

std::unique_ptr<Collector> make_collector(const OpenIndex& index, const Verifier& verifier,
                                          SearchRequest::Sort sort) {
  if (index.remote && verifier.needed()) return std::make_unique<ConfirmingCollector>(index, verifier, sort);
  return std::make_unique<SpyCollector>(index, verifier, sort);
}

}  // namespace sagasu
