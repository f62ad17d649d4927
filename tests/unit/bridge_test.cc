// The bridge tier: sound keys, the glossary a note states, the dictionaries'
// pairs that can match in the vault, and a search that finds a note written
// in the other language.
#include <fmt/format.h>
#include <unicode/unistr.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <set>

#include "bridges.h"
#include "glossary.h"
#include "query_builder.h"
#include "sagasu/analyzer.h"
#include "sagasu/dictionary.h"
#include "sagasu/note.h"
#include "sagasu/searcher.h"
#include "sagasu/sounds.h"
#include "sagasu/stored_note.h"
#include "searcher_fixture.h"
#include "test_index.h"
#include "unweighted.h"

using namespace sagasu;

namespace {

std::vector<Gloss> glosses_of(const std::string& text) {
  return learn_glosses(NoteParser().parse("n.md", text));
}

bool has(const std::vector<Gloss>& gs, const std::string& a, const std::string& b, const std::string& how) {
  for (const auto& g : gs)
    if (g.a == a && g.b == b && to_string(g.how) == how) return true;
  return false;
}

// A dictionary file in EDICT's format and encoding (EUC-JP), written here:
// the entries are the tests' own, not copied from JMdict.
void write_euc_jp(const std::filesystem::path& file, const std::string& utf8) {
  const icu::UnicodeString u = icu::UnicodeString::fromUTF8(utf8);
  std::string bytes(static_cast<std::size_t>(u.length()) * 4 + 16, '\0');
  const int32_t n = u.extract(0, u.length(), bytes.data(), static_cast<uint32_t>(bytes.size()), "EUC-JP");
  bytes.resize(static_cast<std::size_t>(n));
  std::ofstream(file, std::ios::binary) << bytes;
}

// The equivalents a dictionary gives a word, in table order.
std::vector<std::string> equivalents_of(const Dictionary& d, const std::string& word) {
  std::vector<std::string> out;
  for (const auto& e : d.of(Analyzer().key(word))) out.push_back(e.equivalent);
  return out;
}

bool pairs(const Dictionary& d, const std::string& word, const std::string& equivalent) {
  const std::vector<std::string> all = equivalents_of(d, word);
  return std::find(all.begin(), all.end(), equivalent) != all.end();
}

std::vector<Bridge> bridges_of(const Xapian::Database& db, const Dictionary& dictionary,
                               const std::string& text) {
  Analyzer analyzer;
  return Bridges(db, analyzer, dictionary).of(text, analyzer.words(text));
}

// The equivalents Bridges::of gives text (those of one kind, or all), each with whether it is loose.
std::map<std::string, bool> loose_of(const Xapian::Database& db, const Dictionary& dictionary,
                                     const std::string& text, std::optional<Provenance> how = std::nullopt) {
  std::map<std::string, bool> out;
  for (const Bridge& b : bridges_of(db, dictionary, text))
    if (!how || b.how == *how) out[b.equivalent] = b.loose;
  return out;
}

// Sets an environment variable for one test.
struct Env {
  std::string name;
  std::optional<std::string> old;
  Env(std::string n, const std::string& value) : name(std::move(n)) {
    if (const char* v = std::getenv(name.c_str())) old = v;
    setenv(name.c_str(), value.c_str(), 1);
  }
  ~Env() {
    if (old)
      setenv(name.c_str(), old->c_str(), 1);
    else
      unsetenv(name.c_str());
  }
};

}  // namespace

TEST_CASE("Sound keys: a katakana loanword and its English word have one key", "[sounds]") {
  CHECK(sound_key("プリフィル") == sound_key("prefill"));
  CHECK(sound_key("ストラグラー") == sound_key("straggler"));
  CHECK(sound_key("チェックポイント") == sound_key("checkpoint"));
  CHECK(sound_key("バイトダンス") == sound_key("bytedance"));
  CHECK(sound_key("マイクロソフト") == sound_key("microsoft"));
  CHECK(sound_key("バッチング") == sound_key("batching"));
  CHECK(sound_key("フォールトインジェクション") == sound_key("faultinjection"));
  CHECK_FALSE(sound_key("プリフィル").empty());
  // Different words, different keys; too few consonants, no key at all.
  CHECK(sound_key("シンタックス") != sound_key("letmac"));
  CHECK(sound_key("ストラグラー") != sound_key("scheduler"));
  CHECK(sound_key("サーバー").empty());
  CHECK(sound_key("data").empty());
  // The vowels decide between the words of one key.
  CHECK(sounds_alike("プリフィル", "prefill"));
  CHECK(sounds_alike("ストラグラー", "straggler"));
  CHECK(sounds_alike("チェックポイント", "checkpoint"));
  CHECK(sounds_alike("バイトダンス", "bytedance"));
  CHECK(sounds_alike("マイクロソフト", "microsoft"));
  CHECK(sounds_alike("エヌビディア", "nvidia"));
  CHECK(sounds_alike("ケーブル", "cable"));
  CHECK(sounds_alike("クラス", "class"));
  CHECK(sounds_alike("バッチング", "batching"));
  CHECK(sounds_alike("クラウド", "cloud"));
  CHECK(sounds_alike("ワークロード", "workload"));
  CHECK(sounds_alike("サービング", "serving"));
  CHECK(sounds_alike("フォールトインジェクション", "faultinjection"));
  CHECK_FALSE(sounds_alike("クラス", "cross"));
  CHECK_FALSE(sounds_alike("クラス", "across"));
  CHECK_FALSE(sounds_alike("ライブラリ", "reliable"));
  CHECK_FALSE(sounds_alike("チューニング", "chengyu"));
  CHECK_FALSE(sounds_alike("ブレーキ", "black"));
  CHECK_FALSE(sounds_alike("クラウド", "workload"));
  CHECK(sound_script("プリフィル") == Script::Katakana);
  CHECK(sound_script("prefill") == Script::Latin);
  CHECK(sound_script("強化学習") == Script::None);
  CHECK(sound_script("gpu") == Script::None);  // under four letters
}

TEST_CASE("Glossary: what a note states two names are", "[glossary]") {
  const auto gs = glosses_of(
      "強化学習 (Reinforcement Learning, RL) を使う。Silent Data Corruption (SDC) が起きる。"
      "それは fault tolerance（耐障害性）を下げる。ByteDance(バイトダンス、字节跳动)の [[Xin Liu|劉鑫]] "
      "らが書いた。"
      "ストラグラー(straggler)を除く。\n");
  CHECK(has(gs, "強化学習", "Reinforcement Learning", "gloss"));
  CHECK(has(gs, "強化学習", "RL", "gloss"));
  CHECK(has(gs, "RL", "Reinforcement Learning", "abbreviation"));
  CHECK(has(gs, "SDC", "Silent Data Corruption", "abbreviation"));
  CHECK(has(gs, "耐障害性", "fault tolerance", "gloss"));
  CHECK(has(gs, "バイトダンス", "ByteDance", "gloss"));
  CHECK(has(gs, "字节跳动", "ByteDance", "gloss"));
  CHECK(has(gs, "劉鑫", "Xin Liu", "link"));
  CHECK(has(gs, "ストラグラー", "straggler", "gloss"));
}

TEST_CASE("Glossary: a term written with okurigana is glossed whole", "[glossary]") {
  // ja-techdocs: 隠れ状態 (hidden) made 状態 = hidden, and "hidden" found
  // 870 notes saying 状態; 呼び出し可能 (callable) made 可能 = callable.
  const auto gs = glosses_of(
      "バッファが隠れ状態 (hidden) になる。呼び出し可能 (callable) なもの。全ての折り畳み(folding)。"
      "追加や取り出し（pop）。負荷の高い部分文字列 (substring) を探す。複素数の直交形式（rectangular form）。"
      "不正なやり取り (exchange)。\n");
  CHECK(has(gs, "隠れ状態", "hidden", "gloss"));
  CHECK(has(gs, "呼び出し可能", "callable", "gloss"));
  CHECK(has(gs, "折り畳み", "folding", "gloss"));
  CHECK(has(gs, "取り出し", "pop", "gloss"));
  // An adjective's い and a particle part words (高い, の); a word of one
  // kanji and its kana may be the end of another (やり取り).
  CHECK(has(gs, "部分文字列", "substring", "gloss"));
  CHECK(has(gs, "直交形式", "rectangular form", "gloss"));
  for (const auto& g : gs) {
    CHECK(g.a != "状態");
    CHECK(g.a != "可能");
    CHECK(g.b != "exchange");
  }
}

TEST_CASE("Glossary: a term of Japanese and a Latin word is glossed whole", "[glossary]") {
  // ja-techdocs (vue-ja's glossary): 仮想 DOM（virtual DOM）; a search for
  // virtual DOM found 3 of the 12 pages that say it either way.
  const auto gs = glosses_of(
      "## 仮想 DOM（virtual DOM）\n\n相対 URL (relative URL) と 拡張BNF (extended BNF)。\n"
      "リアクティビティー API（Reactivity API）。ソース tarball (pristine source tarball)。\n"
      "画面 API (the API)。\n");
  CHECK(has(gs, "仮想 DOM", "virtual DOM", "gloss"));
  CHECK(has(gs, "相対 URL", "relative URL", "gloss"));
  CHECK(has(gs, "拡張BNF", "extended BNF", "gloss"));
  CHECK(has(gs, "リアクティビティー API", "Reactivity API", "gloss"));
  // A katakana word must sound like all the English words before the Latin one.
  CHECK_FALSE(has(gs, "ソース tarball", "pristine source tarball", "gloss"));
  CHECK_FALSE(has(gs, "画面 API", "the API", "gloss"));
  for (const Gloss& g : gs) CHECK(g.a != "仮想");
}

