#include "sagasu/snippet.h"

#include <catch2/catch.hpp>

using namespace sagasu;

namespace {
std::vector<std::string> marked(const Fragment& f) {
  std::vector<std::string> out;
  for (const auto& [b, e] : f.highlights) out.push_back(f.text.substr(b, e - b));
  return out;
}
}  // namespace

TEST_CASE("Snippet, picks the sentence with most distinct matched words", "[snippet]") {
  Analyzer a;
  SnippetGenerator gen(a, {{"sdc", "検知"}, {}, {}, {}});
  const std::string text = "最初の文。SDC の話。オンラインで SDC をリアルタイム検知する。最後。";
  const auto frags = gen.generate(text, {}, 1);
  REQUIRE(frags.size() == 1);
  CHECK(frags[0].text == "オンラインで SDC をリアルタイム検知する。");
  CHECK(marked(frags[0]) == std::vector<std::string>{"SDC", "検知"});
}

TEST_CASE("Snippet, a word and its plural are one distinct word", "[snippet]") {
  // SDC matching SDCs too: a citation saying both outranked the sentence
  // with SDC and 検知, two words of the query.
  Analyzer a;
  SnippetGenerator gen(a, {{"sdc", "sdcs", "検知"}, {}, {}, {}});
  const std::string text = "SDC の検知の話。SDCs と SDC と SDC の表。";
  const auto frags = gen.generate(text, {}, 1);
  REQUIRE(frags.size() == 1);
  CHECK(frags[0].text == "SDC の検知の話。");
}

TEST_CASE("Snippet, adjacent matched words are one highlighted span", "[snippet]") {
  Analyzer a;
  SnippetGenerator gen(a, {{"本番", "クラスタ"}, {}, {}, {}});
  const auto frags = gen.generate("SDC 欠陥を本番クラスタから回収した。", {}, 1);
  REQUIRE(frags.size() == 1);
  CHECK(marked(frags[0]) == std::vector<std::string>{"本番クラスタ"});
}

TEST_CASE("Snippet, highlights the original form of a folded word", "[snippet]") {
  Analyzer a;
  SnippetGenerator gen(a, {{"サーバ", "gpu"}, {}, {}, {}});
  const auto frags = gen.generate("ｻｰﾊﾞｰ と ＧＰＵ の話。", {}, 1);
  REQUIRE(frags.size() == 1);
  CHECK(marked(frags[0]) == std::vector<std::string>{"ｻｰﾊﾞｰ", "ＧＰＵ"});
}

TEST_CASE("Snippet, highlights a word a filled line wraps", "[snippet]") {
  Analyzer a;
  SnippetGenerator gen(a, {{"ファイル"}, {}, {}, {}});
  const std::string text = "このコマンドは指定したディレクトリにある設定ファ\nイルを読む。";
  const auto spans = gen.match_spans(text);
  REQUIRE(spans.size() == 1);
  CHECK(text.substr(spans[0].first, spans[0].second - spans[0].first) == "ファ\nイル");
  // The fragment is the sentence the wrap is in, shown unwrapped, the word highlighted whole.
  const auto frags = gen.generate("最初の行。\n" + text + "\n\n最後。", {}, 1);
  REQUIRE(frags.size() == 1);
  CHECK(frags[0].text == "このコマンドは指定したディレクトリにある設定ファイルを読む。");
  CHECK(marked(frags[0]) == std::vector<std::string>{"ファイル"});
  // A short sentence that starts mid-line: its line is the whole line, as indexing read it.
  const auto later =
      gen.generate("この文は一行を四十桁より長くするための前置きです。設定ファ\nイルを読む。", {}, 1);
  REQUIRE(later.size() == 1);
  CHECK(later[0].text == "設定ファイルを読む。");
  CHECK(marked(later[0]) == std::vector<std::string>{"ファイル"});
}

