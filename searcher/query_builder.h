// From the query language to a query Xapian can run: each piece of text in
// every matching tier (words, scattered compound pieces, the page's other
// names, substring grams), the facet filters apart from the text (so they can
// be dropped one at a time for drill-sideways counts), and the tree the
// verifier checks on the stored text.
#pragma once

#include <xapian.h>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "bridges.h"
#include "compounds.h"
#include "field_query.h"
#include "query.h"
#include "sagasu/analyzer.h"
#include "sagasu/searcher.h"
#include "sagasu/snippet.h"
#include "sagasu/substring.h"
#include "sagasu/word_list.h"
#include "synonyms.h"

namespace sagasu {

/// Terms that together make a piece of text match as words: all of them,
/// and adjacent in this order when `adjacent` (the pieces of a compound, a phrase).
struct WordMatch {
  std::vector<std::string> terms;
  bool adjacent = false;
};

/// One piece of query text in every tier.
struct Chunk {
  ChunkInfo info;
  Xapian::Query word, scattered, substring;
  /// The longer katakana words of the notes that hold it as one of their
  /// words (ChunkInfo::compounds): they select, the substring tier weighs.
  Xapian::Query compounds;
  Xapian::Query synonyms;  ///< the other names of a page this text names (its title, its aliases)
  Xapian::Query bridge;    ///< its equivalents in the other language (unweighted: all_tiers scales it)
  std::vector<Xapian::Query> bridges;  ///< each equivalent's query, as info.bridges lists them
  /// The piece in a note's title, through any tier but the substring's
  /// (unweighted), and the rarity (summed idf) of its words: what it weighs
  /// there (CompiledQuery::title).
  std::vector<Xapian::Query> in_title;
  double rarity = 0;
  /// Each word of a piece of several in the title alone, and its rarity.
  std::vector<std::pair<Xapian::Query, double>> words_in_title;
  /// The chunk matches as words when a note has one of these.
  std::vector<WordMatch> alternatives;
  bool verify = false;      ///< substring candidates (3+ characters) need the text to confirm them
  bool field_text = false;  ///< title: text (a text field, not the body)
  bool compound = false;    ///< several words typed as one (本番クラスタ): may match with them apart
  bool held_back = false;   ///< equivalents left to --loose (Bridge::loose)

  /// Every tier OR-ed, each weighted as it ranks.
  Xapian::Query all_tiers() const;
};

/// A node of the query as the verifier evaluates it on a note.
struct VNode {
  enum class Op { And, Or, Not, Chunk, Filter } op;
  std::vector<int> children;  ///< And/Or
  int chunk = -1;             ///< Chunk: index into the chunks
  Xapian::Query filter;       ///< Filter: the boolean query (its terms)
};

/// Relative weights of the tiers: a whole-word hit outranks a scattered
/// compound, which outranks a substring-only hit, other things equal.
inline constexpr double SCATTERED_WEIGHT = 0.5;
inline constexpr double SUBSTRING_WEIGHT = 0.5;  ///< shared by the chunk's grams
inline constexpr double SYNONYM_WEIGHT = 0.5;    ///< another name of the same page (vault aliases)
/// An equivalent in the other language, shared by its words: below the words
/// typed, so a note that says 強化学習 ranks above one that only says
/// "reinforcement learning", other things equal; what the vault itself states
/// weighs more than a general dictionary's sense (attention = 注意 in a note
/// about caution), a sound-alike or a word-by-word equivalent.
inline constexpr double BRIDGE_WEIGHT = 0.4;
inline constexpr double BRIDGE_WEIGHT_GENERAL = 0.25;
/// Another spelling of the same word (取扱い for 取り扱い), or the same word
/// in the other script (a dictionary's loanword and its source, Bridge::loanword):
/// just below the spelling typed.
inline constexpr double SPELLING_WEIGHT = 0.8;
/// A term's phrase with its last word in the other number (diffusion
/// policies for diffusion policy), beside the phrase typed.
inline constexpr double OTHER_NUMBER_WEIGHT = 0.25;
/// The query in the title says what the note is about: a weight of its
/// own, the same for every note (not lost in a long one), this many times
/// the rarity (idf) of the query's words, whichever tier matched them. A
/// title with some of the pieces names another topic (Marshal フォーマット for
/// 文字列 フォーマット): its weight shrinks as the square of the share it holds.
inline constexpr double TITLE_WEIGHT = 2.0;
/// A word of a piece of several in the title (syntax of "syntax
/// highlighting" in syntax.jax): less, as part of the evidence.
inline constexpr double TITLE_WORD_WEIGHT = 1.0;
/// Pieces typed apart whose words a note writes close together (within this
/// many positions more than their number: about a sentence) weigh again, this
/// share of their words' weight: マクロ 記録 in 「記録されたマクロ」 is one topic.
/// Only the best hits are weighed so (RERANK_DEPTH, Collector::collect):
/// reading every hit's positions doubled the cost of 研究 時間 at 100,000 notes.
inline constexpr unsigned PROXIMITY_SLACK = 16;
inline constexpr double PROXIMITY_WEIGHT = 1.0;
/// The weight of a bridge by what it is (Bridge::how, Bridge::loanword).
inline double bridge_weight(const Bridge& b) {
  if (spelling(b) || b.loanword) return SPELLING_WEIGHT;
  return is_stated(b.how) || b.how == Provenance::Romaji || b.how == Provenance::Reading
             ? BRIDGE_WEIGHT
             : BRIDGE_WEIGHT_GENERAL;
}

/// A query ready to run.
struct CompiledQuery {
  QueryNode text_tree;        ///< the text part of the query (everything but the facet filters)
  std::vector<Chunk> chunks;  ///< its pieces of text
  std::vector<VNode> nodes;   ///< its tree for the verifier
  int root = -1;              ///< the root node, -1 without text
  Xapian::Query text;         ///< its Xapian query (empty: every note), title evidence included
  Xapian::Query title;        ///< the title evidence alone (TITLE_WEIGHT; empty: none)
  /// The words of an AND's pieces near each other (weighted): no part of
  /// the match, a weight the best hits get where they match (boost()).
  std::vector<Xapian::Query> proximity;
  std::map<std::string, std::vector<Xapian::Query>> filters;  ///< facet field → its values (OR-ed)
  std::vector<Xapian::Query> must_not;                        ///< excluded filter values
  std::map<std::string, std::set<std::string>> selected;      ///< field → the terms its filters match
  MatchTerms match;                                           ///< what to highlight
  bool widenable = false;     ///< an AND of two or more pieces: the zero-hit rescue may OR them
  bool widened = false;       ///< the rescue did
  bool has_compound = false;  ///< a piece is a compound: a loose match could find more notes
  bool held_back = false;     ///< a piece has equivalents only --loose uses: so could it
  bool inside_words = false;  ///< a piece is a word whose longer words only --loose matches: so could it

