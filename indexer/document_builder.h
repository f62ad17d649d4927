// Note + resolved entities → Xapian document, following schema.h.
#pragma once

#include <xapian.h>

#include <string>
#include <vector>

#include "entity_resolver.h"
#include "sagasu/analyzer.h"
#include "sagasu/note.h"

namespace sagasu {

/// A note's facet values, resolved against the whole vault.
struct NoteFacets {
  NoteKind kind = NoteKind::Other;
  std::vector<std::string> venues, years, persons, orgs;
  std::vector<std::string> links;  ///< canonical names of every linked page
};

/// Facets of a note: venue/year from its own file name (source pages) or its
/// citations; persons and organizations it is about or links to.
NoteFacets resolve_facets(const Note& note, const EntityResolver& resolver);

/// The title shown for a note: a source page's real title, else the file name.
std::string display_title(const Note& note);
/// The note's other names, indexed like its title but weighted as body text:
/// a source page's file-name title, the front-matter title, the aliases.
std::vector<std::string> other_names(const Note& note);

/// Builds the Xapian document of one note.
class DocumentBuilder {
 public:
  explicit DocumentBuilder(Analyzer& analyzer) : m_analyzer(analyzer) {}

  /// The signature of what build() would produce: equal signatures, equal documents.
  std::string signature(const Note& note, const NoteFacets& facets) const;
  /// The full document, its SIGNATURE value set to signature().
  Xapian::Document build(const Note& note, const NoteFacets& facets);

 private:
  Analyzer& m_analyzer;
  std::string meta_json(const Note& note, const NoteFacets& facets) const;
};

}  // namespace sagasu