TEST_CASE("Snippet, long sentences are cut at character boundaries", "[snippet]") {
  Analyzer a;
  SnippetGenerator gen(a, {{"検知"}, {}, {}, {}});
  std::string text;
  for (int i = 0; i < 100; ++i) text += "あいう";
  text += "検知";
  for (int i = 0; i < 100; ++i) text += "えお";
  text += "。";
  const auto frags = gen.generate(text, {}, 1, 60);
  REQUIRE(frags.size() == 1);
  CHECK(frags[0].text.size() <= 60);
  CHECK(frags[0].cut_before);
  CHECK(frags[0].cut_after);
  CHECK(marked(frags[0]) == std::vector<std::string>{"検知"});
  // Every fragment is valid UTF-8: starts on a lead byte, ends after a whole character.
  CHECK((static_cast<unsigned char>(frags[0].text.front()) & 0xC0) != 0x80);
  CHECK(frags[0].text.size() % 3 == 0);
}

TEST_CASE("Snippet, a trailing (Source: …) belongs to its sentence", "[snippet]") {
  Analyzer a;
  SnippetGenerator gen(a, {{"aegis"}, {}, {}, {}});
  const std::string text = "前の文。AEGIS は検知する。(Source: Safeguarding (OSDI 2026)) 次の文。";
  const std::size_t b = text.find("Safeguarding");
  const std::vector<CitationSpan> cites{
      {b, b + std::string("Safeguarding (OSDI 2026)").size(), "2026__OSDI__Safeguarding"}};
  const auto frags = gen.generate(text, cites, 1);
  REQUIRE(frags.size() == 1);
  CHECK(frags[0].text == "AEGIS は検知する。(Source: Safeguarding (OSDI 2026))");
  CHECK(frags[0].sources == std::vector<std::string>{"2026__OSDI__Safeguarding"});
}

TEST_CASE("Snippet, an unbalanced (Source: is looked at for a bounded length only", "[snippet]") {
  // Found by fuzzing: a 260 KB line of 「。(Source: (」 took 18 s, every
  // sentence end scanning to the end of the line for the bracket that closes
  // it. A parenthetical that does not close within 1 KB is no citation.
  Analyzer a;
  SnippetGenerator gen(a, {{"aegis"}, {}, {}, {}});
  const std::string long_title(2000, 'x');
  const std::string text = "AEGIS は検知する。(Source: " + long_title + ") 次の文。";
  const auto frags = gen.generate(text, {}, 1);
  REQUIRE(frags.size() == 1);
  CHECK(frags[0].text == "AEGIS は検知する。");
  std::string hostile = "AEGIS";
  for (int i = 0; i < 20000; ++i) hostile += "。(Source: (";  // 260 KB on one line
  const auto many = gen.generate(hostile, {}, 1);
  REQUIRE(many.size() == 1);
  CHECK(marked(many[0]) == std::vector<std::string>{"AEGIS"});
}

// Found by fuzzing (tests/fuzz/corpus/snippet/long-match): a match longer than
// the fragment budget made the fragment as long as the match.
TEST_CASE("Snippet, a match longer than the budget is cut, the fragment keeps its budget", "[snippet]") {
  Analyzer a;
  const std::string word(600, 'x');
  SnippetGenerator gen(a, {{word}, {}, {}, {}});
  const auto frags = gen.generate("before. " + word + " after", {}, 1, 100);
  REQUIRE(frags.size() == 1);
  CHECK(frags[0].text.size() <= 100);
  CHECK(frags[0].cut_after);
  REQUIRE(frags[0].highlights.size() == 1);
  CHECK(frags[0].highlights[0].first == 0);
  CHECK(frags[0].highlights[0].second == frags[0].text.size());
}

TEST_CASE("Snippet: a compound's pieces are highlighted together, never alone", "[snippet]") {
  Analyzer analyzer;
  MatchTerms terms;
  terms.phrases.push_back(analyzer.words("可観測性"));
  REQUIRE(terms.phrases.front().size() > 1);  // ICU cuts it: 可観測 + 性
  const std::string text = "深い可観測性を重視し、耐障害性を高めた。";
  const auto frags = SnippetGenerator(analyzer, terms).generate(text, {}, 1, 240);
  REQUIRE(frags.size() == 1);
  REQUIRE(frags[0].highlights.size() == 1);  // not the 性 of 耐障害性
  const auto [b, e] = frags[0].highlights[0];
  CHECK(frags[0].text.substr(b, e - b) == "可観測性");
}
