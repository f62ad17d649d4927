// Ranking a user sees: the query in a note's title, and the ranked list that
// goes on past the hits without counting the notes it adds.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sagasu/searcher.h"
#include "test_index.h"

using namespace sagasu;

namespace {

SearchResult search(const std::string& index, const std::string& query, bool explain = false) {
  SearchRequest req;
  req.query = query;
  req.explain = explain;
  req.go_on = true;
  return Searcher(index).search(req);
}

std::vector<std::string> paths(const std::vector<Hit>& hits) {
  std::vector<std::string> out;
  for (const Hit& h : hits) out.push_back(h.path);
  return out;
}

double part(const Hit& h, const std::string& name) {
  for (const auto& [n, w] : h.score_parts)
    if (n == name) return w;
  return 0;
}

// n notes that share nothing with the others: words then count as rare (Xapian's idf).
std::map<std::string, std::string> with_fillers(std::map<std::string, std::string> notes, int n) {
  for (int i = 0; i < n; ++i) notes["f" + std::to_string(i) + ".md"] = "Planning and control.\n";
  return notes;
}

std::vector<std::string> paths(const Related& r) {
  std::vector<std::string> out;
  for (const auto& n : r.notes) out.push_back(n.note.path);
  return out;
}

const Hit& hit(const SearchResult& r, const std::string& path) {
  const auto it = std::find_if(r.hits.begin(), r.hits.end(), [&](const Hit& h) { return h.path == path; });
  REQUIRE(it != r.hits.end());
  return *it;
}

}  // namespace

TEST_CASE("Ranking, a title with every piece of the query outweighs one with a piece", "[ranking]") {
  // ja-techdocs, 文字列 フォーマット: "Marshal フォーマット" (a binary format)
  // came first on its title's フォーマット alone. A title with some of the
  // pieces weighs the square of its share; one with all of them, all.
  test::TestIndex index({
      {"Marshal フォーマット.md",
       "バイナリのフォーマット。フォーマットの版。文字列は長さと文字列の中身。フォーマットの互換。\n"},
      {"文字列フォーマット.md", "printf の書式。文字列 フォーマット の指示子。\n"},
      {"配列.md", "文字列 と フォーマット の話。\n"},
  });
  const SearchResult r = search(index.index, "文字列 フォーマット", true);
  REQUIRE(r.total == 3);
  CHECK(r.hits.front().path == "文字列フォーマット.md");
  const double both = part(hit(r, "文字列フォーマット.md"), "title");
  const double one = part(hit(r, "Marshal フォーマット.md"), "title");
  CHECK(part(hit(r, "配列.md"), "title") == 0);
  CHECK(one > 0);
  // フォーマット is about 0.3 of the query's rarity: 0.09 of the weight of a
  // title with both (the share itself, 0.3, were it not squared).
  CHECK(one < 0.15 * both);
}

TEST_CASE("Ranking, pieces typed apart weigh more where a note writes them close together", "[ranking]") {
  // ja-techdocs, マクロ 記録: repeat.jax says 「記録されたマクロ」 and ranked
  // below manuals saying マクロ here and 記録 far away. The same words as
  // often, the note with the pieces in one sentence first, though longer.
  const std::string filler = "これは別の話で長い説明が続きます。関係のない文章がここに並んでいます。";
  test::TestIndex index({
      {"a 離れている.md", "マクロ。" + filler + filler + "記録。\n"},
      {"b 近い.md", "記録 された マクロ を実行する。" + filler + filler + "\n"},
  });
  const SearchResult r = search(index.index, "マクロ 記録", true);
  REQUIRE(r.total == 2);
  CHECK(r.hits.front().path == "b 近い.md");
  CHECK(part(hit(r, "b 近い.md"), "near") > 0);
  CHECK(part(hit(r, "a 離れている.md"), "near") == 0);
}

