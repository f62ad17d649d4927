#include "sagasu/searcher.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <functional>
#include <optional>
#include <set>

#include "sagasu/error.h"
#include "sagasu/note.h"
#include "sagasu/query.h"
#include "sagasu/schema.h"
#include "sagasu/shards.h"
#include "sagasu/stored_note.h"
#include "sagasu/substring.h"
#include "sagasu/unicode.h"

namespace sagasu {

const char* to_string(Tier tier) {
  switch (tier) {
    case Tier::Word: return "word";
    case Tier::Substring: return "substring";
    case Tier::Variant: return "variant";
  }
  return "word";
}

namespace {

// Relative weights of the tiers: a whole-word hit outranks a scattered
// compound, which outranks a substring-only hit, other things equal.
constexpr double SCATTERED_WEIGHT = 0.5;
constexpr double SUBSTRING_WEIGHT = 0.5;  // shared by the chunk's grams
constexpr double SYNONYM_WEIGHT = 0.5;    // another name of the same page (vault aliases)

// year:2025, year:2024..2026, year:2024.., year:..2025 → [lo, hi]
std::pair<int, int> parse_year_range(const std::string& v, std::size_t column) {
  auto number = [&](const std::string& s, int dflt) {
    if (s.empty()) return dflt;
    if (s.size() != 4 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
      throw UsageError(fmt::format("query: year:{}: expected a year like 2025 or a range like 2024..2026 "
                                   "at column {}", v, column));
    return std::stoi(s);
  };
  const auto dots = v.find("..");
  if (dots == std::string::npos) {
    const int y = number(v, 0);
    return {y, y};
  }
  if (v.size() == 2) throw UsageError(fmt::format("query: year:..: needs a bound at column {}", column));
  const int lo = number(v.substr(0, dots), 0), hi = number(v.substr(dots + 2), 9999);
  if (lo > hi) throw UsageError(fmt::format("query: year:{}: empty range at column {}", v, column));
  return {lo, hi};
}

// One piece of query text in all tiers.
struct Chunk {
  ChunkInfo info;
  Xapian::Query word, scattered, substring;
  Xapian::Query synonyms;  // the other names of a page this text names (its title, its aliases)
  // The chunk matches as words when a note has every term of one alternative.
  std::vector<std::vector<std::string>> alternatives;
  bool verify = false;  // substring candidates (3+ characters) need the text to confirm them
  bool title_field = false;  // title: text

  Xapian::Query all_tiers() const {
    std::vector<Xapian::Query> q;
    if (!word.empty()) q.push_back(word);
    // Another name of the page counts, less than the words typed.
    if (!synonyms.empty()) q.emplace_back(Xapian::Query::OP_SCALE_WEIGHT, synonyms, SYNONYM_WEIGHT);
    if (!scattered.empty()) q.emplace_back(Xapian::Query::OP_SCALE_WEIGHT, scattered, SCATTERED_WEIGHT);
    if (!substring.empty()) q.push_back(substring);
    return q.empty() ? Xapian::Query() : Xapian::Query(Xapian::Query::OP_OR, q.begin(), q.end());
  }
};

// Does a document hold a term? Posting iterators are kept and moved forward,
// since the matcher asks about documents in ascending order.
class TermProbe {
 public:
  explicit TermProbe(const Xapian::Database& db) : m_db(db) {}
  bool has(const std::string& term, Xapian::docid did) {
    auto it = m_cursors.find(term);
    if (it == m_cursors.end() || it->second.last > did)
      it = m_cursors.insert_or_assign(term, Cursor{m_db.postlist_begin(term), 0}).first;
    Cursor& c = it->second;
    c.last = did;
    if (c.it == Xapian::PostingIterator()) return false;
    c.it.skip_to(did);
    return c.it != Xapian::PostingIterator() && *c.it == did;
  }
  bool has_all(const std::vector<std::string>& terms, Xapian::docid did) {
    return std::all_of(terms.begin(), terms.end(), [&](const std::string& t) { return has(t, did); });
  }

 private:
  struct Cursor {
    Xapian::PostingIterator it;
    Xapian::docid last;
  };
  const Xapian::Database& m_db;
  std::map<std::string, Cursor> m_cursors;
};

bool contains_folded(const NoteText& t, const std::string& needle, Fold fold) {
  // The needle is folded: found as it is in the raw text, it is in the folded text too.
  if (t.body.find(needle) != std::string::npos || t.title_and_aliases.find(needle) != std::string::npos) return true;
  return fold_text(t.body, false, fold).text.find(needle) != std::string::npos ||
         fold_text(t.title_and_aliases, false, fold).text.find(needle) != std::string::npos;
}

// The query's structure as the verifier sees it.
struct VNode {
  enum class Op { And, Or, Not, Chunk, Filter } op;
  std::vector<int> children;  // And/Or
  int chunk = -1;             // Chunk: index into the chunks
  Xapian::Query filter;       // Filter: the boolean query (its terms)
};

// Confirms substring candidates against the note's text (the bigram terms
// carry no positions), and in --exact mode requires the typed text itself:
// the query tree is evaluated on the note, each piece satisfied by its word
// terms or by its folded string in the text. Exclusions are Xapian's own
// and exact, so a NOT node never rejects here.
class Verifier : public Xapian::MatchDecider {
 public:
  Verifier(const Xapian::Database& db, bool shards, const std::vector<Chunk>& chunks, const std::vector<VNode>& nodes,
           bool exact)
      : m_db(db), m_shards(shards), m_probe(db), m_chunks(chunks), m_nodes(nodes), m_exact(exact) {}

  void set_root(int root) { m_root = root; }
  bool needed() const {
    return m_root >= 0 &&
           (m_exact || std::any_of(m_chunks.begin(), m_chunks.end(), [](const Chunk& c) { return c.verify; }));
  }

  bool operator()(const Xapian::Document& doc) const override {
    // Over several shards a document knows its number in its own shard only
    // (Xapian's rule): its number in the whole is found by its unique term.
    Xapian::docid did = doc.get_docid();
    if (m_shards) {
      auto p = m_db.postlist_begin(schema::unique_id_term(FileState::path_of(doc.get_value(schema::SLOT_STATE))));
      if (p == m_db.postlist_end("")) return false;
      did = *p;
    }
    return accept(doc, did);
  }
  /// Does the note `doc`, number `did` in the database searched, satisfy the query?
  bool accept(const Xapian::Document& doc, Xapian::docid did) const {
    Lazy lazy{doc, did, {}, {}, {}, {}};
    return m_root < 0 || eval(m_root, lazy);
  }

 private:
  struct Lazy {
    const Xapian::Document& doc;
    Xapian::docid did;
    std::optional<NoteText> text;
    std::optional<std::string> body, title, lower;
    const NoteText& raw() {
      if (!text) text = NoteText::of(doc);
      return *text;
    }
    bool folded_contains(const std::string& needle) {
      // The needle is folded already: found as it is in the raw text, it is in
      // the folded text too. Most candidates end here, without folding.
      if (raw().body.find(needle) != std::string::npos || raw().title_and_aliases.find(needle) != std::string::npos)
        return true;
      // An ASCII needle found in the lower-cased raw text is in the folded
      // text too (folding leaves ASCII as it is but for case): no need to fold.
      if (std::all_of(needle.begin(), needle.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x80; })) {
        if (!lower) {
          lower = raw().body + "\n" + raw().title_and_aliases;
          for (char& ch : *lower)
            if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
        }
        if (lower->find(needle) != std::string::npos) return true;
        // No non-ASCII character of this note folds to a character of the
        // needle: the lower-cased text was the whole story.
        const std::string produced = doc.get_value(schema::SLOT_FOLDS_TO_ASCII);
        if (std::none_of(needle.begin(), needle.end(), [&](char ch) { return produced.find(ch) != std::string::npos; }))
          return false;
      }
      if (!body) body = fold_text(raw().body).text;
      if (body->find(needle) != std::string::npos) return true;
      if (!title) title = fold_text(raw().title_and_aliases).text;
      return title->find(needle) != std::string::npos;
    }
  };

  bool eval(int i, Lazy& lazy) const {
    const VNode& n = m_nodes[static_cast<std::size_t>(i)];
    switch (n.op) {
      case VNode::Op::Chunk: return satisfied(m_chunks[static_cast<std::size_t>(n.chunk)], lazy);
      case VNode::Op::Filter:
        for (auto t = n.filter.get_terms_begin(); t != n.filter.get_terms_end(); ++t)
          if (m_probe.has(*t, lazy.did)) return true;
        return false;
      case VNode::Op::Not: return true;
      case VNode::Op::And:
        return std::all_of(n.children.begin(), n.children.end(), [&](int c) { return eval(c, lazy); });
      case VNode::Op::Or:
        return std::any_of(n.children.begin(), n.children.end(), [&](int c) { return eval(c, lazy); });
    }
    return true;
  }

  bool satisfied(const Chunk& c, Lazy& lazy) const {
    if (m_exact)
      return lazy.raw().body.find(c.info.text) != std::string::npos ||
             lazy.raw().title_and_aliases.find(c.info.text) != std::string::npos;
    for (const auto& alt : c.alternatives)
      if (m_probe.has_all(alt, lazy.did)) return true;
    return !c.info.substring.empty() && lazy.folded_contains(c.info.substring);
  }

  const Xapian::Database& m_db;
  bool m_shards;
  mutable TermProbe m_probe;
  const std::vector<Chunk>& m_chunks;
  const std::vector<VNode>& m_nodes;
  bool m_exact;
  int m_root = -1;
};

// Edit distance in code points, for did-you-mean.
std::size_t edit_distance(const std::u32string& a, const std::u32string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::u32string to_u32(std::string_view s) {
  std::u32string out;
  for (std::size_t i = 0; i < s.size();) out += unicode::next_code_point(s, i);
  return out;
}

}  // namespace

namespace {

// Opens one shard; throws Error naming it.
Xapian::Database open_shard(const ShardLocation& shard) {
  if (shard.remote()) {
    try {
      // Timeouts in ms: a shard that does not answer is an error, not a hang.
      return Xapian::Remote::open(shard.host, shard.port, 10000, 3000);
    } catch (const Xapian::Error& e) {
      throw Error(fmt::format("{}: cannot reach the shard: {}", shard.name, e.get_msg()));
    }
  }
  std::error_code ec;
  namespace fs = std::filesystem;
  const std::string& path = shard.path;
  if (!fs::exists(path, ec) ||
      (fs::is_directory(path, ec) && !fs::exists(fs::path(path) / "XAPIANDB", ec) &&
       !fs::exists(fs::path(path) / "iamglass", ec)))
    throw Error(fmt::format("{}: no index here; build one with: indexer --vault DIR --index {}", shard.name,
                            shard.name));
  try {
    return Xapian::Database(path);
  } catch (const Xapian::DatabaseOpeningError& e) {
    throw Error(fmt::format("{}: not a Sagasu index ({}); build one with: indexer --vault DIR --index {}",
                            shard.name, e.get_msg(), shard.name));
  } catch (const Xapian::Error& e) {
    throw Error(fmt::format("{}: cannot open index: {}", shard.name, e.get_msg()));
  }
}

}  // namespace

Searcher::Searcher(const std::string& index_path) : Searcher(IndexSet{{index_path}, false}) {}

Searcher::Searcher(const IndexSet& indexes) {
  for (const auto& l : indexes.locations) m_path += (m_path.empty() ? "" : ", ") + l;
  const std::vector<ShardLocation> shards = expand_locations(indexes.locations);
  std::string vault_of_first, first_name;
  std::map<std::size_t, std::string> shard_seen;  // shard number → its location
  std::size_t shard_count = 0;
  bool unnumbered = false;
  for (const auto& shard : shards) {
    Xapian::Database db;
    try {
      db = open_shard(shard);
    } catch (const Error& e) {
      // A shard that does not answer: with --allow-partial, searched without it.
      if (!indexes.allow_partial || !shard.remote()) throw;
      m_missing.push_back(shard.name);
      continue;
    }
    const std::string version = db.get_metadata(std::string(schema::META_SCHEMA_VERSION));
    if (!version.empty() && version != schema::SCHEMA_VERSION)
      throw Error(fmt::format("{}: index schema {} is not {}; rebuild it with: indexer --rebuild", shard.name,
                              version, schema::SCHEMA_VERSION));
    // Shards of one vault: the notes' files are found from its folder.
    const std::string vault = db.get_metadata(std::string(schema::META_VAULT));
    if (first_name.empty()) {
      first_name = shard.name;
      vault_of_first = vault;
    } else if (vault != vault_of_first) {
      throw Error(fmt::format("{}: an index of vault {}, but {} is of vault {}: search one vault's shards together",
                              shard.name, vault.empty() ? "(none)" : vault, first_name,
                              vault_of_first.empty() ? "(none)" : vault_of_first));
    }
    // "K/N": every shard once, or a note would count twice (or not at all).
    const std::string id = db.get_metadata(std::string(schema::META_SHARD));
    const auto slash = id.find('/');
    if (slash == std::string::npos) {
      unnumbered = true;
    } else {
      const std::size_t k = std::stoul(id.substr(0, slash)), n = std::stoul(id.substr(slash + 1));
      if (shard_count && n != shard_count)
        throw Error(fmt::format("{}: shard {} of {}, but other shards given are of a {}-shard index", shard.name,
                                k + 1, n, shard_count));
      shard_count = n;
      if (auto [it, fresh] = shard_seen.emplace(k, shard.name); !fresh)
        throw Error(fmt::format("{}: shard {} of {} is given twice (also as {})", shard.name, k + 1, n, it->second));
    }
    m_remote = m_remote || shard.remote();
    m_db.add_database(db);
    m_shards.push_back(db);
  }
  if (unnumbered && shard_count)
    throw Error(fmt::format("{}: a whole index given with shards of a {}-shard index", m_path, shard_count));
  if (m_missing.size() == shards.size()) throw Error(fmt::format("{}: no shard answered", m_path));
  std::vector<std::string> absent;
  for (std::size_t k = 0; k < shard_count; ++k)
    if (!shard_seen.count(k)) absent.push_back(std::to_string(k + 1));
  if (absent.size() > m_missing.size()) {
    // Shards not given at all (those that did not answer are named already).
    std::string list;
    for (const auto& a : absent) list += (list.empty() ? "" : ", ") + a;
    if (!indexes.allow_partial)
      throw Error(fmt::format("{}: shard {} of {} missing (give every shard, or --allow-partial)", m_path, list,
                              shard_count));
    m_missing.push_back(fmt::format("shard {} of {}", list, shard_count));
  }
}

std::vector<std::string> Searcher::synonyms(const std::string& key) const {
  const std::string px(schema::META_SYNONYM);
  std::vector<std::string> out;
  if (key.empty() || px.size() + key.size() > schema::MAX_TERM_BYTES) return out;
  const std::string all = m_db.get_metadata(px + key);
  for (std::size_t start = 0; start < all.size();) {
    auto end = all.find('\n', start);
    if (end == std::string::npos) end = all.size();
    if (end > start) out.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

Searcher::~Searcher() = default;

std::string Searcher::vault() const { return m_db.get_metadata(std::string(schema::META_VAULT)); }

SearchResult Searcher::search(const SearchRequest& req) {
  try {
    return search_all(req);
  } catch (const Xapian::NetworkError& e) {
    // Xapian does not say which shard: name them all.
    throw Error(fmt::format("{}: a shard stopped answering during the search: {}", m_path, e.get_msg()));
  }
}

SearchResult Searcher::search_all(const SearchRequest& req) {
  for (const std::string* q : {&req.query})
    if (const auto bad = unicode::find_invalid_utf8(*q); bad != std::string::npos)
      throw UsageError(fmt::format("query: invalid UTF-8 at byte {}", bad));
  for (const auto& f : req.filters)
    if (const auto bad = unicode::find_invalid_utf8(f); bad != std::string::npos)
      throw UsageError(fmt::format("--filter: invalid UTF-8 at byte {}", bad));
  // The query tree, with --filter values AND-ed on.
  QueryNode root = parse_query_tree(req.query);
  std::vector<QueryNode> tops;
  if (root.op == QueryNode::Op::And) tops = std::move(root.children);
  else tops.push_back(std::move(root));
  for (const auto& f : req.filters) {
    for (auto& p : parse_query(f)) {
      if (p.type != QueryPart::Type::Filter)
        throw UsageError(fmt::format("--filter {}: expected field:value with a field of venue, year, person, "
                                     "org, kind, tag, path, links, cites", f));
      const bool negated = p.negated;
      p.negated = false;
      QueryNode leaf{QueryNode::Op::Leaf, {}, std::move(p)};
      tops.push_back(negated ? QueryNode{QueryNode::Op::Not, {std::move(leaf)}, {}} : std::move(leaf));
    }
  }

  MatchTerms match;
  const std::string title_prefix(schema::TITLE.prefix);
  const std::string stem_prefix(schema::STEM.prefix);
  const std::string gram_prefix(schema::GRAM.prefix);

  // A piece of text in every tier. prefix is empty for free text, S for title:.
  auto make_chunk = [&](const std::string& text, bool phrase, const std::string& prefix) {
    Chunk c;
    c.title_field = !prefix.empty();
    c.info.text = text;
    c.info.phrase = phrase;
    for (const Token& t : m_analyzer.analyze(text)) {
      if (t.kind == TokenKind::Word) {
        c.info.words.push_back(t.text);
        c.info.stems.emplace_back();
        match.words.insert(t.text);
      } else if (!c.info.words.empty()) {
        c.info.stems.back() = t.text;
        match.stems.insert(t.text);
      }
    }
    const auto& words = c.info.words;
    if (words.size() == 1) {
      c.word = Xapian::Query(prefix + words[0]);
      c.alternatives.push_back({prefix + words[0]});
      if (prefix.empty()) {
        // A word in the title counts again, as its own field.
        c.word = Xapian::Query(Xapian::Query::OP_OR, c.word, Xapian::Query(title_prefix + words[0]));
        if (!c.info.stems[0].empty() && !phrase) {
          c.word = Xapian::Query(Xapian::Query::OP_OR, c.word, Xapian::Query(stem_prefix + c.info.stems[0]));
          c.alternatives.push_back({stem_prefix + c.info.stems[0]});
        }
      }
    } else if (words.size() > 1) {
      // The pieces of one compound (本番クラスタ → 本番 クラスタ) adjacent: a word hit.
      auto phrase_of = [&](const std::string& px) {
        std::vector<Xapian::Query> terms;
        for (const auto& w : words) terms.emplace_back(px + w);
        return Xapian::Query(Xapian::Query::OP_PHRASE, terms.begin(), terms.end(),
                             static_cast<Xapian::termcount>(terms.size()));
      };
      c.word = prefix.empty() ? Xapian::Query(Xapian::Query::OP_OR, phrase_of(""), phrase_of(title_prefix))
                              : phrase_of(prefix);
      std::vector<std::string> all;
      for (const auto& w : words) all.push_back(prefix + w);
      // For the verifier: the words present (Xapian has checked the adjacency).
      c.alternatives.push_back(all);
      if (prefix.empty()) {
        std::vector<std::string> in_title;
        for (const auto& w : words) in_title.push_back(title_prefix + w);
        c.alternatives.push_back(in_title);
      }
      // Scattered pieces still match, lower; a quoted phrase must be adjacent.
      if (!phrase && prefix.empty()) {
        std::vector<Xapian::Query> terms;
        for (const auto& w : words) terms.emplace_back(w);
        c.scattered = Xapian::Query(Xapian::Query::OP_AND, terms.begin(), terms.end());
      }
    }
    // Other names of the page this text names, from the vault's aliases.
    if (prefix.empty() && !req.exact && !words.empty()) {
      std::string key;
      for (const auto& w : words) key += (key.empty() ? "" : " ") + w;
      std::vector<Xapian::Query> alts;
      for (const std::string& syn : synonyms(key)) {
        std::vector<std::string> sw;
        std::string cur;
        for (char ch : syn + " ") {
          if (ch == ' ') {
            if (!cur.empty()) sw.push_back(cur);
            cur.clear();
          } else {
            cur += ch;
          }
        }
        if (sw.empty()) continue;
        c.info.synonyms.push_back(syn);
        c.alternatives.push_back(sw);
        for (const auto& w : sw) match.words.insert(w);
        if (sw.size() == 1) {
          alts.emplace_back(Xapian::Query::OP_OR, Xapian::Query(sw[0]), Xapian::Query(title_prefix + sw[0]));
        } else {
          std::vector<Xapian::Query> terms;
          for (const auto& w : sw) terms.emplace_back(w);
          alts.emplace_back(Xapian::Query::OP_PHRASE, terms.begin(), terms.end(),
                            static_cast<Xapian::termcount>(terms.size()));
        }
      }
      if (!alts.empty()) c.synonyms = Xapian::Query(Xapian::Query::OP_OR, alts.begin(), alts.end());
    }
    // The substring tier: free text without white space inside (in --exact
    // mode too: the verifier then requires the typed text itself).
    if (prefix.empty()) {
      c.info.substring = fold_query(text);
      c.info.substring_exact = fold_query(text, Fold::Width);
      const bool spaced = c.info.substring.find_first_of(" \t") != std::string::npos;
      if (!c.info.substring.empty() && !spaced) {
        const QueryGrams qg = query_grams(c.info.substring);
        c.info.grams = qg.grams;
        if (!qg.prefix.empty()) {
          c.info.grams = {qg.prefix + "*"};
          // Expanded here, not by OP_WILDCARD: each shard would expand it with
          // its own statistics, and a sharded index would score it otherwise
          // than one index. OR-ed: OP_MAX under a filter over three shards
          // crashes Xapian 1.4.22 (`x venue:OSDI`, tests/e2e/85-shards.sh).
          std::vector<Xapian::Query> terms;
          const std::string px = gram_prefix + qg.prefix;
          for (auto t = m_db.allterms_begin(px); t != m_db.allterms_end(px); ++t) terms.emplace_back(*t);
          if (!terms.empty()) c.substring = Xapian::Query(Xapian::Query::OP_OR, terms.begin(), terms.end());
        } else if (!qg.grams.empty()) {
          std::vector<Xapian::Query> terms;
          for (const auto& g : qg.grams) terms.emplace_back(gram_prefix + g);
          c.substring = Xapian::Query(Xapian::Query::OP_AND, terms.begin(), terms.end());
        }
        c.verify = !qg.exact;
        const std::size_t parts = std::max<std::size_t>(1, qg.grams.size());
        if (!c.substring.empty()) {
          c.substring = Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, c.substring,
                                      SUBSTRING_WEIGHT / static_cast<double>(parts));
        }
      } else {
        c.info.substring.clear();
      }
    }
    if (req.exact) match.literals.push_back(text);
    return c;
  };

  std::vector<Chunk> chunks;
  std::vector<Xapian::Query> must_not;
  std::map<std::string, std::vector<Xapian::Query>> filters;  // facet field → OR-ed values
  std::map<std::string, std::set<std::string>> selected_terms;  // field → its filter terms

  // A field filter as a boolean query.
  auto filter_query = [&](const QueryPart& p) {
    std::vector<Xapian::Query> alts;
    if (p.field == "year") {
      const auto [lo, hi] = parse_year_range(p.value, p.column);
      const std::string px(schema::YEAR.prefix);
      for (auto t = m_db.allterms_begin(px); t != m_db.allterms_end(px); ++t) {
        const std::string y = (*t).substr(px.size());
        if (y.size() == 4 && std::stoi(y) >= lo && std::stoi(y) <= hi) alts.emplace_back(*t);
      }
    } else if (p.field == "kind") {
      const auto kind = parse_kind(p.value);
      if (!kind)
        throw UsageError(fmt::format("query: kind:{}: expected source, person, organization, product, "
                                     "concept or other at column {}", p.value, p.column));
      alts.emplace_back(schema::filter_term(schema::KIND, to_string(*kind)));
    } else if (p.field == "cites" || p.field == "path") {
      // cites:KEY, cites:2026__OSDI__* (a key prefix), or cites:"SDCs in the Wild" (a title);
      // path:wiki/sources (a folder or path prefix), path:*.md style globs are not supported.
      const schema::Field& prefix = p.field == "cites" ? schema::CITE : schema::PATH;
      std::string value = p.value;
      if (p.field == "cites" && !value.empty() && value.front() == '@') value.erase(0, 1);
      const bool wildcard = !value.empty() && value.back() == '*';
      if (wildcard) value.pop_back();
      while (p.field == "path" && !value.empty() && value.back() == '/') value.pop_back();
      const std::string px(prefix.prefix);
      if (wildcard || p.field == "path" || parse_citation(value)) {
        const std::string stem = schema::filter_term(prefix, value);
        for (auto t = m_db.allterms_begin(stem); t != m_db.allterms_end(stem); ++t) alts.emplace_back(*t);
      } else {
        const std::string title = schema::filter_term(prefix, value).substr(px.size());
        for (auto t = m_db.allterms_begin(px); t != m_db.allterms_end(px); ++t) {
          const std::string key = (*t).substr(px.size());
          const auto sep = key.find("__", 6);
          if (sep != std::string::npos && key.find(title, sep + 2) != std::string::npos) alts.emplace_back(*t);
        }
      }
    } else {
      const std::string term = schema::filter_term(*schema::find_field(p.field), p.value);
      alts.emplace_back(term);
      // An alias names the page: org:バイトダンス = org:ByteDance.
      for (const auto& syn : synonyms(term)) alts.emplace_back(syn);
    }
    for (const auto& q : alts)
      for (auto t = q.get_terms_begin(); t != q.get_terms_end(); ++t) selected_terms[p.field].insert(*t);
    // A value no note has matches nothing, but must still filter.
    return alts.empty() ? Xapian::Query(Xapian::Query::MatchNothing)
                        : Xapian::Query(Xapian::Query::OP_OR, alts.begin(), alts.end());
  };

  // Facet filters: top-level field filters, or an OR of one field's filters
  // (venue:OSDI OR venue:SOSP). They filter without weight, and a facet the
  // query filters on is counted sideways. Everything else is the text tree.
  auto is_filter_leaf = [](const QueryNode& n) {
    return n.op == QueryNode::Op::Leaf && n.leaf.type == QueryPart::Type::Filter;
  };
  std::vector<QueryNode> text_tops;
  for (auto& t : tops) {
    if (is_filter_leaf(t)) {
      filters[t.leaf.field].push_back(filter_query(t.leaf));
    } else if (t.op == QueryNode::Op::Or &&
               std::all_of(t.children.begin(), t.children.end(), [&](const QueryNode& c) {
                 return is_filter_leaf(c) && c.leaf.field == t.children.front().leaf.field;
               })) {
      for (const auto& c : t.children) filters[c.leaf.field].push_back(filter_query(c.leaf));
    } else if (t.op == QueryNode::Op::Not && is_filter_leaf(t.children.front())) {
      must_not.push_back(filter_query(t.children.front().leaf));
    } else {
      text_tops.push_back(std::move(t));
    }
  }

  // Several plain words that together name a page ("silent data corruption"):
  // one piece, so the page's other names (SDC) count too.
  if (text_tops.size() > 1 && !req.exact &&
      std::all_of(text_tops.begin(), text_tops.end(), [](const QueryNode& n) {
        return n.op == QueryNode::Op::Leaf && n.leaf.type == QueryPart::Type::Text;
      })) {
    std::string all_text, key;
    for (const auto& n : text_tops) {
      all_text += (all_text.empty() ? "" : " ") + n.leaf.value;
      for (const auto& w : m_analyzer.words(n.leaf.value)) key += (key.empty() ? "" : " ") + w;
    }
    if (!synonyms(key).empty()) {
      // The words as one name, or the words as they are: nothing the plain
      // query found is lost.
      QueryPart merged;
      merged.value = all_text;
      QueryNode words{QueryNode::Op::And, std::move(text_tops), {}};
      text_tops.clear();
      text_tops.push_back(QueryNode{QueryNode::Op::Or, {QueryNode{QueryNode::Op::Leaf, {}, merged}, std::move(words)}, {}});
    }
  }

  // The text tree as a Xapian query, and as a tree the verifier can check.
  std::vector<VNode> vnodes;
  std::function<std::pair<Xapian::Query, int>(const QueryNode&, bool)> build;
  build = [&](const QueryNode& n, bool any) -> std::pair<Xapian::Query, int> {
    switch (n.op) {
      case QueryNode::Op::Leaf: {
        const QueryPart& p = n.leaf;
        if (p.type == QueryPart::Type::Filter) {
          vnodes.push_back(VNode{VNode::Op::Filter, {}, -1, filter_query(p)});
          return {Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, vnodes.back().filter, 0.0),
                  static_cast<int>(vnodes.size() - 1)};
        }
        const bool title = p.type == QueryPart::Type::TitleText;
        Chunk c = make_chunk(p.value, p.type != QueryPart::Type::Text, title ? title_prefix : "");
        Xapian::Query q = title ? c.word : c.all_tiers();
        if (q.empty()) return {Xapian::Query(), -1};
        chunks.push_back(std::move(c));
        vnodes.push_back(VNode{VNode::Op::Chunk, {}, static_cast<int>(chunks.size() - 1), {}});
        return {q, static_cast<int>(vnodes.size() - 1)};
      }
      case QueryNode::Op::Not: {
        // Exclusion by whole words only: a substring could exclude too much.
        const QueryNode& inner = n.children.front();
        Xapian::Query q;
        if (inner.op == QueryNode::Op::Leaf && inner.leaf.type != QueryPart::Type::Filter) {
          const bool title = inner.leaf.type == QueryPart::Type::TitleText;
          q = make_chunk(inner.leaf.value, inner.leaf.type == QueryPart::Type::Phrase || title,
                         title ? title_prefix : "")
                  .word;
        } else {
          const std::size_t keep_chunks = chunks.size(), keep_nodes = vnodes.size();
          q = build(inner, false).first;
          chunks.resize(keep_chunks);  // an excluded piece is neither verified nor highlighted
          vnodes.resize(keep_nodes);
        }
        vnodes.push_back(VNode{VNode::Op::Not, {}, -1, {}});
        return {q.empty() ? q : Xapian::Query(Xapian::Query::OP_AND_NOT, Xapian::Query::MatchAll, q),
                static_cast<int>(vnodes.size() - 1)};
      }
      case QueryNode::Op::And:
      case QueryNode::Op::Or: {
        const bool is_or = n.op == QueryNode::Op::Or || any;
        std::vector<Xapian::Query> pos, neg;
        std::vector<int> kids;
        for (const auto& child : n.children) {
          if (!is_or && child.op == QueryNode::Op::Not) {
            // AND NOT: the exclusion applies to the other pieces.
            auto [q, v] = build(child, false);
            if (!q.empty()) neg.push_back(q.get_subquery(1));
            continue;
          }
          auto [q, v] = build(child, false);
          if (q.empty()) continue;
          pos.push_back(q);
          kids.push_back(v);
        }
        Xapian::Query q;
        if (!pos.empty()) q = Xapian::Query(is_or ? Xapian::Query::OP_OR : Xapian::Query::OP_AND, pos.begin(), pos.end());
        else if (!neg.empty()) q = Xapian::Query::MatchAll;
        if (!neg.empty()) q = Xapian::Query(Xapian::Query::OP_AND_NOT, q, Xapian::Query(Xapian::Query::OP_OR, neg.begin(), neg.end()));
        vnodes.push_back(VNode{is_or ? VNode::Op::Or : VNode::Op::And, kids, -1, {}});
        return {q, static_cast<int>(vnodes.size() - 1)};
      }
    }
    return {Xapian::Query(), -1};
  };
  const QueryNode text_root = text_tops.size() == 1 ? text_tops.front()
                                                    : QueryNode{QueryNode::Op::And, text_tops, {}};
  // The plain AND of two or more pieces can be widened to OR (zero-hit rescue).
  const bool widenable = text_root.op == QueryNode::Op::And && text_root.children.size() > 1;
  auto [text_query, vroot] = text_tops.empty() ? std::pair<Xapian::Query, int>{Xapian::Query(), -1}
                                               : build(text_root, false);
  if (text_query.empty() && filters.empty() && must_not.empty() && !req.match_all)
    throw UsageError(fmt::format("query: nothing to search for in '{}'", req.query));

  // The query: the text tree (or everything), each facet's filter (values
  // OR-ed) AND-ed with the others except the facet `without` (drill-sideways).
  auto assemble = [&](const Xapian::Query& text, const std::string& without) {
    Xapian::Query query = text.empty() ? Xapian::Query(Xapian::Query::MatchAll) : text;
    std::vector<Xapian::Query> filter_list;
    for (auto& [field, alts] : filters)
      if (field != without) filter_list.emplace_back(Xapian::Query::OP_OR, alts.begin(), alts.end());
    if (!filter_list.empty())
      query = Xapian::Query(Xapian::Query::OP_FILTER, query,
                            Xapian::Query(Xapian::Query::OP_AND, filter_list.begin(), filter_list.end()));
    if (!must_not.empty())
      query = Xapian::Query(Xapian::Query::OP_AND_NOT, query,
                            Xapian::Query(Xapian::Query::OP_OR, must_not.begin(), must_not.end()));
    return query;
  };

  SearchResult result;
  for (const auto& c : chunks) result.chunks.push_back(c.info);
  const Xapian::doccount all = m_db.get_doccount();
  Verifier verifier(m_db, m_shards.size() > 1, chunks, vnodes, req.exact);
  verifier.set_root(vroot);

  // One match over every document (so counts are exact), counting the
  // facets asked for with Xapian's own spy on the packed slots.
  struct Matched {
    Xapian::doccount total = 0;
    std::vector<std::pair<Xapian::Document, double>> page;  // the hits asked for, best first
    std::map<const schema::Field*, std::map<std::string, std::size_t>> counts;  // single values
  };
  // Hits in order: (year then) score, equal ones by title and path, never by
  // document number (which differs between one index and shards).
  struct Ranked {
    Xapian::docid did;
    double weight;
    std::string key;  // the sort value (year), empty for other orders
    std::optional<Xapian::Document> doc;
  };
  auto title_of = [&](Ranked& r) {
    if (!r.doc) r.doc = m_db.get_document(r.did);
    return r.doc->get_value(schema::SLOT_TITLE);
  };
  // Xapian orders equal (year, score) by document number: reorder them by title.
  auto order_ties = [&](std::vector<Ranked>& ranked) {
    for (std::size_t i = 0; i < ranked.size();) {
      std::size_t j = i + 1;
      while (j < ranked.size() && ranked[j].key == ranked[i].key && ranked[j].weight == ranked[i].weight) ++j;
      if (j - i > 1) {
        std::vector<std::pair<std::string, std::size_t>> titles;
        for (std::size_t k = i; k < j; ++k) titles.emplace_back(title_of(ranked[k]), k);
        std::sort(titles.begin(), titles.end());
        std::vector<Ranked> group;
        for (const auto& t : titles) group.push_back(std::move(ranked[t.second]));
        std::move(group.begin(), group.end(), ranked.begin() + static_cast<std::ptrdiff_t>(i));
      }
      i = j;
    }
  };
  auto run = [&](const Xapian::Query& query, Xapian::doccount first, Xapian::doccount max,
                 const std::vector<const schema::Field*>& facets) {
    Xapian::Enquire enquire(m_db);
    enquire.set_query(query);
    enquire.set_weighting_scheme(Xapian::BM25Weight());
    // Equal scores are ordered by title and path, not by document number: the
    // same order on one index and on any number of shards. Sorting by year,
    // Xapian can only break (year, score) ties by document number; they are
    // reordered here (order_ties).
    const bool by_year = req.sort == SearchRequest::Sort::Year;
    if (req.sort == SearchRequest::Sort::Relevance) enquire.set_sort_by_relevance_then_value(schema::SLOT_TITLE, false);
    if (by_year) enquire.set_sort_by_value_then_relevance(schema::SLOT_YEAR_SORT, true);
    if (req.sort == SearchRequest::Sort::Title) enquire.set_sort_by_value_then_relevance(schema::SLOT_TITLE, false);
    Matched m;
    auto take_page = [&](std::vector<Ranked>& ranked, std::size_t from) {
      if (by_year) order_ties(ranked);
      for (std::size_t at = from; at < ranked.size() && at - from < max; ++at) {
        if (!ranked[at].doc) ranked[at].doc = m_db.get_document(ranked[at].did);
        m.page.emplace_back(std::move(*ranked[at].doc), ranked[at].weight);
      }
    };
    if (m_remote && verifier.needed()) {
      // Xapian's remote backend runs no MatchDecider: every candidate comes
      // back and is confirmed here, and the total and the facets are counted
      // from the confirmed ones: the same numbers as the decider gives locally.
      const Xapian::MSet candidates = enquire.get_mset(0, all, all);
      std::vector<std::pair<Xapian::docid, std::size_t>> by_docid;  // the verifier reads postings in docid order
      for (auto it = candidates.begin(); it != candidates.end(); ++it) by_docid.emplace_back(*it, by_docid.size());
      std::sort(by_docid.begin(), by_docid.end());
      std::vector<std::optional<Xapian::Document>> confirmed(by_docid.size());
      for (const auto& [did, at] : by_docid) {
        Xapian::Document doc = m_db.get_document(did);
        if (!verifier.accept(doc, did)) continue;
        for (const auto* f : facets)
          for (const auto& single : schema::unpack_values(doc.get_value(static_cast<Xapian::valueno>(f->facet_slot)))) ++m.counts[f][single];
        confirmed[at] = std::move(doc);
      }
      std::vector<Ranked> ranked;
      auto it = candidates.begin();
      for (std::size_t at = 0; at < confirmed.size(); ++at, ++it)
        if (confirmed[at])
          ranked.push_back({*it, it.get_weight(), by_year ? it.get_sort_key() : "", std::move(confirmed[at])});
      m.total = static_cast<Xapian::doccount>(ranked.size());
      take_page(ranked, first);
      return m;
    }
    auto count_with_spies = [&](Xapian::Enquire& e) {
      std::vector<std::unique_ptr<Xapian::ValueCountMatchSpy>> spies;
      for (const auto* f : facets) {
        spies.push_back(std::make_unique<Xapian::ValueCountMatchSpy>(static_cast<Xapian::valueno>(f->facet_slot)));
        e.add_matchspy(spies.back().get());
      }
      return spies;
    };
    auto add_counts = [&](const std::vector<std::unique_ptr<Xapian::ValueCountMatchSpy>>& spies) {
      for (std::size_t i = 0; i < facets.size(); ++i)
        for (auto v = spies[i]->values_begin(); v != spies[i]->values_end(); ++v)
          for (const auto& single : schema::unpack_values(*v)) m.counts[facets[i]][single] += v.get_termfreq();
    };
    // Spies over several shards of which some are remote over-count (Xapian
    // 1.4.22, measured: org:ByteDance on 4 tcp shards counted kinds summing to
    // 32 for 27 notes); each shard alone counts exactly, so the shards are
    // counted one by one and summed.
    const bool per_shard = m_remote && m_shards.size() > 1 && !facets.empty();
    const auto spies = per_shard ? decltype(count_with_spies(enquire))() : count_with_spies(enquire);
    Xapian::MatchDecider* decider = verifier.needed() ? &verifier : nullptr;
    // By year, the hits before the page too: a tie group may begin before it.
    const Xapian::doccount from = by_year ? 0 : first;
    const Xapian::doccount upto = !by_year ? max : max >= all || first >= all - max ? all : first + max;
    const Xapian::MSet mset = enquire.get_mset(from, upto, all, nullptr, decider);
    m.total = mset.get_matches_estimated();  // exact: check_at_least covers every document
    std::vector<Ranked> ranked;
    for (auto it = mset.begin(); it != mset.end(); ++it)
      ranked.push_back({*it, it.get_weight(), by_year ? it.get_sort_key() : "",
                        by_year ? std::nullopt : std::optional<Xapian::Document>(it.get_document())});
    if (by_year && !ranked.empty() && ranked.size() < m.total) {
      // The last tie group may go on past the page: fetch the rest of it.
      enquire.clear_matchspies();
      const std::string key = ranked.back().key;
      const double weight = ranked.back().weight;
      for (bool more = true; more;) {
        constexpr Xapian::doccount STEP = 64;
        const Xapian::MSet next = enquire.get_mset(static_cast<Xapian::doccount>(ranked.size()), STEP, 0, nullptr, decider);
        more = next.size() == STEP;
        for (auto it = next.begin(); it != next.end(); ++it) {
          if (it.get_sort_key() != key || it.get_weight() != weight) {
            more = false;
            break;
          }
          ranked.push_back({*it, it.get_weight(), key, std::nullopt});
        }
      }
    }
    take_page(ranked, from == 0 ? first : 0);
    if (!per_shard) {
      add_counts(spies);
      return m;
    }
    for (const auto& shard : m_shards) {
      Xapian::Enquire e(shard);
      e.set_query(query);
      e.set_weighting_scheme(Xapian::BoolWeight());
      const auto shard_spies = count_with_spies(e);
      e.get_mset(0, 0, shard.get_doccount());
      add_counts(shard_spies);
    }
    return m;
  };
  auto counts_of = [&](const schema::Field& f, const std::map<std::string, std::size_t>& counts) {
    FacetCounts fc;
    fc.name = std::string(f.name);
    const auto& sel = selected_terms[fc.name];
    for (auto& [value, n] : counts) {
      const bool selected = sel.count(schema::filter_term(f, value)) > 0;
      fc.values.push_back({value, n, selected});
    }
    std::stable_sort(fc.values.begin(), fc.values.end(),
                     [](const FacetValue& a, const FacetValue& b) { return a.count > b.count; });
    return fc;
  };

  std::vector<const schema::Field*> wanted;
  for (const auto& name : req.facets) {
    const schema::Field* f = schema::find_facet(name);
    if (!f) throw UsageError(fmt::format("--facet {}: expected venue, year, person, org or kind", name));
    if (std::find(wanted.begin(), wanted.end(), f) == wanted.end()) wanted.push_back(f);
  }
  // Facets the query filters on are counted sideways (below); the rest in the main match.
  std::vector<const schema::Field*> in_main;
  for (const auto* f : wanted)
    if (!filters.count(std::string(f->name))) in_main.push_back(f);

  Xapian::Query query = assemble(text_query, "");
  const auto first = static_cast<Xapian::doccount>(req.offset);
  const auto max = static_cast<Xapian::doccount>(req.limit);
  Matched matched = run(query, first, max, in_main);
  // Zero-hit rescue: no note has every piece, so show notes with any piece.
  if (matched.total == 0 && widenable) {
    chunks.clear();
    vnodes.clear();
    std::tie(text_query, vroot) = build(text_root, true);
    verifier.set_root(vroot);
    query = assemble(text_query, "");
    matched = run(query, first, max, in_main);
    if (matched.total > 0)
      result.notices.push_back("no note matches every word; showing notes that match any of them");
  }
  result.query_description = query.get_description();
  result.total = matched.total;
  result.missing_shards = m_missing;

  std::map<const schema::Field*, FacetCounts> counted;
  for (const auto* f : in_main) counted[f] = counts_of(*f, matched.counts[f]);
  // Drill-sideways (as Lucene's DrillSideways): a filtered facet is counted
  // without its own filter, so the other values show what widening gives.
  for (const auto* f : wanted) {
    if (counted.count(f)) continue;
    Matched side = run(assemble(text_query, std::string(f->name)), 0, 0, {f});
    counted[f] = counts_of(*f, side.counts[f]);
    counted[f].sideways = true;
  }
  for (const auto* f : wanted) result.facets.push_back(std::move(counted[f]));

  const std::string vault_root = vault();
  std::size_t rank = req.offset;
  for (const auto& [doc, weight] : matched.page) {
    Hit hit;
    hit.rank = ++rank;
    hit.score = weight;
    const auto meta = NoteMeta::decode(doc.get_value(schema::SLOT_META));
    if (!meta) throw Error(fmt::format("{}: document {} has unreadable metadata", m_path, doc.get_docid()));
    hit.path = meta->path;
    hit.title = meta->title;
    hit.kind = meta->kind;
    if (!vault_root.empty()) hit.file = vault_root + "/" + hit.path;
    hit.venues = schema::unpack_values(doc.get_value(schema::SLOT_VENUES));
    hit.years = schema::unpack_values(doc.get_value(schema::SLOT_YEARS));
    hit.persons = schema::unpack_values(doc.get_value(schema::SLOT_PERSONS));
    hit.orgs = schema::unpack_values(doc.get_value(schema::SLOT_ORGS));
    // The tier: the weakest any piece needed. Word tier: the piece's word
    // query (phrase positions included) matches this note.
    const Xapian::Query only(schema::unique_id_term(hit.path));
    auto matches = [&](const Xapian::Query& q) {
      if (q.empty()) return false;
      Xapian::Enquire e(m_db);
      e.set_query(Xapian::Query(Xapian::Query::OP_FILTER, q, only));
      return !e.get_mset(0, 1).empty();
    };
    std::optional<NoteText> text;
    // Highlights: whole words always; substrings only for the pieces this
    // note has not as words.
    MatchTerms hit_terms{match.words, match.stems, {}, match.literals};
    for (const Chunk& c : chunks) {
      if (matches(c.word) || matches(c.scattered) || matches(c.synonyms)) continue;
      if (!c.info.substring.empty() && !req.exact) hit_terms.substrings.push_back(c.info.substring);
      if (!text) text = NoteText::of(doc);
      if (!c.info.substring_exact.empty() && contains_folded(*text, c.info.substring_exact, Fold::Width))
        hit.tier = std::max(hit.tier, Tier::Substring);
      else if (!c.info.substring.empty() && contains_folded(*text, c.info.substring, Fold::Full))
        hit.tier = std::max(hit.tier, Tier::Variant);
      // else: a piece this note lacks (the zero-hit rescue's OR)
    }
    if (req.explain) {
      // Each tier's weight for this note alone.
      auto weight_of = [&](auto pick) {
        std::vector<Xapian::Query> qs;
        for (const auto& c : chunks) {
          Xapian::Query q = pick(c);
          if (!q.empty()) qs.push_back(q);
        }
        if (qs.empty()) return 0.0;
        Xapian::Enquire e(m_db);
        e.set_query(Xapian::Query(Xapian::Query::OP_FILTER, Xapian::Query(Xapian::Query::OP_OR, qs.begin(), qs.end()), only));
        e.set_weighting_scheme(Xapian::BM25Weight());
        const Xapian::MSet m = e.get_mset(0, 1);
        return m.empty() ? 0.0 : m.begin().get_weight();
      };
      hit.score_parts.emplace_back("word", weight_of([](const Chunk& c) { return c.word; }));
      hit.score_parts.emplace_back("other names", weight_of([](const Chunk& c) {
        return c.synonyms.empty() ? c.synonyms : Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, c.synonyms, SYNONYM_WEIGHT);
      }));
      hit.score_parts.emplace_back("scattered", weight_of([](const Chunk& c) {
        return c.scattered.empty() ? c.scattered : Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, c.scattered, SCATTERED_WEIGHT);
      }));
      hit.score_parts.emplace_back("substring", weight_of([](const Chunk& c) { return c.substring; }));
    }
    if (req.snippets > 0) {
      hit.fragments = SnippetGenerator(m_analyzer, hit_terms).generate(doc.get_data(), meta->citations, req.snippets,
                                                                       req.snippet_bytes);
    }
    hit.terms = std::move(hit_terms);
    result.hits.push_back(std::move(hit));
  }

