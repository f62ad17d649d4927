#include "sagasu/shards.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sagasu/error.h"
#include "sagasu/index_layout.h"

namespace fs = std::filesystem;

namespace sagasu {
namespace {

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
  std::size_t b = 0;
  while (b < s.size() && (s[b] == ' ' || s[b] == '\t')) ++b;
  return s.substr(b);
}

// "HOST:PORT" → a remote shard; `shown` names it in errors.
ShardLocation remote_of(const std::string& hostport, const std::string& shown) {
  const auto colon = hostport.rfind(':');
  const std::string host = colon == std::string::npos ? "" : hostport.substr(0, colon);
  const std::string port = colon == std::string::npos ? "" : hostport.substr(colon + 1);
  unsigned long n = 0;
  const bool numeric = !port.empty() && port.size() <= 5 &&
                       port.find_first_not_of("0123456789") == std::string::npos &&
                       (n = std::stoul(port)) >= 1 && n <= 65535;
  if (host.empty() || !numeric)
    throw Error(fmt::format("{}: expected a shard address HOST:PORT (port 1-65535)", shown));
  return ShardLocation{"tcp://" + hostport, "", host, static_cast<unsigned>(n)};
}

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw Error(fmt::format("{}: cannot read", file.string()));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(trimmed(line));
  return lines;
}

// A stub file the user wrote: "auto PATH" and "remote :HOST:PORT" lines.
std::vector<ShardLocation> from_stub_file(const std::string& file) {
  std::vector<ShardLocation> out;
  const auto lines = lines_of(file);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.empty() || line.front() == '#') continue;
    const std::string at = fmt::format("{}:{}", file, i + 1);
    const auto sp = line.find_first_of(" \t");
    const std::string type = line.substr(0, sp);
    const std::string arg = sp == std::string::npos ? "" : trimmed(line.substr(sp + 1));
    if ((type == "auto" || type == "glass") && !arg.empty()) {
      fs::path p(arg);
      if (p.is_relative()) p = fs::path(file).parent_path() / p;
      for (auto& s : expand_locations({p.lexically_normal().string()})) out.push_back(std::move(s));
    } else if (type == "remote" && !arg.empty() && arg.front() == ':') {
      out.push_back(remote_of(arg.substr(1), at));
    } else {
      throw Error(fmt::format("{}: expected 'auto PATH' or 'remote :HOST:PORT', not '{}'", at, line));
    }
  }
  if (out.empty()) throw Error(fmt::format("{}: the stub file lists no shard", file));
  return out;
}

}  // namespace

std::vector<ShardLocation> expand_locations(const std::vector<std::string>& locations) {
  std::vector<ShardLocation> out;
  for (const auto& loc : locations) {
    if (loc.rfind("tcp://", 0) == 0) {
      out.push_back(remote_of(loc.substr(6), loc));
      continue;
    }
    std::error_code ec;
    if (fs::is_directory(loc, ec)) {
      // A sharded index folder: its stub names one generation of each shard.
      std::vector<ShardLocation> shards;
      for (const auto& entry : layout::read_stub(loc))
        if (const auto shard = layout::shard_entry(entry))
          shards.push_back({(fs::path(loc) / shard->folder).string(), (fs::path(loc) / entry).string(), "", 0});
      if (shards.empty()) shards.push_back({loc, loc, "", 0});
      for (auto& s : shards) out.push_back(std::move(s));
    } else if (fs::is_regular_file(loc, ec)) {
      for (auto& s : from_stub_file(loc)) out.push_back(std::move(s));
    } else {
      out.push_back({loc, loc, "", 0});  // opening it says what is wrong
    }
  }
  return out;
}

}  // namespace sagasu
