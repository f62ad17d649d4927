// The verifier: substring candidates the grams select are confirmed on the
// stored text; --exact requires the typed text.
#include "verifier.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>

#include "query_builder.h"
#include "sagasu/searcher.h"
#include "searcher_fixture.h"

using namespace sagasu;

namespace {

struct Fixture : test::SearcherFixture {
  bool accepts(const Verifier& v, const std::string& path) {
    const Xapian::Document doc = test::doc_of(db, path);
    return v.accept(doc, doc.get_docid());
  }
};

}  // namespace

TEST_CASE_METHOD(Fixture, "Verifier, a note holding the grams but not the string is rejected", "[verifier]") {
  const CompiledQuery q = build("京都大");
  const Verifier v(opened, q, false, analyzer);
  REQUIRE(v.needed());
  CHECK(accepts(v, "notes/kyoto.md"));        // 京都大学
  CHECK_FALSE(accepts(v, "notes/decoy.md"));  // 京都 … 首都大学: both grams, no 京都大
  // The grams do select the decoy: without the verifier it would be a hit.
  Xapian::Enquire e(db);
  e.set_query(q.chunks.front().substring);
  CHECK(e.get_mset(0, 10).size() == 2);
}

TEST_CASE_METHOD(Fixture, "Verifier, what a stricter query confirmed is not confirmed again", "[verifier]") {
  // The count of what --loose adds runs the loose query after the strict one;
  // a loose query matches every note its strict form does, and a substring
  // the strict one looked for in a note's text is there or not for both.
  const CompiledQuery q = build("京都大");
  const Verifier strict(opened, q, false, analyzer);
  CHECK(accepts(strict, "notes/kyoto.md"));
  CHECK_FALSE(accepts(strict, "notes/decoy.md"));  // its text read: no 京都大
  const Xapian::docid kyoto = test::doc_of(db, "notes/kyoto.md").get_docid(),
                      decoy = test::doc_of(db, "notes/decoy.md").get_docid();
  const std::vector<bool>& accepted = strict.accepted();
  CHECK(kyoto < accepted.size());
  CHECK(accepted.at(kyoto));
  CHECK_FALSE((decoy < accepted.size() && accepted[decoy]));
  // The two notes' stored texts swapped (terms kept): a verifier that read
  // them now would take the decoy and not kyoto.
  {
    Xapian::WritableDatabase w(index.index, Xapian::DB_OPEN);
    Xapian::Document a = w.get_document(kyoto), b = w.get_document(decoy);
    const std::string text = a.get_data();
    a.set_data(b.get_data());
    b.set_data(text);
    w.replace_document(kyoto, a);
    w.replace_document(decoy, b);
    w.commit();
    WordList::write(w, test::current_generation(index.index));
  }
  const OpenIndex now = open_index({index.index}, false);
  const auto accepts_now = [&](const Verifier& v, Xapian::docid did) {
    return v.accept(now.all.get_document(did), did);
  };
  CHECK(accepts_now(Verifier(now, q, false, analyzer), decoy));
  CHECK_FALSE(accepts_now(Verifier(now, q, false, analyzer), kyoto));
  // Trusting the strict one: neither is read again.
  Verifier looser(now, q, false, analyzer);
  looser.trust(strict);
  CHECK(accepts_now(looser, kyoto));
  CHECK_FALSE(accepts_now(looser, decoy));
}

TEST_CASE_METHOD(Fixture, "Verifier, whole words and exact grams need no confirmation", "[verifier]") {
  CHECK_FALSE(Verifier(opened, build("研究"), false, analyzer).needed());  // one gram proves it
  const CompiledQuery q = build("研究 京都大");
  const Verifier v(opened, q, false, analyzer);
  CHECK(v.needed());
  CHECK(accepts(v, "notes/kyoto.md"));
}

TEST_CASE_METHOD(Fixture, "Verifier, --exact requires the text as typed", "[verifier]") {
  const CompiledQuery q = build("sdc", true);
  const Verifier v(opened, q, true, analyzer);
  REQUIRE(v.needed());
  CHECK(accepts(v, "notes/tag.md"));  // a tag "sdc": grep -F finds it in the file's front matter
  CHECK_FALSE(accepts(v, "wiki/sources/@2026__OSDI__SDCs in the Wild - Characterizing.md"));  // only SDC
  const CompiledQuery upper = build("SDC", true);
  CHECK(accepts(Verifier(opened, upper, true, analyzer),
                "wiki/sources/@2026__OSDI__SDCs in the Wild - Characterizing.md"));
}

