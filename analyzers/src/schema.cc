#include "sagasu/schema.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <charconv>

#include "sagasu/names.h"
#include "sagasu/note.h"
#include "sagasu/unicode.h"

namespace sagasu::schema {

std::size_t shard_of(std::string_view path, std::size_t count) {
  return count <= 1 ? 0 : static_cast<std::size_t>(XXH3_64bits(path.data(), path.size()) % count);
}

std::string shard_value(std::size_t shard) {
  return std::to_string(shard);
}

std::optional<std::size_t> shard_number(std::string_view value) {
  std::size_t k = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), k);
  if (ec != std::errc() || end != value.data() + value.size() || value.empty()) return std::nullopt;
  return k;
}

std::optional<std::string> venue_value(std::string_view typed) {
  return normalize_venue(typed);
}

std::optional<std::string> person_value(std::string_view typed) {
  return names::person(typed);
}

std::optional<std::string> org_value(std::string_view typed) {
  return names::organization(typed);
}

std::optional<std::string> citation_value(std::string_view typed) {
  if (!typed.empty() && typed.front() == '@') typed.remove_prefix(1);
  return std::string(typed);
}

std::optional<std::string> path_value(std::string_view typed) {
  while (!typed.empty() && typed.back() == '/') typed.remove_suffix(1);
  return std::string(typed);
}

bool newer_schema(std::string_view version) {
  // Versions are decimal numbers; a longer one is larger.
  if (version.empty() || version.find_first_not_of("0123456789") != std::string_view::npos) return false;
  if (version.size() != SCHEMA_VERSION.size()) return version.size() > SCHEMA_VERSION.size();
  return version > SCHEMA_VERSION;
}

std::string pack_values(std::vector<std::string> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  values.erase(std::remove(values.begin(), values.end(), std::string()), values.end());
  return fmt::format("{}", fmt::join(values, std::string_view(&PACK_SEPARATOR, 1)));
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
  return term.append(fmt::format("#{:016x}", XXH64(path.data(), path.size(), 0)));
}

std::string filter_term(const Field& field, std::string_view value) {
  std::string term(field.prefix);
  std::optional<std::string> normalized;
  if (field.normalize) {
    normalized = field.normalize(value);
    if (!normalized) return term;
    value = *normalized;
  }
  term += field.folding == Folding::Name ? unicode::fold_name(value) : unicode::fold_key(value);
  if (term.size() > MAX_TERM_BYTES) term.resize(MAX_TERM_BYTES);  // may cut a character: still unique enough
  return term;
}

const Field* find_facet(std::string_view name) {
  const Field* f = find_field(name);
  return f && f->is_facet() ? f : nullptr;
}

std::vector<std::string> facet_list() {
  std::vector<std::string> names;
  for (const Field& f : FIELDS)
    if (f.is_facet()) names.emplace_back(f.name);
  return names;
}

Prefix field_prefix(std::string_view word, const Field** field) {
  std::size_t n = 0;
  while (n < word.size() && ((word[n] >= 'a' && word[n] <= 'z') || (word[n] >= 'A' && word[n] <= 'Z'))) ++n;
  if (n == 0 || n >= word.size() || word[n] != ':') return Prefix::None;
  std::string name(word.substr(0, n));
  std::transform(name.begin(), name.end(), name.begin(), [](char c) { return static_cast<char>(std::tolower(c)); });
  if (const Field* f = find_field(name)) {
    if (f->kind == FieldKind::Internal) return Prefix::None;
    if (field) *field = f;
    return Prefix::Field;
  }
  const char next = n + 1 < word.size() ? word[n + 1] : ' ';
  const bool value = next != ' ' && next != '\t' && next != '/' && next != ':' && next != '\\';
  return n >= 2 && value ? Prefix::Unknown : Prefix::None;
}

std::string field_names(bool facets_only, std::string_view last) {
  std::vector<std::string_view> names;
  for (const Field& f : FIELDS)
    if (facets_only ? f.is_facet() : f.is_filter()) names.push_back(f.name);
  if (names.size() < 2) return fmt::format("{}", fmt::join(names, ""));
  return fmt::format("{}{}{}", fmt::join(names.begin(), names.end() - 1, ", "), last, names.back());
}

}  // namespace sagasu::schema
