#include "hit_builder.h"

#include <fmt/format.h>

#include <optional>

#include "sagasu/error.h"
#include "sagasu/index_error.h"
#include "sagasu/schema.h"
#include "sagasu/stored_note.h"
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

Hit HitBuilder::build(const Xapian::Document& doc, double weight, std::size_t rank) const {
  const auto meta = NoteMeta::decode(doc.get_value(schema::SLOT_META));
  if (!meta)
    throw damaged_index(m_index.name, fmt::format("document {} has unreadable metadata", doc.get_docid()),
                        m_index.rebuild);
  Hit hit = note_hit(*meta, doc, m_vault);
  hit.rank = rank;
  hit.score = weight;
  const Xapian::Query only(schema::unique_id_term(hit.path));
  set_tier(doc, only, hit);
  if (m_req.explain) add_score_parts(only, hit);
  if (m_req.snippets > 0)
    hit.fragments = SnippetGenerator(m_analyzer, hit.terms)
                        .generate(doc.get_data(), meta->citations, m_req.snippets, m_req.snippet_bytes);
  return hit;
}

bool HitBuilder::matches(const Xapian::Database& db, const Xapian::Query& q, const Xapian::Query& only) {
  if (q.empty()) return false;
  Xapian::Enquire e(db);
  e.set_query(Xapian::Query(Xapian::Query::OP_FILTER, q, only));
  return !e.get_mset(0, 1).empty();
}

void HitBuilder::set_tier(const Xapian::Document& doc, const Xapian::Query& only, Hit& hit) const {
  // Highlights: whole words always; substrings only for the pieces this note has not as words.
  const MatchTerms& match = m_query.match;
  hit.terms = MatchTerms{match.words, {}, match.literals, match.phrases};
  // Asked of its own shard only, where there are several: each question
  // costs one shard's match (and over TCP one round trip), not every shard's.
  const Xapian::Database& db =
      m_index.shard_places.empty() ? m_index.all : m_index.shards[m_index.place_of(doc)];
  const auto matches = [&](const Xapian::Query& q) { return HitBuilder::matches(db, q, only); };
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
  hit.score_parts.emplace_back("title", weight_in(m_query.title));
}

}  // namespace sagasu
