// Field filters of the query language (venue:OSDI, year:2024..2026,
// person:"Xin Liu", cites:2026__OSDI__*, …) as boolean Xapian queries, with
// one processor per kind of field (schema::FieldKind), as notmuch's field
// processors are driven by its prefix table.
#pragma once

#include <xapian.h>

#include <optional>
#include <string>
#include <vector>

#include "query.h"
#include "sagasu/kinds.h"
#include "sagasu/schema.h"
#include "synonyms.h"

namespace sagasu {

/// A field filter: which notes it keeps.
struct FieldFilter {
  Xapian::Query query;             ///< boolean; MatchNothing when no note has the value
  std::vector<std::string> terms;  ///< the index terms it matches (marks the selected facet values)
};

class FieldQuery {
 public:
  FieldQuery(const Xapian::Database& db, const Synonyms& synonyms) : m_db(db), m_synonyms(synonyms) {}
  /// The filter of a Filter query part; throws UsageError for a value the
  /// field cannot have (year:20x, kind:planet), naming value and column.
  FieldFilter filter(const QueryPart& part) const;
  /// What the filters read differently from how they were typed, for the
  /// user: "kind:paper means kind:source".
  const std::vector<std::string>& notices() const { return m_notices; }

 private:
  std::vector<std::string> range(const schema::Field& f, const QueryPart& part) const;
  std::vector<std::string> term(const schema::Field& f, const QueryPart& part) const;
  std::vector<std::string> kind(const schema::Field& f, const QueryPart& part) const;
  /// The kinds the index holds, as "source, person, …".
  std::string held_kinds(const schema::Field& f) const;
  std::vector<std::string> entity(const schema::Field& f, const QueryPart& part) const;
  std::vector<std::string> key_prefix(const schema::Field& f, const QueryPart& part) const;
  std::vector<std::string> citation(const schema::Field& f, const QueryPart& part) const;
  /// Every index term starting with stem.
  std::vector<std::string> terms_from(const std::string& stem) const;

  const Xapian::Database& m_db;
  const Synonyms& m_synonyms;
  mutable std::optional<KindVocabulary> m_kinds;  // the index's, read when a kind: filter needs it
  mutable std::vector<std::string> m_notices;
};

/// year:2025 → {2025, 2025}; 2024..2026, 2024.., ..2025 → [lo, hi]; throws UsageError otherwise.
std::pair<int, int> parse_year_range(const std::string& value, std::size_t column);

}  // namespace sagasu
