#include "sagasu/facet_columns.h"

#include <filesystem>
#include <unordered_map>

#include "sagasu/generation_file.h"
#include "sagasu/schema.h"

namespace fs = std::filesystem;

namespace sagasu {
namespace {

using generation_file::get;
using generation_file::put32;

constexpr std::string_view MAGIC{"SGFC1\0\0\0", 8};
// After the shared header: the docid limit, then the facet count.
constexpr std::size_t LIMIT_AT = generation_file::HEADER, FACETS_AT = LIMIT_AT + 4, HEADER = FACETS_AT + 4;

// One facet's column as bytes: slot, values, document offsets and ordinals.
void append_column(const Xapian::Database& db, Xapian::valueno slot, std::uint32_t limit, std::string& out) {
  std::unordered_map<std::string, std::uint32_t> ordinal_of;
  std::vector<std::string> values;
  std::vector<std::uint32_t> doc_offsets(limit + 1, 0), ordinals;
  Xapian::docid next = 0;  // documents below have their offsets
  for (auto v = db.valuestream_begin(slot); v != db.valuestream_end(slot); ++v) {
    const Xapian::docid did = v.get_docid();
    for (; next <= did; ++next) doc_offsets[next] = static_cast<std::uint32_t>(ordinals.size());
    for (auto& value : schema::unpack_values(*v)) {
      auto [it, fresh] = ordinal_of.try_emplace(value, static_cast<std::uint32_t>(values.size()));
      if (fresh) values.push_back(std::move(value));
      ordinals.push_back(it->second);
    }
  }
  for (; next <= limit; ++next) doc_offsets[next] = static_cast<std::uint32_t>(ordinals.size());
  std::string blob;
  std::vector<std::uint32_t> value_offsets{0};
  for (const auto& v : values) {
    blob += v;
    value_offsets.push_back(static_cast<std::uint32_t>(blob.size()));
  }
  const std::size_t unpadded = blob.size();
  blob.resize((blob.size() + 3) / 4 * 4, '\0');
  put32(out, slot);
  put32(out, static_cast<std::uint32_t>(values.size()));
  put32(out, static_cast<std::uint32_t>(unpadded));
  for (auto o : value_offsets) put32(out, o);
  out += blob;
  for (auto o : doc_offsets) put32(out, o);
  for (auto o : ordinals) put32(out, o);
}

}  // namespace

void FacetColumns::write(const Xapian::Database& db, const std::string& folder) {
  const std::string file = (fs::path(folder) / FACET_COLUMNS_FILE).string();
  const Xapian::rev revision = db.get_revision();
  if (generation_file::revision_of(file, MAGIC) == revision && revision != 0) return;
  const std::uint32_t limit = db.get_lastdocid() + 1;
  std::string out = generation_file::header(MAGIC, revision);
  put32(out, limit);
  std::uint32_t facets = 0;
  for (const auto& f : schema::FIELDS) facets += f.is_facet();
  put32(out, facets);
  for (const auto& f : schema::FIELDS)
    if (f.is_facet()) append_column(db, static_cast<Xapian::valueno>(f.facet_slot), limit, out);
  generation_file::replace(file, out);
}

std::shared_ptr<const FacetColumns> FacetColumns::open(const std::string& folder,
                                                       const Xapian::Database& db) {
  auto map = generation_file::Mapped::open((fs::path(folder) / FACET_COLUMNS_FILE).string(), MAGIC,
                                           db.get_revision());
  if (!map || map->size() < HEADER) return nullptr;
  std::shared_ptr<FacetColumns> columns(new FacetColumns());
  columns->m_map = std::move(map);
  if (get(columns->m_map->data() + LIMIT_AT, 4) != db.get_lastdocid() + 1 || !columns->parse()) return nullptr;
  return columns;
}

bool FacetColumns::parse() {
  const unsigned char* base = m_map->data();
  const std::size_t size = m_map->size();
  std::size_t at = HEADER;
  auto u32 = [&](std::uint32_t& v) {
    if (at + 4 > size) return false;
    v = static_cast<std::uint32_t>(get(base + at, 4));
    at += 4;
    return true;
  };
  const auto limit = static_cast<std::uint32_t>(get(base + LIMIT_AT, 4));
  const auto facets = static_cast<std::uint32_t>(get(base + FACETS_AT, 4));
  for (std::uint32_t f = 0; f < facets; ++f) {
    FacetColumn c;
    std::uint32_t slot, count, blob;
    if (!u32(slot) || !u32(count) || !u32(blob)) return false;
    if (count > size / 4 || at + (count + 1) * 4ull + blob > size) return false;
    const auto* value_offsets = reinterpret_cast<const std::uint32_t*>(base + at);
    at += (count + 1) * 4ull;
    const char* strings = reinterpret_cast<const char*>(base + at);
    for (std::uint32_t i = 0; i < count; ++i) {
      if (value_offsets[i] > value_offsets[i + 1] || value_offsets[i + 1] > blob) return false;
      c.values.emplace_back(strings + value_offsets[i], value_offsets[i + 1] - value_offsets[i]);
    }
    at += (blob + 3) / 4 * 4;
    if (at + (limit + 1) * 4ull > size) return false;
    c.doc_offsets = reinterpret_cast<const std::uint32_t*>(base + at);
    at += (limit + 1) * 4ull;
    const std::uint32_t total = c.doc_offsets[limit];
    if (at + total * 4ull > size) return false;
    c.ordinals = reinterpret_cast<const std::uint32_t*>(base + at);
    at += total * 4ull;
    for (std::uint32_t d = 0; d < limit; ++d)
      if (c.doc_offsets[d] > c.doc_offsets[d + 1]) return false;
    for (std::uint32_t k = 0; k < total; ++k)
      if (c.ordinals[k] >= count) return false;
    c.slot = slot;
    c.limit = limit;
    m_columns.push_back(std::move(c));
  }
  return at == size;
}

const FacetColumn* FacetColumns::column(Xapian::valueno slot) const {
  for (const auto& c : m_columns)
    if (c.slot == slot) return &c;
  return nullptr;
}

}  // namespace sagasu
