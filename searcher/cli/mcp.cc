#include "mcp.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <istream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>

#include "printer.h"
#include "sagasu/error.h"
#include "sagasu/index_error.h"
#include "sagasu/index_layout.h"
#include "sagasu/regular_file.h"
#include "sagasu/schema.h"
#include "sagasu/strings.h"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace sagasu {
namespace {

// JSON-RPC 2.0's error codes.
constexpr int PARSE_ERROR = -32700, INVALID_REQUEST = -32600, METHOD_NOT_FOUND = -32601,
              INVALID_PARAMS = -32602, INTERNAL_ERROR = -32603;

// A JSON-RPC error to send back (an unknown method or tool, …).
struct RpcError {
  int code;
  std::string message;
};

// A tool's argument missing or of the wrong type: a tool result with
// isError, which the model can read and correct (MCP 2025-11-25).
struct ArgumentError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The largest note read_note returns at once; longer ones are read by lines.
constexpr std::uint64_t MAX_NOTE_BYTES = 8u << 20;

json schema_object(json properties, json required = json::array()) {
  return {{"type", "object"}, {"properties", std::move(properties)}, {"required", std::move(required)}};
}

// One tool's entry in tools/list: every tool only reads.
json tool(const char* name, const char* title, const char* description, json input, json output) {
  return {{"name", name},
          {"title", title},
          {"description", description},
          {"inputSchema", std::move(input)},
          {"outputSchema", std::move(output)},
          {"annotations", {{"readOnlyHint", true}, {"openWorldHint", false}}}};
}

// The tools: search and read notes, follow links, describe the index.
json search_tool() {
  return tool(
      "search", "Search the vault",
      "Ranked full-text and faceted search of the vault's notes (Japanese and English). The query "
      "language is searcher's: words, \"phrases\", -exclusions, OR, field:value (venue:OSDI, "
      "year:2024.., person:\"Xin Liu\", org:, kind:, tag:, title:). Returns the total, the hits with "
      "snippets, and exact facet counts, as `searcher --json`.",
      schema_object(
          {{"query", {{"type", "string"}, {"description", "the query"}}},
           {"filters",
            {{"type", "string"},
             {"description", "filters in the query language, each field:value: venue:OSDI year:2024.."}}},
           {"limit", {{"type", "integer"}, {"minimum", 0}, {"maximum", 100}, {"default", 10}}},
           {"offset", {{"type", "integer"}, {"minimum", 0}, {"default", 0}}},
           {"exact", {{"type", "boolean"}, {"description", "the text as typed, no folding"}}},
           {"loose", {{"type", "boolean"}, {"description", "also weaker matches (words apart)"}}}},
          {"query"}),
      schema_object({{"total", {{"type", "integer"}}},
                     {"hits", {{"type", "array"}, {"items", {{"type", "object"}}}}},
                     {"facets", {{"type", "object"}}}},
                    {"total", "hits"}));
}

json read_note_tool() {
  return tool("read_note", "Read a note",
              "The text of a note the index holds, by its vault path as search returns it (optionally lines "
              "from_line..to_line, 1-based). Never reads outside the vault.",
              schema_object({{"path", {{"type", "string"}}},
                             {"from_line", {{"type", "integer"}, {"minimum", 1}}},
                             {"to_line", {{"type", "integer"}, {"minimum", 1}}}},
                            {"path"}),
              schema_object({{"path", {{"type", "string"}}},
                             {"title", {{"type", "string"}}},
                             {"text", {{"type", "string"}}},
                             {"first_line", {{"type", "integer"}}},
                             {"last_line", {{"type", "integer"}}},
                             {"total_lines", {{"type", "integer"}}}},
                            {"path", "text", "first_line", "last_line", "total_lines"}));
}

json facet_values_tool() {
  return tool("facet_values", "Values of a facet",
              "Every value of a facet (venue, year, org, person, kind, tag) with its note count, most notes "
              "first; with query, counted over that query's hits; with prefix, only values starting so.",
              schema_object({{"facet", {{"type", "string"}}},
                             {"query", {{"type", "string"}}},
                             {"prefix", {{"type", "string"}}},
                             {"limit", {{"type", "integer"}, {"minimum", 1}, {"default", 100}}}},
                            {"facet"}),
              schema_object({{"facet", {{"type", "string"}}},
                             {"values", {{"type", "array"}, {"items", {{"type", "object"}}}}}},
                            {"facet", "values"}));
}

json backlinks_tool() {
  return tool(
      "backlinks", "What links here",
      "The notes that link to a note ([[name]], [[alias]], a citation of a source note), ranked, each "
      "with the lines where it links.",
      schema_object({{"path", {{"type", "string"}}},
                     {"limit", {{"type", "integer"}, {"minimum", 1}, {"maximum", 100}, {"default", 20}}},
                     {"offset", {{"type", "integer"}, {"minimum", 0}, {"default", 0}}}},
                    {"path"}),
      schema_object({{"path", {{"type", "string"}}},
                     {"title", {{"type", "string"}}},
                     {"total", {{"type", "integer"}}},
                     {"backlinks", {{"type", "array"}, {"items", {{"type", "object"}}}}}},
                    {"path", "total", "backlinks"}));
}

json related_notes_tool() {
  return tool(
      "related_notes", "Related notes",
      "The notes most related to a note: those linking to it or linked from it, linking or citing the "
      "same pages and sources, naming the same people and organizations, sharing its tags and its "
      "distinctive words; each with why.",
      schema_object({{"path", {{"type", "string"}}},
                     {"limit", {{"type", "integer"}, {"minimum", 1}, {"maximum", 100}, {"default", 10}}}},
                    {"path"}),
      schema_object({{"path", {{"type", "string"}}},
                     {"title", {{"type", "string"}}},
                     {"related", {{"type", "array"}, {"items", {{"type", "object"}}}}}},
                    {"path", "related"}));
}

json index_status_tool() {
  return tool(
      "index_status", "Index status",
      "What the index holds: its vault, the number of notes, how many have each facet, when it was last "
      "committed, the vault folders its last run could not read, its locations and any shard missing.",
      schema_object(json::object()),
      schema_object({{"vault", {{"type", "string"}}},
                     {"notes", {{"type", "integer"}}},
                     {"facet_coverage", {{"type", "object"}}},
                     {"last_commit", {{"type", "string"}}},
                     {"unreadable_folders", {{"type", "array"}, {"items", {{"type", "string"}}}}},
                     {"skipped", {{"type", "array"}, {"items", {{"type", "object"}}}}},
                     {"locations", {{"type", "array"}, {"items", {{"type", "string"}}}}},
                     {"missing_shards", {{"type", "array"}, {"items", {{"type", "string"}}}}}},
                    {"notes"}));
}

json tool_list() {
  return json::array({search_tool(), read_note_tool(), facet_values_tool(), backlinks_tool(),
                      related_notes_tool(), index_status_tool()});
}

// An argument of a tool call, checked: absent gives `fallback`, a wrong type is an RpcError.
template <class T>
T argument(const json& args, const char* name, T fallback, bool required = false) {
  if (!args.contains(name) || args[name].is_null()) {
    if (required) throw ArgumentError(fmt::format("missing argument '{}'", name));
    return fallback;
  }
  const json& v = args[name];
  if constexpr (std::is_same_v<T, std::string>) {
    if (!v.is_string()) throw ArgumentError(fmt::format("argument '{}' must be a string", name));
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean()) throw ArgumentError(fmt::format("argument '{}' must be a boolean", name));
  } else {
    if (!v.is_number_unsigned())
      throw ArgumentError(fmt::format("argument '{}' must be a whole number from 0", name));
  }
  return v.get<T>();
}

