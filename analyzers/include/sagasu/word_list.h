// The word list: every word term of a database (schema.h's unprefixed,
// case-folded terms) with its substring-tier folding (substring.h: kana too),
// in a file beside the database of a generation. The substring tier uses it
// to settle candidates without reading their text:
//  - a note holding a word that contains the typed string (width and case
//    folded) holds the string where a person accepts it (プログラ in
//    プログラミング, serv in webservers);
//  - a string of letters and digits is only ever found inside one word (ICU
//    never breaks such a run), so a note none of whose words' foldings
//    contain it does not hold it, unless it has words too long to be terms
//    (schema.h, HIDDEN). (Katakana is not settled so: its hiragana variant
//    counts as whole words, which ICU may cut into several.)
// A scan of the mapped list costs about a millisecond per few megabytes,
// whatever the number of hits. The substring tier finds its candidates of
// letters and digits here too: the index holds no grams of such runs where a
// word term shows them (schema.h). Written by the indexer after each commit,
// read by the searcher; a file of another revision (a run killed before
// writing it) is ignored.
//
// File: "SGWL2\0\0\0"  u64 revision (generation_file.h)  then "\n" and one
// line per word, in the database's term order: the word, and when its
// folding differs, a tab and the folding ("ぷろぐらむ\tプログラム").
#pragma once

#include <xapian.h>

#include <cstddef>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sagasu/generation_file.h"
#include "sagasu/schema.h"

namespace sagasu {

/// Calls f with every word term (schema::is_word_term) of a sorted term
/// list, in term order: the prefixed terms (capitals) are one range, skipped at once.
template <class F>
void for_each_word_term(Xapian::TermIterator t, const Xapian::TermIterator& end, F f) {
  while (t != end) {
    const std::string term = *t;
    if (!schema::is_word_term(term)) {
      t.skip_to(std::string(schema::WORD_TERMS_AFTER_PREFIXES));
      continue;
    }
    f(term);
    ++t;
  }
}

/// Every word term of db, in term order: the terms of each first byte but
/// a capital. A remote database sends a term list whole, so asking for
/// every term and skipping the prefixed ones took seconds over two shards.
template <class F>
void for_each_word_term(const Xapian::Database& db, F f) {
  for (int byte = 0; byte <= 0xFF; ++byte) {
    const std::string first(1, static_cast<char>(byte));
    if (!schema::is_word_term(first)) continue;
    for (auto t = db.allterms_begin(first); t != db.allterms_end(first); ++t) f(*t);
  }
}

/// Every word term of a document, in term order.
template <class F>
void for_each_word_term(const Xapian::Document& doc, F f) {
  for_each_word_term(doc.termlist_begin(), doc.termlist_end(), f);
}

/// The file name of the word list in a generation folder.
inline constexpr std::string_view WORD_LIST_FILE = "sagasu-words";

class WordList {
 public:
  /// Writes the word list of db into folder (atomically) unless the file
  /// there describes db's revision already. Throws Error naming the file.
  static void write(const Xapian::Database& db, const std::string& folder);
  /// Brings the list in folder from revision `before` of db to its revision,
  /// where only the words in `touched` (those of the documents written or
  /// taken out) may have come or gone: the file write() makes, at the cost of
  /// the change. Writes it whole when folder has no list of revision `before`.
  static void update(const Xapian::Database& db, const std::string& folder, Xapian::rev before,
                     const std::set<std::string>& touched);
  /// The list in folder when it describes exactly this revision of db; nullptr otherwise.
  static std::shared_ptr<const WordList> open(const std::string& folder, const Xapian::Database& db);
  /// The list write() would make, built in memory from db's terms (several
  /// shards, a remote one, or a folder without a current list).
  static std::shared_ptr<const WordList> of(const Xapian::Database& db);
  /// The list of several shards' lists, as of() gives for the shards as one
  /// database (each word once, in term order), without reading their terms.
  static std::shared_ptr<const WordList> merged(const std::vector<std::shared_ptr<const WordList>>& lists);

  /// What a needle is compared with: the word itself, or its folding.
  enum class Side { Word, Folding };
  /// The words whose side contains needle (which must hold no tab or line
  /// break), at most max of them, in list order; with foldings, each word's
  /// folding too, in the same order.
  std::vector<std::string> containing(std::string_view needle, Side side, std::size_t max,
                                      std::vector<std::string>* foldings = nullptr) const;

 private:
  WordList() = default;
  std::unique_ptr<generation_file::Mapped> m_map;  ///< the file, or
  std::string m_built;                             ///< the lines built by of()
  std::string_view m_lines;                        ///< "\n" and one line per word
};

}  // namespace sagasu