TEST_CASE_METHOD(Fixture, "Verifier, a word containing the string proves a note without its text",
                 "[verifier]") {
  // Proofs from the word list at once (0 text checks first): a note with the
  // word データセット holds ータセッ, whatever its stored text says.
  const CompiledQuery q = build("ータセッ");
  REQUIRE(Verifier(opened, q, false, analyzer).needed());  // kana: the grams alone do not prove it
  CHECK(accepts(Verifier(opened, q, false, analyzer, 0), "notes/card.md"));
  // No word holds 京都大 (京都 + 大学): the text decides, and says no for the decoy.
  const CompiledQuery kyoto = build("京都大");
  CHECK(accepts(Verifier(opened, kyoto, false, analyzer, 0), "notes/kyoto.md"));
  CHECK_FALSE(accepts(Verifier(opened, kyoto, false, analyzer, 0), "notes/decoy.md"));
  // The stored text emptied (terms kept): only the proof can accept the note.
  {
    Xapian::WritableDatabase w(index.index, Xapian::DB_OPEN);
    Xapian::Document doc = test::doc_of(w, "notes/card.md");
    doc.set_data("");
    w.replace_document(doc.get_docid(), doc);
    w.commit();
    WordList::write(w, test::current_generation(index.index));
  }
  const OpenIndex now = open_index({index.index}, false);
  REQUIRE(now.words.size() == 1);
  const Xapian::Document card = test::doc_of(now.all, "notes/card.md");
  CHECK(Verifier(now, q, false, analyzer, 0).accept(card, card.get_docid()));
  CHECK_FALSE(Verifier(now, q, false, analyzer, 1000).accept(card, card.get_docid()));  // text only
}

TEST_CASE(
    "Verifier, letters and digits no word holds are not in the note, unless a word is too long to be a term",
    "[verifier]") {
  const std::string blob =
      "x" + std::string(300, 'a') + "server" + std::string(10, 'b');  // no term: too long
  test::TestIndex index({{"web.md", "The webservers answer.\n"},
                         {"decoy.md", "They serve it over there.\n"},  // ser erv rve ver, no server
                         {"blob.md", "A key: " + blob + "\n"},
                         {"wide.md", "ＳＥＲＶＥＲ の設定。\n"}});
  const OpenIndex opened = open_index({index.index}, false);
  REQUIRE(opened.words.size() == 1);
  Analyzer analyzer;
  const Synonyms synonyms(opened.all);
  SearchRequest req;
  req.query = "server";
  const CompiledQuery q = QueryBuilder(opened.all, analyzer, synonyms, false).build(req);
  const Verifier v(opened, q, false, analyzer, 0);  // proofs at once
  REQUIRE(v.needed());
  auto accepts = [&](const std::string& path) {
    const Xapian::Document doc = test::doc_of(opened.all, path);
    return v.accept(doc, doc.get_docid());
  };
  CHECK(accepts("web.md"));  // the word webservers
  CHECK_FALSE(accepts("decoy.md"));
  CHECK(accepts("blob.md"));  // its text says so: the word is no term
  CHECK(accepts("wide.md"));  // full width folds to the word server
}

TEST_CASE(
    "Verifier, katakana: words prove it, the text refutes it, a hiragana variant cut into several words "
    "counts",
    "[verifier]") {
  std::string long_word;
  for (int i = 0; i < 30; ++i) long_word += "アイウ";
  long_word += "アップストリーム";  // 98 characters of katakana: no term
  test::TestIndex index(
      {{"word.md", "アップストリームの話。\n"},
       {"decoy.md", "ファイルをアップする。\n"},  // アップ + する: the grams, no word holds アップス
       {"long.md", long_word + "。\n"},
       {"narrow.md", "ｱｯﾌﾟｽﾄﾘｰﾑ の話。\n"},
       {"hiragana.md", "これは本。\n"},     // コレ as the whole word これ
       {"split.md", "さーばーの話。\n"}});  // ICU: さ|ー|ば|ー, no word holds サーバ
  const OpenIndex opened = open_index({index.index}, false);
  REQUIRE(opened.words.size() == 1);
  Analyzer analyzer;
  const Synonyms synonyms(opened.all);
  auto compile = [&](const std::string& text) {
    SearchRequest req;
    req.query = text;
    return QueryBuilder(opened.all, analyzer, synonyms, false).build(req);
  };
  const CompiledQuery ups = compile("アップス"), kore = compile("コレ"), server = compile("サーバー");
  for (std::size_t before_proof : {std::size_t{0}, std::size_t{1000}}) {  // word list, then text only
    INFO("text checks before the proof: " << before_proof);
    auto accepts = [&](const CompiledQuery& q, const std::string& path) {
      const Verifier v(opened, q, false, analyzer, before_proof);
      const Xapian::Document doc = test::doc_of(opened.all, path);
      return v.needed() && v.accept(doc, doc.get_docid());
    };
    CHECK(accepts(ups, "word.md"));
    CHECK_FALSE(accepts(ups, "decoy.md"));
    CHECK(accepts(ups, "long.md"));  // its text says so: the word is no term
    CHECK(accepts(ups, "narrow.md"));
    CHECK(accepts(kore, "hiragana.md"));
    CHECK(accepts(server, "split.md"));
  }
}