  // Widening is visible: say when the best hit is not a whole-word hit.
  if (req.offset == 0 && !result.hits.empty() && result.hits.front().tier != Tier::Word)
    result.notices.push_back(fmt::format("no whole-word match; showing {} matches", to_string(result.hits.front().tier)));
  if (result.total == 0 && !req.exact) {
    // Did you mean: the closest index words; with them the query is run
    // again (once), and the user is told.
    SearchRequest corrected = req;
    bool changed = false;
    for (const auto& c : chunks) {
      if (c.title_field) continue;
      const auto fixes = suggest(c.info.words);
      for (const auto& f : fixes)
        if (!f.empty()) result.suggestions.push_back(f);
      const auto at = corrected.query.find(c.info.text);
      if (c.info.words.size() == 1 && !c.info.phrase && !fixes[0].empty() && at != std::string::npos) {
        corrected.query.replace(at, c.info.text.size(), fixes[0]);
        changed = true;
      }
    }
    if (changed && m_corrections++ == 0) {
      SearchResult again = search(corrected);
      m_corrections = 0;
      if (again.total > 0) {
        again.notices.insert(again.notices.begin(),
                             fmt::format("no hits for '{}'; showing hits for '{}'", req.query, corrected.query));
        again.suggestions = result.suggestions;
        return again;
      }
    }
    m_corrections = 0;
  }
  return result;
}