TEST_CASE("Glossary: a parenthesis that is no gloss is left alone", "[glossary]") {
  // A venue and year, a system's name, a lone acronym, an aside, an example
  // unlike the katakana word, a reference as a link text, a list of examples,
  // a man page's section in capitals, a list of values (react-ja), a term
  // cut at its kana whose katakana is only the gloss's last word (manpages-ja).
  const auto gs = glosses_of(
      "ストラグラー分析(OSDI 2025)。診断(SDCHunter)。オンライン検知(AEGIS)。割合(ETTR)。主材料(etc)。"
      "シンタックス(letmac)。[[Zhang 2005 Physics Letters|Zhang et al(2005)]]。論文(SC20)。"
      "他言語(JavaScript、Rust、Java など)。言語(例えば Python)。環境変数 (ENVIRONMENT)。"
      "空ノード（null、undefined、およびブーリアン値）。取り消しポイント (cancellation point) の関数。\n");
  CHECK(gs.empty());
}

TEST_CASE("Glossary: an acronym a note defines in Japanese is a kind of its term", "[glossary]") {
  const auto gs = glosses_of(
      "RLHF（人間のフィードバックによる強化学習）で調整する。サーバーサイドレンダリング（SSR）を使う。"
      "統合開発環境 (IDE) で書く。\n");
  CHECK(has(gs, "強化学習", "RLHF", "definition"));
  CHECK(has(gs, "サーバーサイドレンダリング", "SSR", "definition"));
  CHECK(has(gs, "統合開発環境", "IDE", "definition"));
  CHECK(gs.size() == 3);
  // A value's type, an aside, one of a list, a word shorter than what the
  // letters abbreviate, two letters, a roman numeral: no definition.
  CHECK(glosses_of(
            "セッション ID(文字列) を返す。URI(文字列)。パスが FIFO (または FIFO へのシンボリックリンク) "
            "を指す。構成要素(GPU、サーバ、ネットワーク)。ディレクトリ(FILE)。"
            "インターネットプロトコル(IP)。塩化スズ(III)。\n")
            .empty());
}

TEST_CASE("Digest d11 keeps the glosses; a d10 digest is not current", "[document]") {
  NoteDigest d;
  d.title = "t";
  d.display_title = "t";
  d.glosses = {{"強化学習", "reinforcement learning", Provenance::Gloss},
               {"強化学習", "RLHF", Provenance::Definition},
               {"SDC", "Silent Data Corruption", Provenance::Abbreviation}};
  const auto back = NoteDigest::decode(d.encode());
  REQUIRE(back);
  CHECK(*back == d);
  // A gloss stated some way this version does not know, or not stated by a
  // note at all, is no digest it can read (the note is read again).
  for (const char* how : {"hearsay", "dictionary"}) {
    std::string other = d.encode();
    other.replace(other.rfind("abbreviation"), std::string_view("abbreviation").size(), how);
    CHECK_FALSE(NoteDigest::decode(other));
  }
  std::string old = d.encode();
  old.replace(0, 3, "d10");
  CHECK_FALSE(NoteDigest::current(old));
  CHECK_FALSE(NoteDigest::decode(old));
}

