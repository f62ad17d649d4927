#include "sagasu/facet_columns.h"

#include <deque>
#include <filesystem>
#include <map>
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

// One facet's column, built in docid order: each value's ordinal is the
// order of its first appearance, so one set of documents always gives one file.
class ColumnBuilder {
 public:
  explicit ColumnBuilder(std::uint32_t limit) : m_limit(limit), m_doc_offsets(limit + 1, 0) {}
  /// The values of document did come next (did above the last one's).
  void start(Xapian::docid did) {
    for (; m_next <= did; ++m_next) m_doc_offsets[m_next] = static_cast<std::uint32_t>(m_ordinals.size());
  }
  /// A value of the current document (copied when first seen); returns its ordinal.
  std::uint32_t add(std::string_view value) { return add_value(value, true); }
  /// The same for a value whose bytes outlive the builder (an old file's): not copied.
  std::uint32_t add_lasting(std::string_view value) { return add_value(value, false); }
  /// A value whose ordinal add() returned before.
  void add_known(std::uint32_t ordinal) { m_ordinals.push_back(ordinal); }
  /// Room for this many values of documents.
  void reserve(std::size_t ordinals) { m_ordinals.reserve(ordinals); }
  /// The column's bytes: slot, values, document offsets and ordinals.
  void append(Xapian::valueno slot, generation_file::Writer& out) {
    start(m_limit);  // (the offsets up to limit)
    std::vector<std::uint32_t> value_offsets{0};
    std::uint32_t blob = 0;
    for (const auto& v : m_values) value_offsets.push_back(blob += static_cast<std::uint32_t>(v.size()));
    out.append32(slot);
    out.append32(static_cast<std::uint32_t>(m_values.size()));
    out.append32(blob);
    out.append32(value_offsets.data(), value_offsets.size());
    for (const auto& v : m_values) out.append(v);
    out.append(std::string_view("\0\0\0", (4 - blob % 4) % 4));
    out.append32(m_doc_offsets.data(), m_doc_offsets.size());
    out.append32(m_ordinals.data(), m_ordinals.size());
  }

 private:
  std::uint32_t m_limit;
  Xapian::docid m_next = 0;  // documents below have their offsets
  std::unordered_map<std::string_view, std::uint32_t> m_ordinal_of;
  std::vector<std::string_view> m_values;  // by ordinal
  std::deque<std::string> m_copies;        // the bytes of the values add() copied
  std::vector<std::uint32_t> m_doc_offsets, m_ordinals;

  std::uint32_t add_value(std::string_view value, bool copy) {
    auto it = m_ordinal_of.find(value);
    if (it == m_ordinal_of.end()) {
      if (copy) value = m_copies.emplace_back(value);
      it = m_ordinal_of.emplace(value, static_cast<std::uint32_t>(m_values.size())).first;
      m_values.push_back(value);
    }
    m_ordinals.push_back(it->second);
    return it->second;
  }
};

// The file's header: magic, revision, docid limit, facet count.
void write_header(generation_file::Writer& out, Xapian::rev revision, std::uint32_t limit) {
  out.append(generation_file::header(MAGIC, revision));
  out.append32(limit);
  std::uint32_t facets = 0;
  for (const auto& f : schema::FIELDS) facets += f.is_facet();
  out.append32(facets);
}

std::string file_in(const std::string& folder) {
  return (fs::path(folder) / FACET_COLUMNS_FILE).string();
}

}  // namespace

void FacetColumns::write(const Xapian::Database& db, const std::string& folder) {
  const std::string file = file_in(folder);
  const Xapian::rev revision = db.get_revision();
  if (generation_file::describes(file, MAGIC, revision)) return;
  const std::uint32_t limit = db.get_lastdocid() + 1;
  generation_file::Writer out(file);
  write_header(out, revision, limit);
  for (const auto& f : schema::FIELDS) {
    if (!f.is_facet()) continue;
    const auto slot = static_cast<Xapian::valueno>(f.facet_slot);
    ColumnBuilder column(limit);
    for (auto v = db.valuestream_begin(slot); v != db.valuestream_end(slot); ++v) {
      column.start(v.get_docid());
      for (const auto& value : schema::unpack_values(*v)) column.add(value);
    }
    column.append(slot, out);
  }
  out.commit();
}

