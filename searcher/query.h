// The query language, parsed without Xapian's QueryParser so that every text
// piece goes through the one analyzer:
//
//   query   := or
//   or      := and ("OR" and)*
//   and     := unary (["AND"] unary)*          implicit AND
//   unary   := ("NOT" | "-") unary | primary
//   primary := "(" or ")" | FIELD ":" value | '"' phrase '"' | word
//   value   := word | '"' text '"'
//
// FIELD is a query field of the schema's field table (schema::FIELDS: title,
// path, venue, year, person, org, kind, tag, links, cites); a word with
// another "x:" is plain text.
#pragma once

#include <string>
#include <vector>

namespace sagasu {

/// A leaf: one piece of text or one field filter.
struct QueryPart {
  enum class Type {
    Text,       ///< words
    Phrase,     ///< "quoted words"
    Filter,     ///< field:value of a filter field (venue:OSDI)
    FieldText,  ///< field:words of a text field (title:MegaScale)
  };
  Type type = Type::Text;
  bool negated = false;    ///< under a NOT or "-"
  std::string field;       ///< for Filter and FieldText: the schema field's name
  std::string value;       ///< text, phrase text or filter value (unquoted)
  std::size_t column = 1;  ///< 1-based column in the query string, for error messages
  /// Text: several typed words taken as one name (QueryBuilder::merge_names):
  /// matched as the name's words and equivalents only (the words themselves,
  /// substrings included, are the other alternative).
  bool name = false;
  /// Text: one of those words, in the other alternative: the name's
  /// equivalents stand for the words together, so the word has no
  /// equivalents of its own but with --loose (regular → 通常 is no regular expression).
  bool in_name = false;
};

/// A node of the parsed query.
struct QueryNode {
  enum class Op { And, Or, Not, Leaf };
  Op op = Op::Leaf;
  std::vector<QueryNode> children;  ///< And/Or: two or more; Not: one
  QueryPart leaf;                   ///< for Leaf
};

/// Parses a query; throws UsageError("query: … at column N") when malformed.
QueryNode parse_query_tree(const std::string& query);

/// The leaves of a query that is only an implicit/explicit AND of leaves (and
/// negated leaves); throws UsageError if it holds OR or parentheses. For --filter.
std::vector<QueryPart> parse_query(const std::string& query);

}  // namespace sagasu
