// The index folder's layout, written by the indexer and read by the searcher:
//
//   INDEX/XAPIANDB         stub file (Xapian's format) naming the live generation:
//                          "auto gen-000003", or one generation per shard of a
//                          sharded index: "auto shard-0/gen-000002" …
//   INDEX/gen-000003/      a generation: a Xapian database
//   INDEX/gen-000004.part1 a part of a generation being built (merged by compaction)
//   INDEX/shard-K/         shard K of a sharded index: an index folder of its own
//   INDEX/lock             the writer lock, naming its holder
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sagasu::layout {

inline constexpr std::string_view STUB_FILE = "XAPIANDB";
inline constexpr std::string_view LOCK_FILE = "lock";
inline constexpr std::string_view GENERATION_PREFIX = "gen-";
inline constexpr std::string_view SHARD_PREFIX = "shard-";

/// "gen-000007".
std::string generation_name(unsigned long number);
/// The number of a generation folder's name ("gen-000007" → 7; a part "gen-000007.part1" → 7), or nullopt.
std::optional<unsigned long> generation_number(std::string_view name);
/// "gen-000007.part1": part p of a generation being built.
std::string part_name(std::string_view generation, std::size_t part);
/// "shard-3".
std::string shard_folder(std::size_t shard);
/// Is this folder name a generation's or a shard's (a folder the index owns)?
bool owned_folder(std::string_view name);

/// The entries of a stub file's text ("auto NAME" lines, in order).
std::vector<std::string> stub_entries(std::string_view stub_text);
/// A stub file's text naming these entries.
std::string stub_text(const std::vector<std::string>& entries);
/// The entries of the stub file in an index folder (none when it is absent).
std::vector<std::string> read_stub(const std::string& index_dir);

/// A stub entry of a sharded index: "shard-K/gen-N" → its shard folder "shard-K"
/// and generation "gen-N"; nullopt for another entry.
struct ShardEntry {
  std::string folder;      ///< "shard-K"
  std::string generation;  ///< "gen-N"
};
std::optional<ShardEntry> shard_entry(std::string_view entry);

}  // namespace sagasu::layout
