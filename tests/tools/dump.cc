// sagasu-dump: prints an index in a canonical order (documents by unique id,
// with every term, wdf, position and value; the synonym table; the metadata),
// so that two indexes can be compared with diff: an incremental update must
// give exactly what a full rebuild gives.
#include <fmt/format.h>
#include <xapian.h>

#include <iostream>
#include <map>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    fmt::print(stderr, "usage: sagasu-dump INDEX\n");
    return 2;
  }
  try {
    Xapian::Database db(argv[1]);
    std::map<std::string, Xapian::docid> by_id;
    for (auto t = db.allterms_begin("Q"); t != db.allterms_end("Q"); ++t) {
      auto p = db.postlist_begin(*t);
      if (p != db.postlist_end(*t)) by_id[*t] = *p;
    }
    fmt::print("documents {}\n", db.get_doccount());
    for (const auto& [id, did] : by_id) {
      const Xapian::Document doc = db.get_document(did);
      fmt::print("doc {}\n", id);
      for (auto t = doc.termlist_begin(); t != doc.termlist_end(); ++t) {
        std::string pos;
        for (auto p = t.positionlist_begin(); p != t.positionlist_end(); ++p) pos += fmt::format(" {}", *p);
        fmt::print("  term {} wdf {}{}\n", *t, t.get_wdf(), pos.empty() ? "" : " pos" + pos);
      }
      for (auto v = doc.values_begin(); v != doc.values_end(); ++v) {
        std::string shown;
        for (char c : *v) shown += (c == '\0' ? std::string("\\0") : std::string(1, c));
        fmt::print("  value {} {}\n", v.get_valueno(), shown);
      }
      fmt::print("  data {}\n", doc.get_data());
    }
    for (auto k = db.synonym_keys_begin(); k != db.synonym_keys_end(); ++k)
      for (auto s = db.synonyms_begin(*k); s != db.synonyms_end(*k); ++s) fmt::print("synonym {} -> {}\n", *k, *s);
    for (auto k = db.metadata_keys_begin(); k != db.metadata_keys_end(); ++k)
      fmt::print("metadata {} {}\n", *k, db.get_metadata(*k));
  } catch (const Xapian::Error& e) {
    fmt::print(stderr, "sagasu-dump: {}: {}\n", argv[1], e.get_description());
    return 2;
  }
  return 0;
}
