// A small vault for the searcher's unit tests, indexed by the real indexer.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "index_set.h"
#include "query_builder.h"
#include "sagasu/schema.h"
#include "sagasu/searcher.h"
#include "synonyms.h"
#include "test_index.h"

namespace sagasu::test {

inline const std::map<std::string, std::string>& searcher_notes() {
  static const std::map<std::string, std::string> notes{
      {"wiki/sources/@2026__OSDI__SDCs in the Wild - Characterizing.md",
       "# SDCs\nByteDance の [[Xin_Liu]] らの論文。本番クラスタ で SDC を検知する。\n"},
      {"wiki/sources/@2025__MLSys2025__Other Paper.md",
       "本番 の クラスタ を 観察。[[@2026__OSDI__SDCs in the Wild - Characterizing]] を引用。\n"},
      {"Xin Liu.md", "---\nentity_type: person\naliases: [劉鑫]\n---\n研究者。\n"},
      {"notes/kyoto.md", "京都大学 の 研究。\n"},
      {"notes/decoy.md", "京都 と 首都大学 の 比較。\n"},  // the grams of 京都大, not the string
      {"notes/tag.md", "---\ntags: [sdc]\n---\nタグ付きのメモ。\n"},
      {"notes/card.md", "---\ntype: dataset-card\n---\nデータセットの説明。\n"},
  };
  return notes;
}

/// The paths of a query's hits, every one of them.
inline std::set<std::string> hit_paths(Searcher& s, const std::string& query, bool loose = false,
                                       bool exact = false) {
  SearchRequest req;
  req.query = query;
  req.snippets = 0;
  req.loose = loose;
  req.exact = exact;
  req.limit = 1000;
  std::set<std::string> paths;
  for (const auto& h : s.search(req).hits) paths.insert(h.path);
  return paths;
}

/// The document of a vault path.
inline Xapian::Document doc_of(const Xapian::Database& db, const std::string& path) {
  const std::string id = schema::unique_id_term(path);
  return db.get_document(*db.postlist_begin(id));
}

/// The indexed vault, and queries compiled against it.
struct SearcherFixture {
  TestIndex index{searcher_notes()};
  OpenIndex opened =
      open_index({index.index}, false);  ///< as the searcher opens it (facet columns, word list)
  Xapian::Database db = opened.all;
  Analyzer analyzer;
  Synonyms synonyms{db};

  CompiledQuery build(const std::string& query, bool exact = false, std::vector<std::string> filters = {},
                      bool loose = false) {
    SearchRequest req;
    req.query = query;
    req.filters = std::move(filters);
    req.exact = exact;
    req.loose = loose;
    return QueryBuilder(db, analyzer, synonyms, exact).build(req);
  }
};

}  // namespace sagasu::test