// A tool's page size: `limit`, at most 100 (a reply an agent can read).
std::size_t page_limit(const json& args, std::size_t fallback) {
  const auto limit = argument<std::size_t>(args, "limit", fallback);
  if (limit > 100) throw ArgumentError("argument 'limit' must be at most 100");
  return limit;
}

// "venue:OSDI year:2024.. person:\"Xin Liu\"" → its field:value filters.
std::vector<std::string> split_filters(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (const char c : s) {
    if (c == '"') quoted = !quoted;
    if (!quoted && (c == ' ' || c == '\t')) {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

// A tool's result: the structured content and its text copy.
json tool_result(json structured) {
  return {{"content", json::array({{{"type", "text"}, {"text", dump(structured)}}})},
          {"structuredContent", std::move(structured)},
          {"isError", false}};
}

// A tool's failure the agent should see (a malformed query, a path it may not read).
json tool_error(const std::string& message) {
  return {{"content", json::array({{{"type", "text"}, {"text", message}}})}, {"isError", true}};
}

}  // namespace

struct McpServer::State {
  const json null_id = nullptr, empty_params = json::object();
  IndexSet indexes;
  std::string version;
  std::unique_ptr<Searcher> searcher;
  std::vector<std::string> generations;  // each local generation and its revision, as last opened

  // The searcher, opened again when an index folder's stub names another
  // generation (a rebuild) or a generation has another revision (an update):
  // a stub read and a database opened per local index, about a millisecond.
  Searcher& open() {
    std::vector<std::string> now;
    for (const auto& loc : indexes.locations) {
      for (const auto& entry : layout::read_stub(loc)) {
        std::string revision;
        try {
          revision = std::to_string(Xapian::Database((fs::path(loc) / entry).string()).get_revision());
        } catch (const Xapian::Error&) {  // (opening the searcher says what is wrong)
        }
        now.push_back(loc + "/" + entry + "@" + revision);
      }
    }
    if (!searcher || now != generations) {
      searcher = std::make_unique<Searcher>(indexes);
      generations = std::move(now);
    }
    return *searcher;
  }

  json search(const json& args) {
    SearchRequest req;
    req.query = argument<std::string>(args, "query", "", true);
    req.filters = split_filters(argument<std::string>(args, "filters", ""));
    req.limit = page_limit(args, 10);
    req.offset = argument<std::size_t>(args, "offset", 0);
    req.exact = argument<bool>(args, "exact", false);
    req.loose = argument<bool>(args, "loose", false);
    req.bridge = !req.exact;
    return result_json(req, open().search(req));
  }

  json read_note(const json& args) {
    const std::string path = argument<std::string>(args, "path", "", true);
    const std::size_t from = argument<std::size_t>(args, "from_line", 1);
    const std::size_t to = argument<std::size_t>(args, "to_line", SIZE_MAX);
    if (from == 0 || to < from) throw ArgumentError("lines are counted from 1, from_line ≤ to_line");
    if (path.empty() || path.front() == '/' || fs::path(path).lexically_normal().string().rfind("..", 0) == 0)
      throw Error(fmt::format("{}: not a vault path (give the path search returns)", path));
    Searcher& s = open();
    const auto note = s.note(path);
    if (!note) throw Error(fmt::format("{}: the index holds no such note", path));
    const std::string text = read_hit_file(*note, MAX_NOTE_BYTES);
    std::string part;
    std::size_t line = 1, last = 0;
    for (std::size_t at = 0; at < text.size(); ++line) {
      std::size_t nl = text.find('\n', at);
      const std::size_t end = nl == std::string::npos ? text.size() : nl + 1;
      if (line >= from && line <= to) {
        part.append(text, at, end - at);
        last = line;
      }
      at = end;
    }
    const std::size_t total = line - 1;
    return {{"path", path},
            {"title", note->title},
            {"text", part},
            {"first_line", from},
            {"last_line", last ? last : from - 1},
            {"total_lines", total}};
  }

  json facet_values(const json& args) {
    const std::string facet = argument<std::string>(args, "facet", "", true);
    const std::string query = argument<std::string>(args, "query", "");
    const std::string prefix = argument<std::string>(args, "prefix", "");
    const std::size_t limit = argument<std::size_t>(args, "limit", 100);
    Searcher& s = open();
    std::vector<FacetValue> values;
    if (query.empty()) {
      values = s.list(facet).values;
    } else {
      SearchRequest req;
      req.query = query;
      req.limit = 0;
      req.snippets = 0;
      req.facets = {facet};
      for (auto& f : s.search(req).facets)
        if (f.name == facet) values = f.values;
    }
    json out = json::array();
    for (const auto& v : values) {
      if (!strings::starts_with(v.value, prefix)) continue;
      if (out.size() == limit) break;
      out.push_back({{"value", v.value}, {"count", v.count}});
    }
    return {{"facet", facet}, {"values", std::move(out)}};
  }

  json backlinks(const json& args) {
    const std::string path = argument<std::string>(args, "path", "", true);
    const std::size_t limit = page_limit(args, 20);
    return backlinks_json(open().backlinks(path, argument<std::size_t>(args, "offset", 0), limit));
  }

  json related(const json& args) {
    const std::string path = argument<std::string>(args, "path", "", true);
    const std::size_t limit = page_limit(args, 10);
    return related_json(open().related(path, limit));
  }

  json index_status() {
    Searcher& s = open();
    json coverage = json::object();
    for (const auto& [facet, notes] : s.facet_coverage()) coverage[facet] = notes;
    // When each local generation was last committed (its version file's time).
    json committed = json::array();
    for (const auto& loc : indexes.locations)
      for (const auto& entry : layout::read_stub(loc)) {
        std::error_code ec;
        const auto t = fs::last_write_time(fs::path(loc) / entry / "iamglass", ec);
        if (ec) continue;
        const auto sys = std::chrono::time_point_cast<std::chrono::seconds>(
            t - fs::file_time_type::clock::now() + std::chrono::system_clock::now());
        committed.push_back(
            fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::chrono::system_clock::to_time_t(sys))));
      }
    json skipped = json::array();
    for (const auto& [file, why] : s.skipped_files()) skipped.push_back({{"path", file}, {"reason", why}});
    return {
        {"vault", s.vault()},
        {"notes", s.note_count()},
        {"facet_coverage", std::move(coverage)},
        {"last_commit", committed.empty() ? json("") : *std::max_element(committed.begin(), committed.end())},
        {"unreadable_folders", s.unreadable_folders()},
        {"skipped", skipped},
        {"locations", indexes.locations},
        {"missing_shards", s.missing_shards()}};
  }

  json call(const json& params) {
    if (!params.is_object() || !params.contains("name") || !params["name"].is_string())
      throw RpcError{INVALID_PARAMS, "tools/call needs a tool name"};
    const std::string name = params["name"];
    const json args = params.contains("arguments") ? params["arguments"] : json::object();
    if (!args.is_object()) throw RpcError{INVALID_PARAMS, "arguments must be an object"};
    try {
      if (name == "search") return tool_result(search(args));
      if (name == "read_note") return tool_result(read_note(args));
      if (name == "facet_values") return tool_result(facet_values(args));
      if (name == "backlinks") return tool_result(backlinks(args));
      if (name == "related_notes") return tool_result(related(args));
      if (name == "index_status") return tool_result(index_status());
    } catch (const Error& e) {
      return tool_error(e.what());  // a malformed query, a note it may not read: the agent's to see
    } catch (const ArgumentError& e) {
      return tool_error(e.what());  // (2025-11-25: a tool's input is the model's to correct)
    } catch (const Xapian::Error& e) {
      return tool_error(index_failure("the index", e, "rebuild it with: indexer --rebuild").what());
    }
    throw RpcError{INVALID_PARAMS, fmt::format("unknown tool '{}'", name)};
  }

  json initialize(const json& params) const {
    std::string asked =
        params.is_object() && params.contains("protocolVersion") && params["protocolVersion"].is_string()
            ? params["protocolVersion"].get<std::string>()
            : "";
    std::string answer = MCP_VERSIONS[0];
    for (const char* v : MCP_VERSIONS)
      if (asked == v) answer = v;
    return {{"protocolVersion", answer},
            {"capabilities", {{"tools", {{"listChanged", false}}}}},
            {"serverInfo", {{"name", "sagasu"}, {"title", "Sagasu"}, {"version", version}}},
            {"instructions",
             "Search a vault of Markdown research notes (Japanese and English): search, then read_note on "
             "a hit's path; facet_values lists venues, years, organizations, people, kinds and tags."}};
  }

  // The stateless revision's discovery: every revision answered, what the server is.
  json discover() const {
    json versions = json::array({MCP_STATELESS_VERSION});
    for (const char* v : MCP_VERSIONS) versions.push_back(v);
    json out = initialize(json::object());
    out.erase("protocolVersion");
    out["supportedVersions"] = std::move(versions);
    return out;
  }

  json dispatch(const std::string& method, const json& params) {
    if (method == "initialize") return initialize(params);
    if (method == "server/discover") return discover();
    if (method == "ping") return json::object();
    if (method == "tools/list") return {{"tools", tool_list()}};
    if (method == "tools/call") return call(params);
    throw RpcError{METHOD_NOT_FOUND, fmt::format("method not found: {}", method)};
  }
};