TEST_CASE("Ranking, an acronym typed in capitals is its plural too, as words", "[ranking]") {
  // LLM found the notes saying LLMs only inside a word (the substring tier):
  // the stemmer keeps llms (no vowel) and gpus (-us) from llm and gpu.
  test::TestIndex index({
      {"a.md", "We fine-tune LLMs on GPUs.\n"},
      {"b.md", "An LLMOps pipeline with a GPUDirect link.\n"},
      {"c.md", "We publish it as OSS, over HTTPS.\n"},
  });
  for (const char* query : {"LLM", "GPU", "LLMs GPUs"}) {
    const SearchResult r = search(index.index, query, true);
    INFO(query);
    REQUIRE(r.total >= 1);
    CHECK(r.hits.front().path == "a.md");
    CHECK(r.hits.front().tier == Tier::Word);
  }
  // OSS and HTTPS are other acronyms, not plurals: no note writes OSs or HTTPs.
  for (const char* query : {"OS", "HTTP"}) {
    const SearchResult r = search(index.index, query, true);
    INFO(query);
    REQUIRE(r.total == 1);
    CHECK(r.hits.front().tier == Tier::Substring);
  }
}

TEST_CASE("Ranking, one piece in the title weighs twice its rarity, long note or short", "[ranking]") {
  test::TestIndex index({
      {"ストラグラー.md", "遅いノードの話。ストラグラー。\n"},
      {"長いメモ.md", "ストラグラー ストラグラー ストラグラー の観察。ストラグラー の対策。\n"},
      {"別.md", "無関係。\n"},
  });
  const SearchResult r = search(index.index, "ストラグラー", true);
  REQUIRE(r.total == 2);
  CHECK(r.hits.front().path == "ストラグラー.md");
  CHECK(part(r.hits.front(), "title") > 0);
  CHECK(part(hit(r, "長いメモ.md"), "title") == 0);
}

TEST_CASE("Ranking, the list goes on past the hits with notes it does not count", "[ranking]") {
  test::TestIndex index({
      {"a.md", "本番クラスタ の障害。\n"},
      {"b.md", "本番 の 環境 と クラスタ の 構成。\n"},
      {"c.md", "クラスタ だけ。\n"},
      {"d.md", "無関係。\n"},
  });
  const SearchResult r = search(index.index, "本番クラスタ");
  CHECK(paths(r.hits) == std::vector<std::string>{"a.md"});
  CHECK(r.total == 1);
  REQUIRE(r.beyond.size() == 2);
  CHECK(r.beyond[0].path == "b.md");
  CHECK(r.beyond[0].beyond == "the words apart");
  CHECK(r.beyond[0].rank == 2);
  CHECK(r.beyond[1].path == "c.md");
  CHECK(r.beyond[1].beyond == "some of the words");
  // A full page of hits has nothing below it; without go_on, nothing either.
  SearchRequest one;
  one.query = "本番クラスタ";
  one.limit = 1;
  one.go_on = true;
  CHECK(Searcher(index.index).search(one).beyond.empty());
  one.limit = 10;
  one.go_on = false;
  CHECK(Searcher(index.index).search(one).beyond.empty());
}

TEST_CASE("Ranking, a compound or phrase does not match across a sentence's or clause's end", "[ranking]") {
  // Composed bridges matched "Time changes" in "…over time. Changes in…"; a
  // compound, its words either side of 、.
  test::TestIndex index({
      {"a.md", "障害物回避 の 手法。 Robots change over time.\n"},
      {"b.md", "障害物、回避 の 順。 It takes time, changes nothing.\n"},
      {"c.md", "Time changes everything.\n"},
  });
  SearchResult r = search(index.index, "障害物回避");
  CHECK(paths(r.hits) == std::vector<std::string>{"a.md"});
  REQUIRE(r.beyond.size() == 1);
  CHECK(r.beyond[0].path == "b.md");
  CHECK(r.beyond[0].beyond == "the words apart");
  r = search(index.index, "\"time changes\"");
  CHECK(paths(r.hits) == std::vector<std::string>{"c.md"});
  // Typed with its punctuation, the text is found as it is written.
  r = search(index.index, "\"time, changes\"");
  const std::vector<std::string> found = paths(r.hits);
  CHECK(std::find(found.begin(), found.end(), "b.md") != found.end());
}

