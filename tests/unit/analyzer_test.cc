#include "sagasu/analyzer.h"

#include <malloc.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "sagasu/unicode.h"

using sagasu::Analyzer;
using sagasu::Token;
using sagasu::TokenKind;

namespace {

// The Word tokens' texts of text.
std::vector<std::string> words(const std::string& text) {
  static Analyzer analyzer;
  return analyzer.words(text);
}

}  // namespace

TEST_CASE("Analyzer, tokens carry positions and byte offsets into the original", "[analyzer]") {
  Analyzer a;
  const std::string text = "本番クラスタで ＧＰＵ を";
  const auto tokens = a.analyze(text);
  struct Expect {
    const char* text;
    unsigned pos, begin, end;
    TokenKind kind;
  };
  const std::vector<Expect> expected{
      {"本番", 1, 0, 6, TokenKind::Word},  {"クラスタ", 2, 6, 18, TokenKind::Word},
      {"で", 3, 18, 21, TokenKind::Word},  {"gpu", 4, 22, 31, TokenKind::Word},
      {"gpu", 4, 22, 31, TokenKind::Stem}, {"を", 5, 32, 35, TokenKind::Word},
  };
  REQUIRE(tokens.size() == expected.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    INFO("token " << i);
    CHECK(tokens[i].text == expected[i].text);
    CHECK(tokens[i].position == expected[i].pos);
    CHECK(tokens[i].byte_begin == expected[i].begin);
    CHECK(tokens[i].byte_end == expected[i].end);
    CHECK(tokens[i].kind == expected[i].kind);
  }
}

TEST_CASE("Analyzer, punctuation between two words leaves a position out", "[analyzer]") {
  Analyzer a;
  const auto positions = [&](const std::string& text) {
    std::vector<unsigned> out;
    for (const Token& t : a.analyze(text))
      if (t.kind == TokenKind::Word) out.push_back(t.position);
    return out;
  };
  using P = std::vector<unsigned>;
  // A sentence's or clause's end, a table cell's, a list item's, a blank line.
  CHECK(positions("the time, changes") == P{1, 2, 4});
  CHECK(positions("in time. Changes") == P{1, 2, 4});
  CHECK(positions("障害物、回避する") == P{1, 2, 4, 5});
  CHECK(positions("| Session | Teleoperation |") == P{1, 3});
  CHECK(positions("- obstacle\n- avoidance") == P{1, 3});
  CHECK(positions("obstacle\n\navoidance") == P{1, 3});
  // Not inside a name or a time, nor where a line is only wrapped.
  CHECK(positions("std::vector grows") == P{1, 2, 3});
  CHECK(positions("at 10:30 today") == P{1, 2, 3, 4});
  CHECK(positions("obstacle\navoidance") == P{1, 2});
  CHECK(positions("visual-inertial odometry") == P{1, 2, 3});
}

TEST_CASE("Analyzer, katakana pieces that ICU splits are joined", "[analyzer]") {
  using V = std::vector<std::string>;
  CHECK(words("シンボリックリンク") == V{"シンボリックリンク"});
  CHECK(words("ディストリビューション") == V{"ディストリビューション"});
  CHECK(words("マルチモーダル") == V{"マルチモーダル"});
  CHECK(words("ハンドラー") == V{"ハンドラ"});
  CHECK(words("データ") == V{"データ"});
}

TEST_CASE("Analyzer, a word a filled line wraps is one word, at the original offsets", "[analyzer]") {
  using V = std::vector<std::string>;
  // A line of 40 columns or more (20 Japanese characters) wrapped inside a
  // word, as man pages, vimdoc and text copied from a PDF are.
  const std::string filled = "このコマンドは指定したディレクトリにある設定ファ";
  const std::string text = filled + "\nイルを読む";
  const V wrapped = words(text);
  CHECK(std::count(wrapped.begin(), wrapped.end(), "ファイル") == 1);
  CHECK(std::count(wrapped.begin(), wrapped.end(), "イル") == 0);
  CHECK(words(filled + "\r\n  イルを読む") == wrapped);  // (a CRLF, an indented next line)
  CHECK(words(filled + "\n管理") == words(filled + "管理"));
  // A string continued on the next line, as gettext's .po files wrap it.
  const V quoted = words("msgstr \"" + filled + "\"\n\"イルを読む\"");
  CHECK(std::count(quoted.begin(), quoted.end(), "ファイル") == 1);
  const V closed = words("msgstr \"" + filled + "\"\nイルを読む");
  CHECK(std::count(closed.begin(), closed.end(), "ファイル") == 0);
  Analyzer a;
  const auto tokens = a.analyze(text);
  const auto file =
      std::find_if(tokens.begin(), tokens.end(), [](const Token& t) { return t.text == "ファイル"; });
  REQUIRE(file != tokens.end());
  CHECK(text.substr(file->byte_begin, file->byte_end - file->byte_begin) == "ファ\nイル");
  CHECK(tokens.back().byte_end == text.size());
  // A short line ends a line of its own (a name, a heading, a list without
  // marks); a heading, a blank line or Latin text on either side is no wrap.
  CHECK(words("チェックポイント\nチェックポイントとは") ==
        V{"チェックポイント", "チェックポイント", "と", "は"});
  const V heading = words("## " + filled + "\nイルを読む");
  CHECK(std::count(heading.begin(), heading.end(), "ファイル") == 0);
  const V blank = words(filled + "\n\nイルを読む");
  CHECK(std::count(blank.begin(), blank.end(), "ファイル") == 0);
  const V latin = words(filled + "\nFile");
  CHECK(std::count(latin.begin(), latin.end(), "ファ") == 1);
}

