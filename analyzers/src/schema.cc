#include "sagasu/schema.h"

#include <xxhash.h>

#include <algorithm>
#include <cstdio>

#include "sagasu/unicode.h"

namespace sagasu::schema {

std::string pack_values(std::vector<std::string> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::string out;
  for (const auto& v : values) {
    if (v.empty()) continue;
    if (!out.empty()) out += PACK_SEPARATOR;
    out += v;
  }
  return out;
}

std::vector<std::string> unpack_values(std::string_view packed) {
  std::vector<std::string> out;
  while (!packed.empty()) {
    auto sep = packed.find(PACK_SEPARATOR);
    out.emplace_back(packed.substr(0, sep));
    if (sep == std::string_view::npos) break;
    packed.remove_prefix(sep + 1);
  }
  return out;
}

std::string unique_id_term(std::string_view path) {
  std::string term(UNIQUE_ID.prefix);
  if (term.size() + path.size() <= MAX_TERM_BYTES) return term.append(path);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(XXH64(path.data(), path.size(), 0)));
  return term.append("#").append(hex);
}

std::string filter_term(const Prefix& prefix, std::string_view value) {
  std::string folded = unicode::nfkc_casefold(value);
  // Runs of white space count as one space: "Xin  Liu" = "Xin Liu".
  std::string term(prefix.prefix);
  bool space = false;
  for (char c : folded) {
    if (c == ' ' || c == '\t' || c == '\n') {
      space = true;
      continue;
    }
    if (space && term.size() > prefix.prefix.size()) term += ' ';
    space = false;
    term += c;
  }
  if (term.size() > MAX_TERM_BYTES) term.resize(MAX_TERM_BYTES);  // may cut a character: still unique enough
  return term;
}

const Facet* find_facet(std::string_view name) {
  for (const auto& f : FACETS)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace sagasu::schema
