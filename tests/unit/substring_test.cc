#include "sagasu/substring.h"

#include <catch2/catch.hpp>
#include <random>

#include "sagasu/analyzer.h"
#include "sagasu/strings.h"

using namespace sagasu;

namespace {
std::vector<std::string> grams(const std::string& text) {
  std::vector<std::string> out;
  for_each_gram(fold_text(text).text, [&](const std::string& b) { out.push_back(b); });
  return out;
}
const std::string END(1, END_OF_RUN);
}  // namespace

TEST_CASE("Substring tier, folding: width, case, kana, iteration mark", "[substring]") {
  CHECK(fold_text("ＧＰＵ Training").text == "gpu training");
  CHECK(fold_text("ｻｰﾊﾞｰ").text == "サーバー");
  CHECK(fold_text("さーばー").text == "サーバー");
  CHECK(fold_text("人々").text == "人人");
  CHECK(fold_text("こゝろ").text == "ココロ");
  CHECK(fold_text("いすゞ").text == "イスズ");
  CHECK(fold_text("部分々々").text == "部分部分");
  CHECK(fold_text("こゝろ", true).to_original(3, 6) == std::pair<std::size_t, std::size_t>{3, 6});
  CHECK(fold_text("キャッシュ").text == fold_text("キヤツシユ").text);
  CHECK(fold_text("ぁぃ").text == "アイ");
  CHECK(fold_text("さーばー", false, Fold::Width).text == "さーばー");
}

TEST_CASE("Substring tier, query folding drops trailing long vowels", "[substring]") {
  CHECK(fold_query("サーバー") == "サーバ");
  CHECK(fold_query("サーバ") == "サーバ");
  CHECK(fold_query("ｻｰﾊﾞｰ") == "サーバ");
  CHECK(fold_query("さーばー") == "サーバ");
  CHECK(fold_query("コンピューター") == fold_query("コンピュータ"));
  CHECK(fold_query("ＦＳＤＰ") == "fsdp");
  CHECK(fold_query("ー") == "ー");
  // The words' rule (Analyzer, katakana long vowel): a run of three keeps its mark (コピー is no コピペ).
  CHECK(fold_query("コピー") == "コピー");
  CHECK(fold_query("東京サーバー") == "東京サーバ");
  CHECK(fold_query("ユーザーー") == "ユーザ");
}

TEST_CASE("Substring tier, grams cover every character and break at white space", "[substring]") {
  // Two characters from a Japanese one, three from an ASCII one, cut short at a run's end.
  CHECK(grams("京都 abcd") ==
        std::vector<std::string>{"京都", "都" + END, "abc", "bcd", "cd" + END, "d" + END});
  CHECK(grams("東京都") == std::vector<std::string>{"東京", "京都", "都" + END});
  CHECK(grams("GPU京都") == std::vector<std::string>{"gpu", "pu京", "u京都", "京都", "都" + END});
  CHECK(grams("") == std::vector<std::string>{});
  CHECK(grams("a\n\nb") == std::vector<std::string>{"a" + END, "b" + END});
}

TEST_CASE("Substring tier, letters and digits a word shows have no grams", "[substring]") {
  CHECK(alphanumeric("x1y"));
  CHECK(alphanumeric("ab" + END));
  CHECK_FALSE(alphanumeric("a-b"));
  CHECK_FALSE(alphanumeric(""));
  CHECK_FALSE(alphanumeric(END));
  CHECK_FALSE(alphanumeric("京都"));
  CHECK(alphanumeric_runs("gpu京都x1y-z ab") == std::vector<std::string_view>{"gpu", "x1y", "z", "ab"});
  CHECK(alphanumeric_runs("京都").empty());
  std::vector<std::string> indexed;
  // gpu and z are runs of words; x1y is not (a word too long to be a term, a
  // character that folds to a digit): its grams stay, and every gram with
  // another character does.
  for_each_indexed_gram(
      "gpu 京都 x1y-z", [](std::string_view run) { return run == "gpu" || run == "z"; },
      [&](const std::string& g) { indexed.push_back(g); });
  CHECK(indexed == std::vector<std::string>{"京都", "都" + END, "x1y", "1y-", "y-z", "-z" + END});
  // Nothing shown: every gram, as for_each_gram gives them.
  indexed.clear();
  for_each_indexed_gram(
      "gpu 京都 x1y-z", [](std::string_view) { return false; },
      [&](const std::string& g) { indexed.push_back(g); });
  CHECK(indexed == grams("gpu 京都 x1y-z"));
}

