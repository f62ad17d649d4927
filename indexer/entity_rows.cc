#include "entity_rows.h"

#include "sagasu/unicode.h"

namespace sagasu {
namespace {

constexpr std::string_view ROWS_VERSION = "m1";
constexpr std::size_t TABLE_PIECE = 1 << 16;

void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

bool get_varint(std::string_view& in, std::uint64_t& v) {
  v = 0;
  for (int shift = 0; shift <= 63; shift += 7) {
    if (in.empty()) return false;
    const auto b = static_cast<unsigned char>(in.front());
    in.remove_prefix(1);
    v |= static_cast<std::uint64_t>(b & 0x7F) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

}  // namespace

EntityRows::EntityRows() {
  id("");
}

EntityRows::Id EntityRows::id(std::string_view s) {
  const auto [at, added] = m_ids.try_emplace(s, static_cast<Id>(m_text.size()));
  if (added) m_text.push_back(s);
  return at->second;
}

EntityRows::Id EntityRows::key(Id s) {
  if (m_key_of.size() <= s) m_key_of.resize(m_text.size(), NONE);
  if (m_key_of[s] == NONE) m_key_of[s] = key_id(unicode::fold_name(m_text[s]));
  return m_key_of[s];
}

EntityRows::Id EntityRows::key_id(std::string_view folded) {
  if (const Id k = find_key(folded); k != NONE) return k;
  // (A key met first here is kept in these rows' own storage.)
  const std::string_view kept = m_folded.emplace_back(folded);
  m_key_ids.emplace(kept, static_cast<Id>(m_keys.size()));
  m_keys.push_back(kept);
  return static_cast<Id>(m_keys.size() - 1);
}

EntityRows::Id EntityRows::find_key(std::string_view folded) const {
  const auto at = m_key_ids.find(folded);
  return at == m_key_ids.end() ? NONE : at->second;
}

void EntityRows::begin() {
  const auto at = [](const auto& column) { return static_cast<std::uint32_t>(column.size()); };
  notes.push_back({0, 0, 0, 0, 0, false, at(kind_words), at(aliases), at(labels), at(names), at(venues),
                   at(years), at(hints), at(list_ends)});
}

void EntityRows::undo() {
  const Note n = notes.back();
  kind_words.resize(n.kind_words), aliases.resize(n.aliases), labels.resize(n.labels);
  names.resize(n.names), venues.resize(n.venues), years.resize(n.years), hints.resize(n.hints);
  members.resize(n.lists == 0 ? 0 : list_ends[n.lists - 1]);
  list_ends.resize(n.lists);
  notes.pop_back();
  begin();
}

void EntityRows::defined(std::string_view kind, std::string_view by) {
  notes.back().defined = id(kind);
  notes.back().defined_by = id(by);
}

void EntityRows::hint(std::string_view name, std::string_view kind, std::string_view marker) {
  hints.push_back({id(name), id(kind), id(marker)});
}

void EntityRows::member(std::string_view v) {
  members.push_back(id(v));
  ++list_ends.back();
}

void EntityRows::encode(const std::vector<std::string_view>& paths, const Sink& put_out) {
  // Only the strings and keys the notes use, numbered in the order the notes
  // first use them (a note deleted or rewritten leaves none behind, and the
  // same notes give the same bytes, whatever the rows were built from). The
  // table comes first: a first pass over the rows numbers the strings, the
  // second writes each row out as it is made (the rows of 100k notes are
  // 27 MB: never held whole, as their fresh pages cost a fault each).
  std::vector<Id> string_at(m_text.size(), NONE);
  std::vector<Id> strings, keys;
  const auto use = [&](Id s) {
    if (string_at[s] != NONE) return;
    string_at[s] = static_cast<Id>(strings.size());
    strings.push_back(s);
  };
  use(0);
  std::string out;  // one note's row, or the table
  const auto row = [&](std::size_t i) {
    out.clear();
    const Note& n = notes[i];
    const auto put = [&](Id s) {
      use(s);
      put_varint(out, string_at[s]);
    };
    for (const Id s : {n.title, n.structure, n.defined, n.defined_by, n.text_year}) put(s);
    put_varint(out, n.bibliographic);
    const auto run = [&](std::uint32_t Note::*start, const auto& column, auto each) {
      const auto [from, to] = range(i, start, column);
      put_varint(out, to - from);
      for (std::uint32_t j = from; j < to; ++j) each(column[j]);
    };
    run(&Note::kind_words, kind_words, [&](const auto& w) {
      use(w.first);
      put_varint(out, std::uint64_t(string_at[w.first]) * 2 + w.second);
    });
    run(&Note::aliases, aliases, put);
    run(&Note::labels, labels, [&](const auto& l) { put(l.first), put(l.second); });
    run(&Note::names, names, put);
    run(&Note::venues, venues, put);
    run(&Note::years, years, put);
    run(&Note::hints, hints, [&](const auto& h) { put(h[0]), put(h[1]), put(h[2]); });
    const auto [from, to] = range(i, &Note::lists, list_ends);
    put_varint(out, to - from);
    for (std::uint32_t l = from; l < to; ++l) {
      const std::uint32_t begin = l == 0 ? 0 : list_ends[l - 1];
      put_varint(out, list_ends[l] - begin);
      for (std::uint32_t m = begin; m < list_ends[l]; ++m) put(members[m]);
    }
  };
  for (std::size_t i = 0; i < notes.size(); ++i) row(i);
  // (Every string's key, so that the file says the same whatever the runs before folded.)
  for (const Id s : strings) key(s);
  std::vector<Id> key_at(m_keys.size(), NONE);
  // (The table goes out a piece at a time too: its strings are megabytes.)
  const auto spill = [&] {
    if (out.size() < TABLE_PIECE) return;
    put_out(out);
    out.clear();
  };
  out = ROWS_VERSION;
  put_varint(out, strings.size());
  for (const Id s : strings) {
    put_field(out, m_text[s]);
    spill();
  }
  for (const Id s : strings) {
    const Id k = s < m_key_of.size() ? m_key_of[s] : NONE;
    if (k != NONE && key_at[k] == NONE) {
      key_at[k] = static_cast<Id>(keys.size());
      keys.push_back(k);
    }
  }
  put_varint(out, keys.size());
  for (const Id k : keys) {
    put_field(out, m_keys[k]);
    spill();
  }
  for (const Id s : strings) {
    const Id k = s < m_key_of.size() ? m_key_of[s] : NONE;
    put_varint(out, k == NONE ? 0 : std::uint64_t(key_at[k]) + 1);
    spill();
  }
  put_varint(out, notes.size());
  put_out(out);
  std::string field;
  for (std::size_t i = 0; i < notes.size(); ++i) {
    row(i);
    field.clear();
    put_field(field, paths[i]);
    put_field(field, out);
    put_out(field);
  }
}

bool EntityRows::read(std::shared_ptr<const std::string_view> bytes) {
  std::string_view in = *bytes;
  if (in.substr(0, ROWS_VERSION.size()) != ROWS_VERSION || m_text.size() != 1) return false;
  in.remove_prefix(ROWS_VERSION.size());
  std::uint64_t n = 0;
  std::string_view field;
  if (!get_varint(in, n) || n == 0 || n > in.size()) return false;
  std::vector<std::string_view> text;
  text.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    if (!get_field(in, field)) return false;
    text.push_back(field);
  }
  if (!text[0].empty() || !get_varint(in, n) || n > in.size()) return false;
  std::vector<std::string_view> keys;
  keys.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    if (!get_field(in, field)) return false;
    keys.push_back(field);
  }
  std::vector<Id> key_of(text.size(), NONE);
  for (Id& k : key_of) {
    if (!get_varint(in, n) || n > keys.size()) return false;
    k = n == 0 ? NONE : static_cast<Id>(n - 1);
  }
  if (!get_varint(in, n) || n > in.size()) return false;
  std::vector<std::pair<std::string_view, std::string_view>> stored;
  stored.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    std::string_view path, row;
    if (!get_field(in, path) || !get_field(in, row)) return false;
    stored.emplace_back(path, row);
  }
  if (!in.empty()) return false;
  m_ids.clear();
  m_ids.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i)
    if (!m_ids.try_emplace(text[i], static_cast<Id>(i)).second) return false;  // (a string twice)
  m_key_ids.clear();
  m_key_ids.reserve(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (!m_key_ids.try_emplace(keys[i], static_cast<Id>(i)).second) return false;
  m_text = std::move(text);
  m_keys = std::move(keys);
  m_key_of = std::move(key_of);
  m_stored = std::move(stored);
  m_bytes = std::move(bytes);
  return true;
}

