#include "index_metadata.h"

#include <fmt/format.h>
#include <xapian.h>

#include "sagasu/analyzer.h"
#include "sagasu/schema.h"

namespace sagasu {
namespace {

// The synonyms of one page. Entity filters take an alias as the page's name
// in every entity field, so a new entity field gets its synonyms unasked.
void add_synonyms(const NoteDigest& d, Analyzer& analyzer, Synonyms& synonyms) {
  std::vector<std::string> group{analyzer.key(d.display_title)};
  if (!d.source && d.title != d.display_title) group.push_back(analyzer.key(d.title));
  for (const auto& a : d.aliases) group.push_back(analyzer.key(a));
  for (const auto& from : group)
    for (const auto& to : group)
      if (!from.empty() && !to.empty() && from != to && from.size() <= schema::MAX_TERM_BYTES &&
          to.size() <= schema::MAX_TERM_BYTES)
        synonyms[from].insert(to);
  for (const auto& a : d.aliases)
    for (const schema::Field& field : schema::FIELDS) {
      if (field.kind != schema::FieldKind::Entity) continue;
      const std::string from = schema::filter_term(field, a), to = schema::filter_term(field, d.title);
      if (from != to && from.size() > field.prefix.size()) synonyms[from].insert(to);
    }
}

// Replaces the synonym keys of db with those of synonyms.
void write_synonyms(Xapian::WritableDatabase& db, const Synonyms& synonyms) {
  const std::string px(schema::META_SYNONYM);
  std::vector<std::string> old_keys;
  for (auto m = db.metadata_keys_begin(px); m != db.metadata_keys_end(px); ++m) old_keys.push_back(*m);
  for (const auto& key : old_keys)
    if (!synonyms.count(key.substr(px.size()))) db.set_metadata(key, "");
  for (const auto& [from, to] : synonyms) {
    if (px.size() + from.size() > schema::MAX_TERM_BYTES)
      continue;  // Xapian's key limit: no such name is typed
    std::string joined;
    for (const auto& t : to) joined += (joined.empty() ? "" : "\n") + t;
    db.set_metadata(px + from, joined);
  }
}

}  // namespace

Synonyms vault_synonyms(const std::vector<RunNote>& notes) {
  Synonyms synonyms;
  Analyzer analyzer;
  for (const RunNote& n : notes)
    if (n.has_digest() && !n.digest.aliases.empty()) add_synonyms(n.digest, analyzer, synonyms);
  return synonyms;
}

void write_metadata(ShardSet& shards, const std::string& vault,
                    const std::vector<std::pair<std::string, std::string>>& entries,
                    const std::optional<Synonyms>& synonyms) {
  for (std::size_t k = 0; k < shards.size(); ++k) {
    Xapian::WritableDatabase& db = shards.db(k);
    if (synonyms) write_synonyms(db, *synonyms);
    db.set_metadata(std::string(schema::META_VAULT), vault);
    db.set_metadata(std::string(schema::META_SCHEMA_VERSION), std::string(schema::SCHEMA_VERSION));
    for (const auto& [key, value] : entries) db.set_metadata(key, value);
    if (shards.size() > 1)
      db.set_metadata(std::string(schema::META_SHARD), fmt::format("{}/{}", k, shards.size()));
  }
}

}  // namespace sagasu
