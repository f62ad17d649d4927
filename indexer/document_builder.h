// Note + its field values → Xapian document, following schema.h.
#pragma once

#include <xapian.h>

#include <string>
#include <unordered_set>
#include <vector>

#include "field_values.h"
#include "sagasu/analyzer.h"
#include "sagasu/note.h"

namespace sagasu {

/// The note's other names, indexed like its title but weighted as body text:
/// a source page's file-name title (another's file name when a heading or
/// the front matter titles it), the front-matter title, the aliases, and
/// the targets of links shown under another text ([[target|shown]]): a word
/// only there is still found.
std::vector<std::string> other_names(const Note& note);

/// The text a note is found by and its snippets come from (the document's
/// data): what it shows, then what its file says unshown (Note::unshown).
std::string searchable_text(const Note& note);

/// Builds the Xapian document of one note.
class DocumentBuilder {
 public:
  explicit DocumentBuilder(Analyzer& analyzer) : m_analyzer(analyzer) {}

  /// The signature of what build() would produce: equal signatures, equal documents.
  std::string signature(const Note& note, const FieldValues& values) const;
  /// The full document: words, substring grams, a filter term for each value
  /// of every filter field, a packed facet slot for every facet; its
  /// SIGNATURE value set to signature().
  Xapian::Document build(const Note& note, const FieldValues& values);

 private:
  Analyzer& m_analyzer;
  std::string meta_json(const Note& note, const FieldValues& values) const;
  /// What add_words leaves for the other parts of the document.
  struct Words {
    std::string unindexed;  ///< the words too long to be terms
    /// The runs of letters and digits of the word terms' foldings (substring.h):
    /// the grams of these runs are not indexed, the word list finds them.
    std::unordered_set<std::string> shown_runs;
  };
  /// Adds the word, title and stem terms.
  Words add_words(Xapian::Document& doc, const Note& note, const std::vector<std::string>& names);
};

}  // namespace sagasu