void EntityRows::add_stored(std::size_t i) {
  begin();
  std::string_view in = m_stored[i].second;
  Note& n = notes.back();
  std::uint64_t v = 0;
  bool ok = true;
  const auto get = [&]() -> Id {
    if (!get_varint(in, v) || v >= m_text.size()) ok = false;
    return ok ? static_cast<Id>(v) : 0;
  };
  const auto count = [&]() -> std::uint64_t {
    if (!get_varint(in, v) || v > in.size()) ok = false;
    return ok ? v : 0;
  };
  n.title = get(), n.structure = get(), n.defined = get(), n.defined_by = get(), n.text_year = get();
  n.bibliographic = count() != 0;
  for (std::uint64_t c = count(); ok && c > 0; --c) {
    if (!get_varint(in, v) || v / 2 >= m_text.size()) ok = false;
    if (ok) kind_words.emplace_back(static_cast<Id>(v / 2), v % 2 != 0);
  }
  for (std::uint64_t c = count(); ok && c > 0; --c) aliases.push_back(get());
  for (std::uint64_t c = count(); ok && c > 0; --c) {
    const Id name = get();
    labels.emplace_back(name, get());
  }
  for (auto* column : {&names, &venues, &years})
    for (std::uint64_t c = count(); ok && c > 0; --c) column->push_back(get());
  for (std::uint64_t c = count(); ok && c > 0; --c) {
    const Id name = get(), kind = get();
    hints.push_back({name, kind, get()});
  }
  for (std::uint64_t c = count(); ok && c > 0; --c) {
    list();
    for (std::uint64_t m = count(); ok && m > 0; --m) {
      members.push_back(get());
      ++list_ends.back();
    }
  }
  if (!ok || !in.empty()) undo();  // (what encode() wrote always reads)
}

}  // namespace sagasu
