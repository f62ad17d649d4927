// The query language: free text, "phrases", -exclusions and field filters
// (venue:OSDI year:2024..2026 person:"Xin Liu"), parsed without Xapian's
// QueryParser so that every text piece goes through the one analyzer.
#pragma once

#include <string>
#include <vector>

namespace sagasu {

/// One piece of a parsed query.
struct QueryPart {
  enum class Type { Text, Phrase, Filter, TitleText };
  Type type = Type::Text;
  bool negated = false;  ///< "-word"
  std::string field;     ///< for Filter: "venue", "year", "person", "org", "kind", "tag", "links", "cites"
  std::string value;     ///< text, phrase text or filter value (unquoted)
  std::size_t column = 1;  ///< 1-based column in the query string, for error messages
};

/// Splits a query into parts; throws UsageError("query: … at column N") when malformed.
std::vector<QueryPart> parse_query(const std::string& query);

/// The fields that filter (boolean) rather than match text.
bool is_filter_field(const std::string& field);

}  // namespace sagasu
