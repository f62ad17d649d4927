// Phase 5 of an index run: the index's metadata, written to every shard (a
// searcher reads it from any one of them, as Xapian reads metadata from the
// first database): the META_* values of schema.h and the synonym table.
#pragma once

#include <xapian.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "index_state.h"
#include "shard_set.h"

namespace sagasu {

/// The synonym table as a star per page (schema.h: META_SYNONYM): each key's
/// titles (the pages it is another name of) and, for a title, its aliases.
struct Synonyms {
  std::map<std::string, std::set<std::string>> titles, aliases;
};

/// The synonyms of the vault itself: a page's title and its aliases name one
/// thing (ByteDance = バイトダンス, チェックポイント = checkpoint), as
/// Analyzer::key text; and an alias in the filter of every entity field names the page.
Synonyms vault_synonyms(const std::vector<RunNote>& notes);

/// Which tables derived from every note's digest a run must build again.
/// Each is the union of what each note gives (a page with aliases its
/// synonyms, a note with glosses its equivalents), so one that no note the
/// run adds, rewrites or deletes gave or gives stays as it is.
struct DerivedChange {
  bool synonyms = false, glossary = false;
};
DerivedChange derived_change(const IndexState& state);

/// The equivalents the vault's notes state (glossary.h), each with the notes
/// stating it: the bridge tier's vault glossary (schema.h: META_GLOSSARY).
std::map<Gloss, std::set<std::string>> vault_glossary(const std::vector<RunNote>& notes);

/// The tables derived from the whole vault; each one given is rebuilt whole,
/// so it always matches the notes.
struct VaultTables {
  std::optional<Synonyms> synonyms;
  std::optional<std::map<Gloss, std::set<std::string>>> glossary;      ///< vault_glossary
  std::optional<std::map<std::string, std::set<std::string>>> sounds;  ///< vault_sounds
  /// sound_changes: these keys' entries replace theirs (no words: the key goes), the others stay.
  std::optional<std::map<std::string, std::set<std::string>>> sound_changes;
};

/// The vault's katakana and English words by sound key (sounds.h: プリフィル
/// and prefill under "prfr"), from the word terms of every shard (pending
/// changes included): the bridge tier's sound table (schema.h: META_SOUND).
std::map<std::string, std::set<std::string>> vault_sounds(const std::vector<Xapian::Database>& dbs);

/// What an update changes in the sound table: each sound key of `words`
/// (the words of the documents it put in or took out) with the words that
/// some shard holds now, of the key's entry before and of `words`. The rest
/// of the table cannot have changed: a word comes or goes only with a
/// document holding it. Equals vault_sounds for those keys, at the cost of the change.
std::map<std::string, std::set<std::string>> sound_changes(const std::set<std::string>& words,
                                                           ShardSet& shards);

/// Sets on every shard the vault's path, the schema version, the shard's
/// number (a sharded index) and `entries`; and replaces the tables given.
void write_metadata(ShardSet& shards, const std::string& vault,
                    const std::vector<std::pair<std::string, std::string>>& entries,
                    const VaultTables& tables);

}  // namespace sagasu
