// Terminal columns from ICU's East Asian width, and where text may be cut.
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
      {"障害検知", 8},          // wide
      {"ストラグラー", 12},     // wide
      {"ＧＰＵ", 6},            // fullwidth
      {"ｻｰﾊﾞｰ", 5},             // half-width, the voiced mark in a column of its own
      {"e\xcc\x81", 1},         // e + combining acute
      {"…", 1},                 // ambiguous: narrow
      {"SDC の検知", 10},
      {"\xe2\x80\x8b", 0},      // zero width space (format)
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
