// Equivalents from a real dictionary: JMdict/EDICT and ENAMDICT (Debian's
// edict and enamdict packages, /usr/share/edict, EUC-JP; CC BY-SA, read from
// the system, never copied into the repository). Each Japanese headword
// written in kanji or katakana is paired with the English glosses of its
// first sense and of its computing senses, both ways; ENAMDICT adds persons' names (黒橋 ↔ Kurohashi)
// that are neither English words nor Japanese words. Parsed once into a
// sorted lookup table cached below $XDG_CACHE_HOME or ~/.cache
// (sagasu/dictionary-HASH, for these files and this analyzer) and memory-
// mapped: the indexer makes it, the searcher looks words up in it (and keeps
// only the equivalents whose words the index has, so every bridge can match).
// Without the dictionaries there is none; the vault's glossary still works.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sagasu {

/// The dictionaries' folder (edict, and enamdict when installed):
/// $SAGASU_EDICT when set ("" turns them off), else /usr/share/edict.
std::string dictionary_folder();

/// An equivalent the dictionaries give a word.
struct DictionaryEntry {
  std::string equivalent;  ///< as the dictionary writes it: "fault-tolerance", "耐障害性"
  bool name = false;       ///< a person's name (ENAMDICT)
};

class Dictionary {
 public:
  /// The dictionaries in folder ("" or absent: an empty one), from the
  /// cache; with parse, parsed and cached first when there is none (else empty).
  explicit Dictionary(const std::string& folder, bool parse = true);
  ~Dictionary();
  Dictionary(const Dictionary&) = delete;
  Dictionary& operator=(const Dictionary&) = delete;
  /// The dictionaries of dictionary_folder() as the indexer cached them,
  /// mapped once per process (a search never spends seconds parsing them).
  static const Dictionary& system();
  /// Makes sure the cache of dictionary_folder()'s dictionaries exists (the
  /// indexer's part). Returns what keeps them from being used when they are
  /// there but cannot be ("/usr/share/edict/edict: cannot be read: Permission
  /// denied"); "" when they can, or when there are none (they are optional).
  static std::string prepare();

  /// The equivalents of a word or name by its key (Analyzer::key), in table order.
  std::vector<DictionaryEntry> of(std::string_view key) const;
  bool empty() const { return table().empty(); }

 private:
  std::string_view table() const;
  void* m_map = nullptr;
  std::size_t m_size = 0;
  std::string m_text;  // when the cache cannot be written or mapped
};

}  // namespace sagasu
