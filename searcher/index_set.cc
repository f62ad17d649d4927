#include "index_set.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "sagasu/error.h"
#include "sagasu/index_error.h"
#include "sagasu/index_layout.h"
#include "sagasu/schema.h"
#include "sagasu/stored_note.h"
#include "sagasu/strings.h"

namespace fs = std::filesystem;

namespace sagasu {
namespace {

std::string trimmed(std::string_view s) {
  return std::string(strings::trim(s));
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
  // Xapian 1.4's remote backend resolves host names for IPv4 only.
  if (host.front() == '[' || host.find(':') != std::string::npos)
    throw Error(
        fmt::format("{}: an IPv6 address; Xapian 1.4 reaches shards over IPv4 only: serve the shard on an "
                    "IPv4 address (xapian-tcpsrv --interface 127.0.0.1) or a host name",
                    shown));
  return ShardLocation{"tcp://" + hostport, "", host, static_cast<unsigned>(n), ""};
}

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw Error(fmt::format("{}: cannot read", file.string()));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(trimmed(line));
  return lines;
}

// Stub files deeper than this (a stub naming a stub naming …) are refused.
constexpr std::size_t MAX_STUB_DEPTH = 8;

void expand_into(const std::string& loc, std::vector<ShardLocation>& out, std::vector<std::string>& stubs);

// A stub file the user wrote: "auto PATH" and "remote :HOST:PORT" lines.
// `stubs` holds the stub files being read, outermost first: one that names
// itself, directly or through others, is an error naming the loop.
void from_stub_file(const std::string& file, std::vector<ShardLocation>& out,
                    std::vector<std::string>& stubs) {
  std::error_code ec;
  const std::string real = fs::weakly_canonical(file, ec).string();
  if (std::find(stubs.begin(), stubs.end(), real) != stubs.end()) {
    stubs.push_back(real);
    throw Error(fmt::format("{}: stub files name each other in a loop ({})", file, fmt::join(stubs, " → ")));
  }
  if (stubs.size() == MAX_STUB_DEPTH)
    throw Error(fmt::format("{}: stub files nested more than {} deep", file, MAX_STUB_DEPTH));
  stubs.push_back(real);
  const auto lines = lines_of(file);
  const std::size_t before = out.size();
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
      expand_into(p.lexically_normal().string(), out, stubs);
    } else if (type == "remote" && !arg.empty() && arg.front() == ':') {
      out.push_back(remote_of(arg.substr(1), at));
    } else {
      throw Error(fmt::format("{}: expected 'auto PATH' or 'remote :HOST:PORT', not '{}'", at, line));
    }
  }
  if (out.size() == before) throw Error(fmt::format("{}: the stub file lists no shard", file));
  stubs.pop_back();
}

void expand_into(const std::string& loc, std::vector<ShardLocation>& out, std::vector<std::string>& stubs) {
  if (loc.rfind("tcp://", 0) == 0) {
    out.push_back(remote_of(loc.substr(6), loc));
    return;
  }
  std::error_code ec;
  if (fs::is_directory(loc, ec)) {
    // A sharded index folder: its stub names one generation of each shard.
    const std::size_t before = out.size();
    for (const auto& entry : layout::read_stub(loc))
      if (const auto shard = layout::shard_entry(entry))
        out.push_back(
            {(fs::path(loc) / shard->folder).string(), (fs::path(loc) / entry).string(), "", 0, loc});
    if (out.size() == before) out.push_back({loc, loc, "", 0, ""});
  } else if (fs::is_regular_file(loc, ec)) {
    from_stub_file(loc, out, stubs);
  } else {
    out.push_back({loc, loc, "", 0, ""});  // opening it says what is wrong
  }
}

}  // namespace

std::vector<ShardLocation> expand_locations(const std::vector<std::string>& locations) {
  std::vector<ShardLocation> out;
  std::vector<std::string> stubs;
  for (const auto& loc : locations) expand_into(loc, out, stubs);
  return out;
}