TEST_CASE("Substring tier, query grams", "[substring]") {
  const auto strag = query_grams("ストラグラ");
  CHECK(strag.grams == std::vector<std::string>{"スト", "トラ", "ラグ", "グラ"});
  CHECK_FALSE(strag.exact);
  const auto kyoto = query_grams("京都");
  CHECK(kyoto.grams == std::vector<std::string>{"京都"});
  CHECK(kyoto.exact);
  const auto one = query_grams("都");
  CHECK(one.grams.empty());
  CHECK(one.prefix == "都");
  CHECK(one.exact);
  const auto robot = query_grams("robot");
  CHECK(robot.grams == std::vector<std::string>{"rob", "obo", "bot"});
  CHECK_FALSE(robot.exact);
  CHECK(query_grams("gpu").exact);
  CHECK(query_grams("ab").prefix == "ab");
}

TEST_CASE("Substring tier, folded spans map back to the original bytes", "[substring]") {
  const std::string text = "本社は東京都、ｻｰﾊﾞｰ室とＧＰＵ。";
  const FoldedText f = fold_text(text, true);
  auto original = [&](const std::string& needle) {
    const auto p = f.text.find(needle);
    REQUIRE(p != std::string::npos);
    const auto [b, e] = f.to_original(p, p + needle.size());
    return text.substr(b, e - b);
  };
  CHECK(original("京都") == "京都");
  CHECK(original("サーバー") == "ｻｰﾊﾞｰ");
  CHECK(original("gpu") == "ＧＰＵ");
}

namespace {

// The accepted occurrences of a query in text, as the original text they cover.
std::vector<std::string> accepted(sagasu::Analyzer& analyzer, const std::string& text,
                                  const std::string& query) {
  const sagasu::SubstringNeedle needle{sagasu::fold_query(query),
                                       sagasu::fold_query(query, sagasu::Fold::Width)};
  std::vector<std::string> out;
  for (const auto& [b, e] : sagasu::find_substring(analyzer, text, needle))
    out.push_back(text.substr(b, e - b));
  return out;
}

}  // namespace

TEST_CASE("Substring, a kana variant only where it names the same word", "[substring]") {
  sagasu::Analyzer a;
  using V = std::vector<std::string>;
  // Same text up to width and case: always.
  CHECK(accepted(a, "画像のアップスケール", "アップス") == V{"アップス"});
  CHECK(accepted(a, "ｻｰﾊﾞｰを使う", "サーバ") == V{"ｻｰﾊﾞ"});
  // A hiragana query finds the katakana word it names.
  CHECK(accepted(a, "自宅サーバーの構築", "さーばー") == V{"サーバ"});
  // Katakana finding hiragana: a whole word, not pieces of several.
  CHECK(accepted(a, "これは便利", "コレ") == V{"これ"});
  CHECK(accepted(a, "ファイルをアップする", "アップス").empty());          // す is part of する
  CHECK(accepted(a, "表示モードでこれらの設定", "デコレー").empty());      // で + part of これらの
  CHECK(accepted(a, "ゲーム内でコレクションを作る", "デコレー").empty());  // ends inside コレクション
  CHECK(accepted(a, "壊れかねないすべての", "ナイス").empty());            // ない + part of すべて
}

TEST_CASE("Substring, a leading 々 repeats an ideograph before the string", "[substring]") {
  sagasu::Analyzer a;
  using V = std::vector<std::string>;
  CHECK(accepted(a, "佐々木さんの研究室", "々木") == V{"々木"});
  CHECK(accepted(a, "佐佐木さん", "々木") == V{"佐木"});  // the same name, written out
  CHECK(accepted(a, "木曜日", "々木").empty());           // no repeated ideograph before 木
  CHECK(accepted(a, "様々な方法", "々な") == V{"々な"});
  // Its grams are those of the rest: nothing in the index starts with 々.
  const auto g = query_grams(fold_query("々木曜"));
  CHECK(g.grams == std::vector<std::string>{"木曜"});
  CHECK_FALSE(g.exact);
}

