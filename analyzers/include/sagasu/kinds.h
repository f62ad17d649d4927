// What a page is: its kind. Kinds are words of the vault's vocabulary, not a
// fixed list: the built-in kinds below, every kind a vault declares of its
// own (`type: book`, a config file's kinds), and synonyms that map to one
// canonical kind (paper → source). The indexer keeps a vault's vocabulary in
// the index (schema::META_KINDS), so the searcher reads kind: values as the
// indexer wrote them and can say what a synonym means.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace sagasu {

/// A note's kind: a canonical word of the vault's kind vocabulary.
using Kind = std::string;

/// The built-in kinds; facets read PERSON and ORGANIZATION.
namespace kinds {
inline constexpr std::string_view SOURCE = "source";  ///< a paper, article or talk
inline constexpr std::string_view BOOK = "book";
inline constexpr std::string_view PERSON = "person";
inline constexpr std::string_view ORGANIZATION = "organization";
inline constexpr std::string_view PRODUCT = "product";
inline constexpr std::string_view CONCEPT = "concept";
inline constexpr std::string_view OTHER = "other";  ///< what a page is when nothing says
}  // namespace kinds

/// A word a page uses to say what it is.
struct KindWord {
  std::string word;       ///< as written: "organization", "journalArticle", "book"
  bool declared = false;  ///< stated as the page's kind (a type key, a source file name), not a tag

  bool operator==(const KindWord& o) const { return word == o.word && declared == o.declared; }
};

/// Canonical kinds and their synonyms, looked up case and width folded.
class KindVocabulary {
 public:
  /// The built-in kinds and the synonyms common vaults use (paper, article,
  /// journalArticle → source; group, lab, publisher → organization; software,
  /// tool, repository → product; …).
  static KindVocabulary defaults();

  /// Adds a canonical kind (a word that was a synonym becomes a kind of its own).
  void add_kind(std::string_view kind);
  /// Makes word mean kind (added as a kind if it is not one).
  void add_synonym(std::string_view word, std::string_view kind);

  /// The canonical kind a word names (a kind, or a synonym of one); nullopt for an unknown word.
  std::optional<Kind> canonical(std::string_view word) const;
  /// Is word one of the canonical kinds (not a synonym)?
  bool is_kind(std::string_view word) const;

  /// One line per kind ("kind<TAB>synonym,…"), for the index metadata; and back (nullopt if malformed).
  std::string encode() const;
  static std::optional<KindVocabulary> decode(std::string_view text);

  bool operator==(const KindVocabulary& o) const {
    return m_kinds == o.m_kinds && m_synonyms == o.m_synonyms;
  }

 private:
  std::map<std::string, Kind> m_kinds;     // folded → canonical spelling
  std::map<std::string, Kind> m_synonyms;  // folded synonym → canonical kind
};

}  // namespace sagasu
