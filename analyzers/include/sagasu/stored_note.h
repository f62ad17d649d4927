// What a Sagasu document stores about its note besides its terms: the META,
// STATE and DIGEST values of schema.h, encoded and decoded here and nowhere
// else (indexer, searcher, the evaluation and the dump tool all come here).
#pragma once

#include <xapian.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "sagasu/kinds.h"
#include "sagasu/note.h"
#include "sagasu/snippet.h"

namespace sagasu {

/// The META value: what a hit shows of its note.
struct NoteMeta {
  std::string path;   ///< vault-relative
  std::string title;  ///< the title shown
  std::string kind;   ///< "source", "person", …
  /// What else the note is found by besides its title and text: its aliases,
  /// the title its file name carries, the targets of links shown under another text.
  std::vector<std::string> names;
  std::vector<CitationSpan> citations;  ///< where the stored text cites a source

  std::string encode() const;
  /// nullopt when the value is not a META object.
  static std::optional<NoteMeta> decode(std::string_view value);
  /// The META of a document; throws Error naming the document when it is unreadable.
  static NoteMeta of(const Xapian::Document& doc);
};

/// The STATE value: the file as it was when the note was last indexed.
struct FileState {
  std::string path;  ///< vault-relative
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::string hash;  ///< content hash (hex)

  std::string encode() const;
  static std::optional<FileState> decode(std::string_view value);
  /// The vault path of an encoded state, without decoding the rest.
  static std::string_view path_of(std::string_view value);
};

/// A kind the words around a link give the name: 「[[久保田裕之]]（監訳）」 → person.
struct KindHint {
  std::string name;  ///< the link's target, as written
  Kind kind;
  std::string marker;  ///< the words that say so: "（監訳）", "所属"

  bool operator==(const KindHint& o) const { return name == o.name && kind == o.kind && marker == o.marker; }
};

/// Where an equivalent of a name comes from (a Gloss, the searcher's Bridge).
/// The first three, and Definition, are stated by the vault's notes (indexer/glossary.h).
enum class Provenance : std::uint8_t {
  Gloss,         ///< X(Y): 強化学習 (Reinforcement Learning)
  Abbreviation,  ///< Silent Data Corruption (SDC)
  Link,          ///< [[Xin Liu|劉鑫]]
  Dictionary,    ///< JMdict/EDICT (sagasu/dictionary.h)
  Name,          ///< EDICT's entry of a name
  Sound,         ///< a katakana word and an English word of the vault that sound alike
  Words,         ///< a compound or phrase bridged word by word, adjacent
  Romaji,        ///< a word typed in romaji, as katakana (sutoragura: ストラグラー)
  Reading,  ///< the words a kana piece is the reading of (けんきゅう: 研究), or a word's in hiragana (時々:
            ///< ときどき)
  Okurigana,   ///< another spelling of the word (取り扱い: 取扱い)
  Definition,  ///< 人間のフィードバックによる強化学習（RLHF）: RLHF is a kind of 強化学習, one way only
  Kana,        ///< another kana spelling of a loanword (インタフェース: インターフェイス)
};
/// "gloss", "abbreviation", "link", "dictionary", "name", "sound", "words",
/// "romaji", "reading", "okurigana", "definition", "kana": as stored and shown.
const char* to_string(Provenance how);
/// The provenance a name stands for; nullopt for a name this version does not know.
std::optional<Provenance> provenance_of(std::string_view name);
/// Stated by the vault's notes to be one thing: a gloss, an abbreviation, a link.
inline bool is_stated(Provenance how) {
  return how == Provenance::Gloss || how == Provenance::Abbreviation || how == Provenance::Link;
}
/// Learned from the vault's notes (a Gloss): stated to be one thing, or a definition.
inline bool is_learned(Provenance how) {
  return is_stated(how) || how == Provenance::Definition;
}

/// Two names a note says are one thing (indexer/glossary.h): a Japanese term
/// and its English ("強化学習" = "reinforcement learning"), or an abbreviation
/// and its words ("SDC" = "Silent Data Corruption"); or an acronym the note
/// defines as a kind of a term ("強化学習" ⊃ "RLHF").
struct Gloss {
  std::string a, b;  ///< as written: gloss, link: the Japanese, the Latin; abbreviation: it, its
                     ///< words; definition: the term, the acronym
  Provenance how = Provenance::Gloss;  ///< Gloss, Abbreviation, Link or Definition