namespace {

// Opens one shard; throws Error naming it.
Xapian::Database open_shard(const ShardLocation& shard, const std::string& indexer) {
  if (shard.remote()) {
    try {
      // Timeouts in ms: a shard that does not answer is an error, not a hang.
      return Xapian::Remote::open(shard.host, shard.port, 10000, 3000);
    } catch (const Xapian::Error& e) {
      throw Error(fmt::format("{}: cannot reach the shard: {}", shard.name, e.get_msg()));
    }
  }
  std::error_code ec;
  const std::string& path = shard.path;
  if (!fs::exists(path, ec) ||
      (fs::is_directory(path, ec) && !fs::exists(fs::path(path) / layout::STUB_FILE, ec) &&
       !fs::exists(fs::path(path) / "iamglass", ec)))
    throw Error(fmt::format("{}: no index here; build one with: {} --vault DIR --index {}", shard.name,
                            indexer, shard.name));
  // A folder the system does not let us read (the index's, or the generation
  // its stub names) is that, not "no index".
  std::vector<std::string> folders{path};
  if (fs::is_directory(path, ec))
    for (const auto& entry : layout::read_stub(path)) folders.push_back((fs::path(path) / entry).string());
  for (const auto& folder : folders)
    if (fs::is_directory(folder, ec) && ::access(folder.c_str(), R_OK | X_OK) != 0)
      throw Error(
          fmt::format("{}: cannot read the index: {} ({})", shard.name, std::strerror(errno), folder));
  try {
    return Xapian::Database(path);
  } catch (const Xapian::DatabaseOpeningError& e) {
    if (const std::string why = system_refusal(e); !why.empty())
      throw Error(fmt::format("{}: cannot read the index: {} ({})", shard.name, why, e.get_msg()));
    throw Error(fmt::format("{}: not a Sagasu index ({}); build one with: {} --vault DIR --index {}",
                            shard.name, e.get_msg(), indexer, shard.name));
  } catch (const Xapian::Error& e) {
    throw index_failure(shard.name, e, fmt::format("rebuild it with: {} --rebuild", indexer));
  }
}

// What the opened shards must agree on: one schema, one vault, each database
// once (by its UUID, whatever path or address reached it), each shard of one
// shard count once (or one whole index), all written by one indexer run, so no
// note counts twice, not at all, or as a replica left behind has it.
class ShardCheck {
 public:
  explicit ShardCheck(const std::string& indexer) : m_indexer(indexer) {}

  /// Checks one more shard; returns its number K (nullopt: a whole index).
  std::optional<std::size_t> add(const ShardLocation& shard, const Xapian::Database& db) {
    const std::string version = db.get_metadata(std::string(schema::META_SCHEMA_VERSION));
    if (schema::newer_schema(version))
      throw Error(
          fmt::format("{}: the index was written by a newer Sagasu (schema {}; this one reads {}): "
                      "search it with that version, or rebuild it with: {} --rebuild",
                      shard.name, version, schema::SCHEMA_VERSION, m_indexer));
    if (!version.empty() && version != schema::SCHEMA_VERSION)
      throw Error(fmt::format("{}: index schema {} is not {}; rebuild it with: {} --rebuild", shard.name,
                              version, schema::SCHEMA_VERSION, m_indexer));
    if (auto [it, fresh] = m_uuids.emplace(db.get_uuid(), shard.name); !fresh)
      throw Error(fmt::format("{}: the same index as {}, given twice (every hit would count twice)",
                              shard.name, it->second));
    const std::string vault = db.get_metadata(std::string(schema::META_VAULT));
    if (m_first.empty()) {
      m_first = shard.name;
      m_vault = vault;
    } else if (vault != m_vault) {
      throw Error(fmt::format(
          "{}: an index of vault {}, but {} is of vault {}: search one vault's shards together", shard.name,
          vault.empty() ? "(none)" : vault, m_first, m_vault.empty() ? "(none)" : m_vault));
    }
    const std::string id = db.get_metadata(std::string(schema::META_SHARD));  // "K/N"
    const auto slash = id.find('/');
    if (slash == std::string::npos) {
      if (!m_whole.empty())
        throw Error(fmt::format("{}: a whole index of vault {}, as {} is: search one of them", shard.name,
                                vault.empty() ? "(none)" : vault, m_whole));
      m_whole = shard.name;
      return std::nullopt;
    }
    // Shards of one sharded folder may hold two runs for a moment: an update cut
    // short between its shards' commits (the next run builds them fresh).
    // Shards given one by one (replicas, tcp://) must hold one run.
    const std::string run = db.get_metadata(std::string(schema::META_RUN));
    if (m_runs.empty()) {
      m_runs = {run, shard.name, shard.index_folder};
    } else if (run != m_runs.run && (shard.index_folder.empty() || shard.index_folder != m_runs.folder)) {
      throw Error(fmt::format(
          "{}: written by another indexer run than {} (a replica behind the others, or an update cut short): "
          "search shards of one run, or run {} again",
          shard.name, m_runs.name, m_indexer));
    }
    const std::size_t k = std::stoul(id.substr(0, slash)), n = std::stoul(id.substr(slash + 1));
    if (m_count && n != m_count)
      throw Error(fmt::format("{}: shard {} of {}, but other shards given are of a {}-shard index",
                              shard.name, k + 1, n, m_count));
    m_count = n;
    if (auto [it, fresh] = m_seen.emplace(k, shard.name); !fresh)
      throw Error(
          fmt::format("{}: shard {} of {} is given twice (also as {})", shard.name, k + 1, n, it->second));
    return k;
  }

  /// The numbers of the shards not given (1-based); throws when a whole index was mixed in.
  std::vector<std::size_t> absent(const std::string& name) const {
    if (!m_whole.empty() && m_count)
      throw Error(fmt::format("{}: a whole index given with shards of a {}-shard index", name, m_count));
    std::vector<std::size_t> absent;
    for (std::size_t k = 0; k < m_count; ++k)
      if (!m_seen.count(k)) absent.push_back(k + 1);
    return absent;
  }
  std::size_t count() const { return m_count; }

