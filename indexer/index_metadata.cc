#include "index_metadata.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <xapian.h>

#include "sagasu/analyzer.h"
#include "sagasu/schema.h"
#include "sagasu/sounds.h"
#include "sagasu/strings.h"
#include "sagasu/word_list.h"

namespace sagasu {
namespace {

// The synonyms of one page, as a star (schema.h): the title's key heads the
// keys of the other names, each of which names the title. Entity filters take
// an alias as the page's name in every entity field, so a new entity field
// gets its synonyms unasked.
void add_synonyms(const NoteDigest& d, Analyzer& analyzer, Synonyms& synonyms) {
  auto fits = [](const std::string& key) { return !key.empty() && key.size() <= schema::MAX_TERM_BYTES; };
  const std::string head = analyzer.key(d.display_title);
  std::vector<std::string> others;
  if (!d.source && d.title != d.display_title) others.push_back(analyzer.key(d.title));
  for (const auto& a : d.aliases) others.push_back(analyzer.key(a));
  if (fits(head))
    for (const auto& other : others)
      if (fits(other) && other != head) {
        synonyms.aliases[head].insert(other);
        synonyms.titles[other].insert(head);
      }
  for (const auto& a : d.aliases)
    for (const schema::Field& field : schema::FIELDS) {
      if (field.kind != schema::FieldKind::Entity) continue;
      const std::string from = schema::filter_term(field, a), to = schema::filter_term(field, d.title);
      if (from != to && from.size() > field.prefix.size()) synonyms.titles[from].insert(to);
    }
}

// The synonym table as metadata (schema.h: META_SYNONYM): a key's titles,
// then SYNONYM_HEAD and its aliases when it is a title.
std::map<std::string, std::string> synonym_lines(const Synonyms& synonyms) {
  std::map<std::string, std::string> lines;
  auto add = [&](const std::string& key, std::string_view line) {
    std::string& joined = lines[key];
    if (!joined.empty()) joined += '\n';
    joined += line;
  };
  for (const auto& [key, titles] : synonyms.titles)
    for (const auto& title : titles) add(key, title);
  for (const auto& [key, aliases] : synonyms.aliases) {
    add(key, schema::SYNONYM_HEAD);
    for (const auto& alias : aliases) add(key, alias);
  }
  return lines;
}

// Sets the keys under prefix px of db to `lines` (key → its lines; empty
// lines: the key goes), leaving the others.
void set_keys(Xapian::WritableDatabase& db, const std::string& px,
              const std::map<std::string, std::string>& lines) {
  for (const auto& [key, value] : lines)
    if (px.size() + key.size() <= schema::MAX_TERM_BYTES &&  // Xapian's key limit: no such name is typed
        db.get_metadata(px + key) != value)                  // an update rewrites what changed only
      db.set_metadata(px + key, value);
}

// Replaces the keys under prefix px of db with `lines` (key → its lines).
void replace_keys(Xapian::WritableDatabase& db, const std::string& px,
                  const std::map<std::string, std::string>& lines) {
  std::vector<std::string> old_keys;
  for (auto m = db.metadata_keys_begin(px); m != db.metadata_keys_end(px); ++m) old_keys.push_back(*m);
  for (const auto& key : old_keys)
    if (!lines.count(key.substr(px.size()))) db.set_metadata(key, "");
  set_keys(db, px, lines);
}

// The glossary as metadata (schema.h: META_GLOSSARY): each side's key
// (Analyzer::key) → one line per equivalent, "equivalent<TAB>how<TAB>notes stating it";
// a definition's term's key alone (an RLHF is a 強化学習, not every 強化学習 an RLHF).
std::map<std::string, std::string> glossary_lines(const std::map<Gloss, std::set<std::string>>& glossary,
                                                  Analyzer& analyzer) {
  std::map<std::string, std::map<std::string, std::pair<Provenance, std::size_t>>> by_key;
  for (const auto& [g, notes] : glossary) {
    const std::string ka = analyzer.key(g.a), kb = analyzer.key(g.b);
    if (ka.empty() || kb.empty() || ka == kb) continue;
    const std::size_t sides = g.how == Provenance::Definition ? 1 : 2;
    const std::pair<std::string, std::string> side[] = {{ka, g.b}, {kb, g.a}};
    for (std::size_t i = 0; i < sides; ++i) {
      const auto& [key, other] = side[i];
      auto& entry = by_key[key][other];
      // (Said to be one thing by some note: no definition's, however many say that.)
      const auto rank = [](Provenance how, std::size_t n) {
        return std::pair(how != Provenance::Definition, n);
      };
      if (entry.second == 0 || rank(entry.first, entry.second) < rank(g.how, notes.size()))
        entry = {g.how, notes.size()};
    }
  }
  std::map<std::string, std::string> lines;
  for (const auto& [key, others] : by_key) {
    std::string& joined = lines[key];
    for (const auto& [other, how] : others)
      joined +=
          fmt::format("{}{}\t{}\t{}", joined.empty() ? "" : "\n", other, to_string(how.first), how.second);
  }
  return lines;
}

// The sound table as metadata (schema.h: META_SOUND): a sound key → its words.
std::map<std::string, std::string> sound_lines(const std::map<std::string, std::set<std::string>>& sounds) {
  std::map<std::string, std::string> lines;
  for (const auto& [key, words] : sounds) lines[key] = fmt::format("{}", fmt::join(words, "\n"));
  return lines;
}

}  // namespace

std::map<Gloss, std::set<std::string>> vault_glossary(const std::vector<RunNote>& notes) {
  std::map<Gloss, std::set<std::string>> glossary;
  for (const RunNote& n : notes)
    if (n.has_digest())
      for (const Gloss& g : n.glosses()) glossary[g].insert(n.file->path);
  // A term glossed with many different words is a label for names, not a
  // term being translated (引数 (info), 引数 (time) in API references): of
  // its glosses, only those more than one note states are kept.
  constexpr std::size_t MAX_GLOSSES = 3;
  std::map<std::string, std::size_t> glosses_of;
  for (const auto& [g, _] : glossary)
    if (g.how == Provenance::Gloss) ++glosses_of[g.a];
  for (auto it = glossary.begin(); it != glossary.end();)
    if (it->first.how == Provenance::Gloss && glosses_of[it->first.a] > MAX_GLOSSES && it->second.size() < 2)
      it = glossary.erase(it);
    else
      ++it;
  return glossary;
}

std::map<std::string, std::set<std::string>> vault_sounds(const std::vector<Xapian::Database>& dbs) {
  std::map<std::string, std::set<std::string>> sounds;
  for (const auto& db : dbs)
    for_each_word_term(db, [&](const std::string& term) {
      if (std::string key = sound_key(term); !key.empty()) sounds[std::move(key)].insert(term);
    });
  return sounds;
}

std::map<std::string, std::set<std::string>> sound_changes(const std::set<std::string>& words,
                                                           ShardSet& shards) {
  std::map<std::string, std::set<std::string>> candidates;
  for (const auto& w : words)
    if (std::string key = sound_key(w); !key.empty()) candidates[std::move(key)].insert(w);
  const std::string px(schema::META_SOUND);
  std::map<std::string, std::set<std::string>> changes;
  for (auto& [key, maybe] : candidates) {
    for (auto& w : strings::split_nonempty(shards.db(0).get_metadata(px + key), '\n'))
      maybe.insert(std::move(w));
    std::set<std::string>& now = changes[key];
    for (const auto& w : maybe)
      for (std::size_t k = 0; k < shards.size(); ++k)
        if (shards.db(k).term_exists(w)) {
          now.insert(w);
          break;
        }
  }
  return changes;
}

DerivedChange derived_change(const IndexState& state) {
  DerivedChange change;
  const auto weigh = [&](const NoteDigest& page, bool glosses) {
    change.synonyms = change.synonyms || !page.aliases.empty();
    change.glossary = change.glossary || glosses;
  };
  const auto weigh_indexed = [&](const std::string& path) {
    const std::string& digest = state.indexed_digest(path);
    weigh(NoteDigest::decode_page(digest).value_or(NoteDigest{}),
          !NoteDigest::decode_glosses(digest).value_or(std::vector<Gloss>{}).empty());
  };
  for (const RunNote& n : state.notes()) {
    if (n.status != RunNote::Status::Changed) continue;
    if (state.digest_unchanged(n)) continue;  // (it gives what it gave)
    weigh(n.digest(), !n.digest().glosses.empty());
    if (n.old) weigh_indexed(n.file->path);
  }
  for (const std::string& path : state.vanished()) weigh_indexed(path);
  return change;
}

Synonyms vault_synonyms(const std::vector<RunNote>& notes) {
  Synonyms synonyms;
  Analyzer analyzer;
  for (const RunNote& n : notes)
    if (n.has_digest())
      if (const NoteDigest page = n.page(); !page.aliases.empty()) add_synonyms(page, analyzer, synonyms);
  return synonyms;
}

void write_metadata(ShardSet& shards, const std::string& vault,
                    const std::vector<std::pair<std::string, std::string>>& entries,
                    const VaultTables& tables) {
  Analyzer analyzer;
  std::optional<std::map<std::string, std::string>> synonyms, glossary, sounds, sound_changes;
  if (tables.synonyms) synonyms = synonym_lines(*tables.synonyms);
  if (tables.glossary) glossary = glossary_lines(*tables.glossary, analyzer);
  if (tables.sounds) sounds = sound_lines(*tables.sounds);
  if (tables.sound_changes) sound_changes = sound_lines(*tables.sound_changes);
  for (std::size_t k = 0; k < shards.size(); ++k) {
    Xapian::WritableDatabase& db = shards.db(k);
    if (synonyms) replace_keys(db, std::string(schema::META_SYNONYM), *synonyms);
    if (glossary) replace_keys(db, std::string(schema::META_GLOSSARY), *glossary);
    if (sounds) replace_keys(db, std::string(schema::META_SOUND), *sounds);
    if (sound_changes) set_keys(db, std::string(schema::META_SOUND), *sound_changes);
    db.set_metadata(std::string(schema::META_VAULT), vault);
    db.set_metadata(std::string(schema::META_SCHEMA_VERSION), std::string(schema::SCHEMA_VERSION));
    for (const auto& [key, value] : entries) db.set_metadata(key, value);
    if (shards.size() > 1)
      db.set_metadata(std::string(schema::META_SHARD), fmt::format("{}/{}", k, shards.size()));
  }
}

}  // namespace sagasu
