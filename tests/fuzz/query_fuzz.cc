// The query language: any bytes are parsed or refused with a UsageError that
// names the column. Invariants: the tree is well formed (AND/OR have two or
// more children, NOT one, a leaf none; an empty query is an AND of nothing,
// at the root only), every leaf's column is inside the
// query, and each text leaf folds and splits into grams without failing.
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "query.h"
#include "sagasu/error.h"
#include "sagasu/substring.h"

using namespace sagasu;

namespace {

void check(const QueryNode& node, std::size_t query_size, bool root) {
  switch (node.op) {
    case QueryNode::Op::And:
      SAGASU_FUZZ_CHECK(node.children.size() >= 2 || (root && node.children.empty()));
      break;
    case QueryNode::Op::Or:
      SAGASU_FUZZ_CHECK(node.children.size() >= 2);
      break;
    case QueryNode::Op::Not:
      SAGASU_FUZZ_CHECK(node.children.size() == 1);
      break;
    case QueryNode::Op::Leaf:
      SAGASU_FUZZ_CHECK(node.children.empty());
      SAGASU_FUZZ_CHECK(node.leaf.column >= 1 && node.leaf.column <= query_size + 1);
      if (node.leaf.type == QueryPart::Type::Text || node.leaf.type == QueryPart::Type::Phrase) {
        const std::string folded = fold_query(node.leaf.value);
        (void)query_grams(folded);
      }
      break;
  }
  for (const auto& child : node.children) check(child, query_size, false);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string query(fuzz::as_text(data, size));
  try {
    check(parse_query_tree(query), query.size(), true);
  } catch (const UsageError&) {
  } catch (const Error&) {
  }
  try {
    for (const auto& part : parse_query(query))
      SAGASU_FUZZ_CHECK(part.column >= 1 && part.column <= query.size() + 1);
  } catch (const UsageError&) {
  } catch (const Error&) {
  }
  return 0;
}