  /// The whole query: the text, AND each facet filter but the facet `without`
  /// (drill-sideways counts), AND NOT the exclusions.
  Xapian::Query assemble(std::string_view without = {}) const;
  /// The query with each piece by its word tier alone: the notes that are whole-word hits.
  Xapian::Query words_only() const;
  /// The text query given, with the filters (but `without`) and the exclusions.
  Xapian::Query assemble_with(const Xapian::Query& words, std::string_view without) const;
  /// The weight added to the best hits where they match it (Collector::collect): the proximity.
  Xapian::Query boost() const;
};

class QueryBuilder {
 public:
  /// The word list of db (word_list.h) and its katakana words
  /// (compounds.h), asked for when a query needs them.
  using WordSource = std::function<const WordList&()>;
  using KatakanaSource = std::function<const KatakanaWords&()>;
  /// bridges: the bridge tier's equivalents (nullptr: no bridge tier); words,
  /// katakana: db's word list and katakana words (empty: built from db's
  /// terms when needed).
  QueryBuilder(const Xapian::Database& db, Analyzer& analyzer, const Synonyms& synonyms, bool exact,
               const Bridges* bridges = nullptr, WordSource words = {}, KatakanaSource katakana = {})
      : m_db(db),
        m_analyzer(analyzer),
        m_synonyms(synonyms),
        m_bridges(exact ? nullptr : bridges),
        m_fields(db, synonyms),
        m_exact(exact),
        m_words(std::move(words)),
        m_katakana_words(std::move(katakana)) {}

  /// Compiles the request's query and --filter values; throws UsageError when
  /// they are malformed, or empty unless the request matches every note.
  CompiledQuery build(const SearchRequest& req);
  /// The zero-hit rescue: the text's top-level AND becomes an OR.
  void widen(CompiledQuery& q);
  /// The field filters of the queries built (their notices: "kind:paper means kind:source").
  const FieldQuery& fields() const { return m_fields; }