 private:
  std::string m_indexer;
  std::string m_first, m_vault;
  std::map<std::size_t, std::string> m_seen;   // shard number → its location
  std::map<std::string, std::string> m_uuids;  // database UUID → its location
  struct FirstRun {
    std::string run, name, folder;
    bool empty() const { return name.empty(); }
  } m_runs;             // the first numbered shard's run
  std::string m_whole;  // the whole (unsharded) index given, if any
  std::size_t m_count = 0;
};

}  // namespace

namespace {

// The generation folder a local shard location opens: the one its stub names,
// or the location itself.
std::string generation_folder(const ShardLocation& shard) {
  const auto entries = layout::read_stub(shard.path);
  if (entries.size() == 1 && !layout::shard_entry(entries.front()))
    return (fs::path(shard.path) / entries.front()).string();
  return shard.path;
}

// Each shard's file of a generation (facet columns, word list) for the
// revision opened, by place; none when a shard has no such file.
template <class Open>
auto shard_files(const std::vector<ShardLocation>& shards, const std::vector<Xapian::Database>& dbs,
                  Open open) -> std::vector<decltype(open(std::string(), dbs.front()))> {
  std::vector<decltype(open(std::string(), dbs.front()))> out;
  for (std::size_t p = 0; p < shards.size(); ++p) {
    auto file = open(generation_folder(shards[p]), dbs[p]);
    if (!file) return {};
    out.push_back(std::move(file));
  }
  return out;
}

}  // namespace

std::size_t OpenIndex::place_of(const Xapian::Document& doc) const {
  if (shard_places.empty()) return 0;
  const std::optional<std::size_t> k = schema::shard_number(doc.get_value(schema::SLOT_SHARD));
  if (!k || *k >= shard_places.size())
    throw Error(fmt::format("{}: a note without its shard number: the index is damaged; {}", name, rebuild));
  return shard_places[*k];
}

Xapian::docid OpenIndex::in_all(Xapian::docid in_shard, std::size_t place) const {
  const auto n = static_cast<Xapian::docid>(std::max<std::size_t>(shards.size(), 1));
  return (in_shard - 1) * n + static_cast<Xapian::docid>(place) + 1;
}

std::pair<std::size_t, Xapian::docid> OpenIndex::in_shard(Xapian::docid in_all) const {
  const auto n = static_cast<Xapian::docid>(std::max<std::size_t>(shards.size(), 1));
  return {(in_all - 1) % n, (in_all - 1) / n + 1};
}

const WordList& OpenIndex::word_list() const {
  if (!m_built_words)
    m_built_words = words.size() == 1 ? words.front()
                    : words.empty()   ? WordList::of(all)
                                      : WordList::merged(words);
  return *m_built_words;
}

const KatakanaWords& OpenIndex::katakana_words() const {
  if (!m_katakana) m_katakana = std::make_shared<const KatakanaWords>(all);
  return *m_katakana;
}

OpenIndex open_index(const std::vector<std::string>& locations, bool allow_partial,
                     const std::string& indexer) {
  OpenIndex index;
  index.name = fmt::format("{}", fmt::join(locations, ", "));
  index.rebuild = fmt::format("rebuild it with: {} --rebuild", indexer);
  const std::vector<ShardLocation> shards = expand_locations(locations);
  ShardCheck check(indexer);
  std::map<std::size_t, std::size_t> places;  // shard number → its place in all
  for (const auto& shard : shards) {
    Xapian::Database db;
    try {
      db = open_shard(shard, indexer);
    } catch (const Error&) {
      // A shard that does not answer: with allow_partial, searched without it.
      if (!allow_partial || !shard.remote()) throw;
      index.missing.push_back(shard.name);
      continue;
    }
    if (const auto k = check.add(shard, db)) places[*k] = index.shards.size();
    index.remote = index.remote || shard.remote();
    index.all.add_database(db);
    index.shards.push_back(db);
  }
  if (index.missing.size() == shards.size()) throw Error(fmt::format("{}: no shard answered", index.name));
  // Shards not given at all (those that did not answer are named already).
  const std::vector<std::size_t> absent = check.absent(index.name);
  if (absent.size() > index.missing.size()) {
    const std::string list = fmt::format("{}", fmt::join(absent, ", "));
    if (!allow_partial)
      throw Error(fmt::format("{}: shard {} of {} missing (give every shard, or --allow-partial)", index.name,
                              list, check.count()));
    index.missing.push_back(fmt::format("shard {} of {}", list, check.count()));
  }
  if (index.missing.empty() && places.size() > 1)
    for (const auto& [k, place] : places) index.shard_places.push_back(place);
  if (!index.remote && (shards.size() == 1 || !index.shard_places.empty()))
    index.columns = shard_files(shards, index.shards, FacetColumns::open);
  if (!index.remote && index.missing.empty())
    index.words = shard_files(shards, index.shards, WordList::open);
  return index;
}

}  // namespace sagasu
