// The bridge tier's equivalents of a query piece in the other language or
// script: what the vault's notes state (the glossary the indexer keeps,
// schema.h: META_GLOSSARY, which every shard holds and the remote backend
// serves), the dictionaries' equivalents (sagasu/dictionary.h) whose words
// the index has, and the vault's words that sound alike across katakana and
// English (sounds.h: プリフィル ↔ prefill; META_SOUND, served likewise).
// A partial katakana word (プリフィ) bridges through the katakana words it begins;
// a word the vault lacks typed in romaji (sutoragura) through its katakana.
// Japanese as it is spelled and read (IPAdic's readings, in the same
// dictionary table): another spelling of a word, okurigana apart (取り扱い =
// 取扱い = 取扱), a loanword's other kana spellings the vault writes
// (インタフェース = インターフェイス: unicode::katakana_spelling_key), and the
// words a kana or romaji piece is the reading of (けんきゅう, kenkyuu: 研究).
#pragma once

#include <xapian.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sagasu/analyzer.h"
#include "sagasu/dictionary.h"
#include "sagasu/searcher.h"

namespace sagasu {

/// Another spelling of the word itself (取扱い, インターフェイス for インタフェース).
inline bool spelling(const Bridge& b) {
  return b.how == Provenance::Okurigana || b.how == Provenance::Kana;
}
/// A spelling or a reading of the word itself (取扱い, 研究 for けんきゅう), not an equivalent of it.
inline bool same_word(const Bridge& b) {
  return spelling(b) || b.how == Provenance::Reading;
}

class Bridges {
 public:
  /// dictionary: the dictionaries looked words up in (Dictionary::system()).
  Bridges(const Xapian::Database& db, Analyzer& analyzer, const Dictionary& dictionary)
      : m_db(db), m_analyzer(analyzer), m_dictionary(dictionary) {}

  /// The equivalents of a piece whose word-tier words are `words` (typed as
  /// `text`), each once, the vault's glossary first; at most MAX_BRIDGES.
  /// Those the vault does not support are marked loose, a phrase no note
  /// says is left out (mark_unsupported).
  /// (Each piece's looked up once: a search compiles its query twice, strict and loose.)
  std::vector<Bridge> of(const std::string& text, const std::vector<std::string>& words) const;

  /// Do the words, as one name, have an equivalent of their own (stated, or
  /// a katakana word sounding like them), not only word by word?
  bool names(const std::vector<std::string>& words) const;
  /// Is the key (Analyzer::key) a word of the dictionary, not only a name?
  bool in_dictionary(const std::string& key) const;
  /// The equivalents the vault's glossary and the dictionary give a key (Analyzer::key).
  std::vector<Bridge> stated(const std::string& key) const;
  /// Does the dictionary give the English word only as the source of
  /// loanwords other than the katakana word (windows: ウィンドウズ, the
  /// system, not ウインドウ)? Then it is that word, not the plural of the
  /// katakana word's source.
  bool source_of_another(const std::string& english, const std::string& katakana) const;

  static constexpr std::size_t MAX_BRIDGES = 12;

 private:
  /// Adds the vault's words of the other script that sound like word; true
  /// when word is a partial katakana word (completions_of), its completions' sounds added.
  bool add_sounds(const std::string& word, std::vector<Bridge>& out) const;
  /// The katakana words of the vault that a partial katakana word begins
  /// (プリフィ: プリフィル), at most 64; none when it is a word of the vault.
  std::vector<std::string> completions_of(const std::string& word) const;
  void add_spellings(const std::string& word, std::vector<Bridge>& out) const;
  /// The vault's words of a katakana word's unicode::katakana_spelling_key
  /// (インタフェース: インターフェース, インターフェイス), the word apart, most notes first.
  std::vector<std::string> kana_spellings(const std::string& word) const;
  void add_read_as(const std::string& kana, std::vector<Bridge>& out) const;
  /// The word written in hiragana as it is read (時々: ときどき), four kana or
  /// more, where the vault writes no other word read so (こうせい: 構成, 校正).
  void add_in_kana(const std::string& word, std::vector<Bridge>& out) const;
  /// A query piece as the rules of mark_unsupported weigh it, worked out once.
  struct Piece {
    const std::vector<std::string>& words;
    std::string joined;                   ///< the words run together, as a sound is spelled
    bool english = false;                 ///< every word in Latin letters
    std::vector<DictionaryEntry> senses;  ///< the dictionary's equivalents of it
    Xapian::Query query;                  ///< the notes saying it, in any of its spellings
    std::optional<double> counted = {};   ///< how many notes do, once a rule asks
  };
  double notes_of(Piece& piece) const;
  void mark_unsupported(const std::vector<std::string>& words, std::vector<Bridge>& bridges) const;
  /// Marks b loose where the vault does not support it; the notes saying both.
  double weigh(Piece& piece, const std::vector<std::string>& equivalent, Bridge& b) const;
  /// Marks loose a dictionary equivalent that ends a stated one (内包表記 of リスト内包表記).
  static void mark_broader(const std::vector<std::vector<std::string>>& equivalents,
                           std::vector<Bridge>& bridges);
  void mark_lone_glosses(Piece& piece, const std::vector<std::vector<std::string>>& equivalents,
                         std::vector<Bridge>& bridges) const;
  bool vaults_pair(const Piece& piece, const std::vector<std::string>& equivalent, double piece_notes,
                   double equivalent_notes) const;
  /// Does the vault write another English word the katakana side of a loanword pair is a loanword of,
  /// far more than this pair's (ロック: lock, not rock)?
  bool another_source_said(const std::string& joined, const std::vector<std::string>& equivalent, double said,
                           double with) const;
  /// At least as many notes as say the words adjacent (their terms' frequencies), without counting them.
  double at_most(const std::vector<std::string>& words) const;
  /// The notes matching q.
  double in_notes(const Xapian::Query& q) const;
  /// The notes saying the words, adjacent (one word: in a title too); with a
  /// prefix, its terms adjacent (schema::TITLE: in the title).
  Xapian::Query phrase(const std::vector<std::string>& words, std::string_view prefix = {}) const;
  /// A compound or phrase no table names, bridged part by part (composed).
  void add_composed(const std::vector<std::string>& words, std::vector<Bridge>& out) const;
  /// Its parts' equivalents combined, adjacent and in order: at most as many
  /// notes as say each (Bridges::at_most), the phrase; most first.
  std::vector<std::pair<double, std::string>> composed(const std::vector<std::string>& words,
                                                       bool other_senses) const;
  std::vector<std::string> inflected(const std::string& word) const;
  std::vector<Bridge> look_up(const std::string& text, const std::vector<std::string>& words) const;

  const Xapian::Database& m_db;
  Analyzer& m_analyzer;
  const Dictionary& m_dictionary;
  mutable std::map<std::pair<std::string, std::vector<std::string>>, std::vector<Bridge>> m_of;
};

}  // namespace sagasu
