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
#include <unordered_map>
#include <utility>
#include <vector>

#include "note_metadata.h"
#include "sagasu/kinds.h"
#include "sagasu/note.h"
#include "sagasu/stored_note.h"

namespace sagasu {

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
/// asked from a stored resolution's encoding (a large vault's tens of thousands
/// of works are not decoded to load it, nor copied to extend it), with the
/// works set or erased since laid over them.
class WorkTable {
 public:
  /// A work's facts, or nullopt when the title is not a work's.
  std::optional<WorkFacts> find(std::string_view title) const;
  bool contains(std::string_view title) const;
  void set(std::string_view title, const WorkFacts& facts);
  void erase(std::string_view title);
  /// Every work in title order, with its facts encoded (one encoding for equal facts).
  std::vector<std::pair<std::string_view, std::string_view>> entries() const;
  /// The encoding of a work's facts, as entries() gives them.
  static std::string encode(const WorkFacts& facts);
  /// Reads `count` works (a title, then its encoded facts) from the front of in,
  /// keeping views of their bytes (which must outlive the table and its copies);
  /// false if malformed or not in title order.
  bool read(std::string_view& in, std::size_t count);

 private:
  // The works read (title → encoded facts, sorted; shared by copies), and those set or erased since.
  std::shared_ptr<const std::vector<std::pair<std::string_view, std::string_view>>> m_read;
  std::map<std::string, std::optional<std::string>, std::less<>> m_edits;  // nullopt: erased
  const std::string_view* read_facts(std::string_view title) const;
};

/// Is a page of this kind a work (a source or a book, or what the default
/// vocabulary calls one: a vault's own kind "paper"), whose venues and years are its own?
bool is_work(std::string_view kind);

/// Collects every page's kind and aliases (pass 1), then resolves names.
class EntityResolver {
 public:
  /// Resolves kinds with this vocabulary (the vault's own type values are added to it in finish()).
  explicit EntityResolver(KindVocabulary vocabulary = KindVocabulary::defaults())
      : m_vocabulary(std::move(vocabulary)) {}

  /// Pass 1: one call per note of the vault, in path order. A digest passed
  /// by reference is not copied: it must outlive finish().
  void add(const NoteDigest& digest);
  void add(NoteDigest&& digest);
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

  /// The canonical name of a link target or plain name: the page it resolves
  /// to by title or alias (case and width folded), else the name itself as
  /// first spelled in the vault.
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

  /// Does this resolution (after finish() or deserialize()) stay exactly what
  /// resolving the vault again would give, when one note's digest changes
  /// from `before` to `after` and every other note, the override file and the
  /// config stay as they were (is_page: is there a note of this title)? True
  /// only for a change that provably moves no name: the note's page fields,
  /// aliases and glosses the same; no name it mentioned given up (it may have
  /// been the vault's last mention) but a page's title; every name known; the names
  /// that are no page's the same, each first spelled as it was (first spellings);
  /// lists added or taken away of pages only (pages get no list mates); list
  /// labels and link words added or taken away only for names whose own
  /// page's declaration or the override file decides their kind, or list
  /// labels added for the kind a name's list labels give it already.
  bool keeps(const NoteDigest& before, const NoteDigest& after,
             const std::function<bool(std::string_view)>& is_page) const;

  /// Does the resolution stay the same wherever in the vault's order this
  /// note stands (a note moved to another folder, its digest the same)?
  /// Resolving the vault takes a few things from the first note in path
  /// order: a name no page has is spelled as it is first spelled, the last of
  /// two titles folding alike takes their key, the first list that gives a
  /// name a kind by its mates sets it. So: every name the note spells is a
  /// page's or the one spelling of its name, no other page's title resolves
  /// to the note's page (nor it to another), and no name of its lists has its
  /// kind from its list mates. (Aliases two pages give: the caller's findings tell.)
  bool moves_freely(const NoteDigest& d, const std::function<bool(std::string_view)>& is_page) const;

