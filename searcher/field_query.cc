#include "field_query.h"

#include <fmt/format.h>

#include <algorithm>

#include "sagasu/error.h"
#include "sagasu/note.h"
#include "sagasu/strings.h"

namespace sagasu {

std::pair<int, int> parse_year_range(const std::string& v, std::size_t column) {
  auto number = [&](const std::string& s, int dflt) {
    if (s.empty()) return dflt;
    if (s.size() != 4 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
      throw UsageError(
          fmt::format("query: year:{}: expected a year like 2025 or a range like 2024..2026 "
                      "at column {}",
                      v, column));
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

FieldFilter FieldQuery::filter(const QueryPart& part) const {
  const schema::Field& f = *schema::find_field(part.field);  // the parser only makes filters of known fields
  std::vector<std::string> terms;
  switch (f.kind) {
    case schema::FieldKind::Range:
      terms = range(f, part);
      break;
    case schema::FieldKind::Term:
      terms = term(f, part);
      break;
    case schema::FieldKind::Kind:
      terms = kind(f, part);
      break;
    case schema::FieldKind::Entity:
      terms = entity(f, part);
      break;
    case schema::FieldKind::KeyPrefix:
      terms = key_prefix(f, part);
      break;
    case schema::FieldKind::Citation:
      terms = citation(f, part);
      break;
    case schema::FieldKind::Text:
    case schema::FieldKind::Internal:
      break;
  }
  // A value no note has matches nothing, but must still filter.
  FieldFilter out;
  out.query = terms.empty() ? Xapian::Query(Xapian::Query::MatchNothing)
                            : Xapian::Query(Xapian::Query::OP_OR, terms.begin(), terms.end());
  out.terms = std::move(terms);
  return out;
}

std::vector<std::string> FieldQuery::range(const schema::Field& f, const QueryPart& part) const {
  const auto [lo, hi] = parse_year_range(part.value, part.column);
  std::vector<std::string> out;
  const std::string px(f.prefix);
  for (const auto& t : terms_from(px)) {
    const std::string y = t.substr(px.size());
    if (y.size() == 4 && std::stoi(y) >= lo && std::stoi(y) <= hi) out.push_back(t);
  }
  return out;
}

std::vector<std::string> FieldQuery::term(const schema::Field& f, const QueryPart& part) const {
  if (f.normalize && !f.normalize(part.value))
    throw UsageError(
        fmt::format("query: {}:{}: expected {} at column {}", f.name, part.value, f.values, part.column));
  return {schema::filter_term(f, part.value)};
}

std::vector<std::string> FieldQuery::kind(const schema::Field& f, const QueryPart& part) const {
  if (!m_kinds)
    m_kinds = KindVocabulary::decode(m_db.get_metadata(std::string(schema::META_KINDS)))
                  .value_or(KindVocabulary::defaults());
  const std::optional<Kind> canonical = m_kinds->canonical(part.value);
  const std::string term = schema::filter_term(f, canonical.value_or(part.value));
  // A kind no note has is still a kind when the vocabulary knows it (kind:book in a vault without books).
  if (!canonical && !m_db.term_exists(term))
    throw UsageError(fmt::format("query: {}:{}: no such kind at column {}; this index holds: {}", f.name,
                                 part.value, part.column, held_kinds(f)));
  if (canonical && !m_kinds->is_kind(part.value)) {
    const std::string notice = fmt::format("{0}:{1} means {0}:{2}", f.name, part.value, *canonical);
    if (std::find(m_notices.begin(), m_notices.end(), notice) == m_notices.end()) m_notices.push_back(notice);
  }
  return {term};
}

std::string FieldQuery::held_kinds(const schema::Field& f) const {
  std::vector<std::string> held;
  const std::string px(f.prefix);
  for (const auto& t : terms_from(px)) {
    const std::string folded = t.substr(px.size());
    held.push_back(m_kinds->canonical(folded).value_or(folded));  // the vocabulary's spelling
  }
  return held.empty() ? "no kinds" : fmt::format("{}", fmt::join(held, ", "));
}

std::vector<std::string> FieldQuery::entity(const schema::Field& f, const QueryPart& part) const {
  // An alias names the page: org:バイトダンス = org:ByteDance.
  std::vector<std::string> out{schema::filter_term(f, part.value)};
  for (auto& other : m_synonyms.of(out.front())) out.push_back(std::move(other));
  return out;
}

std::vector<std::string> FieldQuery::key_prefix(const schema::Field& f, const QueryPart& part) const {
  // path:wiki/sources: the folder, and every path it begins (a trailing '*' says the same).
  std::string value = part.value;
  if (strings::ends_with(value, "*")) value.pop_back();
  return terms_from(schema::filter_term(f, value));
}

std::vector<std::string> FieldQuery::citation(const schema::Field& f, const QueryPart& part) const {
  // cites:KEY, cites:2026__OSDI__* (a key prefix), or cites:"SDCs in the Wild" (words of a title).
  std::string value = *schema::citation_value(part.value);
  const bool wildcard = strings::ends_with(value, "*");
  if (wildcard) value.pop_back();
  if (wildcard || parse_citation(value)) return terms_from(schema::filter_term(f, value));
  const std::string px(f.prefix);
  const std::string title = schema::filter_term(f, value).substr(px.size());
  std::vector<std::string> out;
  for (const auto& t : terms_from(px)) {
    const std::string key = t.substr(px.size());  // YYYY__VENUE__Title
    const auto sep = key.find("__", 6);
    if (sep != std::string::npos && key.find(title, sep + 2) != std::string::npos) out.push_back(t);
  }
  return out;
}

std::vector<std::string> FieldQuery::terms_from(const std::string& stem) const {
  std::vector<std::string> out;
  for (auto t = m_db.allterms_begin(stem); t != m_db.allterms_end(stem); ++t) out.push_back(*t);
  return out;
}

}  // namespace sagasu
