// The query language: precedence, fields from the schema's table, and errors
// that name the column.
#include "query.h"

#include <catch2/catch.hpp>

#include "sagasu/error.h"
#include "sagasu/schema.h"

using namespace sagasu;

namespace {

// The tree as a compact string: AND(a,b), OR(…), NOT(…), leaves as text,
// "phrase", field:value (a filter) and field~words (a text field).
std::string shape(const QueryNode& n) {
  switch (n.op) {
    case QueryNode::Op::Leaf: {
      const QueryPart& p = n.leaf;
      switch (p.type) {
        case QueryPart::Type::Text:
          return p.value;
        case QueryPart::Type::Phrase:
          return "\"" + p.value + "\"";
        case QueryPart::Type::Filter:
          return p.field + ":" + p.value;
        case QueryPart::Type::FieldText:
          return p.field + "~" + p.value;
      }
      return "?";
    }
    case QueryNode::Op::Not:
      return "NOT(" + shape(n.children.front()) + ")";
    case QueryNode::Op::And:
    case QueryNode::Op::Or: {
      std::string out = n.op == QueryNode::Op::And ? "AND(" : "OR(";
      for (std::size_t i = 0; i < n.children.size(); ++i) out += (i ? "," : "") + shape(n.children[i]);
      return out + ")";
    }
  }
  return "?";
}

std::string parsed(const std::string& q) {
  return shape(parse_query_tree(q));
}

}  // namespace

TEST_CASE("Query, implicit AND binds tighter than OR; parentheses group", "[query]") {
  CHECK(parsed("a b") == "AND(a,b)");
  CHECK(parsed("a AND b") == "AND(a,b)");
  CHECK(parsed("a b OR c") == "OR(AND(a,b),c)");
  CHECK(parsed("a (b OR c)") == "AND(a,OR(b,c))");
  CHECK(parsed("ストラグラー") == "ストラグラー");
  CHECK(parsed("") == "AND()");
}

TEST_CASE("Query, NOT and -word exclude; a lone dash or lower-case or is text", "[query]") {
  CHECK(parsed("SDC -AEGIS") == "AND(SDC,NOT(AEGIS))");
  CHECK(parsed("NOT 研究") == "NOT(研究)");
  CHECK(parsed("a - b") == "AND(a,-,b)");
  CHECK(parsed("a or b") == "AND(a,or,b)");
  CHECK(parsed("-venue:OSDI x") == "AND(NOT(venue:OSDI),x)");
}

TEST_CASE("Query, an ideographic or no-break space separates words as a space does", "[query]") {
  CHECK(parsed("力者注\u3000主に") == "AND(力者注,主に)");
  CHECK(parsed("\u3000"
               "1930（昭") == "1930（昭");  // a leading IME space
  CHECK(parsed("司あきら\u3000") == "司あきら");
  CHECK(parsed("a\u00a0b") == "AND(a,b)");
  CHECK(parsed("\"力者注\u3000主に\"") == "\"力者注\u3000主に\"");  // inside quotes, text
}

TEST_CASE("Query, phrases and quoted field values", "[query]") {
  CHECK(parsed("\"LLM 訓練\" GPU") == "AND(\"LLM 訓練\",GPU)");
  CHECK(parsed("person:\"Xin Liu\"") == "person:Xin Liu");
  CHECK(parsed("title:\"SDCs in the Wild\"") == "title~SDCs in the Wild");
}