 private:
  /// The query's top-level pieces: the parsed query with each --filter AND-ed on.
  std::vector<QueryNode> top_level(const SearchRequest& req) const;
  /// Moves the facet filters (field:value at top level, or an OR of one field's values) out of tops.
  std::vector<QueryNode> take_filters(std::vector<QueryNode> tops, CompiledQuery& q);
  /// Plain words that together name a page ("silent data corruption") also count as one name.
  void join_terms(std::vector<QueryNode>& tops) const;
  void merge_names(std::vector<QueryNode>& tops) const;
  /// Compiles q.text_tree into chunks, nodes and the text query; any: OR every AND.
  void compile_text(CompiledQuery& q, bool any);
  std::pair<Xapian::Query, int> build_node(const QueryNode& n, bool any, CompiledQuery& q);
  std::pair<Xapian::Query, int> build_leaf(const QueryPart& p, CompiledQuery& q);
  std::pair<Xapian::Query, int> build_not(const QueryNode& n, CompiledQuery& q);
  std::pair<Xapian::Query, int> build_bool(const QueryNode& n, bool any, CompiledQuery& q);
  /// Is an acronym's other number (acronym_number) a form of it the vault
  /// writes (the singular; the plural with a small s in a note)?
  bool written_so(const std::string& typed, const std::string& form) const;
  /// The words (of letters and digits, two or more each) as one word of the
  /// vault (filesystem for file system; sim2real for sim to real), or "" where it has no such word.
  std::string written_as_one(const std::vector<std::string>& words) const;
  /// Is the piece (its folded substring: add_substring_tier first) one word
  /// of letters and digits that the vault or the dictionary has (art, stem,
  /// 2024)? Inside a longer word it is mostly another word there (start,
  /// system), so those match it only with --loose.
  bool word_of_letters(const Chunk& c) const;
  /// For a katakana word of the vault (ロック, not プログラ of プログラム:
  /// partial_word), the longer words that hold it as one of their words
  /// (ファイルロック; not ブロック): adds them as the chunk's compounds and
  /// says true, as the rest match it only with --loose (compounds.h); false
  /// where every longer word holds it so.
  bool add_compounds(Chunk& c) const;
  const KatakanaWords& katakana_words() const;
  /// A title writing English words as one name (view transition:
  /// <ViewTransition>); empty when no title does.
  Xapian::Query title_as_one_name(const std::vector<std::string>& words) const;
  /// The proximity boost of an AND's pieces (CompiledQuery::proximity).
  void add_proximity(const std::vector<int>& kids, CompiledQuery& q) const;
  Xapian::Query filter_query(const QueryPart& p, CompiledQuery& q) const;

  /// A piece of text in every tier; prefix is empty for body text, S for
  /// title:; a name (merge_names) has no substring tier; no_bridge: no bridge tier.
  Chunk make_chunk(const std::string& text, bool phrase, const std::string& prefix, MatchTerms& match,
                   bool name = false, bool no_bridge = false);
  /// The vault's words that are English inflections of word (a lower-case
  /// word whose stem is stem), as the word tier matches them too.
  std::vector<std::string> inflections(const std::string& word, const std::string& stem) const;
  void add_word_tier(Chunk& c, bool phrase, const std::string& prefix, const std::string& stem,
                     MatchTerms& match) const;
  /// The word tier of a piece of one word (add_word_tier), and of one of several (a compound, a phrase).
  void add_one_word(Chunk& c, bool phrase, const std::string& prefix, const std::string& stem,
                    MatchTerms& match) const;
  void add_words(Chunk& c, bool phrase, const std::string& prefix, MatchTerms& match) const;
  void add_synonym_tier(Chunk& c, MatchTerms& match) const;
  void add_bridge_tier(Chunk& c, MatchTerms& match) const;
  /// The query of an equivalent's words (the word and its plural, or the
  /// words adjacent), with what the verifier and highlights need.
  Xapian::Query equivalent_query(const std::vector<std::string>& words, Chunk& c, MatchTerms& match) const;
  void add_scattered_equivalents(Chunk& c, MatchTerms& match) const;
  void add_substring_tier(Chunk& c, const std::string& text) const;
  /// The candidates of one run of a substring (no white space in it): the
  /// notes with its grams, where a run of letters and digits may be shown by
  /// a word instead (schema.h); weighed as one term. phrase: a run a space
  /// follows, whose tail grams carry the end-of-run mark. Adds the grams to shown.
  Xapian::Query run_query(const std::string& run, bool phrase, std::vector<std::string>& shown,
                          bool& exact) const;
  /// The notes with a word whose folding contains the letters and digits.
  Xapian::Query words_containing(std::string_view piece) const;
  /// Any of the words: an OR sharing one word's weight, or, above
  /// MAX_WEIGHED_WORDS of them, a synonym that only selects.
  static Xapian::Query any_word(const std::vector<std::string>& words);
  static constexpr std::size_t MAX_WEIGHED_WORDS = 100;
  const WordList& words() const;
  /// How rare the words are in the notes: the sum of their idf.
  double rarity(const std::vector<std::string>& words) const;

  const Xapian::Database& m_db;
  Analyzer& m_analyzer;
  const Synonyms& m_synonyms;
  const Bridges* m_bridges;
  FieldQuery m_fields;
  bool m_exact;
  WordSource m_words;
  KatakanaSource m_katakana_words;
  mutable std::shared_ptr<const WordList> m_own_words;  ///< built from m_db when m_words is empty
  mutable std::unique_ptr<KatakanaWords> m_katakana;    ///< built from m_db when m_katakana_words is empty
  bool m_loose = false;
  bool m_any = false;  // widened: any piece, and (loose) any word of a compound
};

}  // namespace sagasu