FacetCounts Searcher::list(const std::string& facet) {
  if (!schema::find_facet(facet))
    throw UsageError(fmt::format("--list {}: expected venue, year, person, org or kind", facet));
  SearchRequest req;
  req.facets = {facet};
  req.limit = 0;
  req.snippets = 0;
  req.match_all = true;
  SearchResult r = search(req);
  return r.facets.empty() ? FacetCounts{facet, {}, false} : r.facets.front();
}

std::vector<std::string> Searcher::suggest(const std::vector<std::string>& words) {
  // Close vocabulary by edit distance: index words that share the first
  // character and differ by one edit (two for longer words); the most
  // frequent of the closest wins.
  std::vector<std::string> out;
  for (const auto& w : words) {
    out.emplace_back();
    if (w.empty() || m_db.term_exists(w)) continue;  // a known word: nothing to correct
    const std::u32string target = to_u32(w);
    std::size_t first_len = 0;
    unicode::next_code_point(w, first_len);
    const std::string first = w.substr(0, first_len);
    const std::size_t max_d = target.size() <= 4 ? 1 : 2;
    std::size_t best_d = max_d + 1;
    Xapian::doccount best_freq = 0;
    for (auto t = m_db.allterms_begin(first); t != m_db.allterms_end(first); ++t) {
      const std::string term = *t;
      const std::u32string cand = to_u32(term);
      if (cand.size() + max_d < target.size() || cand.size() > target.size() + max_d) continue;
      const std::size_t d = edit_distance(target, cand);
      if (d < best_d || (d == best_d && t.get_termfreq() > best_freq)) {
        out.back() = term;
        best_d = d;
        best_freq = t.get_termfreq();
      }
    }
  }
  return out;
}

}  // namespace sagasu