TEST_CASE("Query, every query field of the schema's table is recognised, other names are errors", "[query]") {
  for (const schema::Field& f : schema::FIELDS) {
    const std::string q = std::string(f.name) + ":x";
    const QueryNode n = parse_query_tree(q);
    INFO(q);
    REQUIRE(n.op == QueryNode::Op::Leaf);
    if (f.kind == schema::FieldKind::Internal) {
      CHECK(n.leaf.type == QueryPart::Type::Text);  // id:, stem:, substring: are not query syntax
    } else {
      CHECK(n.leaf.type == (f.is_filter() ? QueryPart::Type::Filter : QueryPart::Type::FieldText));
      CHECK(n.leaf.field == f.name);
      CHECK(n.leaf.value == "x");
    }
  }
  CHECK(parsed("VENUE:OSDI") == "venue:OSDI");  // field names are case-insensitive
  CHECK(parsed("http://example.org") == "http://example.org");
  CHECK(parsed("std::move") == "std::move");
  CHECK_THROWS_AS(parse_query_tree("planet:mars"), UsageError);  // a typo is not searched as text
}

TEST_CASE("Query, malformed queries name the problem and the column (in characters)", "[query]") {
  auto error_of = [](const std::string& q) {
    try {
      parse_query_tree(q);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error_of("\"SDC") == "query: unbalanced quote at column 1");
  CHECK(error_of("検知 \"SDC") == "query: unbalanced quote at column 4");
  CHECK(error_of("(a OR b") == "query: unbalanced parenthesis at column 1");
  CHECK(error_of("a)") == "query: unbalanced parenthesis at column 2");
  CHECK(error_of("()") == "query: empty parentheses at column 1");
  CHECK(error_of("a OR") == "query: OR needs something after it at column 3");
  CHECK(error_of("a NOT") == "query: NOT needs something after it at column 3");
  CHECK(error_of("venue: OSDI") == "query: venue: needs a value at column 7");
  CHECK(error_of("\"  \"") == "query: empty quotes at column 1");
  // An unknown field is an error that lists the fields and says how to search the text.
  CHECK(error_of("検知 foo:bar") ==
        "query: foo: no such field at column 4 (fields: title, venue, year, person, org, kind, tag, path, links and "
        "cites); to search the text, quote it: \"foo:bar\"");
  CHECK(error_of("\"foo:bar\"") == "no error");
  CHECK(error_of("https://example.org std::vector C:\\x 10:30 a: 注意:b") == "no error");
  CHECK(error_of(std::string(300, '(') + "a" + std::string(300, ')')).find("nested more than 200 levels") !=
        std::string::npos);
}

TEST_CASE("Query, --filter values are leaves only", "[query]") {
  const auto parts = parse_query("venue:OSDI -year:2024");
  REQUIRE(parts.size() == 2);
  CHECK(parts[0].field == "venue");
  CHECK_FALSE(parts[0].negated);
  CHECK(parts[1].field == "year");
  CHECK(parts[1].negated);
  CHECK_THROWS_WITH(parse_query("venue:OSDI OR venue:SOSP"),
                    Catch::Contains("OR and parentheses are not allowed"));
}

TEST_CASE("Query, field:( … ) gives its words the field", "[query]") {
  // Found by fuzzing: venue:(OSDI) gave no hits (an empty venue, then OSDI as text), year:(2025)
  // read year 0, title:(FSDP) was free text.
  CHECK(shape(parse_query_tree("venue:(OSDI)")) == "venue:OSDI");
  CHECK(shape(parse_query_tree("venue:(OSDI OR SOSP)")) == "OR(venue:OSDI,venue:SOSP)");
  CHECK(shape(parse_query_tree("year:(2025)")) == "year:2025");
  CHECK(shape(parse_query_tree("title:(FSDP)")) == "title~FSDP");
  CHECK(shape(parse_query_tree("person:(\"Xin Liu\" OR org:ByteDance) GPU")) ==
        "AND(OR(person:Xin Liu,org:ByteDance),GPU)");  // a field of its own wins; the group ends at )
  CHECK(shape(parse_query_tree("(venue:(OSDI) GPU) SDC")) == "AND(AND(venue:OSDI,GPU),SDC)");
  CHECK(shape(parse_query_tree("venue:(OSDI -SOSP)")) == "AND(venue:OSDI,NOT(venue:SOSP))");
}
