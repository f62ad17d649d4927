// The index schema: every term prefix, value slot and stored field of a
// Sagasu document, spelled here and nowhere else. The field table (FIELDS)
// drives the query parser, the filter processors, the document builder,
// facet counting, the printers, --list, --fields and shell completion:
// adding a facet is one row here plus the code that finds its values.
//
// Document layout (one Xapian document per note):
//
//   Q<id>            unique id: the vault-relative path (or "#" + xxh64 hex of
//                    it when the path is too long for a Xapian term)
//   <word>           body, title, alias and own-tag word terms, positional; title
//                    words carry a higher wdf (TITLE_WDF), the words of what
//                    the file says unshown (Note::unshown: front matter, link
//                    addresses) wdf 0: they find the note and weigh nothing
//   S<word>          title word terms, positional: title: queries, and a title
//                    field the searcher ORs with each query word
//   Z<stem>          English stems of Latin words, no positions
//   XB<gram>         substring tier: character n-grams of the folded text
//                    (substring.h: three characters from an ASCII one, two
//                    from others), no positions; cut short at a run's end
//                    and followed by END_OF_RUN. A gram of letters and
//                    digits alone only where the run of letters and digits
//                    it is in is no maximal run of a word term's folding:
//                    the searcher finds those through the word list
//                    (substring.h, for_each_indexed_gram); each letter or
//                    digit of such runs is then a gram of one character.
//                    END_OF_RUN alone: the text joins characters in folding
//                    (substring.h, JOINING_GRAM), for --exact
//   XV<venue>        venue filter terms   (facet value, folded as a name)
//   XY<year>         year filter terms    (four digits)
//   XP<person>       person filter terms  (canonical name, folded as a name)
//   XO<org>          organization filter terms
//   XK<kind>         kind filter term (source, person, organization, ... or a kind
//                    of the vault's own vocabulary: META_KINDS)
//   XT<tag>          tag filter terms
//   XL<target>       link target terms (canonical page name)
//   XC<source>       cited source terms (citation key without '@', folded as a key)
//   XD<path>         the note's path and each of its folders (folded as a key)
//   XH<c>            each ASCII character c the word terms may not show (hidden_term):
//                    those non-ASCII characters of the note fold to (ＧＰＵ →
//                    gpu, （ → "("), those beside a character folding deletes
//                    (zw + U+200B + sp: w, s) and those of words too long to be
//                    terms (MAX_TERM_BYTES), and UNINDEXED_NON_ASCII when such a
//                    word has other characters. An ASCII substring using none
//                    of them is checked on the raw text; a substring of letters
//                    and digits (or of katakana, without the mark) is in the
//                    note only inside a word term (word_list.h). Terms, so that
//                    one match per search finds such notes, on remote shards too
//
//   value VENUES..ORGS   the facet's display values, sorted and packed with
//                        pack_values(): one string per document, so the stock
//                        ValueCountMatchSpy counts combinations that the
//                        searcher splits into exact single-value counts.
//   value KIND           the note kind (single valued)
//   value TITLE          "title\0path": --sort title, and the tie-break of
//                        equal scores (the same order on one index or many shards)
//   value YEAR_SORT      sortable_serialise(newest year), for --sort year
//   value SIGNATURE      xxh64 of everything the document was built from; an
//                        unchanged signature means the stored document is current
//   value META           JSON object with path, title, kind, other names and
//                        citation spans (stored_note.h encodes and decodes it)
//   value STATE          the file as last indexed: path, size, mtime, hash (stored_note.h)
//   value DIGEST         what entity resolution needs from the note (stored_note.h)
//   value COVERAGE    where each facet's values came from (front matter, table,
//                     path, links, …) and the property keys no facet reads
//                     (stored_note.h): indexer --report facets
//   document data        the note's plain text, then what its file says unshown
//                        (front-matter values, link addresses: Note::unshown),
//                        for snippets and substring checks
//
// Synonyms, as metadata (Xapian's remote backend does not serve the synonym
// table): META_SYNONYM + key → names, '\n'-separated, as a star per page
// (a page with n names costs n entries, not n²): its title's
// Analyzer::key(title) → SYNONYM_HEAD, then the keys of its aliases; each
// alias's key → the title's key (a name of several pages: each title). The
// searcher reads a name's other names through its title (Synonyms::of).
// Keys are the words a query would have. For entity filters,
// filter_term(XP/XO/XL, alias) → filter_term(same field, page title). Every
// shard holds them all.
//
// Index metadata keys are the META_* constants.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sagasu::schema {

