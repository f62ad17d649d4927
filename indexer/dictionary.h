// Equivalents from a real dictionary: JMdict/EDICT (Debian's edict package,
// /usr/share/edict/edict, EUC-JP; CC BY-SA, read from the system, never
// copied into the repository). Each Japanese headword written in kanji or
// katakana is paired with the English glosses of its first sense and with
// those marked (comp); a pair is kept in the direction whose target occurs in
// the vault (every word of it is a word of the index): 耐障害性 → fault
// tolerance only when the vault says "fault tolerance", fault tolerance →
// 耐障害性 only when it says 耐障害性. The table stays a fraction of the
// dictionary, and every bridge can match. ENAMDICT (the enamdict package,
// optional too) adds persons' names: 黒橋 ↔ Kurohashi. Without the dictionary there is none:
// the vault's own glossary still works.
#pragma once

#include <xapian.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace sagasu {

/// The dictionaries' folder (edict, and enamdict for names when installed):
/// $SAGASU_EDICT when set ("" turns them off), else /usr/share/edict.
std::string dictionary_folder();

/// The dictionary's bridges that can match in the vault: from a word to an
/// equivalent all of whose words occur as word terms of dbs, each pair sorted.
struct DictionaryPairs {
  std::vector<std::pair<std::string, std::string>> to_english;   ///< Japanese → English in the vault
  std::vector<std::pair<std::string, std::string>> to_japanese;  ///< English → Japanese in the vault
  /// The same from ENAMDICT's persons' names: 黒橋 ↔ Kurohashi, 大輔 ↔ Daisuke.
  std::vector<std::pair<std::string, std::string>> names_to_english, names_to_japanese;
  /// The vault's katakana and English words by sound key (sounds.h):
  /// プリフィル and prefill under "prfr".
  std::map<std::string, std::set<std::string>> sounds;
};

/// The bridges for the vault whose words dbs hold: the sound table, and the
/// dictionaries' pairs (none when they are absent or unreadable: a dictionary
/// is optional). The parsed dictionaries are cached below $XDG_CACHE_HOME or
/// ~/.cache (sagasu/dictionary-HASH), so only the first run parses them.
DictionaryPairs dictionary_pairs(const std::vector<Xapian::Database>& dbs);

}  // namespace sagasu