TEST_CASE("Substring search, letters and digits: every such string of a note finds it, in a word or in grams",
          "[verifier]") {
  // The index has no grams of letters and digits a word shows (schema 15):
  // such a string is found through the words containing it, and through
  // grams where no word shows its run (a word too long to be a term, a
  // character that folds to letters or digits beside others).
  const std::string blob = "k" + std::string(250, 'q') + "zebra" + "9";
  const std::map<std::string, std::string> notes{
      {"web.md", "The webservers answer.\n"},
      {"wide.md", "ＳＥＲＶＥＲ の設定。\n"},
      {"blob.md", "A key: " + blob + "\n"},
      {"circled.md", "x①y と ㎏ と ⅻ の表。\n"},
      {"ligature.md", "ﬁle と e\u0301cole と naïve の話。\n"},
      {"numbers.md", "3.14 と v2-beta と snake_case と C++20 と 2026年。\n"},
      {"mixed.md", "GPU4台 と H100x8 で ＬＬＭ３ を訓練。\n"},
      // Characters folding deletes join the letters beside them (a review's counterexamples).
      {"joined.md", "zw\u200bsp と soft zwi\u00adcwu9 と tyk\ufe0fwd の話。\n"}};
  test::TestIndex index(notes);
  Searcher searcher(index.index);
  std::set<std::string> checked;
  for (const auto& [path, text] : notes) {
    const std::string folded = fold_text(text).text;
    for (const std::string_view run : alphanumeric_runs(folded))
      for (std::size_t b = 0; b < run.size(); ++b)
        for (std::size_t n = 1; n <= 6 && b + n <= run.size(); ++n) {
          const std::string needle(run.substr(b, n));
          if (!checked.insert(needle + "\t" + path).second) continue;
          SearchRequest req;
          req.query = needle;
          req.limit = 100;
          req.snippets = 0;
          req.facets.clear();
          std::set<std::string> got;
          const SearchResult r = searcher.search(req);
          for (const auto& h : r.hits) got.insert(h.path);
          // A word the notes have (a, server) is found inside longer words by --loose.
          if (r.loose_by.inside_words) {
            req.loose = true;
            for (const auto& h : searcher.search(req).hits) got.insert(h.path);
          }
          INFO(needle << " in " << path);
          CHECK(got.count(path) == 1);
        }
  }
  CHECK(checked.size() > 200);
  // And nothing else: a string no note holds finds none.
  SearchRequest none;
  none.query = "zebrax";
  CHECK(searcher.search(none).hits.empty());
}

TEST_CASE("Substring search, a word of letters the notes have: no hit inside longer words but with --loose",
          "[verifier]") {
  test::TestIndex index({{"art.md", "Modern art and its critics.\n"},
                         {"start.md", "How to start the server: see the Makefile.\n"},
                         {"arts.md", "The arts of the Edo period.\n"},
                         {"tolerance.md", "Fault tolerance in training.\n"},
                         {"tag.md", "Audio tools.\n\n#audiomiddleware\n"},
                         {"fs.md", "The filesystem keeps the checkpoints.\n"},
                         {"words.md", "A file for the system; audio, then middleware.\n"},
                         {"transfer.md", "Sim2Real transfer of a grasp policy.\n"},
                         {"gap.md", "From sim to real.\n"}});
  Searcher searcher(index.index);
  const auto paths = [&](const std::string& query, bool loose = false, bool exact = false) {
    return test::hit_paths(searcher, query, loose, exact);
  };
  using Paths = std::set<std::string>;
  // The word and its inflections are hits; start holds art but is another word.
  CHECK(paths("art") == Paths{"art.md", "arts.md"});
  SearchRequest art;
  art.query = "art";
  const SearchResult r = searcher.search(art);
  CHECK(r.loose_more == 1);
  CHECK(r.loose_by.text() == "the word inside longer words");
  CHECK(paths("art", true) == Paths{"art.md", "arts.md", "start.md"});
  CHECK(paths("art", false, true) == Paths{"art.md", "arts.md", "start.md"});  // --exact is grep -F
  // A string that is no word of the notes is a partial word: found inside them.
  CHECK(paths("toleran") == Paths{"tolerance.md"});
  CHECK(paths("tart") == Paths{"start.md"});
  // Words typed apart that a note writes as one word are a term: that word,
  // or the words together (apart, with --loose).
  CHECK(paths("audio middleware") == Paths{"tag.md"});
  CHECK(paths("file system") == Paths{"fs.md"});
  CHECK(paths("file system", true) == Paths{"fs.md", "words.md"});
  // A "to" between them written 2 (robotics-paper-notes: 5 of 17 notes say sim2real only).
  CHECK(paths("sim-to-real") == Paths{"transfer.md", "gap.md"});
  CHECK(paths("system") == Paths{"words.md"});
  CHECK(paths("checkpoint") == Paths{"fs.md"});  // no note says the word: a partial word
}

