// Where an index's notes are: one index folder, the shard folders of a
// sharded index, a stub file listing shards, or shards served over TCP by
// xapian-tcpsrv. Each location becomes the shards it names, so the searcher
// can open them one by one and name the one that fails.
#pragma once

#include <string>
#include <vector>

namespace sagasu {

/// One database to search.
struct ShardLocation {
  std::string name;  ///< as the user knows it: a folder, "tcp://HOST:PORT", "FILE:LINE"
  std::string path;  ///< local: the database folder (a Xapian stub file or a glass folder)
  std::string host;  ///< remote: the xapian-tcpsrv host (empty for a local shard)
  unsigned port = 0;
  bool remote() const { return !host.empty(); }
};

/// Expands --index values:
///   DIR              an index folder; a sharded one (indexer --shards) gives its shard folders
///   tcp://HOST:PORT  a shard served by xapian-tcpsrv
///   FILE             a Xapian stub file: "auto PATH" (relative to the file's folder) and
///                    "remote :HOST:PORT" lines; blank lines and # comments are skipped
/// Throws Error naming the location (and line) for anything else.
std::vector<ShardLocation> expand_locations(const std::vector<std::string>& locations);

}  // namespace sagasu