/// Value slots.
enum Slot : unsigned {
  SLOT_VENUES = 0,
  SLOT_YEARS = 1,
  SLOT_PERSONS = 2,
  SLOT_ORGS = 3,
  SLOT_KIND = 4,
  SLOT_TITLE = 5,
  SLOT_YEAR_SORT = 6,
  SLOT_SIGNATURE = 7,
  SLOT_META = 8,
  SLOT_STATE = 9,
  SLOT_DIGEST = 10,
  // (11: free)
  SLOT_COVERAGE = 12,
  SLOT_SHARD = 13,  ///< a sharded index's note: its shard number K (shard_value), read per match
};

/// Every slot with its name (the dump tool prints it; a test checks they are distinct).
struct SlotName {
  unsigned slot;
  std::string_view name;
};
inline constexpr std::array<SlotName, 13> SLOTS{{
    {SLOT_VENUES, "venues"},
    {SLOT_YEARS, "years"},
    {SLOT_PERSONS, "persons"},
    {SLOT_ORGS, "orgs"},
    {SLOT_KIND, "kind"},
    {SLOT_TITLE, "title"},
    {SLOT_YEAR_SORT, "year_sort"},
    {SLOT_SIGNATURE, "signature"},
    {SLOT_META, "meta"},
    {SLOT_STATE, "state"},
    {SLOT_DIGEST, "digest"},
    {SLOT_COVERAGE, "coverage"},
    {SLOT_SHARD, "shard"},
}};

/// What a field's query value selects, and so which processor handles it.
enum class FieldKind {
  Text,       ///< words of a text field, analysed like the body: title:MegaScale
  Term,       ///< one whole value: venue:OSDI, tag:sdc
  Kind,       ///< a kind of the index's vocabulary, or a synonym of one: kind:person, kind:paper
  Range,      ///< a number or a range of them: year:2025, year:2024..2026
  Entity,     ///< a page by its name or any of its aliases: person:, org:, links:
  KeyPrefix,  ///< a stored key or every key it begins: path:wiki/sources
  Citation,   ///< a citation key, every key a prefix* begins, or words of a cited title: cites:
  Internal,   ///< not typed in queries: the unique id, stems, substring grams
};

/// How a field's values are folded into terms (the same at index and query time).
enum class Folding {
  Name,  ///< fold_name(): case, width, '_' and runs of white space ("Xin_Liu" = "xin liu")
  Key,   ///< case, width and runs of white space only: '_' is part of a key ("2026__OSDI__…")
};

/// A value as typed → the value as indexed; nullopt when it cannot be one.
using Normalizer = std::optional<std::string> (*)(std::string_view);

/// One field of a Sagasu document.
struct Field {
  std::string_view name;    ///< as typed before ':' in queries, and the facet's name
  std::string_view prefix;  ///< Xapian term prefix
  FieldKind kind;
  Folding folding = Folding::Name;
  int facet_slot = -1;       ///< slot of the packed display values: counted as a facet (-1: not a facet)
  std::string_view hit_key;  ///< each hit's list of the note's values in JSON ("venues"); empty: none
  Normalizer normalize = nullptr;  ///< applied to values at index and query time (nullptr: as they are)
  std::string_view values;         ///< what a value looks like, for help and error messages

  bool is_facet() const { return facet_slot >= 0; }
  bool is_filter() const { return kind != FieldKind::Text && kind != FieldKind::Internal; }
};

/// MLSys2026 → MLSys, NSDI'24 → NSDI (a trailing year goes).
std::optional<std::string> venue_value(std::string_view typed);
/// A person's name in its one spelling: "Shin, Suyeon" → "Suyeon Shin", "吉野 賢二" → "吉野賢二" (names.h).
std::optional<std::string> person_value(std::string_view typed);
/// An organization's name without its legal form: "株式会社X" → "X" (names.h).
std::optional<std::string> org_value(std::string_view typed);
/// A citation key without its '@'.
std::optional<std::string> citation_value(std::string_view typed);
/// A path or folder without trailing '/'.
std::optional<std::string> path_value(std::string_view typed);