  bool operator==(const Gloss& o) const { return a == o.a && b == o.b && how == o.how; }
  bool operator<(const Gloss& o) const { return std::tie(a, b, how) < std::tie(o.a, o.b, o.how); }
};

class DigestFields;

/// The DIGEST value: what entity resolution needs from one note, so an
/// unchanged note takes part in resolution without being read again.
struct NoteDigest {
  std::string title;          ///< file name without .md
  std::string display_title;  ///< shown title (a source page's real title)
  bool source = false;        ///< a source page (@YYYY__VENUE__Title)
  std::vector<std::string> aliases;
  std::vector<KindWord> kind_words;  ///< what the page says it is (Note::kind_words), mapped at resolution
  std::optional<Kind> structure;     ///< the kind its layout implies (親組織 list, concept headings)
  std::vector<std::pair<std::string, Kind>> labelled;  ///< names under kind labels, and authors (persons)
  std::vector<std::string> names;                      ///< every name it links, lists or credits, as written
  /// The note's own venues and years (its metadata, path or file name): a page
  /// that links to this one takes them when this one is a work (source, book).
  std::vector<std::string> venues, years;
  std::string text_year;       ///< the year its opening lines give: its year if it is a work and has no other
  bool bibliographic = false;  ///< it names its own authors, and its own venue or year
  std::optional<Kind> defined;  ///< the kind its first sentence defines it as (「…の企業。」)
  std::string defined_by;       ///< the word that says so ("企業")
  std::vector<KindHint> hints;  ///< what the words around its links say
  std::vector<std::vector<std::string>> lists;  ///< names it links as one list (list-mates share a kind)
  std::vector<Gloss> glosses;  ///< the equivalents it states (the vault's glossary), each once

  bool operator==(const NoteDigest& o) const;
  std::string encode() const;
  static std::optional<NoteDigest> decode(std::string_view value);
  /// Reads a digest of this version into `to`, field by field (DigestFields);
  /// false when the value is malformed (what was told before stands).
  static bool read(std::string_view value, DigestFields& to);
  /// Tells this digest's fields to `to`, as read() tells a stored one's.
  void tell(DigestFields& to) const;
  /// The page's fields only (title, display title, source, kind words,
  /// structure, aliases), the rest left empty: read without the rest.
  static std::optional<NoteDigest> decode_page(std::string_view value);
  /// The glosses only, the other fields skipped.
  static std::optional<std::vector<Gloss>> decode_glosses(std::string_view value);
  /// Is value a digest of this version (without decoding it)?
  static bool current(std::string_view value);
  /// This version's mark (what current() looks for).
  static std::string_view version();
};

/// What NoteDigest::read tells of a DIGEST value, field by field in the order
/// encode() writes them, every string a view into the value's bytes (the
/// entity pass reads every note's digest this way, without copying one).
class DigestFields {
 public:
  virtual ~DigestFields() = default;
  virtual void title(std::string_view) {}
  virtual void display_title(std::string_view) {}
  virtual void source(bool) {}
  virtual void kind_word(std::string_view /*word*/, bool /*declared*/) {}
  virtual void structure(std::string_view /*kind, "" for none*/) {}
  virtual void alias(std::string_view) {}
  /// False: the page's fields are all this reader wants (read stops there).
  virtual bool beyond_page() const { return true; }
  virtual void labelled(std::string_view /*name*/, std::string_view /*kind*/) {}
  virtual void name(std::string_view) {}
  virtual void venue(std::string_view) {}
  virtual void year(std::string_view) {}
  virtual void text_year(std::string_view) {}
  virtual void bibliographic(bool) {}
  virtual void defined(std::string_view /*kind, "" for none*/, std::string_view /*by*/) {}
  virtual void hint(std::string_view /*name*/, std::string_view /*kind*/, std::string_view /*marker*/) {}
  /// A new list of names (list mates), whose names member() gives.
  virtual void list() {}
  virtual void member(std::string_view) {}
  virtual void gloss(std::string_view /*a*/, std::string_view /*b*/, Provenance /*how*/) {}
};

/// The COVERAGE value: where a note's facet values came from, and the property
/// keys of the note that no facet reads (indexer --report facets counts them).
struct NoteCoverage {
  std::map<std::string, std::set<std::string>> sources;  ///< facet → "front matter", "table", "links", …
  std::vector<std::string> unmapped;                     ///< "table: Session", "front matter: created"

  bool operator==(const NoteCoverage& o) const { return sources == o.sources && unmapped == o.unmapped; }
  std::string encode() const;
  static std::optional<NoteCoverage> decode(std::string_view value);
};

/// The text a document can be matched against: the stored plain text, its title and other names.
struct NoteText {
  std::string body;   ///< the document data
  std::string names;  ///< the title and NoteMeta::names, one per line
  static NoteText of(const Xapian::Document& doc);
};

/// Length-prefixed fields (a varint length, then the bytes): the encoding of
/// DIGEST, also used for the entity resolution kept in the index metadata.
void put_field(std::string& out, std::string_view field);
/// Reads one field written by put_field and advances in; false when malformed.
bool get_field(std::string_view& in, std::string& field);
/// The same, the field a view into in's bytes.
bool get_field(std::string_view& in, std::string_view& field);

}  // namespace sagasu
