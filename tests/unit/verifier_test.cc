// The verifier: substring candidates the grams select are confirmed on the
// stored text; --exact requires the typed text.
#include "verifier.h"

#include <catch2/catch.hpp>

#include "query_builder.h"
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
  const Verifier v(db, false, q, false, analyzer);
  REQUIRE(v.needed());
  CHECK(accepts(v, "notes/kyoto.md"));        // 京都大学
  CHECK_FALSE(accepts(v, "notes/decoy.md"));  // 京都 … 首都大学: both grams, no 京都大
  // The grams do select the decoy: without the verifier it would be a hit.
  Xapian::Enquire e(db);
  e.set_query(q.chunks.front().substring);
  CHECK(e.get_mset(0, 10).size() == 2);
}

TEST_CASE_METHOD(Fixture, "Verifier, whole words and exact grams need no confirmation", "[verifier]") {
  CHECK_FALSE(Verifier(db, false, build("研究"), false, analyzer).needed());  // one gram proves it
  const CompiledQuery q = build("研究 京都大");
  const Verifier v(db, false, q, false, analyzer);
  CHECK(v.needed());
  CHECK(accepts(v, "notes/kyoto.md"));
}

TEST_CASE_METHOD(Fixture, "Verifier, --exact requires the text as typed", "[verifier]") {
  const CompiledQuery q = build("sdc", true);
  const Verifier v(db, false, q, true, analyzer);
  REQUIRE(v.needed());
  CHECK(accepts(v, "notes/tag.md") == false);  // a tag "sdc", but no "sdc" in the text
  CHECK_FALSE(accepts(v, "wiki/sources/@2026__OSDI__SDCs in the Wild - Characterizing.md"));  // only SDC
  const CompiledQuery upper = build("SDC", true);
  CHECK(accepts(Verifier(db, false, upper, true, analyzer),
                "wiki/sources/@2026__OSDI__SDCs in the Wild - Characterizing.md"));
}
