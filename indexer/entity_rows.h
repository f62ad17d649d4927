// What entity resolution reads of every note, as rows of integers: each
// string a note uses (titles, names, kind words, markers, ...) is an id into
// one table, and each note's fields are runs of ids in columns. The rows of a
// run are kept beside the index (encode(), read()), so the next run reads
// them for the notes that did not change instead of every note's digest.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sagasu/stored_note.h"

namespace sagasu {

class EntityRows : public DigestFields {
 public:
  using Id = std::uint32_t;
  static constexpr Id NONE = ~Id(0);

  EntityRows();

  /// The id of a string (added if new). Its bytes must outlive the rows.
  Id id(std::string_view s);
  std::string_view text(Id i) const { return m_text[i]; }
  std::size_t strings() const { return m_text.size(); }
  /// The folded key of a string (unicode::fold_name), as an id of the keys' own table.
  Id key(Id s);
  /// A folded string's key id, added if new.
  Id key_id(std::string_view folded);
  /// A folded string's key id, or NONE when no string folds to it.
  Id find_key(std::string_view folded) const;
  std::string_view key_text(Id k) const { return m_keys[k]; }
  std::size_t keys() const { return m_keys.size(); }

  /// One note: its fields, and where its runs start in each column (a note's
  /// entries of a column run to the next note's start).
  struct Note {
    Id title = 0, structure = 0, defined = 0, defined_by = 0, text_year = 0;  // (0: "", none)
    bool bibliographic = false;
    std::uint32_t kind_words, aliases, labels, names, venues, years, hints, lists;
  };
  std::vector<Note> notes;
  std::vector<std::pair<Id, bool>> kind_words;  ///< word, declared
  std::vector<Id> aliases, names, venues, years;
  std::vector<std::pair<Id, Id>> labels;  ///< a name under a kind label (or an author), the kind
  std::vector<std::array<Id, 3>> hints;   ///< a linked name, the kind the words around it give, the words
  std::vector<Id> members;                ///< the names of every list, one list after another
  std::vector<std::uint32_t> list_ends;   ///< each list's end in members

  /// Note i's entries of a column: [first, second).
  template <class Column>
  std::pair<std::uint32_t, std::uint32_t> range(std::size_t i, std::uint32_t Note::*start,
                                                const Column& column) const {
    return {notes[i].*start,
            i + 1 < notes.size() ? notes[i + 1].*start : static_cast<std::uint32_t>(column.size())};
  }

  /// A new note, whose fields the DigestFields calls give (NoteDigest::read, tell).
  void begin();
  /// The note begun last as an empty digest (one that did not read).
  void undo();

  /// Takes the bytes of a file written in pieces, in order.
  using Sink = std::function<void(std::string_view)>;
  /// The rows of every note, each with its path (`paths[i]` for notes[i]):
  /// what read() takes, given to `out` in pieces.
  void encode(const std::vector<std::string_view>& paths, const Sink& out);
  /// Rows encode() wrote (`bytes` is kept alive by these rows): their table
  /// becomes this table (which must be new), their notes are listed with their paths
  /// to add (add_stored). False if the bytes do not read.
  bool read(std::shared_ptr<const std::string_view> bytes);
  /// The stored notes (after read()), in the order they were written, by path.
  std::size_t stored() const { return m_stored.size(); }
  std::string_view stored_path(std::size_t i) const { return m_stored[i].first; }
  /// Adds the i-th stored note as a new note.
  void add_stored(std::size_t i);

  void title(std::string_view v) override { notes.back().title = id(v); }
  void kind_word(std::string_view w, bool declared) override { kind_words.emplace_back(id(w), declared); }
  void structure(std::string_view k) override { notes.back().structure = id(k); }
  void alias(std::string_view v) override { aliases.push_back(id(v)); }
  void labelled(std::string_view name, std::string_view kind) override {
    labels.emplace_back(id(name), id(kind));
  }
  void name(std::string_view v) override { names.push_back(id(v)); }
  void venue(std::string_view v) override { venues.push_back(id(v)); }
  void year(std::string_view v) override { years.push_back(id(v)); }
  void text_year(std::string_view v) override { notes.back().text_year = id(v); }
  void bibliographic(bool v) override { notes.back().bibliographic = v; }
  void defined(std::string_view kind, std::string_view by) override;
  void hint(std::string_view name, std::string_view kind, std::string_view marker) override;
  void list() override { list_ends.push_back(static_cast<std::uint32_t>(members.size())); }
  void member(std::string_view v) override;

 private:
  std::vector<std::string_view> m_text;  // by id; id 0 is ""
  std::unordered_map<std::string_view, Id> m_ids;
  std::vector<Id> m_key_of;              // by string id; NONE: not folded yet
  std::vector<std::string_view> m_keys;  // by key id
  std::unordered_map<std::string_view, Id> m_key_ids;
  std::deque<std::string> m_folded;                 // the keys folded here (those read are views)
  std::shared_ptr<const std::string_view> m_bytes;  // what read() read
  std::vector<std::pair<std::string_view, std::string_view>> m_stored;  // path, the note's row
};

}  // namespace sagasu
