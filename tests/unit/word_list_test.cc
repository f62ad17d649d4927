// The word list: every word term of a database, for the substring tier's
// proofs, used only for the database revision it describes.
#include "sagasu/word_list.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "searcher_fixture.h"

using namespace sagasu;
namespace fs = std::filesystem;

TEST_CASE_METHOD(test::SearcherFixture, "WordList, the words that contain a string", "[words]") {
  const auto words = WordList::open(test::current_generation(index.index), db);
  REQUIRE(words);
  CHECK(words->containing("ータセッ", WordList::Side::Word, 10) == std::vector<std::string>{"データセット"});
  CHECK(words->containing("京都大", WordList::Side::Word, 10).empty());  // 京都 + 大学: two words
  CHECK(words->containing("研究", WordList::Side::Word, 10) == std::vector<std::string>{"研究", "研究者"});
  CHECK(words->containing("研究", WordList::Side::Word, 1) ==
        std::vector<std::string>{"研究"});  // at most max
  // Only word terms: the unique ids (Q…), grams (XB…) and filters (XV…) are not words.
  CHECK(words->containing("osdi", WordList::Side::Word, 10).empty() == false);  // the word of the title
  CHECK(words->containing("wiki/sources", WordList::Side::Word, 10).empty());
  CHECK(words->containing("XB", WordList::Side::Word, 10).empty());
  CHECK(words->containing("", WordList::Side::Word, 10).empty());
  CHECK(words->containing("研究\n", WordList::Side::Word, 10).empty());
}

TEST_CASE_METHOD(test::SearcherFixture, "WordList, the words whose folding contains a string", "[words]") {
  const auto words = WordList::open(test::current_generation(index.index), db);
  REQUIRE(words);
  // 付き folds to 付キ (hiragana → katakana): found by its folding, not as a word.
  CHECK(words->containing("付キ", WordList::Side::Folding, 10) == std::vector<std::string>{"付き"});
  CHECK(words->containing("付キ", WordList::Side::Word, 10).empty());
  CHECK(words->containing("付き", WordList::Side::Word, 10) == std::vector<std::string>{"付き"});
  CHECK(words->containing("付き", WordList::Side::Folding, 10).empty());  // its folding has キ
  // Small kana fold to full size: データセット folds to データセツト.
  CHECK(words->containing("ータセツ", WordList::Side::Folding, 10) ==
        std::vector<std::string>{"データセット"});
  // A word that folds to itself is its own folding.
  CHECK(words->containing("研究", WordList::Side::Folding, 10) == std::vector<std::string>{"研究", "研究者"});
}

TEST_CASE_METHOD(test::SearcherFixture, "WordList, another revision or a damaged file is not used",
                 "[words]") {
  const std::string folder = test::current_generation(index.index);
  test::commit_elsewhere(index.index);  // a revision the list does not describe
  const Xapian::Database now(index.index);
  CHECK_FALSE(WordList::open(folder, now));
  WordList::write(now, folder);
  REQUIRE(WordList::open(folder, now));
  const fs::path file = fs::path(folder) / WORD_LIST_FILE;
  fs::resize_file(file, fs::file_size(file) - 1);  // the last word's end cut off
  CHECK_FALSE(WordList::open(folder, now));
  fs::remove(file);
  CHECK_FALSE(WordList::open(folder, now));
}

TEST_CASE_METHOD(test::SearcherFixture, "WordList, built from the terms: the list the file holds",
                 "[words]") {
  // Several shards, a remote one or a folder without a current list: the
  // substring tier's candidates come from the same words.
  const auto file = WordList::open(test::current_generation(index.index), db);
  REQUIRE(file);
  const auto built = WordList::of(db);
  for (const char* needle : {"ータセッ", "研究", "osdi", "sdc", "付キ", "d", "xyz"})
    for (const auto side : {WordList::Side::Word, WordList::Side::Folding}) {
      INFO(needle);
      CHECK(built->containing(needle, side, 100) == file->containing(needle, side, 100));
    }
  CHECK(built->containing("sdc", WordList::Side::Folding, 100) == std::vector<std::string>{"sdc", "sdcs"});
}

TEST_CASE("WordList, shards' lists merged: the list of the shards as one", "[words]") {
  // Local shards: each one's file, merged, instead of every term read again.
  const auto shard = [](std::initializer_list<const char*> words) {
    Xapian::WritableDatabase db(std::string(), Xapian::DB_BACKEND_INMEMORY);
    Xapian::Document doc;
    for (const char* w : words) doc.add_term(w);
    doc.add_term("XBgram");  // not a word
    db.add_document(doc);
    return db;
  };
  const Xapian::WritableDatabase a = shard({"付き", "研究", "sdc", "データセット"});
  const Xapian::WritableDatabase b = shard({"研究者", "sdc", "sdcs", "付き", "zebra"});
  const Xapian::WritableDatabase c = shard({});
  Xapian::Database all(a);
  all.add_database(b);
  all.add_database(c);
  const auto merged = WordList::merged({WordList::of(a), WordList::of(b), WordList::of(c)});
  const auto built = WordList::of(all);
  for (const char* needle : {"研究", "sdc", "付", "付キ", "ータセツ", "z", "XB", "s"})
    for (const auto side : {WordList::Side::Word, WordList::Side::Folding}) {
      INFO(needle);
      CHECK(merged->containing(needle, side, 100) == built->containing(needle, side, 100));
    }
  // Each word once, in term order.
  CHECK(merged->containing("sdc", WordList::Side::Word, 100) == std::vector<std::string>{"sdc", "sdcs"});
  CHECK(merged->containing("研究", WordList::Side::Word, 100) == std::vector<std::string>{"研究", "研究者"});
  CHECK(merged->containing("付キ", WordList::Side::Folding, 100) == std::vector<std::string>{"付き"});
  CHECK(WordList::merged({})->containing("a", WordList::Side::Word, 1).empty());
}

TEST_CASE("Every word term of a database, in term order, and no prefixed term", "[words]") {
  Xapian::WritableDatabase db(std::string(), Xapian::DB_BACKEND_INMEMORY);
  Xapian::Document doc;
  for (const char* term :
       {"0day", "@home", "_x", "zebra", "été", "データ", "研究", "Qid", "XBgram", "Stitle", "[x"})
    doc.add_term(term);
  db.add_document(doc);
  std::vector<std::string> words;
  for_each_word_term(db, [&](const std::string& w) { words.push_back(w); });
  CHECK(words == std::vector<std::string>{"0day", "@home", "[x", "_x", "zebra", "été", "データ", "研究"});
}
