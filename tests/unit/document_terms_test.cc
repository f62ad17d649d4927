// Expected terms (style.md, convention 8, after omega's omindexcheck): each
// fixture note, indexed by the real indexer, holds the terms it must and none
// of those it must not (XVmlsys, not XVmlsys2026).
#include <catch2/catch.hpp>

#include "searcher_fixture.h"
#include "test_index.h"

using namespace sagasu;

namespace {

struct Expected {
  std::string path;
  std::vector<std::string> must, must_not;
};

bool has_term(const Xapian::Document& doc, const std::string& term) {
  auto t = doc.termlist_begin();
  t.skip_to(term);
  return t != doc.termlist_end() && *t == term;
}

}  // namespace

TEST_CASE("Document terms, per fixture note: what it must and must not hold", "[document]") {
  const test::TestIndex index({
      {"wiki/sources/@2026__MLSys2026__veScale-FSDP - Flexible.md",
       "[[Xin_Liu]] と [[ByteDance]] の論文。本番クラスタ の話。 #sdc\n"},
      {"Xin Liu.md", "---\nentity_type: person\naliases: [劉鑫]\n---\nByteDance 所属の研究者。\n"},
      {"ByteDance.md", "---\nentity_type: organization\n---\n企業。\n"},
      {"notes/メモ.md",
       "ＧＰＵ の ｻｰﾊﾞｰ を [[@2024__NSDI'24__MegaScale]] が使う。[[Kubernetes Operator|k8s]] も。\n"},
  });
  const std::vector<Expected> expected{
      {"wiki/sources/@2026__MLSys2026__veScale-FSDP - Flexible.md",
       {"XVmlsys", "XY2026", "XKsource", "XC2026__mlsys2026__vescale-fsdp - flexible", "XDwiki",
        "XDwiki/sources", "XPxin liu", "XObytedance", "XLxin liu", "XLbytedance", "XTsdc", "Svescale",
        "Sflexible", "本番", "クラスタ"},
       {"XVmlsys2026", "XY2025", "XKother", "XPxin_liu", "XLxin_liu", "本番クラスタ", "XDwiki/sources/"}},
      {"Xin Liu.md",
       {"XKperson", "XPxin liu", "Sxin", "Sliu", "研究者", "XDxin liu.md"},
       {"XObytedance", "XLbytedance", "XP劉鑫"}},  // plain text names no organization; aliases are not values
      {"ByteDance.md", {"XKorganization", "XObytedance"}, {"XPbytedance"}},
      {"notes/メモ.md",
       {"gpu", "サーバ", "XBサー", "XVnsdi", "XY2024", "XC2024__nsdi'24__megascale", "XDnotes", "k8s",
        "kubernetes", "operator", "XBg", "XB8"},  // a link target shown as k8s is text too
       // Letters and digits a word shows have no grams: the word list finds them (schema 15).
       {"ＧＰＵ", "サーバー", "ｻｰﾊﾞｰ", "XVnsdi'24", "XKsource", "XBgpu", "XBkub", "XBk8s"}},
  };
  const Xapian::Database db = index.db();
  for (const auto& e : expected) {
    INFO(e.path);
    const Xapian::Document doc = test::doc_of(db, e.path);
    for (const auto& t : e.must) CHECK(has_term(doc, t));
    for (const auto& t : e.must_not) CHECK_FALSE(has_term(doc, t));
  }
}
