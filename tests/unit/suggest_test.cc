// Did you mean: the closest index word, never farther than about one edit in
// four characters, never for words too short to tell a typo from a word.
#include "suggest.h"

#include <catch2/catch.hpp>

#include "searcher_fixture.h"

using namespace sagasu;

namespace {

std::string closest(const Xapian::Database& db, const std::string& word) {
  return suggest_words(db, {word}).front();
}

}  // namespace

TEST_CASE_METHOD(test::SearcherFixture, "Suggest, the closest word within a share of the word's length",
                 "[suggest]") {
  CHECK(closest(db, "bytedanse") == "bytedance");  // 1 edit in 9
  CHECK(closest(db, "bytedxnse") == "bytedance");  // 2 edits in 9: allowed
  CHECK(closest(db, "bxtedxnse").empty());         // 3 edits in 9: too far
  CHECK(closest(db, "クラスト") == "クラスタ");    // 1 edit in 4
  CHECK(closest(db, "クラストス").empty());        // 2 edits in 5: too far
  CHECK(closest(db, "クラスタ").empty());          // a known word is not corrected
}

TEST_CASE_METHOD(test::SearcherFixture, "Suggest, no correction of short words, no one-character suggestion",
                 "[suggest]") {
  CHECK(closest(db, "比絞").empty());  // two characters: another word, not a typo
  CHECK(closest(db, "の").empty());
  const Correction c = correct(db, "比絞 bytedanse", build("比絞 bytedanse").chunks);
  CHECK(c.suggestions == std::vector<std::string>{"bytedance"});
  CHECK(c.query == "比絞 bytedance");
}
