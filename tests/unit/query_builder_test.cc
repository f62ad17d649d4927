// The query builder: every tier of a piece of text, facet filters kept apart
// (for drill-sideways), the zero-hit rescue.
#include "query_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "sagasu/error.h"
#include "sagasu/strings.h"
#include "searcher_fixture.h"

using namespace sagasu;

namespace {

using Fixture = test::SearcherFixture;

bool mentions(const Xapian::Query& q, const std::string& s) {
  return q.get_description().find(s) != std::string::npos;
}

}  // namespace

TEST_CASE_METHOD(Fixture,
                 "QueryBuilder, a compound's pieces: adjacent as words, apart only when loose, substring",
                 "[query_builder]") {
  const CompiledQuery q = build("本番クラスタ");
  REQUIRE(q.chunks.size() == 1);
  const Chunk& c = q.chunks.front();
  CHECK(c.info.words == std::vector<std::string>{"本番", "クラスタ"});
  CHECK(mentions(c.word, "PHRASE 2"));
  CHECK(c.compound);
  CHECK(q.has_compound);
  CHECK(c.scattered.empty());  // tight by default: the pieces apart are counted, not matched
  CHECK(std::all_of(c.alternatives.begin(), c.alternatives.end(),
                    [](const WordMatch& m) { return m.adjacent; }));
  CHECK(c.info.substring == "本番クラスタ");
  CHECK(c.verify);  // grams without positions: the text must confirm them
  // Highlighted where the pieces are together, never a lone piece.
  CHECK(q.match.words.count("クラスタ") == 0);
  CHECK(q.match.phrases == std::vector<std::vector<std::string>>{{"本番", "クラスタ"}});
  // Loose: the pieces apart match too (lower), and the verifier accepts them apart.
  const CompiledQuery loose_query = build("本番クラスタ", false, {}, true);
  CHECK(loose_query.match.words.count("クラスタ") == 1);
  const Chunk loose = loose_query.chunks.front();
  CHECK_FALSE(loose.scattered.empty());
  CHECK(std::any_of(loose.alternatives.begin(), loose.alternatives.end(),
                    [](const WordMatch& m) { return !m.adjacent && m.terms.size() == 2; }));
  // A quoted phrase must be adjacent, loose or not.
  const Chunk phrase = build("\"本番クラスタ\"", false, {}, true).chunks.front();
  CHECK(phrase.scattered.empty());
  CHECK_FALSE(phrase.compound);
}

TEST_CASE_METHOD(Fixture, "QueryBuilder, facet filters stay apart from the text; drill-sideways drops one",
                 "[query_builder]") {
  const CompiledQuery q = build("SDC venue:OSDI year:2025..2026");
  CHECK(q.filters.count("venue") == 1);
  CHECK(q.filters.count("year") == 1);
  CHECK(q.selected.at("venue") == std::set<std::string>{"XVosdi"});
  CHECK(mentions(q.assemble(), "XVosdi"));
  CHECK_FALSE(mentions(q.assemble("venue"), "XVosdi"));
  CHECK(mentions(q.assemble("venue"), "XY2025"));
  // One facet's values OR-ed; an excluded value; a filter inside the text tree.
  CHECK(build("venue:OSDI OR venue:MLSys").filters.at("venue").size() == 2);
  CHECK(build("SDC -venue:OSDI").must_not.size() == 1);
  const CompiledQuery inside = build("(SDC OR venue:OSDI) 論文");
  CHECK(inside.filters.empty());
  CHECK(std::any_of(inside.nodes.begin(), inside.nodes.end(),
                    [](const VNode& n) { return n.op == VNode::Op::Filter; }));
  // --filter adds filters; text there is an error naming the fields.
  CHECK(build("SDC", false, {"kind:source"}).filters.count("kind") == 1);
  CHECK_THROWS_WITH(build("SDC", false, {"SDC"}), Catch::Contains("with a field of venue, year, person"));
}

TEST_CASE_METHOD(Fixture, "QueryBuilder, words that name a page also count as that page's other names",
                 "[query_builder]") {
  const CompiledQuery q = build("Xin Liu");
  CHECK(q.text_tree.op == QueryNode::Op::Leaf);  // the name as one piece (words the notes write together)
  REQUIRE_FALSE(q.chunks.empty());
  // The page's alias 劉鑫, as the analyzer's words (ICU splits it in two).
  CHECK(q.chunks.front().info.synonyms == std::vector<std::string>{analyzer.key("劉鑫")});
  // Highlighted too, where its words are together.
  CHECK(std::find(q.match.phrases.begin(), q.match.phrases.end(), analyzer.words("劉鑫")) !=
        q.match.phrases.end());
  // Not in --exact mode: the words as typed.
  CHECK(build("Xin Liu", true).text_tree.op == QueryNode::Op::And);
}