// clang-format off
/// The field table. Facets are counted and printed, and fields listed, in this order.
inline constexpr std::array<Field, 16> FIELDS{{
  // name        prefix kind                folding        facet slot    hit key    normalize       values
  {"title",     "S",  FieldKind::Text,      Folding::Name, -1,           "",        nullptr,        "words of the title"},
  {"venue",     "XV", FieldKind::Term,      Folding::Name, SLOT_VENUES,  "venues",  venue_value,    "a venue such as OSDI"},
  {"year",      "XY", FieldKind::Range,     Folding::Name, SLOT_YEARS,   "years",   nullptr,        "a year like 2025 or a range like 2024..2026"},
  {"person",    "XP", FieldKind::Entity,    Folding::Name, SLOT_PERSONS, "persons", person_value,   "a person's name (\"First Last\" or \"Last, First\") or alias"},
  {"org",       "XO", FieldKind::Entity,    Folding::Name, SLOT_ORGS,    "orgs",    org_value,      "an organization's page name or alias"},
  {"kind",      "XK", FieldKind::Kind,      Folding::Name, SLOT_KIND,    "",        nullptr,        "a kind the index holds: source, person, organization, … or the vault's own"},
  {"tag",       "XT", FieldKind::Term,      Folding::Name, -1,           "",        nullptr,        "a tag without '#'"},
  {"path",      "XD", FieldKind::KeyPrefix, Folding::Key,  -1,           "",        path_value,     "a folder or the start of a vault path"},
  {"links",     "XL", FieldKind::Entity,    Folding::Name, -1,           "",        nullptr,        "a linked page's name or alias"},
  {"cites",     "XC", FieldKind::Citation,  Folding::Key,  -1,           "",        citation_value, "a citation key, a key prefix ending in '*', or words of a cited title"},
  {"id",        "Q",  FieldKind::Internal,  Folding::Key,  -1,           "",        nullptr,        ""},
  {"stem",      "Z",  FieldKind::Internal,  Folding::Key,  -1,           "",        nullptr,        ""},
  {"part",      "XW", FieldKind::Internal,  Folding::Key,  -1,           "",        nullptr,        ""},
  {"titlepart", "XN", FieldKind::Internal,  Folding::Key,  -1,           "",        nullptr,        ""},
  {"substring", "XB", FieldKind::Internal,  Folding::Key,  -1,           "",        nullptr,        ""},
  {"hidden",    "XH", FieldKind::Internal,  Folding::Key,  -1,           "",        nullptr,        ""},
}};
// clang-format on

/// The field with this name, or nullptr.
constexpr const Field* find_field(std::string_view name) {
  for (const Field& f : FIELDS)
    if (f.name == name) return &f;
  return nullptr;
}

/// The row of a field of the table (FIELDS[index_of(f)] is f).
inline std::size_t index_of(const Field& f) {
  return static_cast<std::size_t>(&f - FIELDS.data());
}

namespace detail {
// Looks the row up by index, not through find_field's pointer: GCC's
// -fsanitize=null does not fold a pointer test in a constant expression.
constexpr const Field& row(std::string_view name) {
  for (std::size_t i = 0; i < FIELDS.size(); ++i)
    if (FIELDS[i].name == name) return FIELDS[i];
  throw "schema: no such field";  // a compile error when used in a constant expression
}
}  // namespace detail

// The fields code names directly.
inline constexpr const Field& TITLE = detail::row("title");
inline constexpr const Field& PATH = detail::row("path");
inline constexpr const Field& VENUE = detail::row("venue");
inline constexpr const Field& YEAR = detail::row("year");
inline constexpr const Field& PERSON = detail::row("person");
inline constexpr const Field& ORG = detail::row("org");
inline constexpr const Field& KIND = detail::row("kind");
inline constexpr const Field& TAG = detail::row("tag");
inline constexpr const Field& LINK = detail::row("links");
inline constexpr const Field& CITE = detail::row("cites");
inline constexpr const Field& UNIQUE_ID = detail::row("id");
inline constexpr const Field& STEM = detail::row("stem");
/// A word of a name written as one (mega, scale of MegaScale): found when typed, by no equivalent.
inline constexpr const Field& PART = detail::row("part");
/// A part in the title: the title evidence of a typed word (never S, which equivalents reach).
inline constexpr const Field& TITLE_PART = detail::row("titlepart");
inline constexpr const Field& GRAM = detail::row("substring");
/// A character the note's word terms may not show (hidden_term).
inline constexpr const Field& HIDDEN = detail::row("hidden");

