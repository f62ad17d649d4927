#include "query_builder.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "sagasu/error.h"
#include "sagasu/strings.h"
#include "sagasu/substring.h"
#include "sagasu/unicode.h"
#include "unweighted.h"

namespace sagasu {
namespace {

// A piece of text as the word tier has it: its words, and each one's English stem ("" if none).
struct WordsAndStems {
  std::vector<std::string> words, stems;
};
WordsAndStems words_and_stems(Analyzer& analyzer, const std::string& text) {
  WordsAndStems out;
  for (const Token& t : analyzer.analyze(text)) {
    if (t.kind == TokenKind::Word) {
      out.words.push_back(t.text);
      out.stems.emplace_back();
    } else if (t.kind == TokenKind::Stem && !out.words.empty()) {
      out.stems.back() = t.text;
    }
  }
  return out;
}

// The plural of a lower-case English noun (generator → generators, index →
// indexes, policy → policies); "" for a word not all ASCII letters.
std::string english_plural(const std::string& w) {
  if (w.size() < 2 || !std::all_of(w.begin(), w.end(), [](char ch) { return ch >= 'a' && ch <= 'z'; }))
    return {};
  const auto ends = [&](std::string_view e) {
    return w.size() >= e.size() && w.compare(w.size() - e.size(), e.size(), e) == 0;
  };
  if (ends("s") || ends("x") || ends("z") || ends("ch") || ends("sh")) return w + "es";
  if (ends("y") && std::string_view("aeiou").find(w[w.size() - 2]) == std::string_view::npos)
    return w.substr(0, w.size() - 1) + "ies";
  return w + "s";
}

// What a lower-case English word may inflect: itself, and the word without
// -s, -es, -ies, -ed or -ing (an e put back, a doubled consonant undone):
// studies → study; learned → learn; running → run; used → use.
std::vector<std::string> english_bases(const std::string& w) {
  std::vector<std::string> out{w};
  const auto ends = [&](std::string_view e) {
    return w.size() > e.size() + 1 && w.compare(w.size() - e.size(), e.size(), e) == 0;
  };
  // An ending, and what it replaced.
  constexpr std::pair<std::string_view, std::string_view> ENDINGS[] = {
      {"ies", "y"}, {"ied", "y"}, {"es", ""}, {"s", ""}, {"ed", ""}, {"ed", "e"}, {"ing", ""}, {"ing", "e"}};
  for (const auto& [end, back] : ENDINGS) {
    if (!ends(end) || (end == "s" && ends("ss"))) continue;
    std::string base = w.substr(0, w.size() - end.size()) + std::string(back);
    if (back.empty() && end != "s" && end != "es" && base.size() >= 3 && base.back() == base[base.size() - 2])
      out.push_back(base.substr(0, base.size() - 1));
    out.push_back(std::move(base));
  }
  return out;
}

// An acronym typed in capitals in the other number, with a small s: LLM →
// llms, GPUs → gpu ("" for none). The English stemmer keeps them apart: llms
// has no vowel, gpus ends in -us.
std::string acronym_number(std::string_view typed, const std::string& word) {
  const auto capital = [](char ch) { return (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9'); };
  const bool plural = typed.size() > 2 && typed.back() == 's';
  const std::string_view letters = plural ? typed.substr(0, typed.size() - 1) : typed;
  if (letters.size() < 2 || !std::all_of(letters.begin(), letters.end(), capital) ||
      std::none_of(letters.begin(), letters.end(), [](char ch) { return ch >= 'A' && ch <= 'Z'; }))
    return {};
  std::string other = !plural                                 ? word + "s"
                      : word.size() > 1 && word.back() == 's' ? word.substr(0, word.size() - 1)
                                                              : "";
  // (Where the stemmer joins them they are words: IT is not its.)
  const Xapian::Stem stemmer("english");
  return other.empty() || stemmer(other) == stemmer(word) ? "" : other;
}

// The other number of a lower-case English noun: policy → policies, policies → policy.
std::vector<std::string> other_numbers(const std::string& w) {
  std::vector<std::string> out;
  for (std::string& base : english_bases(w))
    if (english_plural(base) == w) out.push_back(std::move(base));
  if (std::string plural = english_plural(w); !plural.empty()) out.push_back(std::move(plural));
  return out;
}

Xapian::Query phrase_of(const std::vector<std::string>& words, const std::string& prefix) {
  std::vector<Xapian::Query> terms;
  for (const auto& w : words) terms.emplace_back(prefix + w);
  return Xapian::Query(Xapian::Query::OP_PHRASE, terms.begin(), terms.end(),
                       static_cast<Xapian::termcount>(terms.size()));
}

// A hiragana query the analyzer cuts into single kana (さーばー → さ ー ば ー)
// is a katakana word typed in hiragana: it is analysed as that word (サーバ),
// never as scattered kana. Hiragana words the analyzer keeps whole (これ,
// すべて) stay as typed.
std::string as_one_word(Analyzer& analyzer, const std::string& text) {
  bool hiragana = false;
  for (std::size_t i = 0; i < text.size();) {
    const char32_t c = unicode::next_code_point(text, i);
    if (unicode::is_hiragana(c))
      hiragana = true;
    else if (!unicode::is_long_vowel_mark(c))
      return text;
  }
  if (!hiragana) return text;
  const auto words = analyzer.analyze(text);
  const bool cut =
      std::any_of(words.begin(), words.end(), [](const Token& t) { return unicode::length(t.text) == 1; });
  return cut ? unicode::to_katakana(text) : text;
}

bool is_filter_leaf(const QueryNode& n) {
  return n.op == QueryNode::Op::Leaf && n.leaf.type == QueryPart::Type::Filter;
}

}  // namespace

Xapian::Query Chunk::all_tiers() const {
  std::vector<Xapian::Query> q;
  if (!word.empty()) q.push_back(word);
  // Another name of the page counts, less than the words typed.
  if (!synonyms.empty()) q.emplace_back(Xapian::Query::OP_SCALE_WEIGHT, synonyms, SYNONYM_WEIGHT);
  if (!bridge.empty()) q.push_back(bridge);
  if (!scattered.empty()) q.emplace_back(Xapian::Query::OP_SCALE_WEIGHT, scattered, SCATTERED_WEIGHT);
  if (!compounds.empty()) q.push_back(compounds);
  if (!substring.empty() && !info.inside_words_loose) q.push_back(substring);
  const Xapian::Query any =
      q.empty() ? Xapian::Query() : Xapian::Query(Xapian::Query::OP_OR, q.begin(), q.end());
  // Inside longer words, the word still weighs where the other tiers match.
  return info.inside_words_loose ? Xapian::Query(Xapian::Query::OP_AND_MAYBE, any, substring) : any;
}

namespace {

Xapian::Query title_evidence(const std::vector<Chunk>& chunks) {
  // Each piece in the title weighs TITLE_WEIGHT × its rarity r × r / R, R the
  // rarity of the pieces that can be in a title; a title with all of them
  // adds the rest, up to TITLE_WEIGHT × R. So one piece alone weighs all of
  // it, and of two pieces alike, a title with one weighs a quarter of one
  // with both. Fixed weights (FixedWeightPostingSource, filtered by the title
  // terms): the same in every note, adding no note of their own.
  const auto fixed = [](double weight, const Xapian::Query& in) {
    return Xapian::Query(Xapian::Query::OP_FILTER,
                         Xapian::Query((new Xapian::FixedWeightPostingSource(weight))->release()), in);
  };
  double total = 0, squares = 0;
  std::vector<Xapian::Query> out, each;
  for (const Chunk& c : chunks)
    if (!c.in_title.empty() && c.rarity > 0) total += c.rarity;
  for (const Chunk& c : chunks) {
    if (c.in_title.empty() || c.rarity <= 0) continue;
    const double share = c.rarity / total;
    squares += c.rarity * share;
    each.emplace_back(Xapian::Query::OP_OR, c.in_title.begin(), c.in_title.end());
    out.push_back(fixed(TITLE_WEIGHT * c.rarity * share, each.back()));
    for (const auto& [in, rarity] : c.words_in_title)
      out.push_back(fixed(TITLE_WORD_WEIGHT * rarity * share, in));
  }
  if (each.size() > 1 && total > squares)
    out.push_back(fixed(TITLE_WEIGHT * (total - squares),
                        Xapian::Query(Xapian::Query::OP_AND, each.begin(), each.end())));
  return out.empty() ? Xapian::Query() : Xapian::Query(Xapian::Query::OP_OR, out.begin(), out.end());
}

}  // namespace

Xapian::Query CompiledQuery::boost() const {
  return proximity.empty() ? Xapian::Query()
                           : Xapian::Query(Xapian::Query::OP_OR, proximity.begin(), proximity.end());
}

Xapian::Query CompiledQuery::assemble(std::string_view without) const {
  return assemble_with(text, without);
}

Xapian::Query CompiledQuery::words_only() const {
  // Each piece by its word tier (its words, or the page's other names) in
  // the query's own tree; an exclusion is the whole query's (assemble_with).
  const std::function<Xapian::Query(int)> node = [&](int n) {
    const VNode& v = nodes[static_cast<std::size_t>(n)];
    std::vector<Xapian::Query> kids;
    switch (v.op) {
      case VNode::Op::Chunk: {
        const Chunk& c = chunks[static_cast<std::size_t>(v.chunk)];
        return c.synonyms.empty() ? c.word : Xapian::Query(Xapian::Query::OP_OR, c.word, c.synonyms);
      }
      case VNode::Op::Filter:
        return v.filter;
      case VNode::Op::Not:
        return Xapian::Query(Xapian::Query::MatchAll);
      case VNode::Op::And:
      case VNode::Op::Or:
        for (int k : v.children) kids.push_back(node(k));
        return Xapian::Query(v.op == VNode::Op::And ? Xapian::Query::OP_AND : Xapian::Query::OP_OR,
                             kids.begin(), kids.end());
    }
    return Xapian::Query::MatchNothing;
  };
  if (root < 0) return assemble();
  const Xapian::Query words = node(root);
  return words.empty() ? words : assemble_with(words, {});  // (an empty text is every note there)
}

Xapian::Query CompiledQuery::assemble_with(const Xapian::Query& words, std::string_view without) const {
  Xapian::Query query = words.empty() ? Xapian::Query(Xapian::Query::MatchAll) : words;
  std::vector<Xapian::Query> filter_list;
  for (const auto& [field, alts] : filters)
    if (field != without) filter_list.emplace_back(Xapian::Query::OP_OR, alts.begin(), alts.end());
  if (!filter_list.empty())
    query = Xapian::Query(Xapian::Query::OP_FILTER, query,
                          Xapian::Query(Xapian::Query::OP_AND, filter_list.begin(), filter_list.end()));
  if (!must_not.empty())
    query = Xapian::Query(Xapian::Query::OP_AND_NOT, query,
                          Xapian::Query(Xapian::Query::OP_OR, must_not.begin(), must_not.end()));
  return query;
}

CompiledQuery QueryBuilder::build(const SearchRequest& req) {
  m_loose = req.loose;
  CompiledQuery q;
  std::vector<QueryNode> text_tops = take_filters(top_level(req), q);
  if (!m_exact) {
    join_terms(text_tops);
    merge_names(text_tops);
  }
  q.text_tree = text_tops.size() == 1 ? std::move(text_tops.front())
                                      : QueryNode{QueryNode::Op::And, std::move(text_tops), {}};
  // The plain AND of two or more pieces can be widened to OR (zero-hit rescue).
  q.widenable = q.text_tree.op == QueryNode::Op::And && q.text_tree.children.size() > 1;
  compile_text(q, false);
  // (Loose, a compound's words widen too: any of them.)
  q.widenable = q.widenable || (m_loose && q.has_compound);
  if (req.any_piece && q.widenable) widen(q);
  if (q.text.empty() && q.filters.empty() && q.must_not.empty() && !req.match_all)
    throw UsageError(fmt::format("query: nothing to search for in '{}'", req.query));
  return q;
}

void QueryBuilder::widen(CompiledQuery& q) {
  compile_text(q, true);
  q.widened = true;
}

std::vector<QueryNode> QueryBuilder::top_level(const SearchRequest& req) const {
  QueryNode root = parse_query_tree(req.query);
  std::vector<QueryNode> tops;
  if (root.op == QueryNode::Op::And)
    tops = std::move(root.children);
  else
    tops.push_back(std::move(root));
  for (const auto& f : req.filters) {
    for (auto& p : parse_query(f)) {
      if (p.type != QueryPart::Type::Filter)
        throw UsageError(fmt::format("--filter {}: expected field:value with a field of {}", f,
                                     schema::field_names(false)));
      const bool negated = p.negated;
      p.negated = false;
      QueryNode leaf{QueryNode::Op::Leaf, {}, std::move(p)};
      tops.push_back(negated ? QueryNode{QueryNode::Op::Not, {std::move(leaf)}, {}} : std::move(leaf));
    }
  }
  return tops;
}

std::vector<QueryNode> QueryBuilder::take_filters(std::vector<QueryNode> tops, CompiledQuery& q) {
  // Facet filters: top-level field filters, or an OR of one field's filters
  // (venue:OSDI OR venue:SOSP). They filter without weight, and a facet the
  // query filters on is counted sideways. Everything else is the text tree.
  std::vector<QueryNode> text_tops;
  for (auto& t : tops) {
    if (is_filter_leaf(t)) {
      q.filters[t.leaf.field].push_back(filter_query(t.leaf, q));
    } else if (t.op == QueryNode::Op::Or &&
               std::all_of(t.children.begin(), t.children.end(), [&](const QueryNode& c) {
                 return is_filter_leaf(c) && c.leaf.field == t.children.front().leaf.field;
               })) {
      for (const auto& c : t.children) q.filters[c.leaf.field].push_back(filter_query(c.leaf, q));
    } else if (t.op == QueryNode::Op::Not && is_filter_leaf(t.children.front())) {
      q.must_not.push_back(filter_query(t.children.front().leaf, q));
    } else {
      text_tops.push_back(std::move(t));
    }
  }
  return text_tops;
}

void QueryBuilder::join_terms(std::vector<QueryNode>& tops) const {
  // Runs of English words the vault writes together ("world model",
  // "depth estimation") or as one word ("file system": filesystem), the longest first, are one piece: a term,
  // its words adjacent as a compound's are (apart only with --loose). Words the notes never write together
  // ("MegaScale checkpoint") stay pieces of their own.
  constexpr std::size_t LONGEST_TERM = 4;
  auto english = [](const QueryNode& n) {
    return n.op == QueryNode::Op::Leaf && n.leaf.type == QueryPart::Type::Text && !n.leaf.value.empty() &&
           std::all_of(n.leaf.value.begin(), n.leaf.value.end(), [](char ch) {
             return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '\'';
           });
  };
  auto written = [&](std::size_t from, std::size_t to) {
    std::vector<std::string> words;
    for (std::size_t k = from; k < to; ++k)
      for (std::string& w : m_analyzer.words(tops[k].leaf.value)) words.push_back(std::move(w));
    return words.size() > 1 && (!unweighted_enquire(m_db, phrase_of(words, "")).get_mset(0, 1).empty() ||
                                !written_as_one(words).empty());
  };
  std::vector<QueryNode> out;
  for (std::size_t i = 0; i < tops.size();) {
    std::size_t run = i;
    while (run < tops.size() && run < i + LONGEST_TERM && english(tops[run])) ++run;
    std::size_t end = i;
    for (std::size_t j = run; j >= i + 2 && end == i; --j)
      if (written(i, j)) end = j;
    if (end == i) {
      out.push_back(std::move(tops[i++]));
      continue;
    }
    QueryNode term = std::move(tops[i]);
    for (std::size_t k = i + 1; k < end; ++k) term.leaf.value += " " + tops[k].leaf.value;
    out.push_back(std::move(term));
    i = end;
  }
  tops = std::move(out);
}

void QueryBuilder::merge_names(std::vector<QueryNode>& tops) const {
  // Runs of plain words that together name something (a page's name, or a
  // term with an equivalent: "root cause" in "root cause analysis"), the
  // longest first: the words as one name, or the words as they are, so
  // nothing the plain query found is lost.
  constexpr std::size_t LONGEST_RUN = 6;
  auto plain = [](const QueryNode& n) {
    return n.op == QueryNode::Op::Leaf && n.leaf.type == QueryPart::Type::Text;
  };
  std::vector<std::vector<std::string>> top_words(tops.size());  // each plain top's words, analysed once
  for (std::size_t k = 0; k < tops.size(); ++k)
    if (plain(tops[k])) top_words[k] = m_analyzer.words(tops[k].leaf.value);
  auto names = [&](std::size_t from, std::size_t to) {
    std::vector<std::string> words;
    for (std::size_t k = from; k < to; ++k)
      words.insert(words.end(), top_words[k].begin(), top_words[k].end());
    return !m_synonyms.of(fmt::format("{}", fmt::join(words, " "))).empty() ||
           (m_bridges && m_bridges->names(words));
  };
  std::vector<QueryNode> out;
  for (std::size_t i = 0; i < tops.size();) {
    std::size_t end = i;
    std::size_t run = i;
    while (run < tops.size() && run < i + LONGEST_RUN && plain(tops[run])) ++run;
    for (std::size_t j = run; j >= i + 2 && end == i; --j)
      if (names(i, j)) end = j;
    if (end == i) {
      out.push_back(std::move(tops[i++]));
      continue;
    }
    QueryPart merged;
    merged.name = true;
    std::vector<QueryNode> words;
    for (std::size_t k = i; k < end; ++k) {
      merged.value += (merged.value.empty() ? "" : " ") + tops[k].leaf.value;
      tops[k].leaf.in_name = true;
      words.push_back(std::move(tops[k]));
    }
    out.push_back(QueryNode{
        QueryNode::Op::Or,
        {QueryNode{QueryNode::Op::Leaf, {}, merged}, QueryNode{QueryNode::Op::And, std::move(words), {}}},
        {}});
    i = end;
  }
  tops = std::move(out);
}

void QueryBuilder::compile_text(CompiledQuery& q, bool any) {
  q.chunks.clear();
  q.nodes.clear();
  q.match = MatchTerms();
  q.proximity.clear();
  q.has_compound = false;
  q.held_back = false;
  q.inside_words = false;
  m_any = any;
  const bool no_text = q.text_tree.op == QueryNode::Op::And && q.text_tree.children.empty();
  std::tie(q.text, q.root) =
      no_text ? std::pair<Xapian::Query, int>{Xapian::Query(), -1} : build_node(q.text_tree, any, q);
  q.title = title_evidence(q.chunks);
  if (!q.text.empty() && !q.title.empty())
    q.text = Xapian::Query(Xapian::Query::OP_AND_MAYBE, q.text, q.title);
}

std::pair<Xapian::Query, int> QueryBuilder::build_node(const QueryNode& n, bool any, CompiledQuery& q) {
  switch (n.op) {
    case QueryNode::Op::Leaf:
      return build_leaf(n.leaf, q);
    case QueryNode::Op::Not:
      return build_not(n, q);
    case QueryNode::Op::And:
    case QueryNode::Op::Or:
      return build_bool(n, any, q);
  }
  return {Xapian::Query(), -1};
}

std::pair<Xapian::Query, int> QueryBuilder::build_leaf(const QueryPart& p, CompiledQuery& q) {
  if (p.type == QueryPart::Type::Filter) {
    q.nodes.push_back(VNode{VNode::Op::Filter, {}, -1, filter_query(p, q)});
    return {unweighted(q.nodes.back().filter), static_cast<int>(q.nodes.size() - 1)};
  }
  const bool field_text = p.type == QueryPart::Type::FieldText;
  const std::string prefix = field_text ? std::string(schema::find_field(p.field)->prefix) : "";
  Chunk c =
      make_chunk(p.value, p.type != QueryPart::Type::Text, prefix, q.match, p.name, p.in_name && !m_loose);
  Xapian::Query query = field_text ? c.word : c.all_tiers();
  if (query.empty()) return {Xapian::Query(), -1};
  q.has_compound = q.has_compound || c.compound;
  q.held_back = q.held_back || c.held_back;
  q.inside_words = q.inside_words || c.info.inside_words_loose;
  q.chunks.push_back(std::move(c));
  q.nodes.push_back(VNode{VNode::Op::Chunk, {}, static_cast<int>(q.chunks.size() - 1), {}});
  return {query, static_cast<int>(q.nodes.size() - 1)};
}

std::pair<Xapian::Query, int> QueryBuilder::build_not(const QueryNode& n, CompiledQuery& q) {
  // Exclusion by whole words only: a substring could exclude too much.
  const QueryNode& inner = n.children.front();
  Xapian::Query excluded;
  if (inner.op == QueryNode::Op::Leaf && inner.leaf.type != QueryPart::Type::Filter) {
    const bool field_text = inner.leaf.type == QueryPart::Type::FieldText;
    const std::string prefix = field_text ? std::string(schema::find_field(inner.leaf.field)->prefix) : "";
    // (As a phrase: the word itself, not its stem's family: -transformer keeps transform.)
    excluded = make_chunk(inner.leaf.value, true, prefix, q.match).word;
  } else {
    const std::size_t keep_chunks = q.chunks.size(), keep_nodes = q.nodes.size(),
                      keep_proximity = q.proximity.size();
    excluded = build_node(inner, false, q).first;
    q.chunks.resize(keep_chunks);  // an excluded piece is neither verified, highlighted nor weighed
    q.nodes.resize(keep_nodes);
    q.proximity.resize(keep_proximity);
  }
  q.nodes.push_back(VNode{VNode::Op::Not, {}, -1, {}});
  return {excluded.empty() ? excluded
                           : Xapian::Query(Xapian::Query::OP_AND_NOT, Xapian::Query::MatchAll, excluded),
          static_cast<int>(q.nodes.size() - 1)};
}

void QueryBuilder::add_proximity(const std::vector<int>& kids, CompiledQuery& q) const {
  // Pieces typed apart that a note writes close together (記録されたマクロ
  // for マクロ 記録) are about one thing there: their words near each other
  // weigh again. The words as typed, in the body.
  std::vector<Xapian::Query> words;
  for (const int kid : kids) {
    if (kid < 0 || q.nodes[static_cast<std::size_t>(kid)].op != VNode::Op::Chunk) continue;
    const Chunk& c = q.chunks[static_cast<std::size_t>(q.nodes[static_cast<std::size_t>(kid)].chunk)];
    if (c.field_text) continue;
    for (const std::string& w : c.info.words) words.emplace_back(w);
  }
  if (words.size() < 2) return;
  const Xapian::Query near(Xapian::Query::OP_NEAR, words.begin(), words.end(),
                           static_cast<Xapian::termcount>(words.size() + PROXIMITY_SLACK));
  q.proximity.emplace_back(Xapian::Query::OP_SCALE_WEIGHT, near, PROXIMITY_WEIGHT);
}

std::pair<Xapian::Query, int> QueryBuilder::build_bool(const QueryNode& n, bool any, CompiledQuery& q) {
  const bool is_or = n.op == QueryNode::Op::Or || any;
  std::vector<Xapian::Query> pos, neg;
  std::vector<int> kids;
  for (const auto& child : n.children) {
    auto [query, node] = build_node(child, false, q);
    if (n.op == QueryNode::Op::And && child.op == QueryNode::Op::Not) {
      // AND NOT: the exclusion applies to the other pieces, also when the
      // zero-hit rescue widens the AND to OR (any notes with a piece, none
      // with an excluded one).
      if (!query.empty()) neg.push_back(query.get_subquery(1));
      continue;
    }
    if (query.empty()) continue;
    pos.push_back(query);
    kids.push_back(node);
  }
  Xapian::Query query;
  if (!pos.empty())
    query = Xapian::Query(is_or ? Xapian::Query::OP_OR : Xapian::Query::OP_AND, pos.begin(), pos.end());
  else if (!neg.empty())
    query = Xapian::Query::MatchAll;
  if (pos.size() > 1 && !is_or) add_proximity(kids, q);
  if (!neg.empty())
    query = Xapian::Query(Xapian::Query::OP_AND_NOT, query,
                          Xapian::Query(Xapian::Query::OP_OR, neg.begin(), neg.end()));
  q.nodes.push_back(VNode{is_or ? VNode::Op::Or : VNode::Op::And, kids, -1, {}});
  return {query, static_cast<int>(q.nodes.size() - 1)};
}

Xapian::Query QueryBuilder::filter_query(const QueryPart& p, CompiledQuery& q) const {
  FieldFilter f = m_fields.filter(p);
  q.selected[p.field].insert(f.terms.begin(), f.terms.end());
  return f.query;
}

Chunk QueryBuilder::make_chunk(const std::string& text, bool phrase, const std::string& prefix,
                               MatchTerms& match, bool name, bool no_bridge) {
  Chunk c;
  c.field_text = !prefix.empty();
  c.info.text = text;
  c.info.phrase = phrase;
  WordsAndStems ws = words_and_stems(m_analyzer, m_exact ? text : as_one_word(m_analyzer, text));
  c.info.words = std::move(ws.words);
  // Highlights: a compound's pieces where they are together (apart too when loose).
  if (m_loose && !phrase)
    match.words.insert(c.info.words.begin(), c.info.words.end());
  else
    match.add_together(c.info.words);
  add_word_tier(c, phrase, prefix, ws.stems.size() == 1 ? ws.stems[0] : std::string(), match);
  if (prefix.empty() && !m_exact && !c.info.words.empty()) add_synonym_tier(c, match);
  // A quoted phrase is the text itself: no equivalent stands for it.
  if (prefix.empty() && m_bridges && !m_exact && !phrase && !no_bridge && !c.info.words.empty())
    add_bridge_tier(c, match);
  if (!c.scattered.empty() && m_any && m_bridges && !no_bridge) add_scattered_equivalents(c, match);
  // The substring tier: body text (in --exact mode too: the verifier then
  // requires the typed text itself); a name's words have theirs in the other
  // alternative. A word of letters the vault has matches inside longer words only with --loose.
  if (prefix.empty() && !name) {
    add_substring_tier(c, text);
    c.info.inside_words_loose = !m_loose && !m_exact && (word_of_letters(c) || add_compounds(c));
  }
  if (m_exact) match.literals.push_back(text);
  if (prefix.empty()) {
    c.rarity = rarity(c.info.words);
    if (c.info.words.size() > 1 && !phrase)
      for (const auto& w : c.info.words)
        c.words_in_title.emplace_back(
            Xapian::Query(Xapian::Query::OP_OR, Xapian::Query(std::string(schema::TITLE.prefix) + w),
                          Xapian::Query(std::string(schema::TITLE_PART.prefix) + w)),
            rarity({w}));
  }
  return c;
}

bool QueryBuilder::written_so(const std::string& typed, const std::string& form) const {
  // An acronym's plural is written with a small s (LLMs); OSS, CSS, HTTPS
  // and DNS are other acronyms (and https a URL's), though the index folds
  // them alike: one of the first few notes with the form must show it so.
  constexpr std::size_t SAMPLE = 3;
  if (form.size() < typed.size()) return m_db.term_exists(form);  // (the singular of LLMs)
  std::size_t n = 0;
  for (auto d = m_db.postlist_begin(form); d != m_db.postlist_end(form) && n < SAMPLE; ++d, ++n)
    if (m_db.get_document(*d).get_data().find(typed + "s") != std::string::npos) return true;
  return false;
}

std::string QueryBuilder::written_as_one(const std::vector<std::string>& words) const {
  // (Words of one letter joined are as often another word: a part, apart.)
  const bool letters = words.size() > 1 && std::all_of(words.begin(), words.end(), [](const std::string& w) {
                         return w.size() > 1 && alphanumeric(w);
                       });
  if (!letters) return "";
  // A "to" between words is written 2 too: sim-to-real, sim2real (seq2seq, real2sim).
  std::string one, two;
  for (std::size_t i = 0; i < words.size(); ++i) {
    one += words[i];
    two += words[i] == "to" && i > 0 && i + 1 < words.size() ? "2" : words[i];
  }
  return m_db.term_exists(one) ? one : two != one && m_db.term_exists(two) ? two : "";
}

bool QueryBuilder::word_of_letters(const Chunk& c) const {
  // Of the notes holding such a word only inside longer words, few mean it
  // (ja-techdocs: art in 2,087 such notes, as a word in 16; age in 2,456,
  // as a word in 68: message, usage); the word's inflections and the words
  // of a name written as one (SystemExit, file_name) are the word tier's.
  // So is an English word the notes lack but the bridge tier's dictionary
  // has (ant, hang: important, Shanghai), unlike the start of one typed (toleran, quadrup).
  if (c.info.words.size() != 1 || !alphanumeric(c.info.substring)) return false;
  const std::string& word = c.info.words[0];
  if (!c.info.inflections.empty() || m_db.term_exists(word) ||
      m_db.term_exists(std::string(schema::PART.prefix) + word))
    return true;
  return m_bridges && m_bridges->in_dictionary(m_analyzer.key(c.info.text));
}

bool QueryBuilder::add_compounds(Chunk& c) const {
  // (Beyond so many longer words, a string too common to read them all.)
  constexpr std::size_t MAX_LONGER = 2000;
  const std::string& word = c.info.substring;
  if (c.info.words.size() != 1 || !katakana_word(word) || !m_db.term_exists(c.info.words[0])) return false;
  std::vector<std::string> folded;
  const std::vector<std::string> longer =
      words().containing(word, WordList::Side::Folding, MAX_LONGER + 1, &folded);
  if (longer.size() > MAX_LONGER || partial_word(word, folded, katakana_words())) return false;
  const std::vector<bool> holding = holding_as_word(word, folded, katakana_words());
  if (std::all_of(holding.begin(), holding.end(), [](bool held) { return held; })) return false;
  for (std::size_t i = 0; i < longer.size(); ++i)
    if (holding[i] && longer[i] != c.info.words[0]) c.info.compounds.push_back(longer[i]);
  // They only select: the substring tier weighs them as it weighs the rest.
  if (!c.info.compounds.empty())
    c.compounds = unweighted(
        Xapian::Query(Xapian::Query::OP_SYNONYM, c.info.compounds.begin(), c.info.compounds.end()));
  return true;
}

const KatakanaWords& QueryBuilder::katakana_words() const {
  if (m_katakana_words) return m_katakana_words();
  if (!m_katakana) m_katakana = std::make_unique<KatakanaWords>(m_db);
  return *m_katakana;
}

Xapian::Query QueryBuilder::title_as_one_name(const std::vector<std::string>& words) const {
  // Written in parts (<ViewTransition>: the name's parts are title terms of
  // their own), not as a run of lower-case letters (unittest, the module),
  // which is as often another word.
  constexpr std::size_t MAX_WORDS = 4;
  if (words.size() < 2 || words.size() > MAX_WORDS) return Xapian::Query();
  std::string name(schema::TITLE.prefix);
  for (const std::string& w : words) {
    if (!std::all_of(w.begin(), w.end(),
                     [](char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9'); }))
      return Xapian::Query();
    name += w;
  }
  if (!m_db.term_exists(name)) return Xapian::Query();
  std::vector<Xapian::Query> terms{Xapian::Query(name)};
  for (const std::string& w : words) terms.emplace_back(std::string(schema::TITLE_PART.prefix) + w);
  return Xapian::Query(Xapian::Query::OP_AND, terms.begin(), terms.end());
}

std::vector<std::string> QueryBuilder::inflections(const std::string& word, const std::string& stem) const {
  // The vault's words that inflect the same word as this one and share its
  // stem (iterator: iterators; learning: learn, learns, learned), never the
  // derivations the stem also covers (iterator: not iteration or iterate;
  // general: not generally). Each base's words are looked up by its start
  // (an e or y left out: using, studies).
  constexpr std::size_t MAX_SCANNED = 5000, MAX_FORMS = 12;
  if (english_plural(word).empty()) return {};
  const std::vector<std::string> bases = english_bases(word);
  const Xapian::Stem stemmer("english");
  std::vector<std::string> out;
  std::set<std::string> scanned;
  for (const std::string& base : bases) {
    const std::string start =
        base.back() == 'e' || base.back() == 'y' ? base.substr(0, base.size() - 1) : base;
    if (start.size() < 2 || !scanned.insert(start).second) continue;
    std::size_t n = 0;
    for (auto t = m_db.allterms_begin(start); t != m_db.allterms_end(start) && n < MAX_SCANNED; ++t, ++n) {
      const std::string form = *t;
      if (form == word || english_plural(form).empty() || stemmer(form) != stem ||
          std::find(out.begin(), out.end(), form) != out.end())
        continue;
      const std::vector<std::string> theirs = english_bases(form);
      if (std::any_of(theirs.begin(), theirs.end(), [&](const std::string& b) {
            return std::find(bases.begin(), bases.end(), b) != bases.end();
          }))
        out.push_back(form);
      if (out.size() == MAX_FORMS) return out;
    }
  }
  return out;
}

void QueryBuilder::add_word_tier(Chunk& c, bool phrase, const std::string& prefix, const std::string& stem,
                                 MatchTerms& match) const {
  if (c.info.words.size() == 1)
    add_one_word(c, phrase, prefix, stem, match);
  else if (!c.info.words.empty())
    add_words(c, phrase, prefix, match);
}

void QueryBuilder::add_one_word(Chunk& c, bool phrase, const std::string& prefix, const std::string& stem,
                                MatchTerms& match) const {
  const auto& words = c.info.words;
  const std::string title_prefix(schema::TITLE.prefix);
  c.word = Xapian::Query(prefix + words[0]);
  c.alternatives.push_back({{prefix + words[0]}, false});
  if (!prefix.empty()) return;
  // A word in the title counts again, as its own field; a part of a title
  // (scale in MegaScale) as that word (one term to BM25: a rare XN term
  // would outweigh the title words).
  const std::string part = std::string(schema::PART.prefix) + words[0];
  const Xapian::Query title(Xapian::Query::OP_SYNONYM, Xapian::Query(title_prefix + words[0]),
                            Xapian::Query(std::string(schema::TITLE_PART.prefix) + words[0]));
  c.word = Xapian::Query(Xapian::Query::OP_OR, c.word, title);
  c.in_title.push_back(title);
  // A word of a name written as one, as typed.
  c.word = Xapian::Query(Xapian::Query::OP_OR, c.word, Xapian::Query(part));
  c.alternatives.push_back({{part}, false});
  // The word and its inflections as one more term, their counts together:
  // a note saying iterators weighs as one saying iterator.
  std::vector<std::string> others =
      stem.empty() || phrase ? std::vector<std::string>() : inflections(words[0], stem);
  if (std::string form = phrase ? "" : acronym_number(c.info.text, words[0]);
      !form.empty() && std::find(others.begin(), others.end(), form) == others.end() &&
      written_so(c.info.text, form))
    others.push_back(std::move(form));
  if ((!stem.empty() || !others.empty()) && !phrase) {
    std::vector<Xapian::Query> forms{Xapian::Query(words[0])};
    for (std::string& form : others) {
      forms.emplace_back(form);
      c.alternatives.push_back({{form}, false});
      match.words.insert(form);
      c.info.inflections.push_back(std::move(form));
    }
    c.word = Xapian::Query(Xapian::Query::OP_OR, c.word,
                           Xapian::Query(Xapian::Query::OP_SYNONYM, forms.begin(), forms.end()));
  }
}

void QueryBuilder::add_words(Chunk& c, bool phrase, const std::string& prefix, MatchTerms& match) const {
  const auto& words = c.info.words;
  const std::string title_prefix(schema::TITLE.prefix);
  // The pieces of one compound (本番クラスタ → 本番 クラスタ) adjacent: a word hit.
  c.word = prefix.empty()
               ? Xapian::Query(Xapian::Query::OP_OR, phrase_of(words, ""), phrase_of(words, title_prefix))
               : phrase_of(words, prefix);
  // For the verifier: the words adjacent (a candidate may come from another tier).
  std::vector<std::string> all;
  for (const auto& w : words) all.push_back(prefix + w);
  c.alternatives.push_back({all, true});
  if (!prefix.empty()) return;
  std::vector<std::string> in_title;
  for (const auto& w : words) in_title.push_back(title_prefix + w);
  c.alternatives.push_back({in_title, true});
  c.in_title.push_back(phrase_of(words, title_prefix));
  // A term of words typed apart, unquoted, matches with its last word in the
  // other number (diffusion policy: "Diffusion Policies"), as a word does;
  // so do its words apart. Not a word of parts (two-way is not "two ways").
  // The other number's phrase is rarer, and its weight adds to the typed
  // one's where a note has both: a share of it (a note saying "garbage
  // collection" 3 times and "garbage collections" once in 229 KB outranked
  // gc.po, 9 times in 23 KB).
  std::vector<std::vector<std::string>> spellings{words};
  if (!phrase && c.info.text.find(' ') != std::string::npos)
    for (const std::string& form : other_numbers(words.back()))
      if (m_db.term_exists(form)) {
        spellings.push_back(words);
        spellings.back().back() = form;
        c.info.inflections.push_back(form);
      }
  for (std::size_t i = 1; i < spellings.size(); ++i) {
    const Xapian::Query forms[] = {phrase_of(spellings[i], ""), phrase_of(spellings[i], title_prefix)};
    c.word =
        Xapian::Query(Xapian::Query::OP_OR, c.word,
                      Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT,
                                    Xapian::Query(Xapian::Query::OP_OR, std::begin(forms), std::end(forms)),
                                    OTHER_NUMBER_WEIGHT));
    c.alternatives.push_back({spellings[i], true});
    c.in_title.push_back(phrase_of(spellings[i], title_prefix));
    match.add_together(spellings[i]);
  }
  // English words typed apart that the vault writes as one word (a tag
  // #audiomiddleware for audio middleware; filesystem for file system).
  if (const std::string one = written_as_one(words); !phrase && !one.empty()) {
    const Xapian::Query forms[] = {Xapian::Query(one), Xapian::Query(title_prefix + one)};
    c.word = Xapian::Query(Xapian::Query::OP_OR, c.word,
                           Xapian::Query(Xapian::Query::OP_OR, std::begin(forms), std::end(forms)));
    c.alternatives.push_back({{one}, false});
    c.in_title.push_back(forms[1]);
    match.words.insert(one);
  }
  // A quoted phrase must be adjacent; the pieces of a compound typed as one
  // word may be apart only when loose hits are asked for, and rank lower.
  c.compound = !phrase;
  if (c.compound && m_loose) {
    std::vector<Xapian::Query> terms(words.begin(), words.end() - 1), last;
    for (const auto& spelling : spellings) last.emplace_back(spelling.back());
    terms.emplace_back(Xapian::Query::OP_OR, last.begin(), last.end());
    c.scattered =
        Xapian::Query(m_any ? Xapian::Query::OP_OR : Xapian::Query::OP_AND, terms.begin(), terms.end());
    for (const auto& spelling : spellings)
      if (m_any)
        for (const auto& w : spelling) c.alternatives.push_back({{w}, false});
      else
        c.alternatives.push_back({spelling, false});
  }
}

void QueryBuilder::add_synonym_tier(Chunk& c, MatchTerms& match) const {
  // Other names of the page this text names, from the vault's aliases.
  const std::string key = fmt::format("{}", fmt::join(c.info.words, " "));
  const std::string title_prefix(schema::TITLE.prefix);
  // A bound for pages with thousands of aliases (a query of 20,000 other
  // names took Xapian a minute): the titles first, then aliases in order.
  constexpr std::size_t MAX_OTHER_NAMES = 100;
  std::vector<Xapian::Query> alts;
  for (const std::string& syn : m_synonyms.of(key)) {
    if (c.info.synonyms.size() == MAX_OTHER_NAMES) break;
    const std::vector<std::string> sw = strings::split_nonempty(syn, ' ');
    if (sw.empty()) continue;
    c.info.synonyms.push_back(syn);
    c.alternatives.push_back({sw, sw.size() > 1});
    match.add_together(sw);
    if (sw.size() == 1)
      alts.emplace_back(Xapian::Query::OP_OR, Xapian::Query(sw[0]), Xapian::Query(title_prefix + sw[0]));
    else
      alts.push_back(phrase_of(sw, ""));
    c.in_title.push_back(sw.size() == 1 ? Xapian::Query(title_prefix + sw[0]) : phrase_of(sw, title_prefix));
  }
  if (!alts.empty()) c.synonyms = Xapian::Query(Xapian::Query::OP_OR, alts.begin(), alts.end());
}

void QueryBuilder::add_bridge_tier(Chunk& c, MatchTerms& match) const {
  // Equivalents in the other language (bridges.h); another name of the page
  // is the synonym tier's already.
  std::vector<Xapian::Query> alts;
  std::vector<Bridge> bridges = m_bridges->of(c.info.text, c.info.words);
  // Words typed as read weigh by how often the vault uses each (こうせい: 構成
  // in 515 notes before 校正 in 3), not by their rarity.
  std::size_t most_read = 0;
  for (const Bridge& b : bridges)
    if (b.how == Provenance::Reading) most_read = std::max(most_read, b.stating);
  for (Bridge& b : bridges) {
    if (b.loose && !m_loose) {
      c.held_back = true;
      continue;
    }
    const std::vector<std::string> words = words_and_stems(m_analyzer, b.equivalent).words;
    if (words.empty() || std::find(c.info.synonyms.begin(), c.info.synonyms.end(),
                                   fmt::format("{}", fmt::join(words, " "))) != c.info.synonyms.end())
      continue;
    Xapian::Query q = equivalent_query(words, c, match);
    // Another spelling or a reading of the word is found inside the vault's
    // words, as the word typed is (引数 in 仮引数, 研究 in 研究室); it is
    // weighed already, the longer words so.
    if (same_word(b)) {
      std::vector<std::string> found =
          this->words().containing(fold_query(b.equivalent), WordList::Side::Folding, MAX_WEIGHED_WORDS + 1);
      if (found.size() <= MAX_WEIGHED_WORDS)
        found.erase(std::remove_if(found.begin(), found.end(),
                                   [&](const std::string& w) {
                                     return std::find(words.begin(), words.end(), w) != words.end();
                                   }),
                    found.end());
      if (!found.empty() && found.size() <= MAX_WEIGHED_WORDS) {
        for (const std::string& w : found) {
          c.alternatives.push_back({{w}, false});
          match.words.insert(w);
        }
        q = Xapian::Query(Xapian::Query::OP_OR, q,
                          Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, any_word(found), SUBSTRING_WEIGHT));
      }
    }
    // Its words share the weight: a phrase of three weighs as one word would.
    const double share = b.how == Provenance::Reading && most_read > 0
                             ? static_cast<double>(b.stating) / static_cast<double>(most_read)
                             : 1.0;
    alts.emplace_back(
        Xapian::Query::OP_SCALE_WEIGHT, q,
        bridge_weight(b) * share * (b.loose ? SCATTERED_WEIGHT : 1.0) / static_cast<double>(words.size()));
    c.bridges.push_back(q);
    c.info.bridges.push_back(std::move(b));
  }
  if (!alts.empty()) c.bridge = Xapian::Query(Xapian::Query::OP_OR, alts.begin(), alts.end());
}

Xapian::Query QueryBuilder::equivalent_query(const std::vector<std::string>& words, Chunk& c,
                                             MatchTerms& match) const {
  const std::string title_prefix(schema::TITLE.prefix);
  Xapian::Query q;
  if (words.size() == 1) {
    // The equivalent and its plural, never its stem's family (generator:
    // generators, not generated or general). A plural that is the source of
    // another loanword (ウインドウ: window; windows, Windows: ウィンドウズ) is
    // that word as often: --loose's.
    std::vector<Xapian::Query> forms;
    const std::string plural = english_plural(words[0]);
    for (const std::string& w : {words[0], plural}) {
      if (w.empty()) continue;
      if (w == plural && !m_loose && m_bridges && m_bridges->source_of_another(w, c.info.text)) {
        c.held_back = true;
        continue;
      }
      forms.emplace_back(w);
      forms.emplace_back(title_prefix + w);
      c.in_title.emplace_back(title_prefix + w);
      c.alternatives.push_back({{w}, false});
      match.words.insert(w);
    }
    q = Xapian::Query(Xapian::Query::OP_OR, forms.begin(), forms.end());
  } else {
    // The phrase and its plural where the vault has it (point cloud: point clouds).
    std::vector<std::vector<std::string>> forms{words};
    if (std::string plural = english_plural(words.back()); !plural.empty() && m_db.term_exists(plural)) {
      forms.push_back(words);
      forms.back().back() = std::move(plural);
    }
    std::vector<Xapian::Query> phrases;
    for (const std::vector<std::string>& form : forms) {
      phrases.push_back(phrase_of(form, ""));
      phrases.push_back(phrase_of(form, title_prefix));
      c.alternatives.push_back({form, true});
      c.in_title.push_back(phrase_of(form, title_prefix));
      if (form != words) match.add_together(form);
    }
    q = Xapian::Query(Xapian::Query::OP_OR, phrases.begin(), phrases.end());
    // A title naming it as one (<ViewTransition>) is its title; the name
    // matches no more than the words do (unit test: the module unittest).
    if (Xapian::Query name = title_as_one_name(words); !name.empty()) c.in_title.push_back(std::move(name));
  }
  match.add_together(words);
  return q;
}

void QueryBuilder::add_scattered_equivalents(Chunk& c, MatchTerms& match) const {
  // Some of a compound's words: each word's own equivalents count as the
  // word (水中ロボット: notes saying underwater), weighed as scattered pieces.
  // In a title, such an equivalent is one of the words (robots in a title
  // is not 水中ロボット in it).
  std::vector<Xapian::Query> alts{c.scattered};
  for (const std::string& w : c.info.words)
    for (const Bridge& b : m_bridges->of(w, {w})) {
      const std::vector<std::string> words = words_and_stems(m_analyzer, b.equivalent).words;
      if (words.empty()) continue;
      const std::size_t titles = c.in_title.size();
      alts.emplace_back(Xapian::Query::OP_SCALE_WEIGHT, equivalent_query(words, c, match),
                        bridge_weight(b) / static_cast<double>(words.size()));
      c.words_in_title.emplace_back(
          Xapian::Query(Xapian::Query::OP_OR, c.in_title.begin() + static_cast<std::ptrdiff_t>(titles),
                        c.in_title.end()),
          rarity({w}));
      c.in_title.resize(titles);
    }
  c.scattered = Xapian::Query(Xapian::Query::OP_OR, alts.begin(), alts.end());
}

void QueryBuilder::add_substring_tier(Chunk& c, const std::string& text) const {
  c.info.substring = fold_query(text);
  c.info.substring_exact = fold_query(text, Fold::Width);
  if (c.info.substring.find_first_not_of(" \t") == std::string::npos) {
    c.info.substring.clear();
    return;
  }
  const std::vector<std::string> runs = strings::split_nonempty(c.info.substring, ' ');
  std::vector<Xapian::Query> parts;
  bool exact = runs.size() == 1;
  for (std::size_t r = 0; r < runs.size(); ++r)
    parts.push_back(run_query(runs[r], r + 1 < runs.size(), c.info.grams, exact));
  c.substring = Xapian::Query(Xapian::Query::OP_AND, parts.begin(), parts.end());
  // --exact: a note whose folded text joins characters its raw text has
  // apart may hold the string as typed without its grams (substring.h).
  if (m_exact)
    c.substring = Xapian::Query(Xapian::Query::OP_OR, c.substring,
                                unweighted(Xapian::Query(std::string(schema::GRAM.prefix) + JOINING_GRAM)));
  // Grams that are the whole string still need the text when it has kana: a
  // kana variant counts only where it names the same word (substring.h).
  c.verify = !exact || std::any_of(c.info.substring.begin(), c.info.substring.end(),
                                   [](char ch) { return static_cast<unsigned char>(ch) == 0xE3; });
  c.substring = Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, c.substring,
                              SUBSTRING_WEIGHT / static_cast<double>(parts.size()));
}

Xapian::Query QueryBuilder::run_query(const std::string& run, bool phrase, std::vector<std::string>& shown,
                                      bool& exact) const {
  const std::string gram_prefix(schema::GRAM.prefix);
  std::vector<std::string> grams;
  if (phrase) {
    // A run a space follows (in a quoted phrase) ends where a run of the text
    // ends: its tail grams carry the end-of-run mark, as the indexer wrote them.
    for_each_gram(run, [&](const std::string& g) {
      if (std::find(grams.begin(), grams.end(), g) != grams.end()) return;
      grams.push_back(g);
      if (g.back() != END_OF_RUN) shown.push_back(g);
    });
  } else {
    QueryGrams qg = query_grams(run);
    exact = exact && qg.exact;
    if (!qg.prefix.empty()) {
      shown.push_back(qg.prefix + "*");
      // Expanded here, not by OP_WILDCARD: each shard would expand it with its
      // own statistics, and a sharded index would score it otherwise than one
      // index. OR-ed: OP_MAX under a filter over three shards crashes Xapian
      // 1.4.22 (`x venue:OSDI`, tests/e2e/85-shards.sh).
      std::vector<Xapian::Query> terms;
      const std::string px = gram_prefix + qg.prefix;
      for (auto t = m_db.allterms_begin(px); t != m_db.allterms_end(px); ++t) terms.emplace_back(*t);
      // Two letters or digits: the words holding them too (one is a gram of
      // its own where a word holds it: schema.h).
      if (alphanumeric(qg.prefix) && qg.prefix.size() > 1) terms.push_back(words_containing(qg.prefix));
      return terms.empty() ? Xapian::Query(Xapian::Query::MatchNothing)
                           : Xapian::Query(Xapian::Query::OP_OR, terms.begin(), terms.end());
    }
    // Nothing a gram can select (々 alone: the folded text holds the
    // ideograph it repeats): every note is a candidate the text confirms.
    if (qg.grams.empty()) return Xapian::Query::MatchAll;
    grams = std::move(qg.grams);
    shown.insert(shown.end(), grams.begin(), grams.end());
  }
  // A gram of letters and digits alone is in the index only where no word
  // shows its run (substring.h, for_each_indexed_gram): each run of letters
  // and digits of the string is in a note's grams or inside one of its words.
  std::vector<Xapian::Query> all;
  std::vector<std::vector<Xapian::Query>> by_piece;
  const std::vector<std::string_view> pieces = alphanumeric_runs(run);
  by_piece.resize(pieces.size());
  for (const std::string& g : grams) {
    Xapian::Query term(gram_prefix + g);
    if (!alphanumeric(g)) {
      all.push_back(std::move(term));
      continue;
    }
    // The piece holding it (a tail gram: the last, which ends the run).
    const std::string_view bare = g.back() == END_OF_RUN ? std::string_view(g).substr(0, g.size() - 1) : g;
    std::size_t p = 0;
    while (p + 1 < pieces.size() &&
           (g.back() == END_OF_RUN || pieces[p].find(bare) == std::string_view::npos))
      ++p;
    by_piece[p].push_back(std::move(term));
  }
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    if (by_piece[p].empty()) continue;
    const auto n = static_cast<double>(by_piece[p].size());
    all.emplace_back(
        Xapian::Query::OP_OR,
        Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT,
                      Xapian::Query(Xapian::Query::OP_AND, by_piece[p].begin(), by_piece[p].end()), 1.0 / n),
        words_containing(pieces[p]));
  }
  return Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT,
                       Xapian::Query(Xapian::Query::OP_AND, all.begin(), all.end()),
                       1.0 / static_cast<double>(all.size()));
}