  /// The resolution resolving the vault again gives when the page `page`
  /// is renamed to `title` and every note naming it names it by its new
  /// title instead (as Obsidian renames a note and rewrites the links to it;
  /// the caller checks the notes, relinked()): the page and its kind, facts
  /// and lists under the new title, the list mates it named naming it by
  /// that. Only when its title is its one spelling (no variant, path or
  /// alias names it; it has no alias), the new title folds like nothing the
  /// vault knows, no heuristic on the names tells them apart where the
  /// page's kind rests on one, and both are plain names (no source page, no
  /// attachment). (Its place in the vault's order: moves_freely(); the old
  /// title's key given by nothing else: the caller's.) nullopt otherwise.
  std::optional<EntityResolver> renamed(const NoteDigest& page, const std::string& title) const;
  /// A note's digest as it reads once the page `from` is renamed `to` and the
  /// note's links to it rewritten: each name, label, link word and list
  /// member spelled `from` spelled `to` (its glosses as they were).
  static NoteDigest relinked(NoteDigest d, const std::string& from, const std::string& to);
  /// A note as it reads mentioning nothing and glossing nothing (what a new note is weighed
  /// from, and a deleted one as: extended()).
  static NoteDigest unwritten(const NoteDigest& d);
  /// Does a note of a page's title say nothing of the page: no kind word, layout, defining
  /// sentence, authors with a venue or year, alias, shown title of its own; the page no work
  /// (whose facts the last of its notes in path order gives) and no other page's title folding
  /// like its own (the last of them takes their key)? Then a second note of a title, new or
  /// deleted, moves nothing of the page: it is weighed as that page mentioning nothing, then as it
  /// is (extended()), or the other way for a deletion.
  bool silent(const NoteDigest& d, const std::function<bool(std::string_view)>& is_page) const;
  /// Do two digests of a note say the same of its page: title, shown title,
  /// aliases, kind words, structure, first sentence, facts as a work (its
  /// mentions and glosses aside)? Then an edit of one of two notes of a title
  /// (one page, whose kind and facts both give) moves nothing of the page.
  static bool same_page(const NoteDigest& a, const NoteDigest& b);

