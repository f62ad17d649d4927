// A vault note as the indexer sees it, and the parser that makes one from an
// Obsidian Markdown file (normal multi-line form or flattened onto one line).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sagasu {

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

/// Does a link target name a file that is not a note (an image, a PDF,
/// audio, video, an Excalidraw drawing), by its ending?
bool is_attachment(std::string_view target);

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

/// Where a note writes a property.
enum class PropertySource { FrontMatter, Table, InlineField };

/// "front matter", "table", "inline field".
std::string_view to_string(PropertySource source);

/// A key and its values as a note writes them: a front-matter key, a row of a
/// property table at the top of the body (`| Authors | Shin, Suyeon;… |`), or
/// an inline field (`venue:: ICRA`). What a key means is the indexer's business.
struct Property {
  std::string key;                  ///< as written
  std::vector<std::string> values;  ///< a list's items; otherwise the one value, as written
  PropertySource source = PropertySource::FrontMatter;

  bool operator==(const Property& o) const {
    return key == o.key && values == o.values && source == o.source;
  }
};

/// Everything the indexer needs from one file.
struct Note {
  std::string path;      ///< vault-relative, '/'-separated
  std::string title;     ///< file name without ".md"
  std::string fm_title;  ///< front matter `title`, or empty
  /// The first block's `# ` heading when it is not the title above: the
  /// title when the front matter has none (a note named by a hash, titled by its heading).
  std::string heading_title;
  std::vector<std::string> aliases;
  std::vector<std::string> tags;  ///< front matter tags and #hashtags, without '#'
  /// The tags the note gives itself: front matter tags, and lines made only of
  /// #hashtags before the first heading. A #tag inside text or a list (a tag
  /// index such as "- #person") is a tag, but says nothing about the note.
  std::vector<std::string> own_tags;
  std::vector<Property> properties;  ///< every property, in the order written
  std::optional<Citation> source;    ///< set when the file name is a citation key
  std::string text;  ///< plain text: markup removed, link display text kept, one line per block
  /// What the file says that the text does not show, one item per line: the
  /// front matter's values (but the title and aliases, which are names), the
  /// addresses of Markdown links and images, the headings links point to,
  /// embedded attachments, HTML comments and code fences' languages. The
  /// note is found by it as grep finds it in the file; it weighs nothing in ranking.
  std::string unshown;
  std::vector<Link> links;
  /// Spans of Note::text shown by Markdown links to other notes of the vault
  /// ([text](other.md); not wikilinks): words that name another note.
  std::vector<std::pair<std::size_t, std::size_t>> link_text;
  std::vector<Citation> citations;  ///< distinct, in order of first appearance
  std::vector<Relation> relations;
  std::vector<std::string> headings;  ///< heading texts, in order (not the title heading)
  std::vector<std::string> warnings;  ///< recoverable problems, e.g. malformed front matter

  /// The values of the properties with this key (case and width folded), in order.
  std::vector<std::string> property(std::string_view key) const;
  /// The targets of links shown under another text ([[target|shown]]), in
  /// order, each once: text the note does not show but is found by.
  std::vector<std::string> hidden_link_targets() const;
  /// The title shown for the note: the front-matter title, else a source
  /// page's title from its file name, else the heading title, else the file name.
  std::string display_title() const;
};

/// A note's title: its file name without .md (the page name links use).
std::string_view note_title(std::string_view path);

/// Obsidian Markdown → Note.
class NoteParser {
 public:
  /// Parses content of the file at vault-relative path. Throws sagasu::Error
  /// naming the file for content that cannot be a note (NUL bytes, invalid UTF-8).
  Note parse(std::string_view path, std::string_view content) const;
};

}  // namespace sagasu
