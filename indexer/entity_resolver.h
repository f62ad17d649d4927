// Entity resolution over a whole vault: which page a link means, and whether
// that page is a person, an organization, a product, ...
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "note_metadata.h"
#include "sagasu/kinds.h"
#include "sagasu/note.h"
#include "sagasu/stored_note.h"

namespace sagasu {

class EntityRows;

/// How an entity's kind was decided, in order of trust: what the user says
/// (override file, config name lists), what its page declares (type, tags, a
/// source file name), its own authors with a venue or year, the labels of the
/// lists naming it, its page's layout, its page's defining first sentence,
/// the words around links to it in every note, its name, the lists it stands
/// in with names of one kind; a page nothing tells about is "other".
enum class KindEvidence {
  Override,
  OwnPage,
  Bibliographic,
  ListLabel,
  PageStructure,
  FirstSentence,
  LinkContext,
  Heuristic,
  ListMates,
  Page,
  None
};

std::string_view to_string(KindEvidence e);

/// The kind a relation label implies (関連研究者 → person, 協力機関 → organization), if any.
std::optional<Kind> kind_of_label(std::string_view label);

/// Every name a note mentions as an entity, as written, in order: its links
/// (not embeds, not citations), the names of lists whose label says what they
/// are (linked ones of any list), the people and organizations of its
/// metadata (authors, affiliations). Repeats are kept.
std::vector<std::string> mentioned_names(const Note& note, const NoteMetadata& meta);

/// The page name a link target gives in the path form Obsidian writes:
/// "folder/Page" → "Page", "Page.md" → "Page", "Page^block" → "Page", "./Page" → "Page".
std::string link_page_name(std::string_view target);

/// The digest of a parsed note and its metadata.
NoteDigest make_digest(const Note& note, const NoteMetadata& meta);

/// A work's own venues and years: what a page linking to it takes.
struct WorkFacts {
  std::vector<std::string> venues, years;
  bool operator==(const WorkFacts& o) const { return venues == o.venues && years == o.years; }
};

/// The venues and years of every page that is a work, by title: read where
/// asked from a stored resolution's encoding (a large vault's tens of
/// thousands of works are not decoded to load it).
class WorkTable {
 public:
  /// A work's facts, or nullopt when the title is not a work's.
  std::optional<WorkFacts> find(std::string_view title) const;
  /// Every work in title order, with its facts encoded (one encoding for equal facts).
  const std::vector<std::pair<std::string_view, std::string_view>>& entries() const { return m_works; }
  /// The encoding of a work's facts, as entries() gives them.
  static std::string encode(const WorkFacts& facts);
  /// Reads `count` works (a title, then its encoded facts) from the front of in,
  /// keeping views of their bytes (which must outlive the table);
  /// false if malformed or not in title order.
  bool read(std::string_view& in, std::size_t count);

 private:
  std::vector<std::pair<std::string_view, std::string_view>> m_works;  // title → encoded facts, sorted
};

/// Is a page of this kind a work (a source or a book, or what the default
/// vocabulary calls one: a vault's own kind "paper"), whose venues and years are its own?
bool is_work(std::string_view kind);

/// Collects every note's digest (pass 1), then resolves every name the vault
/// uses in one pass (finish()); or reads a resolution stored before.
class EntityResolver {
 public:
  /// Resolves kinds with this vocabulary (the vault's own type values are added to it in finish()).
  explicit EntityResolver(KindVocabulary vocabulary = KindVocabulary::defaults())
      : m_vocabulary(std::move(vocabulary)) {}

  /// Pass 1: one call per note of the vault, in path order. A digest passed
  /// by reference is not copied: it must outlive finish().
  void add(const NoteDigest& digest);
  void add(NoteDigest&& digest);
  /// The same for a note's DIGEST value as stored (read in place: its bytes
  /// must outlive finish()); a value that does not read is an empty digest.
  void add_encoded(std::string_view digest);
  /// Rows a run stored (rows()), before any note is added: add_stored()
  /// then adds the notes that did not change since from them, without their
  /// digests. False (nothing read) if they do not read.
  bool read_rows(std::shared_ptr<const std::string_view> bytes);
  /// The notes of the rows read, by path, in the order they were stored.
  std::size_t stored_notes() const;
  std::string_view stored_path(std::size_t i) const;
  /// Pass 1 for the i-th note of the rows read.
  void add_stored(std::size_t i);
  /// After finish(), until release_rows(): pass 1's rows with each note's
  /// path (paths[i] for the i-th note added), for read_rows() of a later run,
  /// given to `out` in pieces (none without rows).
  void rows(const std::vector<std::string_view>& paths,
            const std::function<void(std::string_view)>& out) const;
  /// After finish(), until release_rows(): each name the i-th note added
  /// mentions, in order: as spelled, its canonical name, and whether that has a kind.
  struct Mention {
    std::string_view spelling, canonical;
    bool kind = false;
  };
  void mentions(std::size_t note, std::vector<Mention>& out) const;
  void release_rows();
  /// A line of the override file: name → kind (wins over everything else).
  void add_override(std::string_view name, std::string_view kind);
  /// A name of the config's lists: its kind (as an override) and its other
  /// spellings, which resolve to it unless a page has that name.
  void add_name(std::string_view name, std::string_view kind, const std::vector<std::string>& others);
  /// Reads `name<TAB>kind` lines (# comments); returns problems as "line N: reason".
  std::vector<std::string> load_overrides(std::string_view tsv);
  /// Ends pass 1: adds the kinds pages declare that the vocabulary does not
  /// know (`type: journalArticle` when nothing maps it) as kinds of their own,
  /// then computes every known name's kind.
  void finish();
  /// The kind vocabulary, with the vault's own kinds after finish().
  const KindVocabulary& vocabulary() const { return m_vocabulary; }