TEST_CASE("Ranking, a word of a name written as one is found when typed", "[ranking]") {
  // data/vault q75 Scale: the note titled MegaScale. The parts are no word
  // of their own: the note's length and an equivalent's matches stay the words'.
  test::TestIndex index({
      {"MegaScale.md", "A system for training at scale; see file_name and email.policy.\n"},
      {"other.md", "Nothing here.\n"},
  });
  for (const char* q : {"mega", "Scale", "policy", "name"}) {
    const SearchResult r = search(index.index, q);
    CHECK(paths(r.hits) == std::vector<std::string>{"MegaScale.md"});
  }
  CHECK(search(index.index, "megascale").total == 1);
}

TEST_CASE("Ranking, a part of a title weighs as the title when typed, and no equivalent reaches it",
          "[ranking]") {
  // ja-techdocs: the vault's gloss 生成 (create) bridged into the title of
  // createPortal.md through its part "create", a note that says neither.
  test::TestIndex index({
      {"createPortal.md", "ポータルを作る関数。portal の使い方。\n"},
      {"gloss.md", "要素を生成 (create) する。\n"},
      {"notes.md", "portal portal portal について。\n"},
  });
  CHECK(paths(search(index.index, "生成").hits) == std::vector<std::string>{"gloss.md"});
  const SearchResult r = search(index.index, "portal", true);
  REQUIRE(r.hits.size() == 2);
  CHECK(r.hits[0].path == "createPortal.md");
  CHECK(part(r.hits[0], "title") > 0);
}

TEST_CASE("Ranking, an equivalent that a title writes as one name is that title's", "[ranking]") {
  // ja-techdocs, ビュー遷移: through the vault's gloss (View Transition) the
  // reference page <ViewTransition> came fourth, below notes passing the
  // words by: a name written as one is one term, and no phrase of its words
  // reached the title. (The best hits then hold a word hit: no notice says
  // there is none.)
  test::TestIndex glossed({
      {"ViewTransition.md", "# <ViewTransition>\nWraps what a view transition animates.\n"},
      {"blog.md", "A blog post: the view transition API, and a view transition demo, and more.\n"},
      {"gloss.md", "ビュー遷移 (View Transition) の紹介。\n"},
      {"other.md", "Nothing here.\n"},
  });
  const SearchResult r = search(glossed.index, "ビュー遷移", true);
  const Hit& page = hit(r, "ViewTransition.md");
  CHECK(page.tier == Tier::Bridge);
  CHECK(part(page, "title") > 0);
  CHECK(page.rank < hit(r, "blog.md").rank);
  CHECK(r.notices.empty());
  CHECK(r.total == 3);
  SearchRequest first;  // a page of the title's note alone: a word hit exists all the same
  first.query = "ビュー遷移";
  first.limit = 1;
  const SearchResult one = Searcher(glossed.index).search(first);
  REQUIRE(one.hits.size() == 1);
  CHECK(one.hits.front().path == "ViewTransition.md");
  CHECK(one.notices.empty());
  // The name matches no more than the equivalent's words do, and a run of
  // lower-case letters is no title of them: unit test is not the module unittest.
  test::TestIndex module({
      {"unittest.md", "# unittest\nThe unittest module runs a unit test.\n"},
      {"tests.md", "単体テスト (unit test) を書く。\n"},
      {"other.md", "The unittest module.\n"},
  });
  const SearchResult m = search(module.index, "単体テスト", true);
  CHECK(paths(m.hits).size() == 2);
  CHECK(part(hit(m, "unittest.md"), "title") == 0);
}

