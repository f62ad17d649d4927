// The index schema: every term prefix, value slot and stored field of a
// Sagasu document, spelled here and nowhere else.
//
// Document layout (one Xapian document per note):
//
//   Q<id>            unique id: the vault-relative path (or "#" + xxh64 hex of
//                    it when the path is too long for a Xapian term)
//   <word>           body, title and alias word terms, positional; title and
//                    alias words carry a higher wdf (TITLE_WDF)
//   S<word>          title word terms, positional: title: queries, and a title
//                    field the searcher ORs with each query word
//   Z<stem>          English stems of Latin words, no positions
//   XB<gram>         substring tier: character n-grams of the folded text
//                    (substring.h: three characters from an ASCII one, two
//                    from others), no positions; cut short at a run's end
//                    and followed by END_OF_RUN
//   XV<venue>        venue filter terms   (facet value, casefolded)
//   XY<year>         year filter terms    (four digits)
//   XP<person>       person filter terms  (canonical name, casefolded)
//   XO<org>          organization filter terms
//   XK<kind>         kind filter term (source, person, organization, ...)
//   XT<tag>          tag filter terms
//   XL<target>       link target terms (canonical page name, casefolded)
//   XC<source>       cited source terms (citation key without '@', casefolded)
//   XD<path>         the note's path and each of its folders (casefolded)
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
//   value META           JSON object, fields named by the META_* constants
//   value STATE          "path\0size\0mtime_ns\0xxh64": the file as last indexed
//   value DIGEST         what entity resolution needs from the note (NoteDigest)
//   value FOLDS_TO_ASCII the ASCII characters that non-ASCII characters of the
//                        note fold to (ＧＰＵ → gpu, （ → "("), sorted: an ASCII
//                        substring using none of them is checked on the raw text
//
//   document data        the note's plain text (snippets, substring checks)
//
// Synonyms, as metadata (Xapian's remote backend does not serve the synonym
// table): META_SYNONYM + key → the other names, '\n'-separated. Keys are
// Analyzer::key(name) → Analyzer::key(other name), for every pair of names
// (title, aliases) of one page; and for entity filters, filter_term(XP/XO/XL,
// alias) → filter_term(same prefix, page title). Every shard holds them all.
//
// Index metadata keys are the META_* constants.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace sagasu::schema {

/// A boolean or free-text term prefix.
struct Prefix {
  std::string_view name;    ///< field name as users type it (e.g. "venue")
  std::string_view prefix;  ///< Xapian term prefix
};

inline constexpr Prefix UNIQUE_ID{"id", "Q"};
inline constexpr Prefix TITLE{"title", "S"};
inline constexpr Prefix STEM{"stem", "Z"};
inline constexpr Prefix GRAM{"substring", "XB"};
inline constexpr Prefix VENUE{"venue", "XV"};
inline constexpr Prefix YEAR{"year", "XY"};
inline constexpr Prefix PERSON{"person", "XP"};
inline constexpr Prefix ORG{"org", "XO"};
inline constexpr Prefix KIND{"kind", "XK"};
inline constexpr Prefix TAG{"tag", "XT"};
inline constexpr Prefix LINK{"links", "XL"};
inline constexpr Prefix CITE{"cites", "XC"};
inline constexpr Prefix PATH{"path", "XD"};

/// Every prefix, for the uniqueness test and for field look-up.
inline constexpr std::array<Prefix, 13> ALL_PREFIXES{
    UNIQUE_ID, TITLE, STEM, GRAM, VENUE, YEAR, PERSON, ORG, KIND, TAG, LINK, CITE, PATH};

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
  SLOT_FOLDS_TO_ASCII = 11,
};

/// A facet: its filter prefix and the slot holding its packed display values.
struct Facet {
  std::string_view name;  ///< "venue", "year", "person", "org", "kind"
  Prefix prefix;
  Slot slot;
  bool multi_valued;
};

inline constexpr std::array<Facet, 5> FACETS{{
    {"venue", VENUE, SLOT_VENUES, true},
    {"year", YEAR, SLOT_YEARS, true},
    {"person", PERSON, SLOT_PERSONS, true},
    {"org", ORG, SLOT_ORGS, true},
    {"kind", KIND, SLOT_KIND, false},
}};

/// Every slot, for the uniqueness test.
inline constexpr std::array<unsigned, 12> ALL_SLOTS{
    SLOT_VENUES, SLOT_YEARS,     SLOT_PERSONS, SLOT_ORGS,  SLOT_KIND,   SLOT_TITLE,
    SLOT_YEAR_SORT, SLOT_SIGNATURE, SLOT_META, SLOT_STATE, SLOT_DIGEST, SLOT_FOLDS_TO_ASCII};

/// Extra wdf given to each title word, so BM25 ranks title hits higher.
inline constexpr unsigned TITLE_WDF = 3;
/// Position gap between the title and the body, so no phrase spans both.
inline constexpr unsigned TITLE_BODY_GAP = 100;
/// Longest term Xapian accepts is 245 bytes; longer words are not indexed.
inline constexpr std::size_t MAX_TERM_BYTES = 240;

/// Field names of the META value (JSON).
inline constexpr std::string_view META_PATH = "path";
inline constexpr std::string_view META_TITLE = "title";
inline constexpr std::string_view META_KIND = "kind";
inline constexpr std::string_view META_ALIASES = "aliases";
inline constexpr std::string_view META_CITATIONS = "citations";  ///< [[begin,end,key]] spans in the text

/// Index metadata keys.
inline constexpr std::string_view META_SCHEMA_VERSION = "sagasu.schema";
inline constexpr std::string_view META_VAULT = "sagasu.vault";
inline constexpr std::string_view META_OVERRIDES = "sagasu.overrides";  ///< the override file as last read
inline constexpr std::string_view META_FINDINGS = "sagasu.findings";    ///< JSON: unresolved entities, ambiguous aliases
inline constexpr std::string_view META_RESOLUTION = "sagasu.resolution";  ///< every name's canonical name and kind
inline constexpr std::string_view META_SHARD = "sagasu.shard";  ///< "K/N": shard K of N (absent: one index)
inline constexpr std::string_view META_SYNONYM = "sagasu.synonym:";  ///< prefix: key → other names
inline constexpr std::string_view SCHEMA_VERSION = "5";

/// Separator of packed multi-values in a value slot.
inline constexpr char PACK_SEPARATOR = '\x1f';

/// Packs display values (sorted, unique) into one slot string.
std::string pack_values(std::vector<std::string> values);
/// Splits a packed slot string back into its values.
std::vector<std::string> unpack_values(std::string_view packed);
/// The unique-id term of a vault-relative path.
std::string unique_id_term(std::string_view path);
/// A boolean filter term: prefix + casefolded, width-folded value.
std::string filter_term(const Prefix& prefix, std::string_view value);
/// The facet with this user-facing name, or nullptr.
const Facet* find_facet(std::string_view name);

}  // namespace sagasu::schema
