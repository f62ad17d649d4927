// The searcher library: runs a query against an index and returns ranked
// hits with snippets and exact facet counts. No printing here.
//
// A search is a pipeline of small parts (searcher/*.h, internal): the query
// language (query.h) → field filters (field_query.h) and every matching tier
// (query_builder.h) → Xapian's match with the two-phase verifier
// (verifier.h), collecting the page and exact facet counts (collector.h) →
// hits with their tier, score parts and snippets (hit_builder.h); did-you-mean
// (suggest.h) beside it.
#pragma once

#include <xapian.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sagasu/analyzer.h"
#include "sagasu/schema.h"
#include "sagasu/snippet.h"
#include "sagasu/stored_note.h"
#include "sagasu/substring.h"

namespace sagasu {

class QueryBuilder;
class Verifier;

/// What to search for.
struct SearchRequest {
  std::string query;                 ///< the query text, fields included
  std::vector<std::string> filters;  ///< extra "field:value" filters (--filter)
  std::size_t offset = 0;
  std::size_t limit = 10;
  std::size_t snippets = 1;                                ///< fragments per hit
  std::size_t snippet_bytes = 240;                         ///< longest fragment
  std::vector<std::string> facets = schema::facet_list();  ///< facets to count (default: all)
  bool exact = false;                                      ///< no folding: the typed text must occur as typed
  /// Also the notes that say a piece in the other language (the bridge tier:
  /// 強化学習 finds "reinforcement learning"); off with exact.
  bool bridge = true;
  /// Also the notes where the pieces of a compound typed as one word
  /// (文字列型 → 文字列 + 型) are apart; they rank below those where they are together.
  bool loose = false;
  /// When no note has every piece of the query, the notes with any of them (a notice says so).
  bool widen = false;
  /// A page the hit set does not fill goes on with notes that match more
  /// loosely (SearchResult::beyond): a reader's ranked list. The total, the
  /// facets and the hits stay the query's.
  bool go_on = false;
  /// The notes with any piece of the query (OR, ranked: most pieces first),
  /// as widen gives when no note has them all.
  bool any_piece = false;
  bool explain = false;    ///< fill Hit::score_parts and SearchResult::chunks
  bool match_all = false;  ///< an empty query matches every note (instead of being an error)
  enum class Sort { Relevance, Year, Title } sort = Sort::Relevance;  ///< year: newest first; title: A–Z
};

/// How a hit matched the query: the weakest tier any query piece needed.
enum class Tier {
  Word,       ///< the piece's words (a compound's adjacent), or another name of the page
  Bridge,     ///< an equivalent in the other language or script (Bridge), as words
  Scattered,  ///< a compound's words apart (SearchRequest::loose only)
  Substring,  ///< inside words, with width and case folded
  Variant,    ///< inside words, with kana folded too (hiragana = katakana, small kana, 々)
  Related,    ///< none of the query needed: tied to the note the query names (SearchResult::beyond only)
};
/// "word", "bridge", "scattered", "substring", "variant", "related".
const char* to_string(Tier tier);

/// An equivalent of a query piece in the other language or script.
struct Bridge {
  std::string equivalent;  ///< as the vault writes it: "reinforcement learning", "プリフィル"
  Provenance how = Provenance::Gloss;  ///< where it comes from
  /// A general pair (dictionary, sound) the vault does not support
  /// (Bridges::of), or a definition: it ranks and counts only with --loose.
  bool loose = false;
  std::size_t stating = 0;  ///< stated by notes: how many; reading: the notes using it
  /// A dictionary's word further in its sense than the first (標準: norm,
  /// after standard): another sense often; it counts only where the vault uses it clearly.
  bool further = false;
  /// A katakana word and the English it sounds like (キャリブレーション:
  /// calibration): the same word in the other script, weighed as another spelling.
  bool loanword = false;
  /// Why it counts or is loose, for --explain: "stated by 2 notes", "3 notes say both".
  std::string why = {};
  bool operator==(const Bridge& o) const { return equivalent == o.equivalent && how == o.how; }
};

/// One piece of the query (a word group or a quoted phrase) in every tier, for --explain.
struct ChunkInfo {
  std::string text;  ///< as typed
  bool phrase = false;
  std::vector<std::string> words;     ///< word tier terms (adjacent in this order)
  /// A one-word piece's English inflections the vault has, matched as the word
  /// (iterator: iterators; learning: learn, learned), never its stem's other
  /// words; a term's last word in the other number (diffusion policy: policies).
  std::vector<std::string> inflections;
  std::vector<std::string> synonyms;  ///< other names of the page the text names (vault aliases)
  std::vector<Bridge> bridges;        ///< its equivalents in the other language (the bridge tier)
  std::string substring;              ///< substring tier string (folded), empty if none
  std::string substring_exact;        ///< the same without kana folding (tells substring from variant)
  /// The substring tier's needle (substring and substring_exact).
  SubstringNeedle needle() const { return {substring, substring_exact}; }
  std::vector<std::string> grams;  ///< the substring tier's candidate terms ("x*": a prefix)
  /// A word of letters the vault has (art) or a katakana word (ロック):
  /// inside longer words (start, ブロック) it matches only with --loose, and
  /// weighs where another tier matches; but in the longer katakana words
  /// that hold it as one of their words, compounds, it matches.
  bool inside_words_loose = false;
  std::vector<std::string> compounds;  ///< ファイルロック, デッドロック for ロック
};

/// Why SearchRequest::loose would match more notes than the hit set.
struct LooseReasons {
  bool words_apart = false;         ///< a compound's pieces apart
  bool inside_words = false;        ///< a word of the notes inside longer words (art in start)
  bool weaker_equivalents = false;  ///< equivalents the vault does not support
  /// "the words apart", "the word inside longer words", "weaker
  /// equivalents", those that apply joined by " or ".
  std::string text() const;
};

/// A facet value and the number of hits carrying it.
struct FacetValue {
  std::string value;
  std::size_t count = 0;
  bool selected = false;  ///< a filter of the query names this value
};

/// The counts of one facet over the whole hit set.
struct FacetCounts {
  std::string name;
  std::vector<FacetValue> values;  ///< by count, then value
  bool sideways = false;  ///< the query filters this facet: counted without that filter (drill-sideways)
};

/// One result.
struct Hit {
  std::size_t rank = 0;  ///< 1-based, counting from the first result of the whole set
  double score = 0;
  std::string path, title, kind;
  /// The note's values of each facet a hit lists (schema::Field::hit_key): "venue" → {"OSDI"}.
  std::map<std::string, std::vector<std::string>> values;
  std::string file;  ///< absolute path of the note file (vault folder + path)
  Tier tier = Tier::Word;
  /// The pieces this note matched only through an equivalent: the piece as
  /// typed and the equivalent the note has ("強化学習" → "reinforcement learning").
  std::vector<std::pair<std::string, Bridge>> bridged;
  MatchTerms terms;  ///< what to highlight in this note (words; substrings it lacks as words)
  std::vector<std::pair<std::string, double>> score_parts;  ///< tier → weight (explain only)
  /// In SearchResult::beyond: how it matches more loosely than the hits
  /// ("the words apart", "weaker equivalents", "ties to TITLE", "some of the words").
  std::string beyond;
  std::vector<Fragment> fragments;
};

/// Everything a search returns.
struct SearchResult {
  std::string query_description;     ///< the Xapian query (with SearchRequest::explain only)
  std::vector<ChunkInfo> chunks;     ///< the query's pieces in every tier
  std::vector<std::string> notices;  ///< what a reader should know about the hits (their tier)
  /// The query is an AND of several pieces, which SearchRequest::widen can widen to OR.
  bool widenable = false;
  std::vector<std::string> suggestions;  ///< "did you mean" vocabulary, when nothing matched
  /// When nothing matched: the query with its unknown words replaced by the
  /// closest index words ("stragler" → "straggler"), for the caller to run;
  /// empty when there is nothing to correct.
  std::string correction;
  std::size_t total = 0;  ///< exact number of matching notes
  /// Without SearchRequest::loose: how many more notes match with the pieces
  /// of a compound apart, a word inside longer words or through weaker
  /// equivalents (what loose would add to total).
  std::size_t loose_more = 0;
  /// What those notes have.
  LooseReasons loose_by;
  std::vector<Hit> hits;
  /// With SearchRequest::go_on, where the hits end before the page does: the
  /// notes a looser search adds, ranked after them (ranks going on from the
  /// total), the page's share of them. Not hits: no count holds them.
  std::vector<Hit> beyond;
  std::vector<FacetCounts> facets;  ///< the facets asked for, in the order asked
  /// Shards that did not answer (--allow-partial): the total, the hits and the
  /// facet counts leave their notes out. Empty when every shard answered.
  std::vector<std::string> missing_shards;
};

/// What to search: --index values (see expand_locations in shards.h).
struct IndexSet {
  std::vector<std::string> locations;
  /// Search the shards that answer when some do not (the result names the
  /// missing ones) instead of failing.
  bool allow_partial = false;
  /// The command that builds an index, as the messages that say how to build
  /// or rebuild one name it.
  std::string indexer_command = "indexer";
};

/// The text of a hit's file as it is now: a regular file inside the vault as
/// it is opened (a note replaced by a link out of the vault, a FIFO, is an
/// Error naming the hit's path), of at most `limit` bytes.
std::string read_hit_file(const Hit& hit, std::uint64_t limit = UINT64_MAX);

/// A line of a note's file that links to another note.
struct LinkLine {
  std::size_t line = 0;  ///< 1-based
  std::string text;      ///< the line; a long one 400 bytes around the link, cut with …
};

/// What links to a note (Searcher::backlinks).
struct Backlinks {
  Hit target;             ///< the note linked to (path, title, kind, file, facet values)
  std::size_t total = 0;  ///< every note linking to it
  struct Note {
    Hit note;  ///< the note that links (no score parts, no snippets)
    std::vector<LinkLine> lines;
  };
  std::vector<Note> notes;  ///< the page asked for, best first
};

/// Notes related to a note (Searcher::related), best first.
struct Related {
  Hit target;
  struct Note {
    Hit note;                      ///< path, title, kind, file, facet values, score
    std::vector<std::string> why;  ///< "links to it", "linked from it", "cites 2 of the same sources",
                                   ///< "person: Xin Liu", "words: 検知, GPU"
  };
  std::vector<Note> notes;
};

struct OpenIndex;

/// An open index, or several shards searched as one (local folders and
/// xapian-tcpsrv servers; same results, ranking and exact counts as one
/// index of the same notes). Throws sagasu::Error naming the index or shard
/// that cannot be opened.
class Searcher {
 public:
  explicit Searcher(const std::string& index_path);
  explicit Searcher(const IndexSet& indexes);
  ~Searcher();