void FacetColumns::update(const Xapian::Database& db, const std::string& folder, Xapian::rev before,
                          const std::set<Xapian::docid>& changed) {
  const std::string file = file_in(folder);
  const Xapian::rev revision = db.get_revision();
  if (generation_file::describes(file, MAGIC, revision)) return;
  const auto old = open_revision(folder, before);
  if (!old) return write(db, folder);
  const std::uint32_t limit = db.get_lastdocid() + 1;
  // The changed documents' values, and those of documents the old file did
  // not reach, read once (a deleted one has none).
  std::set<Xapian::docid> to_read(changed.begin(), changed.lower_bound(limit));
  const Xapian::docid old_limit = old->m_columns.empty() ? limit : old->m_columns.front().limit;
  for (Xapian::docid did = old_limit; did < limit; ++did) to_read.insert(did);
  std::map<Xapian::docid, Xapian::Document> docs;
  for (Xapian::docid did : to_read) {
    try {
      docs.emplace(did, db.get_document(did));
    } catch (const Xapian::DocNotFoundError&) {
    }
  }
  // (Every column is checked first: a writer is not opened for a file write() makes instead.)
  for (const auto& f : schema::FIELDS)
    if (f.is_facet() && !old->column(static_cast<Xapian::valueno>(f.facet_slot))) return write(db, folder);
  generation_file::Writer out(file);
  write_header(out, revision, limit);
  for (const auto& f : schema::FIELDS) {
    if (!f.is_facet()) continue;
    const auto slot = static_cast<Xapian::valueno>(f.facet_slot);
    const FacetColumn* was = old->column(slot);
    ColumnBuilder column(limit);
    column.reserve(was->doc_offsets[was->limit] + 64);
    constexpr std::uint32_t UNSEEN = ~0u;
    std::vector<std::uint32_t> now_of(was->values.size(), UNSEEN);  // an old ordinal's new one
    for (Xapian::docid did = 1; did < limit; ++did) {
      if (to_read.count(did)) {
        const auto doc = docs.find(did);
        if (doc == docs.end()) continue;
        const std::string packed = doc->second.get_value(slot);
        if (packed.empty()) continue;
        column.start(did);
        for (const auto& value : schema::unpack_values(packed)) column.add(value);
        continue;
      }
      if (did >= was->limit || was->doc_offsets[did] == was->doc_offsets[did + 1]) continue;
      column.start(did);
      for (std::uint32_t k = was->doc_offsets[did]; k < was->doc_offsets[did + 1]; ++k) {
        const std::uint32_t o = was->ordinals[k];
        if (now_of[o] == UNSEEN)
          now_of[o] = column.add_lasting(was->values[o]);  // (the old file stays mapped meanwhile)
        else
          column.add_known(now_of[o]);
      }
    }
    column.append(slot, out);
  }
  out.commit();
}

std::shared_ptr<const FacetColumns> FacetColumns::open_revision(const std::string& folder,
                                                                Xapian::rev revision) {
  auto map = generation_file::Mapped::open(file_in(folder), MAGIC, revision);
  if (!map || map->size() < HEADER) return nullptr;
  std::shared_ptr<FacetColumns> columns(new FacetColumns());
  columns->m_map = std::move(map);
  if (!columns->parse()) return nullptr;
  return columns;
}

std::shared_ptr<const FacetColumns> FacetColumns::open(const std::string& folder,
                                                       const Xapian::Database& db) {
  auto columns = open_revision(folder, db.get_revision());
  if (!columns || get(columns->m_map->data() + LIMIT_AT, 4) != db.get_lastdocid() + 1) return nullptr;
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