TEST_CASE("Unwrap, a stretch of text without its wraps, judged on its whole line", "[analyzer]") {
  const std::string text = "この文は一行を四十桁より長くするための前置きです。設定ファ\nイルを読む。";
  const std::size_t from = text.find("設定");
  sagasu::Unwrapped out;
  REQUIRE(sagasu::unwrap(text, out, from));
  CHECK(out.text == "設定ファイルを読む。");
  // Offsets both ways: イ is one byte further in the stretch than in the text.
  const auto i = static_cast<std::uint32_t>(text.find("イル") - from);
  CHECK(out.in_text(i) == out.text.find("イル"));
  CHECK(out.begin(static_cast<std::uint32_t>(out.text.find("イル"))) == i);
  CHECK(out.in_text(i - 1) == out.text.find("イル"));  // the break itself: where the wrap was
  sagasu::Unwrapped none;
  CHECK_FALSE(sagasu::unwrap(text, none, 0, from));
  CHECK(none.in_text(5) == 5);
}

TEST_CASE("Analyzer, iteration marks are read as what they repeat, at the same offsets", "[analyzer]") {
  // ICU splits a word at a mark it does not know (こ + ゝ + ろ, 部分 + 々 + 々):
  // written out first, the word is the word without marks.
  CHECK(words("こゝろ") == words("こころ"));
  CHECK(words("学問のすゝめ") == words("学問のすすめ"));
  CHECK(words("いすゞ") == words("いすず"));
  CHECK(words("バナヽ") == words("バナナ"));
  CHECK(words("部分々々") == words("部分部分"));
  CHECK(words("人々") == words("人人"));
  CHECK(words("佐々木") == words("佐佐木"));
  // Nothing to repeat: the mark stays.
  CHECK(words("々木") == std::vector<std::string>{"々", "木"});
  // Offsets are the original's: the highlight covers the marks.
  sagasu::Analyzer a;
  const auto tokens = a.analyze("心のこゝろ");
  REQUIRE_FALSE(tokens.empty());
  CHECK(tokens.back().byte_end == std::string("心のこゝろ").size());
  std::string out;
  CHECK_FALSE(sagasu::unicode::expand_iteration_marks("部分", out));
  CHECK(sagasu::unicode::expand_iteration_marks("時々々", out));  // one repeat after one ideograph
  CHECK(out == "時時時");
}

TEST_CASE("Analyzer, katakana long vowel folds", "[analyzer]") {
  CHECK(words("サーバー") == words("サーバ"));
  CHECK(words("コンピューター") == words("コンピュータ"));
  CHECK(words("ストラグラー") == std::vector<std::string>{"ストラグラ"});
  // Short words keep their mark: ルー is not ル.
  CHECK(words("ルー") == std::vector<std::string>{"ルー"});
  CHECK(words("コピー") == std::vector<std::string>{"コピー"});
}

TEST_CASE("Analyzer, katakana v-sounds fold to the b-row", "[analyzer]") {
  // ja-techdocs writes ヴァリアント in 7 places, バリアント in 11.
  CHECK(words("ヴァリアント") == words("バリアント"));
  CHECK(words("ヴィジョン") == words("ビジョン"));
  CHECK(words("ヴォーカル") == words("ボーカル"));
  CHECK(words("ヴェクトル") == words("ベクトル"));
  CHECK(words("ヴュー") == words("ビュー"));
  CHECK(words("ｳﾞｧｲｵﾘﾝ") == words("バイオリン"));
  CHECK(words("ヴ") == words("ブ"));
  CHECK(words("ドーヴィル") == std::vector<std::string>{"ドービル"});
}