  /// The resolution resolving the vault again gives, when one note's digest
  /// changes from `before` to `after` by what keeps() allows and:
  /// - names no note had (no spelling of the vault, no page or alias folds
  ///   like them, no path names a page with them): each is its own, spelled
  ///   as the note first spells it, of the kind its list labels, the words
  ///   around its links, its own words and its lists give;
  /// - names no page has that the vault knows, mentioned or given up, when
  ///   no first spelling can change and nothing that decides their kind does
  ///   (a name given up by its last note goes);
  /// - the note's own kind or facts as a work, when its own words decide them
  ///   (page_change());
  /// - more aliases of the note's page, when nothing the vault knows folds
  ///   like them (and the note does not name the page by them);
  /// - fewer aliases of the note's page, when no note names the page by one
  ///   (no spelling resolving to it folds like one, in the path form either);
  ///   `gives_key` says whether anything else gives such an alias's folded
  ///   key: another page's title or alias, a name of the config's lists (the
  ///   key stays known) — without it, an alias given up is refused;
  /// - a new note (before null): a new page, when its title is a name no note
  ///   had, and it has no alias and no kind word the vocabulary lacks, and
  ///   does not name itself; its kind is what it says of itself;
  /// - other glosses (which name nothing: the caller builds the glossary again).
  /// nullopt for any other change. `what`: what changed besides the resolution.
  struct Extension {
    /// The names no page has that the note now mentions (new ones, and known
    /// ones it first spells as the vault first spells them, with no list
    /// label, link word or list that could move their kind), and those it no
    /// longer mentions.
    std::vector<std::string> added, dropped;
    bool page = false;     ///< the note's own kind or facts as a work were decided anew
    bool aliases = false;  ///< the note's page has more aliases (the synonym table grows)
    bool glosses = false;  ///< the note states other equivalents (the glossary is built again)
    bool aliases_given_up = false;  ///< the note's page gave up aliases (the synonym table is built again)
    std::string orphan;    ///< orphaned(): the name the deleted page's name became
    std::string adopted;   ///< adopted(): the name no page had that the new page took
    std::vector<std::string>
        rekinded;  ///< names whose kinds were decided again (a name no page has may have none)
    /// The folded keys of the aliases the note's page gave up that it no longer gives.
    std::vector<std::string> alias_keys_gone;
  };
  /// The notes naming a name, by any spelling, as the resolution knows them, in the vault's
  /// order (for extended(): the note changed among them, as it is now; nullopt: not known).
  using NamingOf = std::function<std::optional<std::vector<const NoteDigest*>>(std::string_view)>;
  /// A page's digest as the resolution knows it (nullptr: not known, or two notes of its title).
  using PageOf = std::function<const NoteDigest*(std::string_view)>;
  /// `naming_of`, when given, lets a name no page has whose kind other notes' labels or link
  /// words decide take labels or link words added or taken away here: its kind is decided
  /// again from the notes naming it (what->rekinded), when that moves no list mate (it may be
  /// left without a kind, or take one from its lists). With `page_of` too, the same for a page whose kind its
  /// own declaration does not decide (its page's words weighed as well), and for the note's own page when its
  /// words no longer declare its kind, or change what it says of itself: when only its title names it and no
  /// list names it with a name no page has.
  std::optional<EntityResolver> extended(const NoteDigest* before, const NoteDigest& after,
                                         const std::function<bool(std::string_view)>& is_page,
                                         Extension* what = nullptr,
                                         const std::function<bool(std::string_view)>& gives_key = {},
                                         const NamingOf& naming_of = {}, const PageOf& page_of = {}) const;
  /// The same for a note deleted (before: its digest), when it is a page no
  /// other note can name: no other spelling resolves to it, no list counts it,
  /// no override types it, it has no kind of the vault's own, no
  /// other note has its title, and (what the caller must know) no other note
  /// mentions it and no other page's alias and no config name folds like its
  /// title. Its own mentions are given up as extended() gives them up, and
  /// its aliases as extended() gives up a page's aliases (with gives_key).
  /// A source page ('@' key) or a page titled like an attachment only when
  /// `unnamed`: the caller read every other note and none spells its title
  /// in a label, a link's words or a list (which name those without names).
  /// With `naming_of` and `page_of`, names its labels, link words or lists named are decided
  /// again as extended() decides them (the notes naming them without it).
  std::optional<EntityResolver> removed(const NoteDigest& before,
                                        const std::function<bool(std::string_view)>& is_page,
                                        Extension* what = nullptr,
                                        const std::function<bool(std::string_view)>& gives_key = {},
                                        bool unnamed = false, const NamingOf& naming_of = {},
                                        const PageOf& page_of = {}) const;
  /// The same for a deleted note whose page other notes name (`naming`: the
  /// digests of every other note of the vault naming it, by any spelling, in
  /// the vault's order): its name becomes a name of its own, spelled as the
  /// first of them first names it, of the kind their list labels, the words
  /// around their links, its own words and their lists give. Only when every
  /// spelling resolving to it folds like its title (no alias or path names
  /// it), no list names it with a name no page has, no override types it, it
  /// declares no kind of the vault's own, no other note has its title, and
  /// (what the caller must know) no other page's alias and no config name
  /// folds like its title. Its own mentions, aliases and glosses are given up
  /// as removed() gives them up. what->orphan: the name it became; what->page.
  /// The same for a new note whose title names a name no page had that
  /// other notes use (`naming`: the digests of every other note naming it, in
  /// the vault's order): the page takes every spelling of the name, of the
  /// kind its own words and their list labels and link words give. Only when
  /// the lists naming it name pages alone, no override types it, no path
  /// names a page of its title, and it has no alias and no kind the vocabulary
  /// lacks; its own mentions and glosses as extended() adds them (with
  /// naming_of and page_of, deciding again the kinds of the names its list
  /// labels, link words and lists name, as extended() does). what->adopted: the name it took.
  std::optional<EntityResolver> adopted(const NoteDigest& after, const std::vector<const NoteDigest*>& naming,
                                        const std::function<bool(std::string_view)>& is_page,
                                        Extension* what = nullptr,
                                        const std::function<bool(std::string_view)>& gives_key = {},
                                        const NamingOf& naming_of = {}, const PageOf& page_of = {}) const;
  /// The same for a page giving a new alias by which notes name a name no
  /// page has (`aliases: [劉鑫]` on Xin Liu.md, where notes link [[劉鑫]]):
  /// the page takes every spelling of that name, its kind decided again from
  /// its own words and what the notes naming it by any of its names say.
  /// Only when the alias is a spelling the vault uses, of a name whose
  /// spellings all fold alike, no override types, no path names a page by,
  /// and whose lists name pages alone; the note changes nothing else (but
  /// more aliases extended() admits) and does not name that name; and, when
  /// the page's kind moves, no list names it with a name no page has.
  /// what->adopted: the name it took.
  std::optional<EntityResolver> aliased(const NoteDigest& before, const NoteDigest& after,
                                        const std::function<bool(std::string_view)>& is_page,
                                        Extension* what = nullptr,
                                        const std::function<bool(std::string_view)>& gives_key = {},
                                        const NamingOf& naming_of = {}, const PageOf& page_of = {}) const;
  /// The same for a page giving up an alias notes name it by (the alias
  /// above taken back): the spellings folding like it are one name of their
  /// own, first spelled as the notes naming the page first spell it, of the
  /// kind they give it; the page's kind decided again without them. Only
  /// when nothing else gives the alias's key (gives_key), no override types
  /// the page, no path names it by the alias, the lists naming the name name
  /// pages alone, the note changes nothing else (but other aliases
  /// extended() admits) and does not name the name; and, when the page's
  /// kind moves, no list names it with a name no page has.
  /// what->orphan: the name the spellings became.
  std::optional<EntityResolver> unaliased(const NoteDigest& before, const NoteDigest& after,
                                          const std::function<bool(std::string_view)>& is_page,
                                          Extension* what = nullptr,
                                          const std::function<bool(std::string_view)>& gives_key = {},
                                          const NamingOf& naming_of = {}, const PageOf& page_of = {}) const;
  std::optional<EntityResolver> orphaned(const NoteDigest& before,
                                         const std::vector<const NoteDigest*>& naming,
                                         const std::function<bool(std::string_view)>& is_page,
                                         Extension* what = nullptr,
                                         const std::function<bool(std::string_view)>& gives_key = {},
                                         const NamingOf& naming_of = {}, const PageOf& page_of = {}) const;