  /// Runs a request; throws UsageError for a malformed query.
  SearchResult search(const SearchRequest& request);
  /// Every value of a facet (or every tag) in the index with its note count (by count, then value).
  FacetCounts list(const std::string& facet);
  /// The indexed note at this vault path (path, title, kind, file and facet
  /// values; no score, tier or snippets), or nothing when the index holds none.
  std::optional<Hit> note(const std::string& path);
  /// The notes most related to the note at this vault path, by what they
  /// share with it: links either way, the pages and sources both link or
  /// cite, people, organizations and tags, and its distinctive words
  /// (Xapian's relevance-feedback expansion of its terms); each with why.
  /// Throws Error when the index holds no such note.
  Related related(const std::string& path, std::size_t limit = 10);
  /// How many notes the index holds.
  std::size_t note_count() const;
  /// How many notes have a value of each facet (its coverage), in table order.
  std::vector<std::pair<std::string, std::size_t>> facet_coverage() const;
  /// The vault's folders the last indexer run could not read (their notes kept
  /// their earlier versions), one per line as the index stores them.
  std::vector<std::string> unreadable_folders() const;
  /// The files the last indexer run that committed skipped, with why (path, reason).
  std::vector<std::pair<std::string, std::string>> skipped_files() const;
  /// The notes that link to the note at this vault path, ranked, each with
  /// the lines where it does: [[name]], [[alias]], [[name|text]],
  /// [[name#heading]], a source note's citation [[@key]] (ASCII case aside).
  /// Candidates come from the index (links:, cites:), each confirmed in its
  /// file. Throws Error when the index holds no such note.
  Backlinks backlinks(const std::string& path, std::size_t offset = 0, std::size_t limit = 20);
  /// The analyzer, for token dumps.
  Analyzer& analyzer() { return m_analyzer; }
  /// The vault the index was built from.
  std::string vault() const;
  /// Shards that did not answer when opened (--allow-partial); empty when all did.
  const std::vector<std::string>& missing_shards() const;

 private:
  SearchResult run(const SearchRequest& request);
  /// The number of notes the request matches with loose compounds; what
  /// `strict` (the request's own verifier) learned is not confirmed again.
  /// builder: the one that compiled the request (its equivalents are looked up once).
  std::size_t count_loose(QueryBuilder& builder, const SearchRequest& request, const Verifier& strict);
  /// SearchRequest::go_on: fills SearchResult::beyond.
  void go_on(const SearchRequest& request, SearchResult& result);
  FacetCounts list_terms(const schema::Field& field);
  /// The notes a note's link terms (XL) name, as their id terms: each a note
  /// whose title or file name folds to the link's target.
  std::vector<std::string> linked_pages(const std::vector<std::string>& link_terms);

  std::unique_ptr<OpenIndex> m_index;
  Analyzer m_analyzer;
};

}  // namespace sagasu
