// Files written beside the Xapian database of a generation (the facet
// columns, the word list): each starts with a magic and the database revision
// it describes, is replaced atomically, and is memory-mapped by readers, who
// use it only for that revision. The parts every such file shares.
#pragma once

#include <xapian.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace sagasu::generation_file {

/// Bytes of the header: the 8-byte magic, then the u64 revision.
inline constexpr std::size_t HEADER = 16;

/// Little-endian integers.
void put32(std::string& out, std::uint32_t v);
void put64(std::string& out, std::uint64_t v);
std::uint64_t get(const unsigned char* p, int bytes);

/// A new file's bytes: the magic (8 bytes) and the revision.
std::string header(std::string_view magic, Xapian::rev revision);

/// Does an existing file with this magic describe this revision (never revision 0)?
/// A writer leaves such a file as it is.
bool describes(const std::string& file, std::string_view magic, Xapian::rev revision);

/// Durable, atomic replacement of a file (a generation file, the index stub):
/// a temporary file, fsync, rename, fsync of the folder. Throws Error naming the file.
/// Not `synced`: atomic only, no fsync (a copy whose content is checked when read).
void replace(const std::string& file, std::string_view bytes, bool synced = true);

/// The same replacement for a file written in pieces, through a small buffer:
/// a file of many megabytes is never held whole in memory. A writer destroyed
/// before commit() removes its temporary file; the old file stays.
class Writer {
 public:
  explicit Writer(std::string file);
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  void append(std::string_view bytes);
  /// Little-endian u32s.
  void append32(const std::uint32_t* values, std::size_t count);
  void append32(std::uint32_t value) { append32(&value, 1); }
  /// Puts the file in place (as replace() does). Throws Error naming the file.
  void commit(bool synced = true);

 private:
  std::string m_file, m_tmp, m_buffer;
  int m_fd = -1;
  bool m_failed = false;
  int m_errno = 0;
  void write_out(const char* data, std::size_t size);
  void flush();
};

/// A file mapped read-only.
class Mapped {
 public:
  /// The file when it has this magic and describes exactly this revision; nullptr otherwise.
  static std::unique_ptr<Mapped> open(const std::string& file, std::string_view magic, Xapian::rev revision);
  /// The file whatever it holds; nullptr if it is empty or cannot be mapped.
  static std::unique_ptr<Mapped> open(const std::string& file);
  ~Mapped();
  Mapped(const Mapped&) = delete;
  Mapped& operator=(const Mapped&) = delete;

  const unsigned char* data() const { return static_cast<const unsigned char*>(m_map); }
  std::size_t size() const { return m_size; }

 private:
  Mapped(void* map, std::size_t size) : m_map(map), m_size(size) {}
  void* m_map;
  std::size_t m_size;
};

}  // namespace sagasu::generation_file
