#include "sagasu/query.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "sagasu/error.h"
#include "sagasu/schema.h"

namespace sagasu {

bool is_filter_field(const std::string& field) {
  static const std::array<const char*, 8> fields{"venue", "year", "person", "org", "kind", "tag", "links", "cites"};
  return std::any_of(fields.begin(), fields.end(), [&](const char* f) { return field == f; });
}

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Column (1-based, in characters) of byte offset i.
std::size_t column_of(const std::string& s, std::size_t i) {
  std::size_t col = 1;
  for (std::size_t k = 0; k < i && k < s.size(); ++k)
    if ((static_cast<unsigned char>(s[k]) & 0xC0) != 0x80) ++col;
  return col;
}

}  // namespace

std::vector<QueryPart> parse_query(const std::string& q) {
  std::vector<QueryPart> parts;
  std::size_t i = 0;
  while (i < q.size()) {
    if (is_space(q[i])) {
      ++i;
      continue;
    }
    const std::size_t start = i;
    QueryPart part;
    part.column = column_of(q, start);
    if (q[i] == '-' && i + 1 < q.size() && !is_space(q[i + 1])) {
      part.negated = true;
      ++i;
    }
    // field:value?
    std::size_t j = i;
    while (j < q.size() && ((q[j] >= 'a' && q[j] <= 'z') || (q[j] >= 'A' && q[j] <= 'Z'))) ++j;
    std::string field = q.substr(i, j - i);
    std::transform(field.begin(), field.end(), field.begin(), [](char c) { return static_cast<char>(std::tolower(c)); });
    if (j < q.size() && q[j] == ':' && j > i && (is_filter_field(field) || field == "title")) {
      part.type = field == "title" ? QueryPart::Type::TitleText : QueryPart::Type::Filter;
      part.field = field;
      i = j + 1;
      if (i >= q.size() || is_space(q[i]))
        throw UsageError(fmt::format("query: {}: needs a value at column {}", field, column_of(q, i)));
    }
    if (q[i] == '"') {
      const std::size_t close = q.find('"', i + 1);
      if (close == std::string::npos)
        throw UsageError(fmt::format("query: unbalanced quote at column {}", column_of(q, i)));
      part.value = q.substr(i + 1, close - i - 1);
      if (part.type == QueryPart::Type::Text) part.type = QueryPart::Type::Phrase;
      i = close + 1;
      if (part.value.find_first_not_of(" \t") == std::string::npos)
        throw UsageError(fmt::format("query: empty quotes at column {}", column_of(q, close - 1)));
    } else {
      std::size_t end = i;
      while (end < q.size() && !is_space(q[end])) {
        if (q[end] == '"')
          throw UsageError(fmt::format("query: unbalanced quote at column {}", column_of(q, end)));
        ++end;
      }
      part.value = q.substr(i, end - i);
      i = end;
    }
    parts.push_back(std::move(part));
  }
  return parts;
}

}  // namespace sagasu
