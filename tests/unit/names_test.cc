#include "sagasu/names.h"

#include <catch2/catch.hpp>

using namespace sagasu;
using V = std::vector<std::string>;

TEST_CASE("names, one person: Last, First is First Last; Japanese names whole", "[names]") {
  CHECK(names::person("Shin, Suyeon") == "Suyeon Shin");
  CHECK(names::person("  Sterne,   Jonathan ") == "Jonathan Sterne");
  CHECK(names::person("Jonathan Sterne") == "Jonathan Sterne");
  CHECK(names::person("Robison, Christopher, Christa") == "Christopher Christa Robison");
  CHECK(names::person("Charlick, Zachary Samuel Charlick") == "Zachary Samuel Charlick");
  CHECK(names::person("Carbonell Rubio, Dani") == "Dani Carbonell Rubio");
  CHECK(names::person("秋吉, 康晴") == "秋吉康晴");
  CHECK(names::person("吉野 賢二") == "吉野賢二");
  CHECK(names::person("ジョン・デューイ") == "ジョン・デューイ");
}

TEST_CASE("names, author strings split into people", "[names]") {
  CHECK(names::split_people("Shin, Suyeon;Jeon, Sujin;Kim, Junghyun") ==
        V{"Suyeon Shin", "Sujin Jeon", "Junghyun Kim"});
  CHECK(names::split_people("亜貴子, 井手; 稔, 小嶋; 吉野 賢二") == V{"亜貴子井手", "稔小嶋", "吉野賢二"});
  CHECK(names::split_people("Joseph Savona, Josh Story, Lauren Tan, and Andrew Clark") ==
        V{"Joseph Savona", "Josh Story", "Lauren Tan", "Andrew Clark"});
  CHECK(names::split_people("Dan Abramov and Rachel Nabors") == V{"Dan Abramov", "Rachel Nabors"});
  CHECK(names::split_people("周司あきら、高井ゆと里") == V{"周司あきら", "高井ゆと里"});
  CHECK(names::split_people("羽生有希・藤間公太") == V{"羽生有希", "藤間公太"});
  CHECK(names::split_people("アンジェラ・マクロビー") == V{"アンジェラ・マクロビー"});
  // Comma-only rows: Last, First pairs, or full names.
  CHECK(names::split_people("Wang, Yifan, Chan, Sherwin Stephen, Lei, Mingyuan") ==
        V{"Yifan Wang", "Sherwin Stephen Chan", "Mingyuan Lei"});
  CHECK(names::split_people("Li, Alice Kate, Costa Silva, Thales, Hsieh, M. Ani") ==
        V{"Alice Kate Li", "Thales Costa Silva", "M. Ani Hsieh"});
  CHECK(names::split_people("Rudorfer, Martin") == V{"Martin Rudorfer"});
  CHECK(names::split_people("Dan Abramov, Lauren Tan") == V{"Dan Abramov", "Lauren Tan"});
  CHECK(names::split_people("Sterne, Jonathan") == V{"Jonathan Sterne"});
}

TEST_CASE("names, organizations without their legal form", "[names]") {
  CHECK(names::organization("一般社団法人 公共とデザイン") == "公共とデザイン");
  CHECK(names::organization("株式会社Preferred Networks") == "Preferred Networks");
  CHECK(names::organization("ByteDance") == "ByteDance");
  CHECK(names::split_organizations("京都大学; 東京大学、株式会社X") == V{"京都大学", "東京大学", "X"});
}

TEST_CASE("names, a person's name by its shape: not a site, a handle or one word", "[names]") {
  // Web Clipper credits sites as authors: author: [[note]], [[Zenn]], [[qiita]].
  for (const char* person : {"Andrej Karpathy", "Jean-Paul Sartre", "J. R. R. Tolkien", "吉野賢二", "山田さくら",
                             "高井ゆと里", "ジョン・スミス", "ジョン スミス"})
    CHECK(names::reads_as_person(person));
  for (const char* other : {"note", "Zenn", "qiita", "@kanazawa", "zenn.dev", "example.com Staff", "はてなブログ",
                            "ヤマト", "株", "Team 42", "A very long list of six words"})
    CHECK_FALSE(names::reads_as_person(other));
}