McpServer::McpServer(const IndexSet& indexes, std::string version) : m(std::make_unique<State>()) {
  m->indexes = indexes;
  m->version = std::move(version);
}

McpServer::~McpServer() = default;

namespace {

// JSON nested deeper than this is refused while it is parsed: copying or
// destroying a value recurses, and a line of 200 KB can nest 100,000 deep.
constexpr int MAX_JSON_DEPTH = 64;

struct TooDeep {};

std::string rpc_error(const json& id, int code, const std::string& message) {
  return dump({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
}

}  // namespace

std::string McpServer::handle(const std::string& line) {
  if (line.size() > MCP_MAX_REQUEST)
    return rpc_error(nullptr, INVALID_REQUEST, fmt::format("request over {} bytes", MCP_MAX_REQUEST));
  if (line.find('\0') != std::string::npos)  // (the parser would stop there and take the rest for gone)
    return rpc_error(nullptr, PARSE_ERROR, "parse error: a NUL byte in the request");
  json request;
  try {
    request = json::parse(line, [](int depth, json::parse_event_t, json&) {
      if (depth > MAX_JSON_DEPTH) throw TooDeep{};
      return true;
    });
  } catch (const TooDeep&) {
    return rpc_error(nullptr, PARSE_ERROR, fmt::format("parse error: nested deeper than {}", MAX_JSON_DEPTH));
  } catch (const json::exception& e) {  // (a number out of range is not a parse_error)
    return rpc_error(nullptr, PARSE_ERROR, fmt::format("parse error: {}", e.what()));
  }
  // A batch (the 2025-03-26 revision's): each request answered, the replies in one array.
  if (request.is_array() && !request.empty()) {
    std::string replies;
    for (const json& r : request)
      if (const std::string reply = handle_one(r); !reply.empty())
        replies += (replies.empty() ? "[" : ",") + reply;
    return replies.empty() ? "" : replies + "]";
  }
  return handle_one(request);
}

std::string McpServer::handle_one(const json& request) {
  if (!request.is_object() || request.value("jsonrpc", json()) != "2.0" || !request.contains("method") ||
      !request["method"].is_string())
    return rpc_error(request.is_object() && request.contains("id") ? request["id"] : json(nullptr),
                     INVALID_REQUEST, "not a JSON-RPC 2.0 request");
  const bool notification = !request.contains("id");
  const json& id = notification ? m->null_id : request["id"];
  if (!notification && !id.is_string() && !id.is_number_integer())
    return rpc_error(nullptr, INVALID_REQUEST, "an id is a string or an integer (never null)");
  const std::string& method = request["method"].get_ref<const std::string&>();
  if (notification) return "";  // notifications/initialized, notifications/cancelled: nothing to say
  try {
    const json& params = request.contains("params") ? request["params"] : m->empty_params;
    // The stateless revision (2026-07-28): each request names its revision in
    // _meta, no handshake; its results say they are complete.
    std::string revision;
    if (params.is_object() && params.contains("_meta") && params["_meta"].is_object()) {
      const json& meta = params["_meta"];
      if (const auto v = meta.find("io.modelcontextprotocol/protocolVersion");
          v != meta.end() && v->is_string())
        revision = v->get<std::string>();
    }
    const bool stateless = revision == MCP_STATELESS_VERSION;
    if (!revision.empty() && !stateless &&
        std::none_of(std::begin(MCP_VERSIONS), std::end(MCP_VERSIONS),
                     [&](const char* v) { return revision == v; }))
      return rpc_error(id, INVALID_PARAMS, fmt::format("unsupported protocol version '{}'", revision));
    json result = m->dispatch(method, params);
    if (stateless || method == "server/discover") result["resultType"] = "complete";
    return dump({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
  } catch (const RpcError& e) {
    return rpc_error(id, e.code, e.message);
  } catch (const json::exception& e) {
    return rpc_error(id, INVALID_PARAMS, e.what());
  } catch (const Error& e) {
    return rpc_error(id, INTERNAL_ERROR, e.what());
  } catch (const Xapian::Error& e) {  // (the index met outside a tool: its answer, not the server's end)
    return rpc_error(id, INTERNAL_ERROR,
                     index_failure("index", e, "rebuild it with: indexer --rebuild").what());
  } catch (const std::exception& e) {
    return rpc_error(id, INTERNAL_ERROR, e.what());
  }
}

int serve_mcp(const IndexSet& indexes, std::istream& in, std::ostream& out, const std::string& version) {
  McpServer server(indexes, version);
  std::string line;
  while (true) {
    // A line is read up to the limit; the rest of a longer one is skipped, not held.
    line.clear();
    bool over = false;
    int c;
    while ((c = in.get()) != EOF && c != '\n') {
      if (line.size() <= MCP_MAX_REQUEST)
        line += static_cast<char>(c);
      else
        over = true;
    }
    if (c == EOF && line.empty()) return 0;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (strings::trim(line).empty() && !over) continue;
    const std::string reply = server.handle(line);
    if (!reply.empty()) out << reply << '\n' << std::flush;
    if (c == EOF) return 0;
  }
}

}  // namespace sagasu
