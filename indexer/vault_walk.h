// Phase 1 of an index run: the files of the vault as a walk finds them, and
// reading one of them (with the content hash a note's STATE keeps).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "sagasu/indexer.h"

namespace sagasu {

/// A file of the vault as the walk saw it.
struct VaultFile {
  std::string path;  ///< vault-relative, '/'-separated (on disk: VaultScan::file_of)
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
};

/// What a walk of the vault found.
struct VaultScan {
  std::filesystem::path root;    ///< the vault folder, canonical
  std::uint64_t device = 0, inode = 0;  ///< the vault folder's identity when walked
  std::vector<VaultFile> files;  ///< the files to index, sorted by path
  /// Vault-relative folders that could not be listed ("." for the vault itself):
  /// the notes the index holds below them keep their indexed versions.
  std::vector<std::string> unreadable_dirs;

  /// Where a file is on disk: the vault's folder, '/', its path (made when
  /// read, not kept for each of a large vault's files).
  std::string file_of(const VaultFile& f) const { return root.native() + '/' + f.path; }
};

/// Is a file or folder of this name hidden (.obsidian, .git, .note.md.swp)?
/// Hidden folders are not walked and hidden files are not notes.
bool hidden_name(std::string_view name);

/// Does a file of this name end in one of the wanted endings ("md"; "*": every file)?
bool wanted_file_name(std::string_view name, const std::vector<std::string>& extensions);

/// Walks opts.vault for files ending in one of opts.extensions. Hidden folders
/// are skipped and symbolic links to folders are not followed (a notice in
/// report.warnings); files and folders that cannot be indexed go to
/// report.skipped. Throws Error when the vault is not a folder.
VaultScan walk_vault(const IndexOptions& opts, IndexReport& report);

/// Throws Error when the vault the scan walked is not in place any more: its
/// folder gone or another folder at its path, or most of its files vanished
/// since the walk (the notes skipped as unreadable that no longer exist).
/// A run checks it before its commit, so a rebuild whose vault was moved
/// away mid-run keeps the old generation instead of switching to a few notes.
void check_vault_in_place(const VaultScan& scan, const IndexReport& report);

/// The content hash of a file (hex), as a note's STATE keeps it.
std::string content_hash(std::string_view content);

/// The same of bytes given in pieces.
class ContentHash {
 public:
  ContentHash();
  ~ContentHash();
  ContentHash(const ContentHash&) = delete;
  ContentHash& operator=(const ContentHash&) = delete;
  void add(std::string_view bytes);
  std::string hex() const;

 private:
  void* m_state;  // XXH3_state_t
};

}  // namespace sagasu
