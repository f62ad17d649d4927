#include "facet_coverage.h"

#include <algorithm>
#include <map>

#include "sagasu/schema.h"
#include "sagasu/stored_note.h"

namespace sagasu {
namespace {

// Counts by count, then name.
std::vector<std::pair<std::string, std::size_t>> by_count(const std::map<std::string, std::size_t>& counts) {
  std::vector<std::pair<std::string, std::size_t>> out(counts.begin(), counts.end());
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

}  // namespace

void read_coverage(ShardSet& shards, IndexReport& report) {
  std::map<std::string, FacetCoverage> facets;
  for (const schema::Field& f : schema::FIELDS)
    if (f.is_facet() && &f != &schema::KIND) facets[std::string(f.name)].facet = std::string(f.name);
  std::map<std::string, std::size_t> kinds, unmapped;
  for (std::size_t k = 0; k < shards.size(); ++k) {
    Xapian::WritableDatabase& db = shards.db(k);
    report.indexed += db.get_doccount();
    for (auto v = db.valuestream_begin(schema::SLOT_KIND); v != db.valuestream_end(schema::SLOT_KIND); ++v)
      ++kinds[*v];
    for (auto v = db.valuestream_begin(schema::SLOT_COVERAGE); v != db.valuestream_end(schema::SLOT_COVERAGE);
         ++v) {
      const auto c = NoteCoverage::decode(*v);
      if (!c) continue;
      for (const auto& [facet, from] : c->sources) {
        auto it = facets.find(facet);
        if (it == facets.end()) continue;
        ++it->second.notes;
        for (const auto& f : from) ++it->second.sources[f];
      }
      for (const auto& u : c->unmapped) ++unmapped[u];
    }
  }
  for (const schema::Field& f : schema::FIELDS)
    if (auto it = facets.find(std::string(f.name)); it != facets.end()) report.coverage.push_back(it->second);
  report.kinds = by_count(kinds);
  report.unmapped_keys = by_count(unmapped);
}

}  // namespace sagasu
