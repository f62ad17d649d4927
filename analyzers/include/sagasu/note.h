// A vault note as the indexer sees it, and the parser that makes one from an
// Obsidian Markdown file (normal multi-line form or flattened onto one line).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sagasu {

/// A word a page uses to say what it is, in order of trust (see Note::kind_words).
struct KindWord {
  std::string word;       ///< as written: "organization", "journalArticle", "book"
  bool declared = false;  ///< stated as the page's kind (a type key, a source file name), not a tag

  bool operator==(const KindWord& o) const { return word == o.word && declared == o.declared; }
};

/// A cited source: the page name `@YYYY__VENUE__Title`.
struct Citation {
  std::string key;        ///< the page name without '@': "2026__MLSys2026__veScale-FSDP - …"
  int year = 0;           ///< 2026
  std::string venue;      ///< normalised venue: "MLSys" (year suffix dropped)
  std::string venue_raw;  ///< as written: "MLSys2026"
  std::string title;      ///< "veScale-FSDP - Flexible and High-Performance FSDP at Scale"

  bool operator==(const Citation& o) const { return key == o.key; }
};

/// Parses `@YYYY__VENUE__Title` (the '@' optional); nullopt if it is not one.
std::optional<Citation> parse_citation(std::string_view page_name);
/// Drops a trailing year from a venue: MLSys2026 → MLSys, SC21 → SC, NSDI'24 → NSDI.
std::string normalize_venue(std::string_view venue);

/// A wikilink: [[target]], [[target|display]], [[target#heading]], ![[embed]].
struct Link {
  std::string target;   ///< page name, heading removed; for citations the '@' is kept
  std::string heading;  ///< after '#', or empty
  std::string display;  ///< after '|', or empty
  bool embed = false;
  std::size_t text_begin = 0;  ///< span of the link's rendering in Note::text
  std::size_t text_end = 0;
};

/// One entry of a labelled list: a linked page or a plain name.
struct RelationItem {
  std::string name;
  bool linked = false;

  bool operator==(const RelationItem& o) const { return name == o.name && linked == o.linked; }
};

/// A labelled list line such as `- 関連研究者: [[A]] / [[B]]`.
struct Relation {
  std::string label;  ///< "関連研究者"
  std::vector<RelationItem> items;

  bool operator==(const Relation& o) const { return label == o.label && items == o.items; }
};

/// Everything the indexer needs from one file.
struct Note {
  std::string path;   ///< vault-relative, '/'-separated
  std::string title;  ///< file name without ".md"
  std::string fm_title;  ///< front matter `title`, or empty
  std::string type;         ///< front matter `type`
  std::string entity_type;  ///< front matter `entity_type`
  std::vector<std::string> aliases;
  std::vector<std::string> tags;  ///< front matter tags and #hashtags, without '#'
  std::vector<std::string> authors;  ///< front matter `author` / `authors` (people)
  std::optional<Citation> source;  ///< set when the file name is a citation key
  std::string text;  ///< plain text: markup removed, link display text kept, one line per block
  std::vector<Link> links;
  std::vector<Citation> citations;  ///< distinct, in order of first appearance
  std::vector<Relation> relations;
  std::vector<std::string> headings;  ///< heading texts, in order (not the title heading)
  std::vector<std::string> warnings;  ///< recoverable problems, e.g. malformed front matter

  /// The words the page uses about its own kind, most trusted first: "source"
  /// for a source file name, its entity_type and type (declared), then its
  /// tags. Which of them are kinds is the kind vocabulary's business (kinds.h).
  std::vector<KindWord> kind_words() const;
  /// The title shown for the note: a source page's real title (its front-matter
  /// title, else the one its file name carries), else the file name.
  std::string display_title() const;
};

/// Obsidian Markdown → Note.
class NoteParser {
 public:
  /// Parses content of the file at vault-relative path. Throws sagasu::Error
  /// naming the file for content that cannot be a note (NUL bytes, invalid UTF-8).
  Note parse(std::string_view path, std::string_view content) const;
};

}  // namespace sagasu
