// The bridge tier's equivalents of a query piece in the other language or
// script: what the vault's notes state (the glossary the indexer keeps,
// schema.h: META_GLOSSARY, which every shard holds and the remote backend
// serves), the dictionaries' pairs that can match in the vault
// (META_DICTIONARY, likewise), and the vault's words that sound alike across
// katakana and English (sounds.h: プリフィル ↔ prefill; META_SOUND, likewise).
// A partial katakana word (プリフィ) bridges through the katakana words it begins.
#pragma once

#include <xapian.h>

#include <string>
#include <vector>

#include "sagasu/searcher.h"

namespace sagasu {

class Bridges {
 public:
  explicit Bridges(const Xapian::Database& db) : m_db(db) {}

  /// The equivalents of a piece whose word-tier words are `words` (typed as
  /// `text`), each once, the vault's glossary first; at most MAX_BRIDGES.
  std::vector<Bridge> of(const std::string& text, const std::vector<std::string>& words) const;

  /// Do the words, as one name, have an equivalent of their own (stated, or
  /// a katakana word sounding like them), not only word by word?
  bool names(const std::vector<std::string>& words) const;
  /// The equivalents the vault's glossary and the dictionary give a key (Analyzer::key).
  std::vector<Bridge> stated(const std::string& key) const;

  static constexpr std::size_t MAX_BRIDGES = 12;

 private:
  void add_sounds(const std::string& word, std::vector<Bridge>& out) const;
  void add_composed(const std::vector<std::string>& words, std::vector<Bridge>& out) const;

  const Xapian::Database& m_db;
};

}  // namespace sagasu