  /// The overrides a resolver would take from the config's name lists and
  /// this override file (add_name, load_overrides): raw name → kind.
  using Overrides = std::map<std::string, Kind>;
  const Overrides& overrides() const { return m_overrides; }
  /// The same for the override file changing from `before` to `after` (the
  /// config's names in both): each name whose override changed keeps its
  /// kind's other evidence, which decides its kind again when no override
  /// names it now: its page's own words (`page_of`: the digest of its page,
  /// nullptr for a name no page has) and what the notes naming it say
  /// (`naming_of`: every note naming it, by any spelling, in the vault's
  /// order), as decide_kinds() weighs them. Only for names every changed
  /// override spells as the vault does (a spelling a note uses, or a page's
  /// title), no list names with a name no page has (no list mates move), and
  /// which are no '@' key or attachment. what->page: kinds changed.
  std::optional<EntityResolver> overridden(const Overrides& before, const Overrides& after,
                                           const PageOf& page_of, const NamingOf& naming_of,
                                           const std::function<bool(std::string_view)>& is_page,
                                           Extension* what = nullptr) const;

  /// The resolution of every name (after finish()), to keep in the index; and
  /// a resolver restored from it, which answers canonical() and kind() for
  /// the same names without the notes (nullopt if malformed); with the
  /// vocabulary it was resolved with, it can be extended().
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
    /// Takes this kind when its evidence is better than what there is (the first of equals stays).
    void offer(const Kind& k, KindEvidence e, std::string why) {
      if (evidence == KindEvidence::None || static_cast<int>(e) < static_cast<int>(evidence))
        *this = {k, e, std::move(why)};
    }
  };
  KindVocabulary m_vocabulary;
  std::vector<std::reference_wrapper<const NoteDigest>> m_digests;  // pass 1's, until finish()
  std::deque<NoteDigest> m_owned;                                    // those given to keep
  std::unordered_map<std::string, std::string> m_by_key;             // folded title/alias → page title
  // folded name → first spelling seen (no page)
  std::unordered_map<std::string, std::string> m_first_spelling;
  std::map<std::string, std::set<std::string>> m_ambiguous;
  std::map<std::string, Kind> m_overrides;      // raw name → kind
  std::unordered_map<std::string, Info> m_info;  // canonical → kind (during finish())
  // every spelling seen → canonical (during finish())
  std::unordered_map<std::string, std::string> m_canonical;
  // The resolution after finish() or deserialize(): its encoding (serialize())
  // and, in it, the spellings and the kinds as sorted views, looked up by
  // binary search: a stored resolution is read without building a map.
  struct StoredKind {
    std::string_view name, kind, detail;
    KindEvidence evidence = KindEvidence::None;
  };
  /// A name's kind decided again, into kinds sorted by name (none: the name leaves them);
  /// `name` and `info` must outlive the encoding made of them.
  static void set_stored_kind(std::vector<StoredKind>& kinds, std::string_view name, const Info& info);
  std::shared_ptr<const std::string_view> m_stored;  // (shared: moving a resolver keeps the views valid)
  std::vector<std::pair<std::string_view, std::string_view>> m_spellings;  // spelling → canonical
  std::vector<StoredKind> m_kinds;                                         // canonical → kind
  // Every key known (see known_key): sorted 64-bit hashes, little-endian, in m_stored.
  std::string_view m_keys;
  std::vector<std::pair<std::string_view, std::uint32_t>> m_uses;    // see uses(), sorted
  std::vector<std::pair<std::string_view, std::uint32_t>> m_listed;  // see listed(), sorted
  std::map<std::string, std::string> m_name_lists;           // folded other spelling → listed name
  WorkTable m_works;  // page title → its venues and years (works only)