/// Extra wdf given to each title word, so BM25 ranks title hits higher.
inline constexpr unsigned TITLE_WDF = 3;
/// Position gap between the title and the body, so no phrase spans both.
inline constexpr unsigned TITLE_BODY_GAP = 100;
/// Longest term Xapian accepts is 245 bytes; longer words are not indexed.
inline constexpr std::size_t MAX_TERM_BYTES = 240;
/// A HIDDEN character: a word too long to be a term has non-ASCII characters.
inline constexpr char UNINDEXED_NON_ASCII = '\x7f';
/// The HIDDEN term of a character of a needle or a note: an ASCII character
/// itself, any byte of a non-ASCII one UNINDEXED_NON_ASCII.
inline std::string hidden_term(char c) {
  return std::string(HIDDEN.prefix) + (static_cast<unsigned char>(c) < 0x80 ? c : UNINDEXED_NON_ASCII);
}

/// Index metadata keys.
inline constexpr std::string_view META_SCHEMA_VERSION = "sagasu.schema";
inline constexpr std::string_view META_VAULT = "sagasu.vault";
inline constexpr std::string_view META_OVERRIDES = "sagasu.overrides";  ///< the override file as last read
inline constexpr std::string_view META_FINDINGS =
    "sagasu.findings";  ///< JSON: unresolved entities, ambiguous aliases
/// Every name's canonical name and kind, as an older Sagasu stored it (and one
/// whose RESOLUTION_FILE cannot be written): now kept in that file.
inline constexpr std::string_view META_RESOLUTION = "sagasu.resolution";
/// The file beside the first shard's generation that holds the resolution.
inline constexpr std::string_view RESOLUTION_FILE = "sagasu-resolution";
/// The resolution's content hash, written with it: a run that changes no note
/// compares the shards' hashes, not their resolutions (20 MB at 100k notes),
/// and RESOLUTION_FILE is used when it has this hash. It vouches
/// for the resolution only while META_RESOLUTION_REVISION is the shard's
/// revision (the commit that stored it made that one, and no other writer committed since).
inline constexpr std::string_view META_RESOLUTION_HASH = "sagasu.resolution.hash";
inline constexpr std::string_view META_RESOLUTION_REVISION = "sagasu.resolution.revision";
/// The file beside the first shard's generation that holds what entity
/// resolution read of every note, as rows of ids (indexer/entity_rows.h), and
/// its content hash, vouched for as the resolution's is: the next run reads
/// the notes that did not change from it instead of their digests.
inline constexpr std::string_view ENTITY_ROWS_FILE = "sagasu-entity-rows";
inline constexpr std::string_view META_ENTITY_ROWS_HASH = "sagasu.entity-rows.hash";
/// The run whose commit wrote a shard (an id, the same on every shard): shards
/// holding different runs were left by one killed between their commits, and
/// the next run builds them fresh (what the dead run derived from the whole
/// vault, on the shards it reached, cannot be told from what it did not).
inline constexpr std::string_view META_RUN = "sagasu.run";
/// The folders the last run could not read, one per line (absent: none). Their
/// notes kept their documents, but not their part in what the run derived
/// from the whole vault (the entity resolution, the synonyms, the glossary):
/// the next run derives it again.
inline constexpr std::string_view META_UNREADABLE = "sagasu.unreadable";
/// The files the last run that committed skipped, "path<TAB>reason" per line
/// (at most MAX_SKIPPED_SHOWN, then "…<TAB>N more"): what an agent or a
/// person asks of the index (the MCP tool index_status).
inline constexpr std::string_view META_SKIPPED = "sagasu.skipped";
inline constexpr std::size_t MAX_SKIPPED_SHOWN = 1000;
/// The digest version (NoteDigest::version) of every document's DIGEST, when
/// they all have one; a run reads no digest it does not need when it is current.
inline constexpr std::string_view META_DIGESTS = "sagasu.digests";
inline constexpr std::string_view META_SHARD = "sagasu.shard";  ///< "K/N": shard K of N (absent: one index)
/// The shard K of N a note lives in: a hash of its vault-relative path, so
/// the same note always goes to the same shard and no note lives in two.
std::size_t shard_of(std::string_view path, std::size_t count);
/// SHARD, shard K as its notes keep it: a matcher over several shards hands
/// a document over with its number in its own shard only (Xapian's rule),
/// and this short value, unlike the path in STATE, costs little to read for
/// every match. The number it holds; nothing when it holds none.
std::string shard_value(std::size_t shard);
std::optional<std::size_t> shard_number(std::string_view value);
inline constexpr std::string_view META_KINDS =
    "sagasu.kinds";  ///< the kind vocabulary (KindVocabulary::encode)