TEST_CASE("A loanword's kana spellings share one key", "[analyzer]") {
  using sagasu::unicode::katakana_spelling_key;
  // ja-techdocs writes インターフェース in 865 files, インターフェイス in 140, インタフェース in 64.
  const std::string key = katakana_spelling_key("インターフェース");
  CHECK(key == "インタフエス");
  CHECK(katakana_spelling_key("インタフェース") == key);
  CHECK(katakana_spelling_key("インターフェイス") == key);
  CHECK(katakana_spelling_key("インタフェイス") == key);
  CHECK(katakana_spelling_key("ウィンドウ") == katakana_spelling_key("ウインドウ"));
  CHECK(katakana_spelling_key("ディスクリプタ") == katakana_spelling_key("デスクリプタ"));
  CHECK(katakana_spelling_key("パラメータ") == katakana_spelling_key("パラメタ"));
  CHECK(katakana_spelling_key("クォート") == katakana_spelling_key("クオート"));
  // An イ that ends the word stays: アンドレイ (Andrei) is no アンドレ (André).
  CHECK(katakana_spelling_key("アンドレイ") != katakana_spelling_key("アンドレ"));
  // A short word's small kana alone vary (ja-techdocs: クォート 86 files, クオート 28).
  CHECK(katakana_spelling_key("クォート") == katakana_spelling_key("クオート"));
  CHECK(katakana_spelling_key("リリース") != katakana_spelling_key("リリス"));
  CHECK(katakana_spelling_key("ペースト") != katakana_spelling_key("ペスト"));
  CHECK(katakana_spelling_key("ディスク") != katakana_spelling_key("デスク"));
  CHECK(katakana_spelling_key("スーパー") != katakana_spelling_key("スパ"));  // spa
  // A word under four characters has none (ボール, ボウル: bowl).
  CHECK(katakana_spelling_key("ボール").empty());
  CHECK(katakana_spelling_key("スパ").empty());
  // A cut word, and what is not katakana.
  CHECK(katakana_spelling_key("ープログラム").empty());
  CHECK(katakana_spelling_key("ァイル名").empty());
  CHECK(katakana_spelling_key("ファイル名").empty());
}

TEST_CASE("Analyzer, full and half width fold", "[analyzer]") {
  CHECK(words("ＧＰＵ") == words("GPU"));
  CHECK(words("ＳＤＣＨｕｎｔｅｒ") == std::vector<std::string>{"sdchunter"});
  CHECK(words("ｻｰﾊﾞ") == words("サーバ"));
  CHECK(words("ｽﾄﾗｸﾞﾗｰ") == words("ストラグラー"));
  CHECK(words("２０２５年") == words("2025年"));
}

TEST_CASE("Analyzer, mixed Latin words", "[analyzer]") {
  using V = std::vector<std::string>;
  CHECK(words("veScale-FSDP") == V{"vescale", "fsdp"});
  CHECK(words("SDCHunter") == V{"sdchunter"});
  CHECK(words("MegaScale-Omni の論文") == V{"megascale", "omni", "の", "論文"});
}

TEST_CASE("Analyzer, kanji compounds split into dictionary words", "[analyzer]") {
  using V = std::vector<std::string>;
  CHECK(words("京都大学") == V{"京都", "大学"});
  CHECK(words("東京都") == V{"東京", "都"});
  CHECK(words("本番クラスタ") == V{"本番", "クラスタ"});
}

TEST_CASE("Analyzer, English words are also stemmed", "[analyzer]") {
  Analyzer a;
  const auto tokens = a.analyze("Training stragglers");
  REQUIRE(tokens.size() == 4);
  CHECK(tokens[0].text == "training");
  CHECK(tokens[1].kind == TokenKind::Stem);
  CHECK(tokens[1].text == "train");
  CHECK(tokens[1].position == tokens[0].position);
  CHECK(tokens[3].text == "straggler");
}

TEST_CASE("Analyzer, punctuation and spaces make no tokens", "[analyzer]") {
  CHECK(words("。、!? ・（）") == std::vector<std::string>{});
  CHECK(words("") == std::vector<std::string>{});
}

TEST_CASE("Analyzer, analysing again and again does not grow the heap", "[analyzer]") {
  // Found by LSan: every analyze() left the empty UText that detaches the
  // text from the break iterator open, 480 bytes a call.
  Analyzer a;
  for (int i = 0; i < 100; ++i) a.analyze("本番クラスタの SDC を検知する。");  // warm: caches filled
  const std::size_t before = mallinfo2().uordblks;
  for (int i = 0; i < 20000; ++i) a.analyze("本番クラスタの SDC を検知する。");
  const std::size_t after = mallinfo2().uordblks;
  CHECK(after < before + 1000000);  // the leak was 9.6 MB here
}