TEST_CASE("Word search, a loanword's other kana spellings are the word", "[verifier]") {
  test::TestIndex index({{"long.md", "ネットワークインターフェース の 設定。\n"},
                         {"word.md", "インターフェース の 設定。\n"},
                         {"short.md", "インタフェース を 定義する。\n"},
                         {"ei.md", "インターフェイス の 説明。\n"},
                         {"other.md", "インターネット の 話。\n"},
                         {"andrei.md", "アンドレイ の 論文。\n"},
                         {"andre.md", "アンドレ の 論文。\n"}});
  Searcher searcher(index.index);
  using Paths = std::set<std::string>;
  // (The compound through the spelling the vault writes alone.)
  const Paths all{"long.md", "word.md", "short.md", "ei.md"};
  CHECK(test::hit_paths(searcher, "インタフェース") == all);
  CHECK(test::hit_paths(searcher, "インターフェース") == all);
  CHECK(test::hit_paths(searcher, "インターフェイス") == all);
  // A name's final イ is no spelling.
  CHECK(test::hit_paths(searcher, "アンドレ") == Paths{"andre.md"});
  CHECK(test::hit_paths(searcher, "アンドレイ") == Paths{"andrei.md"});
  // The spelling typed first, the others named as spellings.
  SearchRequest req;
  req.query = "インタフェース";
  const SearchResult r = searcher.search(req);
  REQUIRE(!r.hits.empty());
  CHECK(r.hits.front().path == "short.md");
  for (const Hit& h : r.hits)
    for (const auto& [piece, b] : h.bridged) CHECK(std::string(to_string(b.how)) == "kana");
}

TEST_CASE("Word search, a katakana word's v-sound spelling is the word", "[verifier]") {
  test::TestIndex index({{"v.md", "ヴァリアント の 説明。\n"},
                         {"b.md", "バリアント を 使う。\n"},
                         {"bio.md", "バイオ の 研究。\n"}});
  Searcher searcher(index.index);
  using Paths = std::set<std::string>;
  CHECK(test::hit_paths(searcher, "バリアント") == Paths{"v.md", "b.md"});
  CHECK(test::hit_paths(searcher, "ヴァリアント") == Paths{"v.md", "b.md"});
  SearchRequest req;
  req.query = "バリアント";
  const SearchResult r = searcher.search(req);
  for (const Hit& h : r.hits) CHECK(h.tier == Tier::Word);
}