TEST_CASE_METHOD(Fixture, "QueryBuilder, the zero-hit rescue ORs the top-level pieces", "[query_builder]") {
  QueryBuilder builder(db, analyzer, synonyms, false);
  SearchRequest req;
  req.query = "SDC 存在しない";
  CompiledQuery q = builder.build(req);
  CHECK(q.widenable);
  CHECK(q.nodes.at(static_cast<std::size_t>(q.root)).op == VNode::Op::And);
  builder.widen(q);
  CHECK(q.widened);
  CHECK(q.nodes.at(static_cast<std::size_t>(q.root)).op == VNode::Op::Or);
  CHECK(q.chunks.size() == 2);
  CHECK_FALSE(build("SDC").widenable);
}

TEST_CASE_METHOD(Fixture, "QueryBuilder, an empty query is an error unless every note is asked for",
                 "[query_builder]") {
  CHECK_THROWS_WITH(build("()x"), Catch::Contains("empty parentheses"));
  SearchRequest req;
  req.query = "";
  CHECK_THROWS_WITH(QueryBuilder(db, analyzer, synonyms, false).build(req),
                    Catch::Contains("nothing to search for"));
  req.match_all = true;
  const CompiledQuery all = QueryBuilder(db, analyzer, synonyms, false).build(req);
  CHECK(all.text.empty());
  CHECK(all.assemble().get_description() == Xapian::Query(Xapian::Query::MatchAll).get_description());
}

TEST_CASE("Searcher, a result says whether the rescue could widen it", "[query_builder]") {
  // The command's fallback asks the library again with widen set only when
  // the query is widenable: a one-piece query with no hits was searched
  // twice for nothing (ストラグラ on ja-techdocs: 185 → 90 ms).
  test::TestIndex index(test::searcher_notes());
  Searcher searcher(index.index);
  SearchRequest one;
  one.query = "存在しない";
  const SearchResult r1 = searcher.search(one);
  CHECK(r1.total == 0);
  CHECK_FALSE(r1.widenable);
  SearchRequest two;
  two.query = "SDC 存在しない";
  const SearchResult r2 = searcher.search(two);
  CHECK(r2.total == 0);
  CHECK(r2.widenable);
}

TEST_CASE("Synonyms, a page with thousands of aliases costs entries in proportion, and a bounded query",
          "[query_builder]") {
  // Found by fuzzing: the synonym table paired every name of a page with
  // every other, so a page of 20,000 aliases (a 1.4 MB note) took the indexer
  // past 23 GB. Now a star: the title heads its aliases, each alias names it;
  // a query uses the title and the first aliases, at most 100 other names.
  constexpr int N = 3000;
  std::string aliases;
  for (int i = 0; i < N; ++i) aliases += fmt::format("{}Name{:04d}", i ? ", " : "", i);
  test::TestIndex index({{"Big.md", "---\naliases: [" + aliases + "]\n---\n# Big\nA page of many names.\n"},
                         {"mention.md", "A note about Name0002 alone.\n"},
                         {"other.md", "A note about nothing.\n"}});
  const Xapian::Database db = index.db();
  std::size_t stored = 0;
  const std::string px(schema::META_SYNONYM);
  for (auto k = db.metadata_keys_begin(px); k != db.metadata_keys_end(px); ++k)
    stored += strings::split_nonempty(db.get_metadata(*k), '\n').size();
  CHECK(stored < 20 * N);  // every pair: 9,000,000
  // An alias's other names: the title first, then every other alias.
  Analyzer analyzer;
  const Synonyms synonyms(db);
  const auto others = synonyms.of(analyzer.key("Name2999"));
  REQUIRE(others.size() == N);  // N - 1 aliases and the title
  CHECK(others.front() == analyzer.key("Big"));
  CHECK(std::count(others.begin(), others.end(), analyzer.key("Name0001")) == 1);
  CHECK(std::count(others.begin(), others.end(), analyzer.key("Name2999")) == 0);
  CHECK(synonyms.of(analyzer.key("Big")).size() == N);
  // A search for one alias finds the note that says another, within the bound.
  QueryBuilder builder(db, analyzer, synonyms, false);
  SearchRequest req;
  req.query = "Name2999";
  CHECK(builder.build(req).chunks.front().info.synonyms.size() == 100);
  Searcher searcher(index.index);
  const SearchResult r = searcher.search(req);
  CHECK(std::any_of(r.hits.begin(), r.hits.end(), [](const Hit& h) { return h.path == "mention.md"; }));
  CHECK(std::none_of(r.hits.begin(), r.hits.end(), [](const Hit& h) { return h.path == "other.md"; }));
}