TEST_CASE("Ranking, a list of links to notes is not about the words that name them", "[ranking]") {
  // robotics-paper-notes: index.md and non-ai.md list every paper as
  // [Title](./note.md) and ranked among the notes about the query's topic.
  test::TestIndex index({
      {"index.md",
       "# Papers\n- [Stereo odometry at night](./night.md)\n- [Odometry for legged robots](./legs.md)\n"
       "- [Mapping with lidar](./lidar.md)\n"},
      {"survey.md",
       "A survey of state estimation for field robots: filters, smoothing, loop closure, and wheel odometry "
       "on rough ground, with the sensors each method needs and what fails first.\n"},
      {"other.md", "Nothing to do with it.\n"},
  });
  const SearchResult r = search(index.index, "odometry");
  // Still a hit (it says the word), below the note that uses it.
  CHECK(paths(r.hits) == std::vector<std::string>{"survey.md", "index.md"});
  // A link to a page elsewhere keeps its words' weight.
  test::TestIndex web({
      {"links.md",
       "- [Odometry at night](https://example.org/odometry.html)\n- [Odometry "
       "again](https://example.org/b)\n"},
      {"survey.md",
       "A survey of state estimation for field robots: filters, smoothing, loop closure, and wheel odometry "
       "on rough ground, with the sensors each method needs and what fails first.\n"},
  });
  CHECK(paths(search(web.index, "odometry").hits) == std::vector<std::string>{"links.md", "survey.md"});
}

TEST_CASE("Ranking, the notes with some of a compound's words include its words' equivalents", "[ranking]") {
  // robotics-paper-notes, 水中ロボット: the notes about underwater vehicles
  // say underwater, not robot; the list went on with notes saying ロボット.
  test::TestIndex index({
      {"a.md", "水中ロボット の 制御。\n"},
      {"gloss.md", "水中 (underwater) の 撮影。\n"},
      {"auv.md", "Thruster control of autonomous underwater vehicles.\n"},
      {"other.md", "無関係。\n"},
  });
  const SearchResult r = search(index.index, "水中ロボット");
  CHECK(paths(r.hits) == std::vector<std::string>{"a.md"});
  CHECK(r.total == 1);
  std::vector<std::string> below = paths(r.beyond);
  CHECK(std::find(below.begin(), below.end(), "auv.md") != below.end());
  CHECK(std::find(below.begin(), below.end(), "other.md") == below.end());
}

TEST_CASE("Ranking, a piece's equivalent in a title is that piece's title evidence, not the query's",
          "[ranking]") {
  // robotics, 水中ロボット: below its hits, every note titled "… Robots"
  // took the weight of a title holding the whole query (underwater robot)
  // and came before the notes about underwater robots.
  std::map<std::string, std::string> notes{
      {"a.md", "水中ロボット の 研究。\n"},
      {"g.md", "用語: 水中 (underwater)、ロボット (robot)。\n"},
      {"Mobile Robots.md", "Wheeled robots on planar surfaces.\n"},
      {"Underwater Robot Swarms.md", "A swarm study.\n"},
  };
  test::TestIndex index(with_fillers(notes, 12));
  const SearchResult r = search(index.index, "水中ロボット", true);
  CHECK(paths(r.hits) == std::vector<std::string>{"a.md"});
  const auto below = [&](const std::string& path) {
    const auto it =
        std::find_if(r.beyond.begin(), r.beyond.end(), [&](const Hit& h) { return h.path == path; });
    REQUIRE(it != r.beyond.end());
    return *it;
  };
  const double whole = part(below("Underwater Robot Swarms.md"), "title");
  const double piece = part(below("Mobile Robots.md"), "title");
  CHECK(piece > 0);
  CHECK(piece < 0.5 * whole);
}