TEST_CASE("Substring search, a katakana word: in compounds of the notes' words, not inside other words",
          "[verifier]") {
  // The words alone in notes are the words a compound is read as.
  test::TestIndex index({{"lock1.md", "ロックを取る。\n"},
                         {"lock2.md", "ロックの解放。\n"},
                         {"file1.md", "ファイルを開く。\n"},
                         {"file2.md", "ファイルを閉じる。\n"},
                         {"file3.md", "ファイルを消す。\n"},
                         {"filelock.md", "ファイルロックを使う。\n"},
                         {"block1.md", "ブロックを読む。\n"},
                         {"block2.md", "ブロックを書く。\n"},
                         {"code1.md", "コードを読む。\n"},
                         {"code2.md", "コードを書く。\n"},
                         {"codeblock.md", "コードブロックを書く。\n"},
                         {"port1.md", "ポートを開く。\n"},
                         {"port2.md", "ポートを閉じる。\n"},
                         {"in1.md", "イン。\n"},
                         {"in2.md", "イン。\n"},
                         {"import1.md", "インポートする。\n"},
                         {"import2.md", "インポートした。\n"},
                         {"import3.md", "インポートの順序。\n"},
                         {"export.md", "エクスポートする。\n"},
                         {"program1.md", "プログラムを書く。\n"},
                         {"program2.md", "プログラムを読む。\n"},
                         {"program3.md", "プログラムを消す。\n"},
                         {"cut1.md", "プログラ\n"},
                         {"cut2.md", "プログラ\n"},
                         {"superblock.md", "スーパーブロックを直す。\n"},
                         {"data1.md", "データを読む。\n"},
                         {"data2.md", "データを書く。\n"},
                         {"digital.md", "デジタルデータの話。\n"},
                         {"sequence.md", "シーケンスデータとデータ。\n"}});
  Searcher searcher(index.index);
  const auto paths = [&](const std::string& query, bool loose = false) {
    return test::hit_paths(searcher, query, loose);
  };
  using Paths = std::set<std::string>;
  // ファイルロック reads ファイル + ロック; ブロック is no reading, コードブロック
  // reads コード + ブロック: other words, found by --loose.
  CHECK(paths("ロック") == Paths{"lock1.md", "lock2.md", "filelock.md"});
  CHECK(paths("ロック", true) == Paths{"lock1.md", "lock2.md", "filelock.md", "block1.md", "block2.md",
                                       "codeblock.md", "superblock.md"});
  SearchRequest lock;
  lock.query = "ロック";
  const SearchResult r = searcher.search(lock);
  CHECK(r.loose_more == 4);
  CHECK(r.loose_by.text() == "the word inside longer words");
  REQUIRE(r.chunks.size() == 1);
  CHECK(r.chunks[0].compounds == std::vector<std::string>{"ファイルロック"});
  // Hiragana for the word: the same.
  CHECK(paths("ろっく") == paths("ロック"));
  // イン is more common inside インポート than alone: インポート is another word.
  CHECK(paths("ポート") == Paths{"port1.md", "port2.md"});
  // No reading, the word at one end: the rest no word of the notes, of four
  // characters or more (エクス of エクスポート is too short), and no longer
  // word there (スーパーブロック: ブロック).
  CHECK(paths("データ") == Paths{"data1.md", "data2.md", "digital.md", "sequence.md"});
  // A word typed in part, though the vault holds it alone (a line break cut
  // it): the start of a commoner word, found inside it.
  CHECK(paths("プログラ") == Paths{"program1.md", "program2.md", "program3.md", "cut1.md", "cut2.md"});
}

TEST_CASE("Substring search: a string a wrap cuts is found as a reader reads it, not by --exact",
          "[verifier]") {
  // A filled line wrapped inside a string, plain or as a .po file continues
  // one ("…か"⏎"を返…"): かを返 is neither a word nor in the raw text.
  const std::string filled = "この文は一行を四十桁より長くするための前置きです。あるかどうか";
  const test::TestIndex index({{"plain.md", filled + "\nを返します。\n"},
                               {"quoted.md", "msgstr \"" + filled + "\"\n\"を返します。\"\n"},
                               {"short.md", "どうか\nを返します。\n"}});
  Searcher searcher(index.index);
  using Paths = std::set<std::string>;
  CHECK(test::hit_paths(searcher, "かを返") == Paths{"plain.md", "quoted.md"});
  CHECK(test::hit_paths(searcher, "\"かを返\"") == Paths{"plain.md", "quoted.md"});
  CHECK(test::hit_paths(searcher, "かを返", false, true).empty());
}

TEST_CASE(
    "Substring search, --exact: a string cut where normalisation joins characters is found as grep finds it",
    "[verifier]") {
  // The folded text holds ẗ, ź and ガ where the raw text has t + U+0308, z +
  // U+0301 and ｶ + ﾞ: the strings that end between the two are in no gram.
  // (No title holds a needle: the search reads titles too.)
  const std::map<std::string, std::string> notes{{"diaeresis.md", "muut\u0308ff d\n"},
                                                 {"z-mark.md", "q5-g@ Em;z\u0301 zP\n"},
                                                 {"kana.md", "l\uff76\uff9e x\n"},
                                                 {"plain.md", "plain t text\n"}};
  test::TestIndex index(notes);
  Searcher searcher(index.index);
  for (const std::string needle : {"t", "Em;z", "\uff76", "l\uff76", "\uff9e", "ff d"}) {
    SearchRequest req;
    req.query = needle;
    req.exact = true;
    req.limit = 100;
    req.snippets = 0;
    req.facets.clear();
    std::set<std::string> got, grep;
    for (const auto& h : searcher.search(req).hits) got.insert(h.path);
    for (const auto& [path, text] : notes)
      if (text.find(needle) != std::string::npos) grep.insert(path);
    INFO(needle);
    CHECK(got == grep);
  }
}