  // During finish(): each spelling's fold_name and, once resolved, its canonical name.
  struct Spelling {
    std::string folded;
    const std::string* canonical = nullptr;  // in m_canonical
  };
  std::unordered_map<std::string, Spelling> m_folded;
  std::vector<Spelling*> m_named;  // the spelling of every name of every note, in order (index_names())
  // During finish(): the canonical name of every mention, in the order of the
  // notes and of their fields (names, labelled, hints, the lists' names), as
  // the loops deciding kinds walk them. (Pointers into m_canonical: stable.)
  struct Mentions {
    std::vector<const std::string*> names, labelled, hints, listed;
  };
  Mentions m_mentions;

  const std::string* page_of(const std::string& key, std::string_view name) const;
  /// During finish(): the canonical name of a spelling, resolved once and kept.
  const std::string& resolved(const std::string& name);
  /// The encoding of the resolution computed by finish().
  std::string encode() const;
  /// An encoding: spellings and kinds sorted by name; keys (key_hash) in any order;
  /// room made at once for about size_hint bytes.
  static std::string encode(const std::vector<std::pair<std::string_view, std::string_view>>& spellings,
                            const std::vector<StoredKind>& kinds, const WorkTable& works,
                            const std::vector<std::pair<std::string_view, std::uint32_t>>& uses,
                            const std::vector<std::pair<std::string_view, std::uint32_t>>& listed,
                            std::vector<std::uint64_t> keys, std::size_t size_hint = 0);
  /// During finish(): the notes using each spelling of a name no page has, and
  /// the lists naming each page with a name no page has, sorted by name.
  struct Counts {
    std::vector<std::pair<std::string_view, std::uint32_t>> uses, listed;
  };
  Counts count() const;
  /// In how many notes a spelling of a name no page has stands (0: not such a spelling).
  std::uint32_t uses(std::string_view spelling) const;
  /// In how many lists a page stands with a name no page has.
  std::uint32_t listed(std::string_view page) const;
  /// The hash a folded key is stored as.
  static std::uint64_t key_hash(std::string_view key);
  /// Might a spelling of the stored resolution, a page or an alias fold to this
  /// key? (Stored as hashes: a false true is possible, a false false is not.)
  bool known_key(std::string_view key) const;
  /// The number of keys stored, and the i-th (in order).
  std::size_t stored_keys() const;
  std::uint64_t stored_key(std::size_t i) const;
  /// Reads an encoding into m_stored, m_spellings, m_kinds and m_works; false if malformed.
  bool load(std::shared_ptr<const std::string_view> stored);
  const std::string_view* stored_canonical(std::string_view spelling) const;
  /// What the notes naming a name say of it: its first spelling among their
  /// names, the notes using each spelling folding to key, their list labels,
  /// the words around their links, the lists naming it.
  struct Named {
    std::optional<std::string_view> first;
    std::map<std::string_view, std::uint32_t> uses;
    std::map<Kind, int> votes;
    std::map<Kind, std::map<std::string, int>> seen;
    std::vector<const std::vector<std::string>*> lists;
  };
  static Named named(const std::string& key, const std::vector<const NoteDigest*>& naming);
  /// What decide_kinds() takes from the notes naming a name for its kind: their list labels, the
  /// words around their links, the name's own words (its key).
  static void weigh_naming(const Named& nm, const std::string& key, Info& info);
  /// nm's list labels and link words added to what `to` holds.
  static void add_naming(Named& to, const Named& more);
  /// What the notes naming a page (`naming`) say of it by any of the spellings resolving to it (`spellings`),
  /// but other_key's, each key's spellings resolving to it alone (nullopt otherwise).
  std::optional<Named> naming_page(const std::string& title, const std::vector<std::string_view>& spellings,
                                   const std::vector<const NoteDigest*>& naming,
                                   const std::string& other_key) const;
  /// The spellings resolving to a name (one walk of them all).
  std::vector<std::string_view> spellings_of(std::string_view name) const;
  /// A page's kind as decide_kinds() gives it: the override naming it (`was`, when its evidence is
  /// one), its own words, what the notes naming it say (nm, key: its title's).
  Info page_kind(const NoteDigest& page, const StoredKind* was, const Named& nm,
                 const std::string& key) const;
  /// The name a list naming `name` (nm's spellings) has at `spelling`, in this resolution ("" if unknown).
  std::string_view member_of(const Named& nm, std::string_view name, const std::string& spelling) const;
  /// The resolution of these parts, with this one's vocabulary and keys (nullopt if it does not read back).
  std::optional<EntityResolver> with_keys(
      const std::vector<std::pair<std::string_view, std::string_view>>& spellings,
      const std::vector<StoredKind>& kinds, const WorkTable& works,
      const std::vector<std::pair<std::string_view, std::uint32_t>>& uses,
      const std::vector<std::pair<std::string_view, std::uint32_t>>& listed) const;
  /// ... with these keys instead (hashes, in any order).
  std::optional<EntityResolver> with_keys(
      const std::vector<std::pair<std::string_view, std::string_view>>& spellings,
      const std::vector<StoredKind>& kinds, const WorkTable& works,
      const std::vector<std::pair<std::string_view, std::uint32_t>>& uses,
      const std::vector<std::pair<std::string_view, std::uint32_t>>& listed,
      std::vector<std::uint64_t> keys) const;
  /// The lists naming a name (nm's spellings) with pages alone: each page, in how many of them
  /// (nullopt if one names anything else).
  std::optional<std::map<std::string_view, int>> lists_of_pages(
      const Named& nm, const std::function<bool(std::string_view)>& is_page) const;
  /// The pages listed with a name no page has (m_listed) with `change` added (sorted; none at 0;
  /// nullopt if one would count fewer than none).
  std::optional<std::vector<std::pair<std::string_view, std::uint32_t>>> relisted(
      const std::map<std::string_view, int>& change) const;
  /// aliased()'s and unaliased()'s last step: this resolution, with the note changed from `page`
  /// (its fields as the first step took them) to `after` as extended() weighs it.
  std::optional<EntityResolver> rest(const NoteDigest& page, const NoteDigest& after,
                                     const std::function<bool(std::string_view)>& is_page, Extension& what,
                                     const std::function<bool(std::string_view)>& gives_key,
                                     const NamingOf& naming_of, const PageOf& page_of) &&;
  /// adopted()'s and aliased()'s first step: a page taking the name no page had whose
  /// spellings fold to `key` (`naming`: the notes naming it): a new page of that key
  /// (mentioning nothing; page_named null), or one there already giving an alias of that
  /// key (page_named: what the notes naming it by its own names say); and that name.
  std::optional<std::pair<EntityResolver, std::string>> paged(
      const NoteDigest& page, const std::string& key, const std::vector<const NoteDigest*>& naming,
      const Named* page_named, const std::function<bool(std::string_view)>& is_page) const;
  /// orphaned()'s second step: the page of this title gone, its name one of its own; and that name.
  std::optional<std::pair<EntityResolver, std::string>> unpaged(
      const std::string& title, const std::vector<const NoteDigest*>& naming,
      const std::function<bool(std::string_view)>& is_page) const;
  std::optional<EntityResolver> extend(const NoteDigest* before, const NoteDigest& after,
                                       const std::function<bool(std::string_view)>& is_page, Extension* what,
                                       bool deleted, const std::function<bool(std::string_view)>& gives_key,
                                       const NamingOf& naming_of = {}, const PageOf& page_of = {}) const;
  /// A name's kind decided again (decide_kinds() for one name): from the override naming it, its
  /// page's digest (nullptr: no page) and what the notes naming it say (nm, key); nullopt when
  /// that could move another name's kind (a list names it with a name neither a page nor of a
  /// kind its own evidence decides, or one of `deciding`, decided again too) or cannot be known here.
  std::optional<Info> decided_again(std::string_view name, const std::string& key, const Kind* override,
                                    const NoteDigest* page, const Named& nm,
                                    const std::set<std::string_view>& deciding,
                                    const std::function<bool(std::string_view)>& is_page) const;
  /// keeps(), and with `more` given, extended(): what the change may add.
  using Fresh = std::map<std::string_view, std::string>;  // spellings no note had → their keys
  struct PageChange {
    std::optional<Kind> kind;
    KindEvidence evidence = KindEvidence::None;
    std::string detail;
    bool moves_mates = false;  // the kind the lists see moves to or from a person's or an organization's
    bool again = false;        // decided again in extend(), from its words and the notes naming it
  };
  struct Additions {
    Fresh fresh;
    std::vector<std::string_view> mentioned;  // names no page has, known, that the note now mentions
    std::vector<std::string_view> dropped;    // ... that it no longer mentions
    std::vector<std::string_view> gone;       // ... whose last use it was
    std::optional<PageChange> page;           // the note's own kind, decided anew
    std::set<std::string> alias_keys;         // the keys of the page's new aliases
    std::set<std::string> alias_keys_gone;    // ... of those it gave up (no alias left folds alike)
    std::set<std::string> titled_keys;        // ... of the new ones that are another page's title
    bool glosses = false;                     // the note's glosses changed
    bool aliases_given_up = false;            // it gave up aliases (whatever their keys)
    bool can_rekind = false;                  // (extend() has the notes naming a name)
    bool can_rekind_pages = false;            // (... and their pages' digests)
    std::set<std::string> rekind;             // names whose labels or link words changed (or own words)
  };
  /// (`again`: a page whose own words no longer decide its kind may take it from
  /// the notes naming it: PageChange::again.)
  std::optional<PageChange> page_change(const NoteDigest& before, const NoteDigest& after, bool again) const;
  /// Is name the one spelling that resolves to it?
  bool sole_spelling(std::string_view name) const;
  bool admits(const NoteDigest& before, const NoteDigest& after,
              const std::function<bool(std::string_view)>& is_page, Additions* more) const;
  const StoredKind* stored_kind(std::string_view canonical_name) const;
  void index_names();
  void resolve_spellings();
  void decide_kinds();
  void decide_from_links();
  void decide_from_lists();
  void set_kind(const std::string& name, const Kind& k, KindEvidence e, std::string detail = {});
  const std::string& fold_once(const std::string& name);
  /// The kind a name's words suggest ("… University", "…大学", "…社"), and
  /// the word; of the name folded (fold_name).
  static std::optional<std::pair<Kind, std::string>> heuristic(std::string_view folded);
  /// The kind the words around a name's links give (the kind most of them
  /// give), and the detail: its commonest marker and in how many notes.
  /// folded() is the name folded (asked only when the words say "person").
  static std::optional<std::pair<Kind, std::string>> link_verdict(
      const std::map<Kind, std::map<std::string, int>>& by_kind, const std::function<std::string()>& folded);
  /// The kind a page declares (its first kind word the vocabulary knows), and that word.
  std::optional<std::pair<Kind, std::string>> declared(const NoteDigest& d) const;
};

}  // namespace sagasu