TEST_CASE("Dictionary: a word's equivalents, parsed once and cached", "[dictionary]") {
  test::TempDir dicts;
  write_euc_jp(dicts.path / "edict",
               "耐障害性 [たいしょうがいせい] /(n) fault-tolerance/\n"
               "勾配 [こうばい] /(n) (1) gradient/slope/(2) incline/\n"
               "並列 [へいれつ] /(n) (1) standing in a row/(2) parallel (computing)/\n");
  write_euc_jp(dicts.path / "enamdict", "黒橋 [くろはし] /(s) Kurohashi/\n勾配 [こうばい] /(s) Koubai/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  // A search only maps what an index run cached: it never spends seconds parsing.
  CHECK(Dictionary(dicts.path.string(), false).empty());
  Analyzer analyzer;
  const auto has = pairs;
  const Dictionary d(dicts.path.string());
  CHECK(has(d, "耐障害性", "fault-tolerance"));
  CHECK(has(d, "fault tolerance", "耐障害性"));  // "fault-tolerance" is the words fault tolerance
  CHECK(has(d, "勾配", "gradient"));
  CHECK(has(d, "勾配", "slope"));
  CHECK(has(d, "gradient", "勾配"));
  CHECK(has(d, "slope", "勾配"));
  CHECK_FALSE(has(d, "勾配", "incline"));  // a second sense, not a computing one
  CHECK(has(d, "並列", "parallel"));       // a computing sense
  CHECK(has(d, "kurohashi", "黒橋"));
  CHECK(d.of("kurohashi").at(0).name);
  CHECK_FALSE(has(d, "koubai", "勾配"));  // a name that is a word of the language is not a name
  CHECK(d.of("nothing").empty());
  // Cached: a second reader maps the same table.
  REQUIRE(std::filesystem::exists(dicts.path / "cache" / "sagasu"));
  const Dictionary again(dicts.path.string(), false);
  CHECK(has(again, "耐障害性", "fault-tolerance"));
  // A damaged cache (unsorted, lines cut short, bytes of nothing) is read
  // without harm: only whole lines of the key looked up count.
  for (const auto& f : std::filesystem::directory_iterator(dicts.path / "cache" / "sagasu"))
    std::ofstream(f.path(), std::ios::binary) << "zz\tb\tw\n\xff\xfe\ngradient\t勾配\naa\tx\tw\ngradient";
  const Dictionary damaged(dicts.path.string(), false);
  CHECK(damaged.of("gradient").empty());
  CHECK(damaged.of(analyzer.key("勾配")).empty());
  // No dictionary: nothing.
  CHECK(Dictionary("").empty());
  CHECK(Dictionary((dicts.path / "none").string()).empty());
}

TEST_CASE("Dictionary: a gloss without its notes, a loanword without its qualifier", "[dictionary]") {
  test::TempDir dicts;
  write_euc_jp(dicts.path / "edict",
               "クィア /(n) queer (homosexual) (eng:)/\n"
               "トランジスタ /(n) electrical transistor/(P)/\n"
               "シンボリックリンク /(n) symbolic link/\n"
               "タイワンリス /(n) taiwanese squirrel/\n"
               "ブルーリボン /(n) blue ribbon/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary d(dicts.path.string());
  const auto equivalents = [&](const std::string& word) { return equivalents_of(d, word); };
  using V = std::vector<std::string>;
  CHECK(equivalents("クィア") == V{"queer"});             // both notes after the gloss dropped
  CHECK(equivalents("トランジスタ") == V{"transistor"});  // the word it was borrowed from
  CHECK(equivalents("transistor") == V{"トランジスタ"});
  CHECK(equivalents("シンボリックリンク") == V{"symbolic link"});  // borrowed whole
  CHECK(equivalents("タイワンリス") == V{"taiwanese squirrel"});   // named by its first word
  CHECK(equivalents("ブルーリボン") == V{"blue ribbon"});
}

TEST_CASE("Dictionary: an adverb or a conjunction has no equivalents", "[dictionary]") {
  // ja-techdocs: 時々 (時時 typed) found 114 notes that say only "sometimes";
  // no note is about the word, in either language.
  test::TempDir dicts;
  write_euc_jp(dicts.path / "edict",
               "時々 [ときどき] /(adv,n,adj-no) (1) sometimes/at times/(adj-no) (2) seasonal/(P)/\n"
               "又は [または] /(conj) or/otherwise/\n"
               "時間 [じかん] /(n-adv,n) time/hours/(P)/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary d(dicts.path.string());
  using V = std::vector<std::string>;
  CHECK(equivalents_of(d, "時々").empty());
  CHECK(equivalents_of(d, "sometimes").empty());
  CHECK(equivalents_of(d, "又は").empty());
  CHECK(equivalents_of(d, "時間") == V{"hours", "time"});
  CHECK(equivalents_of(d, "time") == V{"時間"});
}

TEST_CASE("Dictionary: a noun written with okurigana by its computing senses only", "[dictionary]") {
  test::TempDir dicts;
  write_euc_jp(dicts.path / "edict",
               "戻り値 [もどりち] /(n) (comp) return value/returned value/\n"
               "読み込み [よみこみ] /(n,vs) (comp) reading/loading/\n"
               "割り当て [わりあて] /(n) (1) allotment/assignment/(n) (2) (comp) allocation/(P)/\n"
               "呼び出し [よびだし] /(n,vs) (1) call/summons/(n) (2) (sumo) usher/(P)/\n"
               "読み込む [よみこむ] /(v5m,vt) (1) to read deeply/(v5m,vt) (2) (comp) to load/\n"
               "お知らせ [おしらせ] /(n) (comp) notice/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary d(dicts.path.string());
  const auto has = [&](const std::string& word, const std::string& equivalent) {
    return pairs(d, word, equivalent);
  };
  CHECK(has("戻り値", "return value"));
  CHECK(has("return value", "戻り値"));
  CHECK(d.of(Analyzer().key("戻り値")).at(1).main);  // every word of a computing sense is main
  CHECK(has("割り当て", "allocation"));
  CHECK(has("allocation", "割り当て"));
  CHECK(has("読み込み", "loading"));          // a sense's tag stands for each of its glosses
  CHECK_FALSE(has("割り当て", "allotment"));  // an everyday sense, even the first
  CHECK_FALSE(has("assignment", "割り当て"));
  CHECK_FALSE(has("呼び出し", "call"));  // no computing sense: summons, a sumo usher
  CHECK_FALSE(has("call", "呼び出し"));
  CHECK_FALSE(has("load", "読み込む"));    // a verb: its forms are other words
  CHECK_FALSE(has("notice", "お知らせ"));  // begun with kana: no headword
}

TEST_CASE("Bridge tier: a word finds the notes that say it in the other language, below those that say it",
          "[bridge]") {
  const test::TestIndex index({{"ja.md", "強化学習 (Reinforcement Learning) の 研究。\n"},
                               {"en.md", "A survey of reinforcement learning for robots.\n"},
                               {"kata.md", "プリフィル と デコード を 分ける。\n"},
                               {"eng.md", "Splitting prefill from decode.\n"},
                               {"other.md", "関係のない メモ。\n"}});
  Searcher s(index.index);
  SearchRequest req;
  req.query = "強化学習";
  req.snippets = 0;
  SearchResult r = s.search(req);
  REQUIRE(r.total == 2);
  CHECK(r.hits[0].path == "ja.md");
  CHECK(r.hits[0].tier == Tier::Word);
  CHECK(r.hits[1].path == "en.md");
  CHECK(r.hits[1].tier == Tier::Bridge);
  REQUIRE(r.hits[1].bridged.size() == 1);
  CHECK(r.hits[1].bridged[0].second.equivalent == "Reinforcement Learning");
  CHECK(r.hits[1].bridged[0].second.how == Provenance::Gloss);

  // The English way round; a long loanword by its sound, though no note
  // says both (7 letters, one sound apart).
  req.query = "reinforcement learning";
  CHECK(s.search(req).total == 2);
  req.query = "prefill";
  r = s.search(req);
  REQUIRE(r.total == 2);
  CHECK(r.hits[0].path == "eng.md");
  CHECK(r.hits[1].path == "kata.md");
  CHECK(r.hits[1].bridged.at(0).second.how == Provenance::Sound);
}

TEST_CASE("Bridge tier: a short sound-alike counts where a note says both, and its vowels agree",
          "[bridge]") {
  // ja-techdocs: class sounded like クラッシュ ("crash"), prev like プレビュー,
  // in notes saying only one of them; modulo like モデル, whose vowels differ.
  const test::TestIndex index({{"kata.md", "プリフィル と デコード を 分ける。\n"},
                               {"eng.md", "Splitting prefill from decode.\n"},
                               {"both.md", "プリフィル の 速さ、prefill throughput。\n"},
                               {"crash.md", "プロセス の クラッシュ。\n"},
                               {"crashed.md", "A crash: クラッシュ した。\n"},
                               {"class.md", "A class with two methods.\n"},
                               {"model.md", "モデル を 訓練 する。モデル。\n"},
                               {"mod.md", "Integer modulo arithmetic. モデル ではない。\n"}});
  Searcher s(index.index);
  SearchRequest req;
  req.snippets = 0;
  req.query = "prefill";
  SearchResult r = s.search(req);
  REQUIRE(r.total == 3);
  CHECK(r.hits[2].path == "kata.md");
  CHECK(r.hits[2].bridged.at(0).second.how == Provenance::Sound);
  // A partial word's equivalents only with --loose.
  req.query = "プリフィ";
  CHECK(s.search(req).total == 2);
  req.loose = true;
  CHECK(s.search(req).total == 3);
  req.loose = false;
  req.query = "class";  // five letters: sounding alike is not enough
  r = s.search(req);
  CHECK(r.total == 1);
  CHECK(r.loose_more == 2);  // crash.md and crashed.md, by --loose
  req.query = "crash";       // a note says both クラッシュ and crash
  CHECK(s.search(req).total == 2);
  req.query = "modulo";
  CHECK(s.search(req).total == 1);
  CHECK_FALSE(sounds_alike("モデル", "modulo"));
  CHECK_FALSE(sounds_alike("イーサネット", "isnot"));
  CHECK(sounds_alike("キャリブレーション", "calibration"));
  CHECK(sounds_alike("フォールトインジェクション", "faultinjection"));
  CHECK(sounds_alike("サイエンス", "science"));
}

TEST_CASE("Bridge tier: a long loanword's plural counts as the word, no note saying both", "[bridge]") {
  // robotics-paper-notes says datasets (8 letters, 2 sounds apart from
  // データセット with its s, 1 without) where the notes in Japanese say
  // データセット; no note says both.
  const test::TestIndex index({{"sets.md", "We release two datasets.\n"},
                               {"more.md", "Public datasets for driving.\n"},
                               {"kata.md", "データセット の 比較。\n"},
                               {"other.md", "無関係。\n"}});
  Searcher s(index.index);
  SearchRequest req;
  req.snippets = 0;
  req.query = "datasets";
  const SearchResult r = s.search(req);
  REQUIRE(r.total == 3);
  CHECK(r.hits[2].path == "kata.md");
  CHECK(r.hits[2].bridged.at(0).second.how == Provenance::Sound);
}

TEST_CASE("Bridge tier: --no-bridge and --exact keep only the words typed", "[bridge]") {
  const test::TestIndex index({{"ja.md", "強化学習 (Reinforcement Learning) の 研究。\n"},
                               {"en.md", "A survey of reinforcement learning for robots.\n"}});
  Searcher s(index.index);
  SearchRequest req;
  req.snippets = 0;

  // --no-bridge and --exact: only the words typed.
  req.query = "強化学習";
  req.bridge = false;
  CHECK(s.search(req).total == 1);
  req.bridge = true;
  req.exact = true;
  CHECK(s.search(req).total == 1);
}

TEST_CASE("A note's own tags are words: tagged fault-tolerance, found by fault tolerance", "[document]") {
  const test::TestIndex index(
      {{"tagged.md", "---\ntags: [fault-tolerance, 2026/05/19]\n---\n障害を許容する設計。\n"},
       {"other.md", "---\ntags: [memo]\n---\n関係のない メモ。\n"}});
  Searcher s(index.index);
  SearchRequest req;
  req.snippets = 0;
  req.query = "fault tolerance";
  SearchResult r = s.search(req);
  REQUIRE(r.total == 1);
  CHECK(r.hits[0].path == "tagged.md");
  req.query = "\"fault tolerance\"";  // the tag's words are adjacent
  CHECK(s.search(req).total == 1);
  req.query = "2026/05/19";  // grep finds a date tag in the front matter, and so does --exact
  req.exact = true;
  CHECK(s.search(req).total == 1);
}

using test::hit_paths;

TEST_CASE("Bridge tier: an equivalent matches itself and its plural, not its stem's family", "[bridge]") {
  const test::TestIndex index({{"ja.md", "生成器 (Generator) を 使う。\n"},
                               {"plural.md", "Generators are lazy.\n"},
                               {"generated.md", "The generated code is general.\n"},
                               {"other.md", "関係のない メモ。\n"}});
  Searcher s(index.index);
  CHECK(hit_paths(s, "生成器") == std::set<std::string>{"ja.md", "plural.md"});
}

TEST_CASE("Bridge tier: a katakana word the vault has whole only where a line cut it is partial",
          "[bridge]") {
  // ja-techdocs: パーミッ|ション cut by a line break in one note of 66 made
  // パーミッ a word of the vault, and its sound-alike "permits" a match.
  std::map<std::string, std::string> notes{{"cut.md", "ファイルの パーミッ\nション を 見る。\n"},
                                           {"permits.md", "The lock permits two readers.\n"},
                                           {"permission.md", "The permission bits of a file.\n"}};
  for (int i = 0; i < 12; ++i) notes[fmt::format("p{}.md", i)] = "パーミッション を 変える。\n";
  const test::TestIndex index(notes);
  Searcher s(index.index);
  CHECK(hit_paths(s, "パーミッ").size() == 13);  // not permits.md
  // It bridges through the words it begins, with --loose.
  const std::set<std::string> loose = hit_paths(s, "パーミッ", true);
  CHECK(loose.count("permission.md") == 1);
  CHECK(loose.count("permits.md") == 0);
}

TEST_CASE("A typed English word matches its inflections, not its stem's other words", "[bridge]") {
  const test::TestIndex index({{"plural.md", "Two iterators over a list.\n"},
                               {"noun.md", "An iterator yields items.\n"},
                               {"iteration.md", "Each iteration is cheap; iterate again.\n"},
                               {"learned.md", "We learned it and learn more.\n"},
                               {"learner.md", "A learner and its learning rate.\n"},
                               {"studied.md", "They studied it.\n"},
                               {"student.md", "A student of it.\n"}});
  Searcher s(index.index);
  // Stemmed alike (iter), but an iteration is no iterator.
  CHECK(hit_paths(s, "iterator") == std::set<std::string>{"plural.md", "noun.md"});
  CHECK(hit_paths(s, "iterators") == std::set<std::string>{"plural.md", "noun.md"});
  // The word an -ing or -ed form inflects, and its other forms.
  CHECK(hit_paths(s, "learning") == std::set<std::string>{"learned.md", "learner.md"});
  CHECK(hit_paths(s, "studies") == std::set<std::string>{"studied.md"});
}

TEST_CASE("A term typed as words matches with its last word in the other number", "[bridge]") {
  const test::TestIndex index({{"one.md", "A diffusion policy for grasping.\n"},
                               {"many.md", "Tactile Diffusion Policies for insertion.\n"},
                               {"apart.md", "Policies trained with diffusion models.\n"},
                               {"ways.md", "There are two ways to bind it.\n"},
                               {"way.md", "A two-way binding of the form.\n"}});
  Searcher s(index.index);
  // The vault writes the words together: a term, singular or plural.
  CHECK(hit_paths(s, "diffusion policy") == std::set<std::string>{"one.md", "many.md"});
  CHECK(hit_paths(s, "diffusion policies") == std::set<std::string>{"one.md", "many.md"});
  // Apart, plural too, with --loose.
  CHECK(hit_paths(s, "diffusion policy", true) == std::set<std::string>{"one.md", "many.md", "apart.md"});
  // A word of parts keeps its number: two-way is no "two ways".
  CHECK(hit_paths(s, "two-way") == std::set<std::string>{"way.md"});
}

TEST_CASE("Exclusion is by word: -transformer keeps the notes saying transform", "[bridge]") {
  const test::TestIndex index({{"a.md", "python and a transformer model\n"},
                               {"b.md", "python code to transform data\n"},
                               {"c.md", "python only\n"}});
  Searcher s(index.index);
  CHECK(hit_paths(s, "python -transformer") == std::set<std::string>{"b.md", "c.md"});
}

TEST_CASE("Bridge tier: the words of a term with an equivalent are not bridged one by one", "[bridge]") {
  const test::TestIndex index({{"term.md", "正規表現 (regular expression) の 例。\n"},
                               {"regular.md", "通常 (regular) の 処理。\n"},
                               {"expression.md", "表示 (expression) の 設定。\n"},
                               {"apart.md", "通常 の 画面 と 表示 の 設定。\n"},
                               {"apart-en.md", "A regular meeting. An expression of interest.\n"},
                               {"ja.md", "正規表現 で 探す。\n"}});
  Searcher s(index.index);
  CHECK(hit_paths(s, "regular expression") == std::set<std::string>{"term.md", "ja.md"});
  // --loose: the words apart too.
  CHECK(hit_paths(s, "regular expression", true) == std::set<std::string>{"term.md", "ja.md", "apart-en.md"});
}

TEST_CASE("Bridge tier: a compound bridged word by word counts where the vault uses the phrase", "[bridge]") {
  const std::map<std::string, std::string> notes{
      {"glossary.md", "辞書 (dictionary) と 変数 (variable) の 説明。\n"},
      {"a.md", "辞書変数 を 使う。\n"},
      {"b.md", "辞書変数 の 例。\n"},
      {"en1.md", "Set a dictionary variable here.\n"}};
  // One note's phrase, never beside the compound: a chance string of words.
  const test::TestIndex once(notes);
  Searcher s(once.index);
  CHECK(hit_paths(s, "辞書変数") == std::set<std::string>{"a.md", "b.md"});
  // --loose: the phrase, and the words apart.
  CHECK(hit_paths(s, "辞書変数", true) == std::set<std::string>{"a.md", "b.md", "en1.md", "glossary.md"});
  // Said in two notes, the phrase is a term of the vault.
  auto more = notes;
  more["en2.md"] = "Another dictionary variable.\n";
  const test::TestIndex twice(more);
  Searcher t(twice.index);
  CHECK(hit_paths(t, "辞書変数") == std::set<std::string>{"a.md", "b.md", "en1.md", "en2.md"});
}

TEST_CASE("Bridge tier: a compound's parts are combined as the vault says them", "[bridge]") {
  // robotics-paper-notes, 経路計画: the dictionary gives 経路 as course,
  // route, path, channel, and the vault says path planning (44 notes). The
  // first three senses of each part (channel, course, line) never reached it.
  test::TempDir dicts;
  write_euc_jp(dicts.path / "edict",
               "経路 [けいろ] /(n) (1) course/route/line/path/channel/(n) (2) process/means/\n"
               "計画 [けいかく] /(n,vs) plan/project/schedule/scheme/program/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary(dicts.path.string());
  Analyzer analyzer;
  const test::TestIndex index({{"ja1.md", "経路計画 の 研究。\n"},
                               {"ja2.md", "経路計画 を 学ぶ。\n"},
                               {"en1.md", "A path planning method.\n"},
                               {"en2.md", "Path planning for robots.\n"},
                               {"en3.md", "A channel, a course plan, a line, a route, a project.\n"}});
  const Xapian::Database db(index.index);
  REQUIRE(analyzer.words("経路計画").size() == 2);
  std::map<std::string, bool> composed;  // equivalent: loose
  for (const Bridge& b : Bridges(db, analyzer, dictionary).of("経路計画", analyzer.words("経路計画")))
    if (b.how == Provenance::Words) composed[b.equivalent] = b.loose;
  REQUIRE(composed.count("path planning") == 1);
  CHECK_FALSE(composed.at("path planning"));
}

TEST_CASE("Bridge tier: a compound's part takes its other senses where its first ones say nothing",
          "[bridge]") {
  // robotics-paper-notes, 状態推定: EDICT gives 推定 presumption and
  // assumption, then estimation in its second sense; the vault says state
  // estimation (29 notes with one or the other, 3 found). ja-techdocs,
  // 文字列初期化: initialization first, formatting (a disk's) second; a
  // vault saying string initialization keeps to it.
  test::TempDir dicts;
  write_euc_jp(dicts.path / "edict",
               "状態 [じょうたい] /(n) state/condition/\n"
               "推定 [すいてい] /(n,vs) (1) presumption/assumption/(n,vs) (2) estimation/\n"
               "文字列 [もじれつ] /(n) string/\n"
               "初期化 [しょきか] /(n,vs) (1) initialization/(n,vs) (2) formatting (disk)/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary(dicts.path.string());
  CHECK(dictionary.other_senses("推定") == std::vector<std::string>{"estimation"});
  CHECK(dictionary.other_senses("estimation") == std::vector<std::string>{"推定"});
  // Not a bridge of the word alone: only parts of a compound take them.
  const std::vector<std::string> first = equivalents_of(dictionary, "推定");
  CHECK(std::set<std::string>(first.begin(), first.end()) ==
        std::set<std::string>{"presumption", "assumption"});
  const test::TestIndex index({{"ja.md", "状態推定 の 研究。文字列初期化 の 説明。\n"},
                               {"en1.md", "A state estimation method.\n"},
                               {"en2.md", "State estimation for legged robots.\n"},
                               {"s1.md", "String initialization is done once.\n"},
                               {"s2.md", "A string initialization again.\n"},
                               {"s3.md", "String formatting with a format spec.\n"},
                               {"s4.md", "More string formatting.\n"}});
  const Xapian::Database db(index.index);
  CHECK(loose_of(db, dictionary, "状態推定", Provenance::Words) ==
        std::map<std::string, bool>{{"state estimation", false}});
  CHECK(loose_of(db, dictionary, "文字列初期化", Provenance::Words) ==
        std::map<std::string, bool>{{"string initialization", false}});
}

TEST_CASE("Bridge tier: an equivalent of several words matches with its last word plural", "[bridge]") {
  // robotics-paper-notes, 点群: 9 of the 35 notes saying it or point cloud
  // say only point clouds, and were no hit.
  const test::TestIndex index({{"gloss.md", "点群 (point cloud) の 処理。\n"},
                               {"one.md", "A point cloud from the lidar.\n"},
                               {"many.md", "Two point clouds merged.\n"},
                               {"apart.md", "A point in the cloud.\n"}});
  Searcher s(index.index);
  CHECK(hit_paths(s, "点群") == std::set<std::string>{"gloss.md", "one.md", "many.md"});
}

TEST_CASE("Bridge tier: a compound's last English word as the vault inflects it, not any longer word",
          "[bridge]") {
  const test::TestIndex index({{"glossary.md", "辞書 (dictionary) と 変数 (variable) の 説明。\n"},
                               {"a.md", "辞書変数 を 使う。\n"},
                               {"s1.md", "Two dictionary variables here.\n"},
                               {"s2.md", "More dictionary variables.\n"},
                               {"v1.md", "dictionary variable1 = 3\n"},
                               {"v2.md", "the dictionary variable1 again\n"}});
  Searcher s(index.index);
  CHECK(hit_paths(s, "辞書変数") == std::set<std::string>{"a.md", "s1.md", "s2.md"});
}

TEST_CASE("Bridge tier: a sound-alike counts where most notes of the rarer word say both", "[bridge]") {
  // ja-techdocs: Maildir sounded like メールリーダ ("mail reader"), one of the
  // 4 notes saying メールリーダ saying Maildir too, by chance; the right
  // sound pairs share a third of the rarer word's notes or more.
  const test::TestIndex index({{"m1.md", "Store mail in maildir format.\n"},
                               {"m2.md", "A maildir folder.\n"},
                               {"m3.md", "Deliver to maildir.\n"},
                               {"r1.md", "メールリーダ で 読む。\n"},
                               {"r2.md", "メールリーダ の 設定。\n"},
                               {"r3.md", "別の メールリーダ。\n"},
                               {"both.md", "maildir を メールリーダ で 読む。\n"}});
  REQUIRE(sounds_alike("メールリーダ", "maildir"));
  Searcher s(index.index);
  CHECK(hit_paths(s, "maildir") == std::set<std::string>{"m1.md", "m2.md", "m3.md", "both.md"});
  CHECK(hit_paths(s, "maildir", true).size() == 7);  // --loose: the sound-alike's notes too
}

TEST_CASE("Bridge tier: a sound-alike stands in only where the notes state no equivalent", "[bridge]") {
  const test::TestIndex index({{"ja.md", "ロケール (locale) の 設定。\n"},
                               {"en.md", "Set the locale first.\n"},
                               {"local.md", "A local variable.\n"},
                               {"kata.md", "トレイト を 実装 する。\n"},
                               {"trait.md", "A trait in Rust.\n"},
                               {"both.md", "トレイト と trait の 例。\n"},
                               {"treat.md", "Treat warnings as errors.\n"}});
  Searcher s(index.index);
  CHECK(hit_paths(s, "ロケール") == std::set<std::string>{"ja.md", "en.md"});
  // Counted as what --loose would add.
  SearchRequest req;
  req.query = "ロケール";
  const SearchResult r = s.search(req);
  CHECK(r.loose_more == 1);
  CHECK(r.loose_by.text() == "weaker equivalents");
  CHECK(hit_paths(s, "トレイト") == std::set<std::string>{"kata.md", "trait.md", "both.md"});
}

TEST_CASE("Bridge tier: a katakana word's sound-alikes count only where no dictionary names its source",
          "[bridge]") {
  test::TempDir dicts;
  write_euc_jp(dicts.path / "edict",
               "フォーマット /(n) format/\nファイルディスクリプタ /(n) {comp} file descriptor/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary(dicts.path.string());
  const test::TestIndex index(
      {{"ja.md", "フォーマット の 指定。\n"},
       {"en.md", "The format string.\n"},
       {"both.md", "フォーマット と formatter。\n"},
       {"fmt.md", "A formatter class.\n"},
       {"fd.md", "file descriptor と ファイルデスクリプタ と ファイルディスクリプタ。\n"}});
  REQUIRE(sounds_alike("フォーマット", "formatter"));
  REQUIRE(sounds_alike("ファイルデスクリプタ", "filedescriptor"));
  const Xapian::Database db(index.index);
  const auto loose = [&](const std::string& word) { return loose_of(db, dictionary, word); };
  // フォーマット is format (the dictionary's source); formatter only sounds like it.
  CHECK(loose("フォーマット") == std::map<std::string, bool>{{"format", false}, {"formatter", true}});
  // An English word's katakana spellings all sound like it: each is the word.
  CHECK(loose("file descriptor") ==
        std::map<std::string, bool>{{"ファイルディスクリプタ", false}, {"ファイルデスクリプタ", false}});
}

TEST_CASE("Bridge tier: a dictionary pair is loose where the vault says the word another way", "[bridge]") {
  // ja-techdocs: 照合 beside comparison far more often than beside collation.
  test::TempDir dicts;
  write_euc_jp(dicts.path / "edict", "照合 [しょうごう] /(n) collation/comparison/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary(dicts.path.string());
  std::map<std::string, std::string> notes{{"ja.md", "照合 の 順序。\n"},
                                           {"both.md", "照合 と collation の 話。\n"},
                                           {"en1.md", "The collation order.\n"},
                                           {"en2.md", "A collation table.\n"}};
  for (int i = 0; i < 10; ++i) notes[fmt::format("other{}.md", i)] = "関係のない メモ。\n";
  const auto loose = [&](const std::map<std::string, std::string>& vault) {
    const test::TestIndex index(vault);
    return loose_of(Xapian::Database(index.index), dictionary, "collation");
  };
  CHECK(loose(notes) == std::map<std::string, bool>{{"照合", false}});
  // The notes say comparison in more than four times as many notes as collation.
  for (int i = 0; i < 13; ++i) notes[fmt::format("cmp{}.md", i)] = "A comparison of two values.\n";
  CHECK(loose(notes) == std::map<std::string, bool>{{"照合", true}});
}

TEST_CASE("Bridge tier: a dictionary sense the vault does not use together is loose", "[bridge]") {
  // 60 notes: 把握 ("understand") in 20 of the 50 without grasp and in 4 of
  // the 10 with it, as often; 把持 beside grasp in 2.
  std::map<std::string, std::string> notes;
  for (int i = 0; i < 50; ++i)
    notes[fmt::format("ja{}.md", i)] = i < 20 ? "流れ を 把握 する。\n" : "関係のない メモ。\n";
  for (int i = 0; i < 10; ++i)
    notes[fmt::format("en{}.md", i)] = i < 4   ? "A robot hand can grasp it; 全体 を 把握 する。\n"
                                       : i < 6 ? "A robot hand can grasp it: 把持 の 計画。\n"
                                               : "A robot hand can grasp it.\n";
  const test::TestIndex index(notes);
  test::TempDir dicts;
  write_euc_jp(dicts.path / "edict",
               "把握 [はあく] /(n) grasp/understanding/\n把持 [はじ] /(n) grasp/grip/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary(dicts.path.string());
  const Xapian::Database db(index.index);
  CHECK(loose_of(db, dictionary, "grasp") == std::map<std::string, bool>{{"把握", true}, {"把持", false}});
}

TEST_CASE("Bridge tier: a few notes' gloss of a common word is not the vault's", "[bridge]") {
  // The equivalent said far more often: 文字列型 (string), string in 25 notes.
  std::map<std::string, std::string> notes{{"gloss.md", "文字列型 (string) の 説明。\n"},
                                           {"ja.md", "文字列型 を 使う。\n"}};
  for (int i = 0; i < 25; ++i) notes[fmt::format("en{}.md", i)] = "Split the string here.\n";
  const test::TestIndex index(notes);
  Searcher s(index.index);
  CHECK(hit_paths(s, "文字列型") == std::set<std::string>{"gloss.md", "ja.md"});
  CHECK(hit_paths(s, "文字列型", true).size() == 27);
  // The term glossed said far more often, however many notes state the gloss
  // (ja-techdocs: 結果 (prelude) in two copies of one page, 結果 in 1,080 notes).
  std::map<std::string, std::string> common{{"g1.md", "フォールバックの状態で結果 (prelude) に含まれる。\n"},
                                            {"g2.md", "フォールバックの状態で結果 (prelude) に含まれる。\n"}};
  for (int i = 0; i < 25; ++i) common[fmt::format("ja{}.md", i)] = "関数 の 結果 を 返す。\n";
  const test::TestIndex common_index(common);
  Searcher c(common_index.index);
  CHECK(hit_paths(c, "prelude") == std::set<std::string>{"g1.md", "g2.md"});
  CHECK(hit_paths(c, "prelude", true).size() == 27);
}

TEST_CASE("Bridge tier: a term reaches the notes of an acronym a note defines as one, below the hits",
          "[bridge]") {
  const test::TestIndex index(
      {{"rlhf.md", "RLHF（人間のフィードバックによる強化学習）で言語モデルを調整する。\n"},
       {"ppo.md", "InstructGPT は RLHF を使う。\n"},
       {"rl.md", "強化学習 の 基礎。\n"}});
  Searcher s(index.index);
  CHECK(hit_paths(s, "強化学習") == std::set<std::string>{"rl.md", "rlhf.md"});
  SearchRequest req;
  req.query = "強化学習";
  req.snippets = 0;
  req.loose = true;
  const SearchResult r = s.search(req);
  REQUIRE(r.hits.size() == 3);
  CHECK(r.hits[2].path == "ppo.md");
  REQUIRE(r.hits[2].bridged.size() == 1);
  CHECK(r.hits[2].bridged[0].second.equivalent == "RLHF");
  CHECK(r.hits[2].bridged[0].second.how == Provenance::Definition);
  // One way: an RLHF is a 強化学習, not every 強化学習 an RLHF.
  CHECK(hit_paths(s, "RLHF", true) == std::set<std::string>{"rlhf.md", "ppo.md"});
}

TEST_CASE("Bridge tier: one note's gloss of a term the dictionary says otherwise is loose", "[bridge]") {
  const test::TestIndex index({{"std.md", "標準ライブラリ (std) を 使う。\n"},
                               {"lib.md", "The standard library of Rust; 標準ライブラリ の 話。\n"},
                               {"cpp.md", "std::vector in C++.\n"}});
  test::TempDir dicts;
  write_euc_jp(dicts.path / "edict", "標準ライブラリ [ひょうじゅんライブラリ] /(n) standard library/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary(dicts.path.string());
  const Xapian::Database db(index.index);
  CHECK(loose_of(db, dictionary, "標準ライブラリ") ==
        std::map<std::string, bool>{{"std", true}, {"standard library", false}});
}

TEST_CASE("Bridge tier: a dictionary equivalent that ends one a note states is the broader word",
          "[bridge]") {
  // ja-techdocs: list comprehension glossed リスト内包表記; 内包表記 is
  // every comprehension (dict, set). mitigation is 緩和 as much as 緩和策.
  const test::TestIndex index({{"list.md", "リスト内包表記 (list comprehension) を 使う。\n"},
                               {"dict.md", "辞書 の 内包表記 で 作る。\n"},
                               {"en.md", "A list comprehension builds it; 内包表記 の 例。\n"},
                               {"plan.md", "緩和策 (mitigation) の 一覧。\n"},
                               {"act.md", "The mitigation: 影響 を 緩和 する。\n"}});
  test::TempDir dicts;
  write_euc_jp(
      dicts.path / "edict",
      "内包表記 [ないほうひょうき] /(n) (comp) list comprehension/\n緩和 [かんわ] /(n) mitigation/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary(dicts.path.string());
  const Xapian::Database db(index.index);
  CHECK(loose_of(db, dictionary, "list comprehension") ==
        std::map<std::string, bool>{{"リスト内包表記", false}, {"内包表記", true}});
  CHECK(loose_of(db, dictionary, "mitigation") ==
        std::map<std::string, bool>{{"緩和策", false}, {"緩和", false}});
}

TEST_CASE("Bridge tier: a loanword is the vault's for the English word it writes, not a homophone's",
          "[bridge]") {
  // ja-techdocs: ロック is lock there (114 notes), not rock (9); a spelling
  // of the same word (flavour, flavor) or its other form is no other word.
  std::map<std::string, std::string> notes{{"ja.md", "ファイル の ロック と フレーバ。\n"},
                                           {"rock.md", "The rock band.\n"},
                                           {"flavour.md", "The build flavour.\n"}};
  for (int i = 0; i < 4; ++i) {
    notes[fmt::format("lock{}.md", i)] = "Take the lock first.\n";
    notes[fmt::format("flavor{}.md", i)] = "Another flavor here.\n";
  }
  const test::TestIndex index(notes);
  test::TempDir dicts;
  write_euc_jp(
      dicts.path / "edict",
      "ロック /(n) (1) lock/(n) (2) rock (music)/\nロック /(n) rock/\nフレーバ /(n) flavour/flavor/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary(dicts.path.string());
  const Xapian::Database db(index.index);
  CHECK(loose_of(db, dictionary, "rock") == std::map<std::string, bool>{{"ロック", true}});
  CHECK(loose_of(db, dictionary, "lock") == std::map<std::string, bool>{{"ロック", false}});
  CHECK(loose_of(db, dictionary, "flavour") == std::map<std::string, bool>{{"フレーバ", false}});
}

TEST_CASE("Bridge tier: of a word's dictionary senses, those the notes write beside it", "[bridge]") {
  // matsuura: time beside 時間 in 4 notes, beside 拍子 (musical time) in 1.
  std::map<std::string, std::string> notes{{"beat.md", "The time: 拍子 を 取る。\n"}};
  for (int i = 0; i < 4; ++i) notes[fmt::format("time{}.md", i)] = "The time: 時間 を 計る。\n";
  for (int i = 0; i < 10; ++i) notes[fmt::format("other{}.md", i)] = "関係のない メモ。\n";
  const test::TestIndex index(notes);
  test::TempDir dicts;
  write_euc_jp(dicts.path / "edict", "時間 [じかん] /(n) time/\n拍子 [ひょうし] /(n) time/beat/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary(dicts.path.string());
  const Xapian::Database db(index.index);
  CHECK(loose_of(db, dictionary, "time") == std::map<std::string, bool>{{"時間", false}, {"拍子", true}});
}

TEST_CASE("Bridge tier: a word further in a dictionary's sense counts where the vault uses it clearly",
          "[bridge]") {
  // 60 notes: 標準 beside standard (its first word) in 3; beside norm (its
  // third) in 1 of the 8 saying norm (3.25 times the others' rate); 軌道
  // beside trajectory (its second, after orbit) in 4 of the 10 saying it.
  std::map<std::string, std::string> notes;
  notes["a0.md"] = "標準 の 設定: the standard setting, a norm.\n";
  for (int i = 1; i < 3; ++i) notes[fmt::format("a{}.md", i)] = "標準 の 設定: the standard setting.\n";
  for (int i = 0; i < 7; ++i) notes[fmt::format("n{}.md", i)] = "The vector norm.\n";
  for (int i = 0; i < 4; ++i) notes[fmt::format("t{}.md", i)] = "軌道 を 計画 する: trajectory planning.\n";
  notes["t4.md"] = "軌道 の 話。\n";
  for (int i = 0; i < 6; ++i) notes[fmt::format("u{}.md", i)] = "A trajectory planner.\n";
  for (int i = 0; i < 39; ++i) notes[fmt::format("z{}.md", i)] = "関係のない メモ。\n";
  const test::TestIndex index(notes);
  test::TempDir dicts;
  write_euc_jp(
      dicts.path / "edict",
      "標準 [ひょうじゅん] /(n) standard/level/norm/(P)/\n軌道 [きどう] /(n) orbit/trajectory/(P)/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary(dicts.path.string());
  const Xapian::Database db(index.index);
  const auto loose = [&](const std::string& word) { return loose_of(db, dictionary, word); };
  // A note saying both, a few times more often than chance: a match for the
  // first word, not for a further one.
  CHECK(loose("標準") == std::map<std::string, bool>{{"standard", false}, {"norm", true}});
  CHECK(loose("norm") == std::map<std::string, bool>{{"標準", true}});
  // Four notes saying both, 20 times the others' rate: the vault's sense.
  CHECK(loose("軌道") == std::map<std::string, bool>{{"trajectory", false}});
  CHECK(loose("trajectory") == std::map<std::string, bool>{{"軌道", false}});
}

TEST_CASE("Bridge tier: a dictionary pair counts where the vault uses it, or lacks the word, and says why",
          "[bridge]") {
  test::TempDir dicts;
  write_euc_jp(dicts.path / "edict",
               "強化学習 [きょうかがくしゅう] /(n) reinforcement learning/\n"
               "模倣学習 [もほうがくしゅう] /(n) imitation learning/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary(dicts.path.string());
  const auto loose = [&](const test::TestIndex& index, const std::string& word) {
    return loose_of(Xapian::Database(index.index), dictionary, word);
  };
  // Both words in the vault, never in one note: nothing says they are one here.
  const test::TestIndex apart({{"ja.md", "強化学習 の 研究。\n"},
                               {"en.md", "A reinforcement learning survey. imitation learning too.\n"}});
  CHECK(loose(apart, "強化学習") == std::map<std::string, bool>{{"reinforcement learning", true}});
  // A note says both.
  const test::TestIndex together({{"ja.md", "強化学習 の 研究。\n"},
                                  {"both.md", "強化学習 = reinforcement learning。\n"},
                                  {"en.md", "A reinforcement learning survey.\n"}});
  CHECK(loose(together, "強化学習") == std::map<std::string, bool>{{"reinforcement learning", false}});
  // The vault never says the word: the dictionary is the way to its notes.
  CHECK(loose(apart, "模倣学習") == std::map<std::string, bool>{{"imitation learning", false}});
  // What --explain says of each.
  const auto why = [&](const test::TestIndex& index, const std::string& word) {
    return bridges_of(Xapian::Database(index.index), dictionary, word).at(0).why;
  };
  CHECK(why(apart, "強化学習") == "no note uses the two as one");
  CHECK(why(together, "強化学習") == "1 note says both");
  CHECK(why(apart, "模倣学習") == "no note says the word");
}

TEST_CASE("Bridge tier: a dictionary loanword and its source count with no note saying both", "[bridge]") {
  // robotics-paper-notes, キャリブレーション: the Japanese notes say the
  // loanword, the English ones calibration, none both; one sense, as a
  // sound-alike has. A pair that only means the same (強化学習) still needs a note.
  test::TempDir dicts;
  write_euc_jp(dicts.path / "edict",
               "キャリブレーション /(n) calibration/\n"
               "強化学習 [きょうかがくしゅう] /(n) reinforcement learning/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary(dicts.path.string());
  const test::TestIndex index({{"ja.md", "カメラ の キャリブレーション。強化学習 の 研究。\n"},
                               {"en.md", "Camera calibration. A reinforcement learning survey.\n"}});
  const Xapian::Database db(index.index);
  const auto loose = [&](const std::string& word) {
    return loose_of(db, dictionary, word, Provenance::Dictionary);
  };
  CHECK(loose("キャリブレーション") == std::map<std::string, bool>{{"calibration", false}});
  CHECK(loose("calibration") == std::map<std::string, bool>{{"キャリブレーション", false}});
  CHECK(loose("強化学習") == std::map<std::string, bool>{{"reinforcement learning", true}});
}

TEST_CASE("Romaji: a word typed in Latin letters is read as katakana when it is romaji throughout",
          "[sounds]") {
  CHECK(romaji_to_katakana("sutoragura") == "ストラグラ");
  CHECK(romaji_to_katakana("shisutemu") == "システム");
  CHECK(romaji_to_katakana("sisutemu") == "システム");  // Kunrei
  CHECK(romaji_to_katakana("kenkyuu") == "ケンキュウ");
  CHECK(romaji_to_katakana("matcha") == "マッチャ");
  CHECK(romaji_to_katakana("kyasshu") == "キャッシュ");
  // English, or too short to tell: not romaji.
  CHECK(romaji_to_katakana("raft").empty());
  CHECK(romaji_to_katakana("transformer").empty());
  CHECK(romaji_to_katakana("kernel").empty());
  CHECK(romaji_to_katakana("ika").empty());
}

TEST_CASE("Bridge tier: a word the vault lacks, typed in romaji, finds its katakana", "[bridge]") {
  const test::TestIndex index({{"kata.md", "ストラグラー の 対策。\n"},
                               {"sys.md", "システム の 設計。\n"},
                               {"en.md", "A transformer model.\n"}});
  Searcher s(index.index);
  SearchRequest req;
  req.snippets = 0;
  req.query = "sutoragura";
  SearchResult r = s.search(req);
  REQUIRE(r.total == 1);
  CHECK(r.hits[0].path == "kata.md");
  CHECK(r.hits[0].tier == Tier::Bridge);
  CHECK(r.hits[0].bridged.at(0).second.how == Provenance::Romaji);
  req.query = "sisutemu";
  CHECK(s.search(req).total == 1);
  // A word the vault has is itself, not romaji; English is not romaji.
  req.query = "transformer";
  CHECK(s.search(req).total == 1);
  req.query = "torakku";  // no トラック in the vault: nothing
  CHECK(s.search(req).total == 0);
}

namespace {

// IPAdic's CSV format (EUC-JP): the word, three numbers, part of speech (six
// fields), the word it inflects, its reading, its pronunciation. The entries
// are the tests' own.
std::string ipadic_line(const std::string& word, const std::string& lemma, const std::string& reading) {
  return fmt::format("{},1285,1285,5000,名詞,一般,*,*,*,*,{},{},{}\n", word, lemma, reading, reading);
}

void write_ipadic(const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  write_euc_jp(folder / "Noun.csv",
               ipadic_line("取り扱い", "取り扱い", "トリアツカイ") +
                   ipadic_line("取扱い", "取扱い", "トリアツカイ") +
                   ipadic_line("取扱", "取扱", "トリアツカイ") + ipadic_line("研究", "研究", "ケンキュウ") +
                   ipadic_line("構成", "構成", "コウセイ") + ipadic_line("校正", "校正", "コウセイ") +
                   ipadic_line("上手", "上手", "ジョウズ") + ipadic_line("検知", "検知", "ケンチ") +
                   ipadic_line("黄色", "黄色", "キイロ"));
  write_euc_jp(folder / "Verb.csv", ipadic_line("取り扱う", "取り扱う", "トリアツカウ") +
                                        ipadic_line("取り扱っ", "取り扱う", "トリアツカッ") +
                                        ipadic_line("取り扱い", "取り扱う", "トリアツカイ") +
                                        ipadic_line("読み込み", "読み込む", "ヨミコミ") +
                                        ipadic_line("読み込む", "読み込む", "ヨミコム") +
                                        ipadic_line("読み込ん", "読み込む", "ヨミコン") +
                                        ipadic_line("上手い", "上手い", "ウマイ"));
  // An adjective's forms, with the part of speech and form as IPAdic gives them.
  const auto adjective = [](const std::string& word, const std::string& form, const std::string& reading) {
    return fmt::format("{},27,27,4695,形容詞,自立,*,*,形容詞・アウオ段,{},黄色い,{},{}\n", word, form,
                       reading, reading);
  };
  write_euc_jp(folder / "Adj.csv",
               adjective("黄色い", "基本形", "キイロイ") + adjective("黄色く", "連用テ接続", "キイロク") +
                   adjective("黄色から", "未然ヌ接続", "キイロカラ") +
                   adjective("黄色し", "文語基本形", "キイロシ") +
                   adjective("黄色き", "体言接続", "キイロキ") + adjective("黄色", "ガル接続", "キイロ"));
}

std::set<std::string> set_of(std::vector<std::string> v) {
  return {std::make_move_iterator(v.begin()), std::make_move_iterator(v.end())};
}

}  // namespace

TEST_CASE("Dictionary: IPAdic's readings both ways, and a word's other spellings", "[dictionary]") {
  test::TempDir dicts;
  write_ipadic(dicts.path / "ipadic");
  write_euc_jp(dicts.path / "edict", "文字列 [もじれつ] /(n) string/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary d(dicts.path.string(), true, (dicts.path / "ipadic").string());
  Analyzer analyzer;
  CHECK(d.readings("取扱い") == std::vector<std::string>{"トリアツカイ"});
  CHECK(set_of(d.written("とりあつかい")) == std::set<std::string>{"取り扱い", "取扱い", "取扱"});
  CHECK(d.written("ケンキュウ") == std::vector<std::string>{"研究"});
  CHECK(d.written("もじれつ") == std::vector<std::string>{"文字列"});  // EDICT's readings too
  CHECK(d.of(analyzer.key("文字列")).at(0).equivalent == "string");    // and its pairs as before
  // Okurigana apart, the same reading; and the forms of the word it inflects.
  CHECK(set_of(d.spellings("取り扱い", analyzer)) ==
        std::set<std::string>{"取扱い", "取扱", "取り扱う", "取り扱っ"});
  CHECK(set_of(d.spellings("取扱", analyzer)) ==
        std::set<std::string>{"取り扱い", "取扱い", "取り扱う", "取り扱っ"});
  // The kanji alone, which IPAdic lacks, leave out the kana of a word it knows.
  CHECK(set_of(d.spellings("読込", analyzer)) == std::set<std::string>{"読み込み", "読み込む", "読み込ん"});
  CHECK(set_of(d.spellings("読み込み", analyzer)) == std::set<std::string>{"読み込む", "読み込ん", "読込"});
  // Not the same word: 上手い is read うまい, 上手 じょうず; okurigana are hiragana.
  CHECK(d.spellings("上手い", analyzer).empty());
  CHECK(d.spellings("オンライン検知", analyzer).empty());
  // An adjective's forms, but not the classical ones a note writes as the
  // noun and a particle (黄色から: 黄色 + から).
  CHECK(set_of(d.spellings("黄色", analyzer)) == std::set<std::string>{"黄色い", "黄色く"});
  // No reading known for either: 生き物 is no spelling of 生物.
  CHECK(d.spellings("生き物", analyzer).empty());
  // Without IPAdic, nothing.
  const Dictionary edict_only(dicts.path.string());
  CHECK(edict_only.readings("取扱い").empty());
  CHECK(edict_only.spellings("取り扱い", analyzer).empty());
}

TEST_CASE("Bridge tier: another spelling, and a word typed as it is read", "[bridge]") {
  test::TempDir dicts;
  write_ipadic(dicts.path / "ipadic");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary("", true, (dicts.path / "ipadic").string());
  const test::TestIndex index({{"a.md", "取扱い の 注意。\n"},
                               {"b.md", "取り扱い を 学ぶ。\n"},
                               {"c.md", "研究 の 話。\n"},
                               {"d.md", "構成 を 変える。\n"},
                               {"e.md", "校正 する。\n"},
                               {"f.md", "オンライン検知 の 話。\n"},
                               {"g.md", "検知 の 話。\n"}});
  Analyzer analyzer;
  const Xapian::Database db(index.index);
  const auto bridges = [&](const std::string& text) {
    std::map<std::string, std::string> out;
    for (const Bridge& b : Bridges(db, analyzer, dictionary).of(text, analyzer.words(text)))
      out[b.equivalent] = to_string(b.how) + std::string(b.loose ? " loose" : "");
    return out;
  };
  // The spellings the vault writes, in the hit set.
  CHECK(bridges("取り扱い") == std::map<std::string, std::string>{{"取扱い", "okurigana"}});
  CHECK(bridges("取扱") ==
        std::map<std::string, std::string>{{"取り扱い", "okurigana"}, {"取扱い", "okurigana"}});
  // Typed as read: each word of the vault read so (こうせい: both).
  CHECK(bridges("けんきゅう") == std::map<std::string, std::string>{{"研究", "reading"}});
  CHECK(bridges("kenkyuu") == std::map<std::string, std::string>{{"研究", "reading"}});
  // Hepburn without its long vowel: the reading with it written.
  CHECK(bridges("kenkyu") == std::map<std::string, std::string>{{"研究", "reading"}});
  CHECK(bridges("こうせい") == std::map<std::string, std::string>{{"構成", "reading"}, {"校正", "reading"}});
  // Katakana is no okurigana: オンライン検知 is not 検知.
  CHECK(bridges("オンライン検知").count("検知") == 0);
}

TEST_CASE("Bridge tier: a word written in hiragana as it is read", "[bridge]") {
  // ja-techdocs writes 時々 and ときどき (26 times), 振る舞い and ふるまい:
  // one word. A reading the vault gives another word too is no spelling of
  // either (こうせい: 構成, 校正), nor one of three kana.
  test::TempDir dicts;
  write_ipadic(dicts.path / "ipadic");
  write_euc_jp(dicts.path / "ipadic" / "Adverb.csv", ipadic_line("時々", "時々", "トキドキ") +
                                                         ipadic_line("時どき", "時どき", "トキドキ") +
                                                         ipadic_line("時間", "時間", "ジカン"));
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary("", true, (dicts.path / "ipadic").string());
  const test::TestIndex index({{"a.md", "時々 止まる。\n"},
                               {"b.md", "ときどき 止まる。\n"},
                               {"c.md", "構成 を 変える。\n"},
                               {"d.md", "校正 する。\n"},
                               {"e.md", "こうせい を 見る。\n"},
                               {"f.md", "じかん が ない。\n"}});
  Analyzer analyzer;
  const Xapian::Database db(index.index);
  const auto readings = [&](const std::string& text) {
    std::set<std::string> out;
    for (const Bridge& b : Bridges(db, analyzer, dictionary).of(text, analyzer.words(text)))
      if (b.how == Provenance::Reading && !b.loose) out.insert(b.equivalent);
    return out;
  };
  CHECK(readings("時々") == std::set<std::string>{"ときどき"});
  CHECK(readings("時時") == std::set<std::string>{"ときどき"});
  CHECK(readings("構成").empty());
  CHECK(readings("時間").empty());
}

TEST_CASE("Bridge tier: a word said twice is not bridged as a compound", "[bridge]") {
  test::TempDir dicts;
  write_euc_jp(dicts.path / "edict", "一行 [いっこう] /(n) party/company/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary(dicts.path.string());
  const test::TestIndex index({{"a.md", "一行一行 読む。\n"}, {"b.md", "The party company met.\n"}});
  Analyzer analyzer;
  const Xapian::Database db(index.index);
  const std::vector<std::string> words{"一行", "一行"};
  CHECK(Bridges(db, analyzer, dictionary).of("一行一行", words).empty());
}

TEST_CASE("Bridge tier: a dictionary pair is loose where the vault says the English in katakana more",
          "[bridge]") {
  test::TempDir dicts;
  write_euc_jp(dicts.path / "edict",
               "取扱 [とりあつかい] /(n) treatment/service/\nサービス /(n) service/\n"
               "訓練 [くんれん] /(n) training/\nトレーニング /(n) training/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary(dicts.path.string());
  // 20 notes: the vault uses 取扱 and service as one (three notes say both,
  // no other note says service), but says サービス, 6 notes, more than 取扱, 4;
  // 訓練 (4) and training are one, トレーニング (1) is said less.
  std::map<std::string, std::string> notes;
  for (int i = 0; i < 3; ++i) notes[fmt::format("t{}.md", i)] = "取扱 と service の 話。\n";
  notes["t3.md"] = "取扱 の 説明。\n";
  for (int i = 0; i < 6; ++i) notes[fmt::format("s{}.md", i)] = "サービス の 設計。\n";
  for (int i = 0; i < 3; ++i) notes[fmt::format("k{}.md", i)] = "訓練 と training の 話。\n";
  notes["k3.md"] = "訓練 を 回す。\n";
  notes["tr.md"] = "トレーニング の 話。\n";
  for (int i = 0; i < 5; ++i) notes[fmt::format("o{}.md", i)] = "関係のない メモ。\n";
  const test::TestIndex index(notes);
  const Xapian::Database db(index.index);
  const auto loose = [&](const std::string& text) {
    return loose_of(db, dictionary, text, Provenance::Dictionary);
  };
  // サービス is the vault's word for service, not 取扱, both ways.
  CHECK(loose("取扱") == std::map<std::string, bool>{{"service", true}});
  CHECK(loose("service") == std::map<std::string, bool>{{"サービス", false}, {"取扱", true}});
  // 訓練 is its word for training.
  CHECK(loose("訓練") == std::map<std::string, bool>{{"training", false}});
  CHECK(loose("training") == std::map<std::string, bool>{{"トレーニング", false}, {"訓練", false}});
  // Typed in English where no note says it: still the vault's word for it,
  // サービス, though service be 取扱's first sense.
  test::TempDir first;
  write_euc_jp(first.path / "edict", "取扱 [とりあつかい] /(n) service/\nサービス /(n) service/\n");
  const Dictionary first_sense(first.path.string());
  std::map<std::string, std::string> japanese;
  for (int i = 0; i < 4; ++i) japanese[fmt::format("t{}.md", i)] = "取扱 の 説明。\n";
  for (int i = 0; i < 6; ++i) japanese[fmt::format("s{}.md", i)] = "サービス の 設計。\n";
  const test::TestIndex japanese_index(japanese);
  CHECK(loose_of(Xapian::Database(japanese_index.index), first_sense, "service", Provenance::Dictionary) ==
        std::map<std::string, bool>{{"サービス", false}, {"取扱", true}});
}

TEST_CASE("Substring tier: an English word the dictionary has is no hit inside longer words, notes or not",
          "[bridge]") {
  // robotics-paper-notes says important and constant, never ant: ant was
  // 246 hits; a string no dictionary has (toleran) is the start of a word.
  test::TempDir dicts;
  write_euc_jp(dicts.path / "edict", "アリ /(n) ant/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary(dicts.path.string()), none("");
  const test::TestIndex index({{"imp.md", "An important step.\n"}, {"tol.md", "Fault tolerance.\n"}});
  const Xapian::Database db(index.index);
  Analyzer analyzer;
  const Synonyms synonyms(db);
  const auto matches = [&](const Dictionary& d, const std::string& text) {
    const Bridges bridges(db, analyzer, d);
    SearchRequest req;
    req.query = text;
    const CompiledQuery q = QueryBuilder(db, analyzer, synonyms, false, &bridges).build(req);
    return std::make_pair(unweighted_enquire(db, q.assemble()).get_mset(0, 10).size(),
                          q.chunks.at(0).info.inside_words_loose);
  };
  CHECK(matches(dictionary, "ant") == std::make_pair(Xapian::doccount{0}, true));
  CHECK(matches(none, "ant") == std::make_pair(Xapian::doccount{1}, false));
  CHECK(matches(dictionary, "toleran") == std::make_pair(Xapian::doccount{1}, false));
}

TEST_CASE("Bridge tier: a loanword's source in the plural is not another loanword's source", "[bridge]") {
  // ja-techdocs: ウインドウ is window; "windows" is the plural, but in notes
  // about the system (Windows, ウィンドウズ) as often, 176 of 449 hits. The
  // plural that names another loanword matches only with --loose; one that
  // names none is the word's plural (generators).
  test::TempDir dicts;
  write_euc_jp(
      dicts.path / "edict",
      "ウインドウ /(n) (comp) window/\nウィンドウズ /(n) (comp) Windows (Microsoft operating system)/\n"
      "ジェネレータ /(n) generator/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary(dicts.path.string());
  const test::TestIndex index({{"kata.md", "ウインドウ と window を 閉じる。ジェネレータ と generator。\n"},
                               {"kata2.md", "別の ウインドウ の window。\n"},
                               {"window.md", "Close the window.\n"},
                               {"system.md", "Install it on Windows 11.\n"},
                               {"gens.md", "Two generators.\n"},
                               {"other.md", "関係のない メモ。\n"},
                               {"other2.md", "Nothing here.\n"}});
  const Xapian::Database db(index.index);
  Analyzer analyzer;
  const Synonyms synonyms(db);
  const Bridges bridges(db, analyzer, dictionary);
  const auto paths = [&](const std::string& text, bool loose) {
    SearchRequest req;
    req.query = text;
    req.loose = loose;
    const CompiledQuery q = QueryBuilder(db, analyzer, synonyms, false, &bridges).build(req);
    std::set<std::string> out;
    const Xapian::MSet found = unweighted_enquire(db, q.assemble()).get_mset(0, 10);
    for (auto m = found.begin(); m != found.end(); ++m)
      out.insert(std::string(FileState::path_of(m.get_document().get_value(schema::SLOT_STATE))));
    return std::make_pair(out, q.held_back);
  };
  const std::set<std::string> windows{"kata.md", "kata2.md", "window.md"};
  CHECK(paths("ウインドウ", false) == std::make_pair(windows, true));
  std::set<std::string> loose = windows;
  loose.insert("system.md");
  CHECK(paths("ウインドウ", true).first == loose);
  CHECK(paths("ジェネレータ", false) == std::make_pair(std::set<std::string>{"kata.md", "gens.md"}, false));
}

TEST_CASE("Bridge tier: a dictionary phrase no note says is left out, not weighed", "[bridge]") {
  test::TempDir dicts;
  write_euc_jp(dicts.path / "edict", "試験管 [しけんかん] /(n) test tube/\n");
  Env cache("XDG_CACHE_HOME", (dicts.path / "cache").string());
  const Dictionary dictionary(dicts.path.string());
  Analyzer analyzer;
  const auto equivalents = [&](const test::TestIndex& index) {
    const Xapian::Database db(index.index);
    std::set<std::string> out;
    for (const Bridge& b : Bridges(db, analyzer, dictionary).of("試験管", analyzer.words("試験管")))
      out.insert(b.equivalent);
    return out;
  };
  // The words are the vault's, never together: the phrase matches nothing.
  const test::TestIndex apart({{"a.md", "試験管 を 洗う。\n"}, {"b.md", "A test of the tube.\n"}});
  CHECK(equivalents(apart).empty());
  // Together in a note's text, or only in a title, it is an equivalent.
  const test::TestIndex said({{"a.md", "試験管 を 洗う。\n"}, {"b.md", "A test tube rack.\n"}});
  CHECK(equivalents(said) == std::set<std::string>{"test tube"});
  const test::TestIndex titled({{"a.md", "試験管 を 洗う。\n"}, {"Test Tube.md", "A rack of glass.\n"}});
  CHECK(equivalents(titled) == std::set<std::string>{"test tube"});
}
