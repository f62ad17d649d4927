// The MCP server's JSON-RPC reader: any request line gets one reply (none for
// a notification) that is a JSON-RPC 2.0 object with either a result or an
// error (a batch: an array of them), never a crash. The index named does not exist, so a tool call ends
// in its error after its arguments are read and checked.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "fuzz_check.h"
#include "mcp.h"

using namespace sagasu;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static McpServer server(IndexSet{{"/nonexistent/sagasu-fuzz-index"}, false, "indexer"}, "fuzz");
  const std::string line(fuzz::as_text(data, size));
  const std::string reply = server.handle(line);
  if (reply.empty()) return 0;  // a notification
  const auto j = nlohmann::json::parse(reply, nullptr, false);
  SAGASU_FUZZ_CHECK(!j.is_discarded() && (j.is_object() || (j.is_array() && !j.empty())));
  for (const auto& r : j.is_array() ? j : nlohmann::json::array({j})) {
    SAGASU_FUZZ_CHECK(r.is_object() && r.value("jsonrpc", "") == "2.0");
    SAGASU_FUZZ_CHECK(r.contains("result") != r.contains("error"));
    SAGASU_FUZZ_CHECK(r.contains("id"));
  }
  return 0;
}
