#include "sagasu/facet_columns.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <unordered_map>

#include "sagasu/error.h"
#include "sagasu/schema.h"

namespace fs = std::filesystem;

namespace sagasu {
namespace {

constexpr std::string_view MAGIC{"SGFC1\0\0\0", 8};
constexpr std::size_t HEADER = 8 + 8 + 4 + 4;

void put32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
}
void put64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
}
std::uint64_t get(const unsigned char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// The revision an existing file describes (0 when there is none or it is not one).
Xapian::rev revision_of(const fs::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  unsigned char head[16];
  const bool ok = ::read(fd, head, sizeof head) == static_cast<ssize_t>(sizeof head);
  ::close(fd);
  if (!ok || std::memcmp(head, MAGIC.data(), MAGIC.size()) != 0) return 0;
  return static_cast<Xapian::rev>(get(head + 8, 8));
}

// One facet's column as bytes: slot, values, document offsets and ordinals.
void append_column(const Xapian::Database& db, Xapian::valueno slot, std::uint32_t limit, std::string& out) {
  std::unordered_map<std::string, std::uint32_t> ordinal_of;
  std::vector<std::string> values;
  std::vector<std::uint32_t> doc_offsets(limit + 1, 0), ordinals;
  Xapian::docid next = 0;  // documents below have their offsets
  for (auto v = db.valuestream_begin(slot); v != db.valuestream_end(slot); ++v) {
    const Xapian::docid did = v.get_docid();
    for (; next <= did; ++next) doc_offsets[next] = static_cast<std::uint32_t>(ordinals.size());
    for (auto& value : schema::unpack_values(*v)) {
      auto [it, fresh] = ordinal_of.try_emplace(value, static_cast<std::uint32_t>(values.size()));
      if (fresh) values.push_back(std::move(value));
      ordinals.push_back(it->second);
    }
  }
  for (; next <= limit; ++next) doc_offsets[next] = static_cast<std::uint32_t>(ordinals.size());
  std::string blob;
  std::vector<std::uint32_t> value_offsets{0};
  for (const auto& v : values) {
    blob += v;
    value_offsets.push_back(static_cast<std::uint32_t>(blob.size()));
  }
  const std::size_t unpadded = blob.size();
  blob.resize((blob.size() + 3) / 4 * 4, '\0');
  put32(out, slot);
  put32(out, static_cast<std::uint32_t>(values.size()));
  put32(out, static_cast<std::uint32_t>(unpadded));
  for (auto o : value_offsets) put32(out, o);
  out += blob;
  for (auto o : doc_offsets) put32(out, o);
  for (auto o : ordinals) put32(out, o);
}

// Durable replacement: a temporary file, fsync, rename.
void replace(const fs::path& file, const std::string& bytes) {
  const fs::path tmp = file.string() + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(fmt::format("{}: cannot write: {}", tmp.string(), std::strerror(errno)));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  const bool ok = done == bytes.size() && ::fsync(fd) == 0;
  const int err = errno;
  ::close(fd);
  if (!ok || ::rename(tmp.c_str(), file.c_str()) != 0) {
    ::unlink(tmp.c_str());
    throw Error(fmt::format("{}: cannot write: {}", file.string(), std::strerror(ok ? errno : err)));
  }
}

}  // namespace

void FacetColumns::write(const Xapian::Database& db, const std::string& folder) {
  const fs::path file = fs::path(folder) / FACET_COLUMNS_FILE;
  const Xapian::rev revision = db.get_revision();
  if (revision_of(file) == revision && revision != 0) return;
  const std::uint32_t limit = db.get_lastdocid() + 1;
  std::string out(MAGIC);
  put64(out, revision);
  put32(out, limit);
  std::uint32_t facets = 0;
  for (const auto& f : schema::FIELDS) facets += f.is_facet();
  put32(out, facets);
  for (const auto& f : schema::FIELDS)
    if (f.is_facet()) append_column(db, static_cast<Xapian::valueno>(f.facet_slot), limit, out);
  replace(file, out);
}

std::shared_ptr<const FacetColumns> FacetColumns::open(const std::string& folder,
                                                       const Xapian::Database& db) {
  const fs::path file = fs::path(folder) / FACET_COLUMNS_FILE;
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  struct stat st {};
  std::shared_ptr<FacetColumns> columns(new FacetColumns());
  if (::fstat(fd, &st) == 0 && st.st_size >= static_cast<off_t>(HEADER)) {
    void* map = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
    if (map != MAP_FAILED) {
      columns->m_map = map;
      columns->m_size = static_cast<std::size_t>(st.st_size);
    }
  }
  ::close(fd);
  if (!columns->m_map) return nullptr;
  const auto* p = static_cast<const unsigned char*>(columns->m_map);
  if (std::memcmp(p, MAGIC.data(), MAGIC.size()) != 0 || get(p + 8, 8) != db.get_revision() ||
      get(p + 16, 4) != db.get_lastdocid() + 1 || !columns->parse())
    return nullptr;
  return columns;
}

bool FacetColumns::parse() {
  const auto* base = static_cast<const unsigned char*>(m_map);
  std::size_t at = HEADER;
  auto u32 = [&](std::uint32_t& v) {
    if (at + 4 > m_size) return false;
    v = static_cast<std::uint32_t>(get(base + at, 4));
    at += 4;
    return true;
  };
  const auto limit = static_cast<std::uint32_t>(get(base + 16, 4));
  const auto facets = static_cast<std::uint32_t>(get(base + 20, 4));
  for (std::uint32_t f = 0; f < facets; ++f) {
    FacetColumn c;
    std::uint32_t slot, count, blob;
    if (!u32(slot) || !u32(count) || !u32(blob)) return false;
    if (count > m_size / 4 || at + (count + 1) * 4ull + blob > m_size) return false;
    const auto* value_offsets = reinterpret_cast<const std::uint32_t*>(base + at);
    at += (count + 1) * 4ull;
    const char* strings = reinterpret_cast<const char*>(base + at);
    for (std::uint32_t i = 0; i < count; ++i) {
      if (value_offsets[i] > value_offsets[i + 1] || value_offsets[i + 1] > blob) return false;
      c.values.emplace_back(strings + value_offsets[i], value_offsets[i + 1] - value_offsets[i]);
    }
    at += (blob + 3) / 4 * 4;
    if (at + (limit + 1) * 4ull > m_size) return false;
    c.doc_offsets = reinterpret_cast<const std::uint32_t*>(base + at);
    at += (limit + 1) * 4ull;
    const std::uint32_t total = c.doc_offsets[limit];
    if (at + total * 4ull > m_size) return false;
    c.ordinals = reinterpret_cast<const std::uint32_t*>(base + at);
    at += total * 4ull;
    for (std::uint32_t d = 0; d < limit; ++d)
      if (c.doc_offsets[d] > c.doc_offsets[d + 1]) return false;
    for (std::uint32_t k = 0; k < total; ++k)
      if (c.ordinals[k] >= count) return false;
    c.slot = slot;
    c.limit = limit;
    m_columns.push_back(std::move(c));
  }
  return at == m_size;
}

FacetColumns::~FacetColumns() {
  if (m_map) ::munmap(m_map, m_size);
}

const FacetColumn* FacetColumns::column(Xapian::valueno slot) const {
  for (const auto& c : m_columns)
    if (c.slot == slot) return &c;
  return nullptr;
}

}  // namespace sagasu