TEST_CASE("Substring, a katakana string is looked for in the kana alone: the same answers as the folded text",
          "[substring]") {
  // contains_substring folds only the kana of a text (and the rare characters
  // that fold to kana) for a katakana needle; find_substring folds it all.
  // Random texts of kana in every form, voicing marks, characters NFKC
  // removes, squared katakana and others: both must agree on every one.
  sagasu::Analyzer a;
  const std::vector<std::string> pieces{
      "サ", "さ", "ｻ",  "ー", "ｰ",  "バ", "ば", "ﾊﾞ", "は\u3099", "ハ", "ﾊ",      "ﾞ",  "\u00AD", "\u200B",
      "㌔", "キ", "ロ", "き", "ろ", "ッ", "っ", "ツ", "つ",       "ｯ",  "ア",     "ァ", "あ",     "a",
      " ",  "。", "木", "ヿ", "コ", "ト", "ゝ", "ヽ", "ｶ",        "ガ", "\uFEFF", "ｧ",  "ㇰ",     "ク"};
  const std::vector<std::string> queries{"サーバ", "キロ", "バー", "ツア", "アツ", "コト", "サ",
                                         "ロキ",   "ガ",   "カガ", "クク", "ササ", "アア"};
  std::mt19937 rng(42);
  std::size_t found = 0;
  for (int n = 0; n < 20000; ++n) {
    std::string text;
    for (std::size_t k = 1 + rng() % 10; k > 0; --k) text += pieces[rng() % pieces.size()];
    const std::string& query = queries[rng() % queries.size()];
    const sagasu::SubstringNeedle needle{sagasu::fold_query(query),
                                         sagasu::fold_query(query, sagasu::Fold::Width)};
    // Found as typed in the raw text, the string counts whatever follows it
    // (even a voicing mark that NFKC would compose with it): not the case here.
    if (text.find(needle.folded) != std::string::npos) continue;
    const bool fast = sagasu::contains_substring(a, text, needle);
    const bool slow = !sagasu::find_substring(a, text, needle).empty();
    INFO("text: " << text << "  query: " << query);
    REQUIRE(fast == slow);
    found += fast;
  }
  CHECK(found > 500);  // the texts hold the queries often enough to mean something
}

// Found by fuzzing (tests/fuzz/corpus/analyzer/empty-text-memmem): an empty
// text's data() may be null, and memmem's arguments are declared nonnull (UBSan).
TEST_CASE("Substring, an empty text holds nothing and is not searched", "[substring]") {
  CHECK(strings::find(std::string_view{}, "ァ") == std::string_view::npos);
  CHECK(strings::find("ab", "abc") == std::string_view::npos);
  CHECK(strings::find("abc", "c", 2) == 2);
  CHECK(strings::find("abc", "c", 3) == std::string_view::npos);
  Analyzer a;
  const SubstringNeedle needle{fold_query("ァ"), fold_query("ァ", Fold::Width)};
  CHECK(find_substring(a, std::string_view{}, needle).empty());
  CHECK_FALSE(contains_substring(a, std::string_view{}, needle));
}

// Found by fuzzing (tests/fuzz/corpus/analyzer/combining-mark): text in NFD
// (macOS file names, text copied from PDFs) writes ズ as ス + U+3099. The bytes
// of スデス are in スデズ, but the word is not: contains_substring said yes
// while find_substring found nothing to highlight.
TEST_CASE("Substring, a combining mark joins the needle's last character: not an occurrence", "[substring]") {
  Analyzer a;
  const SubstringNeedle needle{fold_query("スデス"), fold_query("スデス", Fold::Width)};
  const std::string nfd = "Ne\xE3\x82\xB9\xE3\x83\x87\xE3\x82\xB9\xE3\x82\x99HTTP";  // Neスデス + U+3099
  CHECK(find_substring(a, nfd, needle).empty());
  CHECK_FALSE(contains_substring(a, nfd, needle));
  const std::string plain = "Neスデス HTTP";
  CHECK(find_substring(a, plain, needle).size() == 1);
  CHECK(contains_substring(a, plain, needle));
}

// Found by fuzzing (tests/fuzz/corpus/analyzer/lone-combining-mark): a needle
// that is a combining mark alone (U+0308) is in the bytes of "A" + U+0308, but
// that text is Ä: contains_substring said yes, find_substring found nothing.
TEST_CASE("Substring, a needle starting with a combining mark is no occurrence inside a composed character",
          "[substring]") {
  Analyzer a;
  const SubstringNeedle needle{fold_query("\xCC\x88"), fold_query("\xCC\x88", Fold::Width)};
  for (const std::string text : {"A\xCC\x88", "xA\xCC\x88y", "\xC3\x84"}) {
    INFO(text);
    CHECK(find_substring(a, text, needle).empty());
    CHECK_FALSE(contains_substring(a, text, needle));
  }
  // Where nothing composes with it, both find it.
  const std::string apart = "x \xCC\x88";
  CHECK(find_substring(a, apart, needle).size() == contains_substring(a, apart, needle));
}