/// The settings the index was built with, which a plain run uses
/// (index_settings.h: "KEY\tVALUE" lines for ext, max-file-size, config).
inline constexpr std::string_view META_SETTINGS = "sagasu.settings";
inline constexpr std::string_view META_CONFIG =
    "sagasu.config";  ///< the vault config file's text, as last read
inline constexpr std::string_view META_COVERAGE =
    "sagasu.coverage";  ///< JSON: the shard's facet coverage, kinds and unmapped keys at its last commit
/// The revision the commit that stored META_COVERAGE made: how the index came
/// to be, not what it holds (the canonical dump leaves it out).
inline constexpr std::string_view META_COVERAGE_REVISION = "sagasu.coverage.revision";
inline constexpr std::string_view META_SYNONYM = "sagasu.synonym:";  ///< prefix: key → other names
/// Prefix: a name's key (Analyzer::key) → the equivalents the vault states
/// for it (the bridge tier's glossary), one per line: "equivalent\thow\tnotes".
inline constexpr std::string_view META_GLOSSARY = "sagasu.gloss:";
/// Prefix: a sound key (sounds.h) → the vault's katakana and English words
/// with that key, one per line.
inline constexpr std::string_view META_SOUND = "sagasu.sound:";
/// The first line of a title's synonym entry: the names after it are the page's
/// aliases (a head; an alias's entry names its titles).
inline constexpr std::string_view SYNONYM_HEAD = "\x01";
/// The layout of what the indexer writes (terms, values, metadata): a Sagasu
/// reading an index of another version rebuilds it. Bumped with every change
/// of that layout; what each version changed is in git log.
inline constexpr std::string_view SCHEMA_VERSION = "28";
/// Was an index of this schema version written by a newer Sagasu than this
/// one? Such an index is refused, not misread (nor replaced unless asked to).
bool newer_schema(std::string_view version);

/// Separator of packed multi-values in a value slot.
inline constexpr char PACK_SEPARATOR = '\x1f';

/// Packs display values (sorted, unique) into one slot string.
std::string pack_values(std::vector<std::string> values);
/// Splits a packed slot string back into its values.
std::vector<std::string> unpack_values(std::string_view packed);
/// The unique-id term of a vault-relative path.
std::string unique_id_term(std::string_view path);

/// Is this a word term (<word>)? Every prefix begins with a capital and word
/// terms are case-folded, so the prefixed terms are the one range "A" … "Z…"
/// of the term order, and WORD_TERMS_AFTER_PREFIXES is where words resume.
inline bool is_word_term(std::string_view term) {
  return !term.empty() && (term[0] < 'A' || term[0] > 'Z');
}
inline constexpr std::string_view WORD_TERMS_AFTER_PREFIXES = "[";
/// The boolean term of a field's value: prefix + the value normalized and folded
/// as the field says; just the prefix when the value normalizes to nothing.
std::string filter_term(const Field& field, std::string_view value);
/// The facet with this name, or nullptr (a field that is not a facet is not one).
const Field* find_facet(std::string_view name);
/// The names of every facet, in table order.
std::vector<std::string> facet_list();
/// How the query language reads the start of a word.
enum class Prefix {
  None,     ///< text ("https://x", "std::move", "C:\\x", "10:30", "id:3")
  Field,    ///< name:value with the name of a field (*field set)
  Unknown,  ///< two letters or more that name no field, ':' and a value: an error, not text
};
/// How `word` begins: a name of ASCII letters (any case), ':' and a value that
/// starts with none of '/', ':' and '\\' tells a field, known or not.
Prefix field_prefix(std::string_view word, const Field** field = nullptr);
/// The names of the facets (or of every filter field), in table order, joined
/// by ", " and the last two by `last`: "venue, year, person, org or kind".
std::string field_names(bool facets_only, std::string_view last = ", ");

}  // namespace sagasu::schema
