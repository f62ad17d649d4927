#include "facet_coverage.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

#include "sagasu/schema.h"
#include "sagasu/stored_note.h"

namespace sagasu {
namespace {

// What is counted: a count an update brought down to zero is gone, as a recount has it.
std::map<std::string, std::size_t> counted(const std::map<std::string, long long>& counts) {
  std::map<std::string, std::size_t> out;
  for (const auto& [name, n] : counts)
    if (n > 0) out.emplace(name, static_cast<std::size_t>(n));
  return out;
}

// Counts by count, then name.
std::vector<std::pair<std::string, std::size_t>> by_count(const std::map<std::string, long long>& counts) {
  const auto positive = counted(counts);
  std::vector<std::pair<std::string, std::size_t>> out(positive.begin(), positive.end());
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

// The facets a summary shows: every facet of the table but kind (which has its own line).
bool summarised(const schema::Field& f) {
  return f.is_facet() && &f != &schema::KIND;
}

}  // namespace

CoverageTally CoverageTally::read(const Xapian::Database& db) {
  CoverageTally t;
  t.m_indexed = db.get_doccount();
  for (auto v = db.valuestream_begin(schema::SLOT_KIND); v != db.valuestream_end(schema::SLOT_KIND); ++v)
    t.count({}, *v, 1);
  for (auto v = db.valuestream_begin(schema::SLOT_COVERAGE); v != db.valuestream_end(schema::SLOT_COVERAGE);
       ++v)
    t.count(*v, {}, 1);
  return t;
}

CoverageTally CoverageTally::of(const Xapian::Database& db, bool& stored) {
  auto kept = decode(db.get_metadata(std::string(schema::META_COVERAGE)));
  stored = kept && kept->m_indexed == static_cast<long long>(db.get_doccount()) &&
           db.get_metadata(std::string(schema::META_COVERAGE_REVISION)) == std::to_string(db.get_revision());
  return stored ? std::move(*kept) : read(db);
}

void CoverageTally::store(Xapian::WritableDatabase& db) const {
  db.set_metadata(std::string(schema::META_COVERAGE), encode());
  db.set_metadata(std::string(schema::META_COVERAGE_REVISION), std::to_string(db.get_revision() + 1));
}

void CoverageTally::add(const CoverageTally& other) {
  m_indexed += other.m_indexed;
  for (const auto& [k, n] : other.m_notes) m_notes[k] += n;
  for (const auto& [facet, counts] : other.m_sources)
    for (const auto& [k, n] : counts) m_sources[facet][k] += n;
  for (const auto& [k, n] : other.m_kinds) m_kinds[k] += n;
  for (const auto& [k, n] : other.m_unmapped) m_unmapped[k] += n;
}

void CoverageTally::count(const Xapian::Document& doc, int sign) {
  m_indexed += sign;
  count(doc.get_value(schema::SLOT_COVERAGE), doc.get_value(schema::SLOT_KIND), sign);
}

void CoverageTally::count(std::string_view coverage, std::string_view kind, int sign) {
  if (!kind.empty()) m_kinds[std::string(kind)] += sign;
  if (coverage.empty()) return;
  const auto c = NoteCoverage::decode(coverage);
  if (!c) return;
  for (const auto& [facet, from] : c->sources) {
    const schema::Field* f = schema::find_field(facet);
    if (!f || !summarised(*f)) continue;
    m_notes[facet] += sign;
    for (const auto& source : from) m_sources[facet][source] += sign;
  }
  for (const auto& u : c->unmapped) m_unmapped[u] += sign;
}

void CoverageTally::fill(IndexReport& report) const {
  report.indexed = static_cast<std::size_t>(std::max(0LL, m_indexed));
  report.coverage.clear();
  for (const schema::Field& f : schema::FIELDS) {
    if (!summarised(f)) continue;
    FacetCoverage c;
    c.facet = std::string(f.name);
    if (auto it = m_notes.find(c.facet); it != m_notes.end())
      c.notes = static_cast<std::size_t>(std::max(0LL, it->second));
    if (auto it = m_sources.find(c.facet); it != m_sources.end()) c.sources = counted(it->second);
    report.coverage.push_back(std::move(c));
  }
  report.kinds = by_count(m_kinds);
  report.unmapped_keys = by_count(m_unmapped);
}

std::string CoverageTally::encode() const {
  nlohmann::json sources = nlohmann::json::object();
  for (const auto& [facet, counts] : m_sources)
    if (auto c = counted(counts); !c.empty()) sources[facet] = std::move(c);
  return nlohmann::json{{"indexed", m_indexed},
                        {"notes", counted(m_notes)},
                        {"sources", std::move(sources)},
                        {"kinds", counted(m_kinds)},
                        {"unmapped", counted(m_unmapped)}}
      .dump();
}

namespace {

// Counts only as the integers encode() writes (a float such as 1e55 would
// convert with undefined behaviour): false for anything else.
bool read_counts(const nlohmann::json& j, std::map<std::string, long long>& out) {
  if (!j.is_object()) return false;
  for (const auto& [name, n] : j.items()) {
    if (!n.is_number_integer()) return false;
    out[name] = n.get<long long>();
  }
  return true;
}

}  // namespace

std::optional<CoverageTally> CoverageTally::decode(const std::string& stored) {
  const auto j = nlohmann::json::parse(stored, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  CoverageTally t;
  const auto field = [&](const char* key) { return j.contains(key) ? j[key] : nlohmann::json(); };
  const nlohmann::json indexed = field("indexed"), sources = field("sources");
  if (!indexed.is_number_integer() || !sources.is_object() || !read_counts(field("notes"), t.m_notes) ||
      !read_counts(field("kinds"), t.m_kinds) || !read_counts(field("unmapped"), t.m_unmapped))
    return std::nullopt;
  t.m_indexed = indexed.get<long long>();
  for (const auto& [facet, counts] : sources.items())
    if (!read_counts(counts, t.m_sources[facet])) return std::nullopt;
  return t;
}

}  // namespace sagasu
