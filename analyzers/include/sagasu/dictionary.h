// Equivalents from a real dictionary: JMdict/EDICT and ENAMDICT (Debian's
// edict and enamdict packages, /usr/share/edict, EUC-JP; CC BY-SA, read from
// the system, never copied into the repository). Each Japanese headword
// written in kanji or katakana is paired with the English glosses of its
// first sense and of its computing senses, both ways, and a noun written with
// okurigana (戻り値, 割り当て) with those of its computing senses only;
// ENAMDICT adds persons' names (黒橋 ↔ Kurohashi)
// that are neither English words nor Japanese words. Parsed once into a
// sorted lookup table cached below $XDG_CACHE_HOME or ~/.cache
// (sagasu/dictionary-HASH, for these files and this analyzer) and memory-
// mapped: the indexer makes it, the searcher looks words up in it (and keeps
// only the equivalents whose words the index has, so every bridge can match).
// Without the dictionaries there is none; the vault's glossary still works.
// The same table holds the readings of IPAdic (Debian's mecab-ipadic, CSV
// files in EUC-JP, BSD-style licence) and of EDICT's headwords: a word
// written with kanji and how it is read (取扱い: トリアツカイ), both ways, for
// spelling variants and searches typed as the reading.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sagasu {

namespace generation_file {
class Mapped;
}

class Analyzer;

/// The dictionaries' folder (edict, and enamdict when installed):
/// $SAGASU_EDICT when set ("" turns them off), else /usr/share/edict.
std::string dictionary_folder();
/// IPAdic's folder of CSV files (readings): $SAGASU_IPADIC when set ("" turns
/// it off), else /usr/share/mecab/dic/ipadic.
std::string reading_folder();

/// An equivalent the dictionaries give a word.
struct DictionaryEntry {
  std::string equivalent;  ///< as the dictionary writes it: "fault-tolerance", "耐障害性"
  bool name = false;       ///< a person's name (ENAMDICT)
  /// The headword's first sense's first gloss or a computing sense's, not
  /// another word of its first sense (標準: "standard", not "norm").
  bool main = true;
};

class Dictionary {
 public:
  /// The dictionaries in folder and the readings of IPAdic's files in
  /// readings ("" or absent: none), from the cache; with parse, parsed and
  /// cached first when there is none (else empty).
  explicit Dictionary(const std::string& folder, bool parse = true, const std::string& readings = "");
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
  /// The glosses of a word's other senses than the first (推定: estimation),
  /// not among of(): only a part of a compound bridged word by word weighs
  /// them, where the vault says the whole phrase (状態推定: state estimation).
  std::vector<std::string> other_senses(std::string_view key) const;
  /// The readings of a word written with kanji by its key (Analyzer::key), in katakana.
  std::vector<std::string> readings(std::string_view key) const;
  /// The words written with kanji read as `reading` (kana, either script).
  std::vector<std::string> written(std::string_view reading) const;
  /// The other spellings of a word with two kanji or more, okurigana apart
  /// (取り扱い: 取扱い, 取扱), IPAdic's and the kanji alone.
  std::vector<std::string> spellings(std::string_view word, Analyzer& analyzer) const;
  /// A word with kanji written in hiragana as it is read (時々: ときどき): a
  /// reading of four kana or more, and the other words read so (not spellings
  /// of this one: 時どき is 時々; こうせい: 校正 for 構成).
  struct InKana {
    std::string kana;
    std::vector<std::string> others;
  };
  std::vector<InKana> in_kana(std::string_view word, Analyzer& analyzer) const;
  bool empty() const { return table().empty(); }

 private:
  /// The value and the flag of every line of the table under key.
  std::vector<std::array<std::string, 2>> lines(std::string_view key) const;
  /// The values of the lines under key with this flag.
  std::vector<std::string> flagged(std::string_view key, std::string_view flag) const;
  std::string_view table() const;
  std::unique_ptr<generation_file::Mapped> m_map;
  std::string m_text;  // when the cache cannot be written or mapped
};

}  // namespace sagasu