TEST_CASE("Related notes, a video embed's attributes are no topic two notes share", "[ranking]") {
  // matsuura-research-note: every note embedding YouTube videos was related
  // to every other (accelerometer, autoplay, gyroscope, …), before the notes on
  // its topic.
  const auto video = [](const std::string& id) {
    return "<iframe width=\"560\" height=\"315\" src=\"https://www.youtube.com/embed/" + id +
           "\" title=\"YouTube video player\" frameborder=\"0\" allow=\"accelerometer; autoplay; "
           "clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share\" "
           "allowfullscreen></iframe>\n";
  };
  std::map<std::string, std::string> notes{
      {"point contact.md",
       "Germanium point contact transistor, made at home. germanium again.\n" + video("a1") + video("a2")},
      {"bread.md", "Sourdough bread at home.\n" + video("b1") + video("b2")},
      {"crystal.md", "A crystal amplifier: a germanium point contact transistor of 1933. germanium.\n"},
  };
  test::TestIndex index(with_fillers(notes, 20));
  const Related r = Searcher(index.index).related("point contact.md");
  CHECK(paths(r) == std::vector<std::string>{"crystal.md"});
}

TEST_CASE("Related notes, the pages a note links to and the rare tags it shares count", "[ranking]") {
  // matsuura-research-note: 自宅サーバー links XikeStor and Mastodon and
  // shares #self-hosted with the notes on hosting; none of it counted (the
  // shared links, people and tags weighed nothing: their terms have no wdf).
  std::map<std::string, std::string> notes{
      {"home server.md", "#self-hosted\nA box in the closet runs [[Switch]] and [[Router]].\n"},
      {"Switch.md", "An eight-port switch.\n"},
      {"wiring.md", "Cables for the [[Router]].\n"},
      {"gitea.md", "#self-hosted\nA forge of one's own.\n"},
      {"other.md", "Nothing shared.\n"},
  };
  test::TestIndex index(with_fillers(notes, 20));
  const Related r = Searcher(index.index).related("home server.md");
  std::vector<std::string> related;
  for (const auto& n : r.notes) related.push_back(n.note.path);
  // (The tag's words are the note's too: shared words.)
  CHECK(paths(r) == std::vector<std::string>{"Switch.md", "gitea.md", "wiring.md"});
  REQUIRE(r.notes.size() == 3);
  CHECK(r.notes[0].why == std::vector<std::string>{"linked from it"});
  CHECK(r.notes[1].why == std::vector<std::string>{"tags: self-hosted", "words: hosted, self"});
  CHECK(r.notes[2].why == std::vector<std::string>{"links or cites 1 of the same"});
}

TEST_CASE("Ranking, the list goes on with the notes tied to the note the query names", "[ranking]") {
  // matsuura-research-note, 自宅サーバー: one note says it; the notes on the
  // machines and services it links to say neither word and were missing
  // from the list, which went on with every note saying サーバー.
  std::map<std::string, std::string> notes{
      {"自宅サーバー.md", "#self-hosted\n[[XikeStor]] と [[Mastodon]] を動かす。\n"},
      {"XikeStor.md", "十ギガのスイッチ。\n"},
      {"Mastodon.md", "分散型の SNS。\n"},
      {"監視.md", "サーバー の 監視。\n"},
  };
  test::TestIndex index(with_fillers(notes, 20));
  const SearchResult r = search(index.index, "自宅サーバー");
  CHECK(paths(r.hits) == std::vector<std::string>{"自宅サーバー.md"});
  CHECK(r.total == 1);
  REQUIRE(r.beyond.size() >= 3);
  CHECK(std::set<std::string>{r.beyond[0].path, r.beyond[1].path} ==
        std::set<std::string>{"XikeStor.md", "Mastodon.md"});
  CHECK(r.beyond[0].beyond == "ties to 自宅サーバー");
  CHECK(r.beyond[0].tier == Tier::Related);
  CHECK(r.beyond[2].path == "監視.md");  // (it shares the word サーバ with it)
  // Only the note titled as typed: a query that names no note goes on as before.
  const SearchResult other = search(index.index, "サーバー");
  for (const Hit& h : other.beyond) CHECK(h.tier != Tier::Related);
}
