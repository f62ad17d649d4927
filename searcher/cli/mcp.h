// `searcher --mcp`: the Model Context Protocol on standard input and output,
// for agents: newline-delimited JSON-RPC 2.0, the tools search, read_note,
// facet_values, backlinks, related_notes and index_status, answered by the same library calls as the
// command line (search gives what `searcher --json` prints). Nothing but
// protocol messages is written to `out`.
#pragma once

#include <iosfwd>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "sagasu/searcher.h"

namespace sagasu {

/// The protocol revisions of the initialize handshake answered, newest first.
inline constexpr const char* MCP_VERSIONS[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
/// The stateless revision also answered: no handshake, the revision in each
/// request's _meta, server/discover.
inline constexpr const char* MCP_STATELESS_VERSION = "2026-07-28";
/// A request line longer than this is refused without being read whole.
inline constexpr std::size_t MCP_MAX_REQUEST = 1 << 20;

/// Serves requests read from `in` until it ends; returns the exit status (0).
/// The index is opened again between calls when its generation changed (a
/// run of the indexer, `indexer --watch`).
int serve_mcp(const IndexSet& indexes, std::istream& in, std::ostream& out, const std::string& version);

/// The reply to one request line (empty for a notification), for tests and fuzzing.
class McpServer {
 public:
  McpServer(const IndexSet& indexes, std::string version);
  ~McpServer();
  std::string handle(const std::string& line);

 private:
  std::string handle_one(const nlohmann::json& request);
  struct State;
  std::unique_ptr<State> m;
};

}  // namespace sagasu
