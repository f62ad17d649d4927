#include "hit_builder.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>

#include "collector.h"
#include "sagasu/error.h"
#include "sagasu/index_error.h"
#include "sagasu/schema.h"
#include "sagasu/stored_note.h"
#include "unweighted.h"
#include "verifier.h"

namespace sagasu {

HitBuilder::HitBuilder(const OpenIndex& index, Analyzer& analyzer, const CompiledQuery& query,
                       const SearchRequest& req)
    : m_index(index),
      m_analyzer(analyzer),
      m_query(query),
      m_req(req),
      m_vault(index.all.get_metadata(std::string(schema::META_VAULT))) {}

Hit note_hit(const NoteMeta& meta, const Xapian::Document& doc, const std::string& vault) {
  Hit hit;
  hit.path = meta.path;
  hit.title = meta.title;
  hit.kind = meta.kind;
  if (!vault.empty()) hit.file = vault + "/" + hit.path;
  for (const schema::Field& f : schema::FIELDS)
    if (f.is_facet() && !f.hit_key.empty())
      hit.values[std::string(f.name)] =
          schema::unpack_values(doc.get_value(static_cast<Xapian::valueno>(f.facet_slot)));
  return hit;
}

class HitBuilder::PageMatches {
 public:
  PageMatches(const Xapian::Database& db, std::vector<Xapian::Query> notes)
      : m_db(db),
        m_size(static_cast<Xapian::doccount>(notes.size())),
        m_page(Xapian::Query::OP_OR, notes.begin(), notes.end()) {}
  /// Does q match note did of the page?
  bool operator()(const Xapian::Query& q, Xapian::docid did) {
    if (q.empty()) return false;
    auto [at, added] = m_matched.try_emplace(&q);
    if (added) {
      Xapian::Enquire e = unweighted_enquire(m_db, Xapian::Query(Xapian::Query::OP_FILTER, q, m_page));
      for (const Xapian::docid d : e.get_mset(0, m_size)) at->second.insert(d);
    }
    return at->second.count(did) > 0;
  }

 private:
  const Xapian::Database& m_db;
  Xapian::doccount m_size;
  Xapian::Query m_page;  ///< the page's notes, by their unique-id terms
  std::map<const Xapian::Query*, std::set<Xapian::docid>> m_matched;
};

std::vector<Hit> HitBuilder::build(const std::vector<PageNote>& page, std::size_t rank) const {
  std::vector<Hit> hits;
  std::vector<std::vector<CitationSpan>> citations;
  std::vector<Xapian::Query> notes;
  for (const auto& [doc, weight, did] : page) {
    auto meta = NoteMeta::decode(doc.get_value(schema::SLOT_META));
    if (!meta)
      throw damaged_index(m_index.name, fmt::format("document {} has unreadable metadata", doc.get_docid()),
                          m_index.rebuild);
    hits.push_back(note_hit(*meta, doc, m_vault));
    hits.back().rank = ++rank;
    hits.back().score = weight;
    citations.push_back(std::move(meta->citations));
    notes.emplace_back(schema::unique_id_term(hits.back().path));
  }
  PageMatches matches(m_index.all, notes);
  for (std::size_t i = 0; i < hits.size(); ++i) {
    const Xapian::Document& doc = page[i].doc;
    set_tier(doc, page[i].did, matches, hits[i]);
    if (m_req.explain) add_score_parts(notes[i], hits[i]);
    if (m_req.snippets > 0)
      hits[i].fragments = SnippetGenerator(m_analyzer, hits[i].terms)
                              .generate(doc.get_data(), citations[i], m_req.snippets, m_req.snippet_bytes);
  }
  return hits;
}

void HitBuilder::set_tier(const Xapian::Document& doc, Xapian::docid did, PageMatches& page_matches,
                          Hit& hit) const {
  // Highlights: whole words always; substrings only for the pieces this note has not as words.
  const MatchTerms& match = m_query.match;
  hit.terms = MatchTerms{match.words, {}, match.literals, match.phrases};
  const auto matches = [&](const Xapian::Query& q) { return page_matches(q, did); };
  std::optional<NoteText> text;
  for (const Chunk& c : m_query.chunks) {
    // Word tier: the piece's word query (phrase positions included) matches this note.
    if (matches(c.word) || matches(c.synonyms)) continue;
    // Bridge tier: an equivalent in the other language, named.
    if (matches(c.bridge)) {
      hit.tier = std::max(hit.tier, Tier::Bridge);
      for (std::size_t i = 0; i < c.bridges.size(); ++i)
        if (matches(c.bridges[i])) {
          hit.bridged.emplace_back(c.info.text, c.info.bridges[i]);
          break;
        }
      continue;
    }
    if (matches(c.scattered)) {
      hit.tier = std::max(hit.tier, Tier::Scattered);
      continue;
    }
    if (!c.info.substring.empty() && !m_req.exact) hit.terms.substrings.push_back(c.info.needle());
    if (!text) text = NoteText::of(doc);
    if (!c.info.substring_exact.empty() && contains_folded(*text, c.info.substring_exact, Fold::Width))
      hit.tier = std::max(hit.tier, Tier::Substring);
    else if (!c.info.substring.empty() && contains_substring(m_analyzer, *text, c.info.needle()))
      hit.tier = std::max(hit.tier, Tier::Variant);
    // else: a piece this note lacks (the zero-hit rescue's OR)
  }
}

void HitBuilder::add_score_parts(const Xapian::Query& only, Hit& hit) const {
  auto weight_in = [&](const Xapian::Query& q) {
    if (q.empty()) return 0.0;
    Xapian::Enquire e(m_index.all);
    e.set_query(Xapian::Query(Xapian::Query::OP_FILTER, q, only));
    e.set_weighting_scheme(Xapian::BM25Weight());
    const Xapian::MSet m = e.get_mset(0, 1);
    return m.empty() ? 0.0 : m.begin().get_weight();
  };
  auto weight_of = [&](auto pick) {
    std::vector<Xapian::Query> qs;
    for (const auto& c : m_query.chunks) {
      Xapian::Query q = pick(c);
      if (!q.empty()) qs.push_back(q);
    }
    return qs.empty() ? 0.0 : weight_in(Xapian::Query(Xapian::Query::OP_OR, qs.begin(), qs.end()));
  };
  auto scaled = [](const Xapian::Query& q, double w) {
    return q.empty() ? q : Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, q, w);
  };
  hit.score_parts.emplace_back("word", weight_of([](const Chunk& c) { return c.word; }));
  hit.score_parts.emplace_back("other names",
                               weight_of([&](const Chunk& c) { return scaled(c.synonyms, SYNONYM_WEIGHT); }));
  hit.score_parts.emplace_back("bridge", weight_of([](const Chunk& c) { return c.bridge; }));
  hit.score_parts.emplace_back(
      "scattered", weight_of([&](const Chunk& c) { return scaled(c.scattered, SCATTERED_WEIGHT); }));
  hit.score_parts.emplace_back("substring", weight_of([](const Chunk& c) { return c.substring; }));
  // (Only the best hits by relevance are weighed so: Collector::collect.)
  const bool near =
      !m_query.proximity.empty() && m_req.sort == SearchRequest::Sort::Relevance && hit.rank <= RERANK_DEPTH;
  hit.score_parts.emplace_back("near",
                               near ? weight_in(Xapian::Query(Xapian::Query::OP_OR, m_query.proximity.begin(),
                                                              m_query.proximity.end()))
                                    : 0.0);
  hit.score_parts.emplace_back("title", weight_in(m_query.title));
}

}  // namespace sagasu
