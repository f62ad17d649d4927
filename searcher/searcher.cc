#include "sagasu/searcher.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "sagasu/error.h"
#include "sagasu/note.h"
#include "sagasu/query.h"
#include "sagasu/schema.h"

namespace sagasu {
namespace {

// year:2025, year:2024..2026, year:2024.., year:..2025 → [lo, hi]
std::pair<int, int> parse_year_range(const std::string& v, std::size_t column) {
  auto number = [&](const std::string& s, int dflt) {
    if (s.empty()) return dflt;
    if (s.size() != 4 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
      throw UsageError(fmt::format("query: year:{}: expected a year like 2025 or a range like 2024..2026 "
                                   "at column {}", v, column));
    return std::stoi(s);
  };
  const auto dots = v.find("..");
  if (dots == std::string::npos) {
    const int y = number(v, 0);
    return {y, y};
  }
  if (v.size() == 2) throw UsageError(fmt::format("query: year:..: needs a bound at column {}", column));
  const int lo = number(v.substr(0, dots), 0), hi = number(v.substr(dots + 2), 9999);
  if (lo > hi) throw UsageError(fmt::format("query: year:{}: empty range at column {}", v, column));
  return {lo, hi};
}

}  // namespace

Searcher::Searcher(const std::string& index_path) : m_path(index_path) {
  std::error_code ec;
  if (!std::filesystem::exists(index_path, ec))
    throw Error(fmt::format("{}: no index here; build one with: indexer --vault DIR --index {}", index_path,
                            index_path));
  try {
    m_db = Xapian::Database(index_path);
  } catch (const Xapian::DatabaseOpeningError& e) {
    throw Error(fmt::format("{}: not a Sagasu index ({}); build one with: indexer --vault DIR --index {}",
                            index_path, e.get_msg(), index_path));
  } catch (const Xapian::Error& e) {
    throw Error(fmt::format("{}: cannot open index: {}", index_path, e.get_msg()));
  }
  const std::string version = m_db.get_metadata(std::string(schema::META_SCHEMA_VERSION));
  if (!version.empty() && version != schema::SCHEMA_VERSION)
    throw Error(fmt::format("{}: index schema {} is not {}; rebuild it with: indexer --rebuild", index_path,
                            version, schema::SCHEMA_VERSION));
}

Searcher::~Searcher() = default;

std::string Searcher::vault() const { return m_db.get_metadata(std::string(schema::META_VAULT)); }

SearchResult Searcher::search(const SearchRequest& req) {
  std::vector<QueryPart> parts = parse_query(req.query);
  for (const auto& f : req.filters) {
    auto extra = parse_query(f);
    for (auto& p : extra) {
      if (p.type != QueryPart::Type::Filter)
        throw UsageError(fmt::format("--filter {}: expected field:value with a field of venue, year, person, "
                                     "org, kind, tag, links, cites", f));
      parts.push_back(std::move(p));
    }
  }

  MatchTerms match;
  std::vector<Xapian::Query> must, must_not;
  std::map<std::string, std::vector<Xapian::Query>> filters;  // field → OR-ed values
  auto text_query = [&](const std::string& text, bool phrase, const std::string& prefix) {
    // Words at consecutive positions; a Stem token shares its word's position.
    std::vector<std::string> words;
    std::vector<std::string> stems;  // parallel to words; empty when none
    for (const Token& t : m_analyzer.analyze(text)) {
      if (t.kind == TokenKind::Word) {
        words.push_back(t.text);
        stems.emplace_back();
        match.words.insert(t.text);
      } else if (!words.empty()) {
        stems.back() = t.text;
        match.stems.insert(t.text);
      }
    }
    if (words.empty()) return Xapian::Query();
    const std::string title_prefix(schema::TITLE.prefix);
    if (words.size() == 1) {
      Xapian::Query q(prefix + words[0]);
      if (prefix.empty()) {
        // A word in the title counts again, as its own field.
        q = Xapian::Query(Xapian::Query::OP_OR, q, Xapian::Query(title_prefix + words[0]));
        if (!stems[0].empty() && !phrase)
          q = Xapian::Query(Xapian::Query::OP_OR, q, Xapian::Query(std::string(schema::STEM.prefix) + stems[0]));
      }
      return q;
    }
    // The pieces of one compound (本番クラスタ → 本番 クラスタ) must be adjacent.
    auto phrase_of = [&](const std::string& px) {
      std::vector<Xapian::Query> terms;
      for (const auto& w : words) terms.emplace_back(px + w);
      return Xapian::Query(Xapian::Query::OP_PHRASE, terms.begin(), terms.end(),
                           static_cast<Xapian::termcount>(terms.size()));
    };
    if (!prefix.empty()) return phrase_of(prefix);
    return Xapian::Query(Xapian::Query::OP_OR, phrase_of(""), phrase_of(title_prefix));
  };

  for (const auto& p : parts) {
    Xapian::Query q;
    switch (p.type) {
      case QueryPart::Type::Text:
      case QueryPart::Type::Phrase:
        q = text_query(p.value, p.type == QueryPart::Type::Phrase, "");
        break;
      case QueryPart::Type::TitleText:
        q = text_query(p.value, true, std::string(schema::TITLE.prefix));
        break;
      case QueryPart::Type::Filter: {
        std::vector<Xapian::Query> alts;
        if (p.field == "year") {
          const auto [lo, hi] = parse_year_range(p.value, p.column);
          const std::string px(schema::YEAR.prefix);
          for (auto t = m_db.allterms_begin(px); t != m_db.allterms_end(px); ++t) {
            const std::string y = (*t).substr(px.size());
            if (y.size() == 4 && std::stoi(y) >= lo && std::stoi(y) <= hi) alts.emplace_back(*t);
          }
        } else if (p.field == "kind") {
          const auto kind = parse_kind(p.value);
          if (!kind)
            throw UsageError(fmt::format("query: kind:{}: expected source, person, organization, product, "
                                         "concept or other at column {}", p.value, p.column));
          alts.emplace_back(schema::filter_term(schema::KIND, to_string(*kind)));
        } else {
          static const std::map<std::string, schema::Prefix> prefixes{
              {"venue", schema::VENUE}, {"person", schema::PERSON}, {"org", schema::ORG},
              {"tag", schema::TAG},     {"links", schema::LINK},    {"cites", schema::CITE}};
          std::string value = p.value;
          if (p.field == "cites" && !value.empty() && value.front() == '@') value.erase(0, 1);
          if (p.field == "venue") value = normalize_venue(value);
          alts.emplace_back(schema::filter_term(prefixes.at(p.field), value));
        }
        // A value no note has matches nothing, but must still filter.
        Xapian::Query any = alts.empty() ? Xapian::Query::MatchNothing
                                         : Xapian::Query(Xapian::Query::OP_OR, alts.begin(), alts.end());
        if (p.negated) must_not.push_back(any);
        else filters[p.field].push_back(any);
        continue;
      }
    }
    if (q.empty()) continue;
    (p.negated ? must_not : must).push_back(q);
  }

  Xapian::Query query;
  if (!must.empty()) query = Xapian::Query(Xapian::Query::OP_AND, must.begin(), must.end());
  else if (!filters.empty() || !must_not.empty()) query = Xapian::Query::MatchAll;
  else throw UsageError(fmt::format("query: nothing to search for in '{}'", req.query));
  std::vector<Xapian::Query> filter_list;
  for (auto& [field, alts] : filters)
    filter_list.emplace_back(Xapian::Query::OP_OR, alts.begin(), alts.end());  // one facet: OR
  if (!filter_list.empty())  // different facets: AND
    query = Xapian::Query(Xapian::Query::OP_FILTER, query,
                          Xapian::Query(Xapian::Query::OP_AND, filter_list.begin(), filter_list.end()));
  if (!must_not.empty())
    query = Xapian::Query(Xapian::Query::OP_AND_NOT, query,
                          Xapian::Query(Xapian::Query::OP_OR, must_not.begin(), must_not.end()));

  Xapian::Enquire enquire(m_db);
  enquire.set_query(query);
  enquire.set_weighting_scheme(Xapian::BM25Weight());
  // Exact facet counts: the spies must see every match, not a sample.
  std::vector<std::unique_ptr<Xapian::ValueCountMatchSpy>> spies;
  for (const auto& f : schema::FACETS) {
    spies.push_back(std::make_unique<Xapian::ValueCountMatchSpy>(f.slot));
    enquire.add_matchspy(spies.back().get());
  }
  const Xapian::doccount all = m_db.get_doccount();
  const Xapian::MSet mset = enquire.get_mset(static_cast<Xapian::doccount>(req.offset),
                                             static_cast<Xapian::doccount>(req.limit), all);

  SearchResult result;
  result.query_description = query.get_description();
  result.total = mset.get_matches_estimated();  // exact: check_at_least covers every document
  for (std::size_t i = 0; i < schema::FACETS.size(); ++i) {
    const auto& f = schema::FACETS[i];
    std::map<std::string, std::size_t> counts;
    for (auto v = spies[i]->values_begin(); v != spies[i]->values_end(); ++v)
      for (const auto& single : schema::unpack_values(*v)) counts[single] += v.get_termfreq();
    FacetCounts fc;
    fc.name = std::string(f.name);
    for (auto& [value, n] : counts) fc.values.push_back({value, n});
    std::stable_sort(fc.values.begin(), fc.values.end(),
                     [](const FacetValue& a, const FacetValue& b) { return a.count > b.count; });
    result.facets.push_back(std::move(fc));
  }

  SnippetGenerator snippets(m_analyzer, match);
  std::size_t rank = req.offset;
  for (auto it = mset.begin(); it != mset.end(); ++it) {
    const Xapian::Document doc = it.get_document();
    Hit hit;
    hit.rank = ++rank;
    hit.score = it.get_weight();
    const auto data = nlohmann::json::parse(doc.get_data(), nullptr, false);
    if (data.is_discarded()) throw Error(fmt::format("{}: document {} has unreadable data", m_path, *it));
    hit.path = data.value(std::string(schema::DATA_PATH), "");
    hit.title = data.value(std::string(schema::DATA_TITLE), "");
    hit.kind = data.value(std::string(schema::DATA_KIND), "");
    hit.venues = schema::unpack_values(doc.get_value(schema::SLOT_VENUES));
    hit.years = schema::unpack_values(doc.get_value(schema::SLOT_YEARS));
    hit.persons = schema::unpack_values(doc.get_value(schema::SLOT_PERSONS));
    hit.orgs = schema::unpack_values(doc.get_value(schema::SLOT_ORGS));
    if (req.snippets > 0) {
      std::vector<CitationSpan> cites;
      for (const auto& c : data.value(std::string(schema::DATA_CITATIONS), nlohmann::json::array()))
        if (c.is_array() && c.size() == 3) cites.push_back({c[0].get<std::size_t>(), c[1].get<std::size_t>(), c[2].get<std::string>()});
      hit.fragments = snippets.generate(data.value(std::string(schema::DATA_TEXT), ""), cites, req.snippets,
                                        req.snippet_bytes);
    }
    result.hits.push_back(std::move(hit));
  }
  return result;
}

}  // namespace sagasu