Xapian::Query QueryBuilder::words_containing(std::string_view piece) const {
  const std::vector<std::string> found =
      words().containing(piece, WordList::Side::Folding, std::numeric_limits<std::size_t>::max());
  if (found.empty()) return Xapian::Query::MatchNothing;
  return any_word(found);
}

Xapian::Query QueryBuilder::any_word(const std::vector<std::string>& words) {
  std::vector<Xapian::Query> terms(words.begin(), words.end());
  // Weighed while they are few, sharing the weight as a phrase's words do
  // (words with rare letters in them would otherwise lift a substring-only
  // hit above a bridge or a word): an OR's terms score the same on one index
  // and on shards, where Xapian 1.4 gives a synonym each shard's own
  // statistics (and OP_MAX crashes under a filter over three shards). Many
  // words (a string of one or two letters) only select: an OR of thousands
  // costs several times a synonym's merge.
  if (terms.size() <= MAX_WEIGHED_WORDS)
    return Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT,
                         Xapian::Query(Xapian::Query::OP_OR, terms.begin(), terms.end()),
                         1.0 / static_cast<double>(terms.size()));
  return unweighted(Xapian::Query(Xapian::Query::OP_SYNONYM, terms.begin(), terms.end()));
}

double QueryBuilder::rarity(const std::vector<std::string>& words) const {
  // As BM25 sums its terms' idf: a phrase of three weighs as three words.
  const double notes = m_db.get_doccount();
  double idf = 0;
  for (const auto& w : words)
    idf += std::max(0.1, std::log((notes + 1) / (static_cast<double>(m_db.get_termfreq(w)) + 0.5)));
  return idf;
}

const WordList& QueryBuilder::words() const {
  if (m_words) return m_words();
  if (!m_own_words) m_own_words = WordList::of(m_db);
  return *m_own_words;
}

}  // namespace sagasu