  /// The canonical name of a spelling the vault uses (after finish() or
  /// deserialize()): the page it resolves to by title or alias (case and
  /// width folded), else the name as the vault first spells it. Any other
  /// spelling is its own canonical name.
  std::string canonical(std::string_view name) const;
  /// Kind of a canonical name, or nullopt when nothing tells it.
  std::optional<Kind> kind(std::string_view canonical_name) const;
  /// How kind() was decided.
  KindEvidence evidence(std::string_view canonical_name) const;
  /// What the evidence was: the kind word a page declares ("#person"), the
  /// word of its first sentence ("企業"), the words around links ("（訳） in 2 notes").
  std::string evidence_detail(std::string_view canonical_name) const;
  /// The venues and years of a page that is a work (kind source or book); nullopt otherwise.
  std::optional<WorkFacts> work(std::string_view canonical_name) const;
  /// Alias keys claimed by more than one page: key → pages.
  const std::map<std::string, std::set<std::string>>& ambiguous() const { return m_ambiguous; }
  /// Canonical names (in either resolution) whose canonical name, kind or
  /// evidence differ between two resolutions of a vault (before and after a
  /// change): of every spelling both resolutions resolved (so other may be
  /// a deserialized one), and of every name either knows the kind of.
  std::set<std::string> changed_names(const EntityResolver& other) const;

  /// The resolution of every name (after finish()), to keep in the index; and
  /// a resolver restored from it, which answers canonical() and kind() for
  /// the same names without the notes (nullopt if malformed).
  std::string serialize() const;
  /// The encoding serialize() returns, without a copy: a resolution keeps the
  /// one it was read from or made (after finish(), deserialize(), an extension); "" before.
  std::string_view stored_encoding() const { return m_stored ? *m_stored : std::string_view(); }
  static std::optional<EntityResolver> deserialize(std::string data,
                                                   KindVocabulary vocabulary = KindVocabulary::defaults());
  /// The same from bytes another owner keeps (a mapped file): the pointer keeps them.
  static std::optional<EntityResolver> deserialize(std::shared_ptr<const std::string_view> data,
                                                   KindVocabulary vocabulary = KindVocabulary::defaults());

 private:
  struct Info {
    std::optional<Kind> kind;
    KindEvidence evidence = KindEvidence::None;
    std::string detail;
  };
  KindVocabulary m_vocabulary;
  std::deque<NoteDigest> m_owned;  // the digests given to keep, until finish()
  // Pass 1's notes as rows of ids into one table of the strings they use
  // (entity_rows.h), which finish() resolves with each string hashed once.
  std::shared_ptr<EntityRows> m_rows;
  std::vector<std::uint32_t> m_canonical;  // after finish(): each string id's canonical name's id
  std::vector<bool> m_kinded;              // ... whether a string id is a name of known kind
  std::map<std::string, std::set<std::string>> m_ambiguous;
  std::map<std::string, Kind> m_overrides;          // raw name → kind
  std::map<std::string, std::string> m_name_lists;  // folded other spelling → listed name
  // The resolution after finish() or deserialize(): its encoding (serialize())
  // and, in it, the spellings and the kinds as sorted views, looked up by
  // binary search: a stored resolution is read without building a map.
  struct StoredKind {
    std::string_view name, kind, detail;
    KindEvidence evidence = KindEvidence::None;
  };
  std::shared_ptr<const std::string_view> m_stored;  // (shared: moving a resolver keeps the views valid)
  std::vector<std::pair<std::string_view, std::string_view>> m_spellings;  // spelling → canonical
  std::vector<StoredKind> m_kinds;                                         // canonical → kind
  WorkTable m_works;  // page title → its venues and years (works only)

  EntityRows& rows_to_add();
  struct Pass;  // finish()'s steps (entity_resolver.cc)
  /// An encoding: spellings, kinds and works (encoded facts), each sorted by name.
  static std::string encode(const std::vector<std::pair<std::string_view, std::string_view>>& spellings,
                            const std::vector<StoredKind>& kinds,
                            const std::vector<std::pair<std::string_view, std::string_view>>& works);
  /// Reads an encoding into m_stored, m_spellings, m_kinds and m_works; false if malformed.
  bool load(std::shared_ptr<const std::string_view> stored);
  const std::string_view* stored_canonical(std::string_view spelling) const;
  const StoredKind* stored_kind(std::string_view canonical_name) const;
  /// The kind a name's words suggest ("… University", "…大学", "…社"), and
  /// the word; of the name folded (fold_name).
  static std::optional<std::pair<Kind, std::string>> heuristic(std::string_view folded);
  /// The kind the words around a name's links give (the kind most of them
  /// give), and the detail: its commonest marker and in how many notes.
  /// folded() is the name folded (asked only when the words say "person").
  static std::optional<std::pair<Kind, std::string>> link_verdict(
      const std::map<Kind, std::map<std::string, int>>& by_kind, const std::function<std::string()>& folded);
};

}  // namespace sagasu
