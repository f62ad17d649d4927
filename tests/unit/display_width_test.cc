// Terminal columns from ICU's East Asian width, where text may be cut, and how names fold.
#include <catch2/catch.hpp>

#include "sagasu/unicode.h"

using sagasu::unicode::char_boundaries;
using sagasu::unicode::display_width;

TEST_CASE("display_width, wide characters count two, marks none", "[unicode]") {
  struct Case {
    const char* text;
    std::size_t cols;
  };
  const Case cases[] = {
      {"", 0},
      {"SDC", 3},
      {"障害検知", 8},       // wide
      {"ストラグラー", 12},  // wide
      {"ＧＰＵ", 6},         // fullwidth
      {"ｻｰﾊﾞｰ", 5},          // half-width, the voiced mark in a column of its own
      {"e\xcc\x81", 1},      // e + combining acute
      {"…", 1},              // ambiguous: narrow
      {"SDC の検知", 10},
      {"\xe2\x80\x8b", 0},  // zero width space (format)
  };
  for (const auto& c : cases) {
    INFO(c.text);
    CHECK(display_width(c.text) == c.cols);
  }
}

TEST_CASE("char_boundaries, cuts between characters, never inside one", "[unicode]") {
  CHECK(char_boundaries("ab") == std::vector<std::size_t>{0, 1, 2});
  CHECK(char_boundaries("検知") == std::vector<std::size_t>{0, 3, 6});
  CHECK(char_boundaries("e\xcc\x81x") == std::vector<std::size_t>{0, 3, 4});  // é is one character
  CHECK(char_boundaries("") == std::vector<std::size_t>{0});
}

TEST_CASE("fold_name and fold_key fold ASCII as ICU's NFKC_Casefold does", "[unicode]") {
  using sagasu::unicode::fold_key;
  using sagasu::unicode::fold_name;
  CHECK(fold_name("  Xin_Liu \t") == "xin liu");
  CHECK(fold_name("ＸＩＮ\u3000Ｌｉｕ") == "xin liu");
  CHECK(fold_key("A_B  C") == "a_b c");
  // Every ASCII character, alone and between letters: the same as through ICU, which a
  // soft hyphen sends the string to (NFKC_Casefold removes it).
  for (int c = 0; c < 0x80; ++c) {
    for (const std::string& s :
         {std::string(1, static_cast<char>(c)), "Ab" + std::string(1, static_cast<char>(c)) + "Cd"}) {
      INFO("character " << c);
      CHECK(fold_name(s) == fold_name(s + "\u00AD"));
      CHECK(fold_key(s) == fold_key(s + "\u00AD"));
    }
  }
}
